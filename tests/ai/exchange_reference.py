"""The bot's exchange of shots worked out one destination and one facing at a time, with plain
Python: the oracle that the batched numpy form in `kriegsspiel.ai.quickref.exchange` is checked against
(and the form it replaced)."""

from __future__ import annotations

import math

from kriegsspiel.ai.quickref.exchange import SIGHT
from kriegsspiel.ai.quickref.shot_odds import aspect_from
from kriegsspiel.rulesets.quickref.game.geometry_helpers import bearing


def suspects(bot, view, u, pos, facing, moved) -> float:
    """Worth of unseen guns' shots from terrain not looked into, at one facing."""
    p, shots = bot.profile, bot.shots
    if not p.suspect or not bot._enemy_types:
        return 0.0
    total = 0.0
    for centre, d in hiding_places(bot, view, pos):
        aspect = aspect_from(centre, pos, facing, shots.half_angle)
        total += max(
            shots.worth(t, u["type"], d, aspect, target_moved=moved != "none")
            for t in bot._enemy_types
        )
    return p.suspect * total


def hiding_places(bot, view, pos) -> list[tuple[tuple[float, float], float]]:
    """(centre, distance) of concealing terrain not yet looked into that could fire on pos."""
    terrain, out = bot.terrain(view), []
    for patch in terrain.concealing:
        if patch.id in bot._scouted:
            continue
        d = patch.distance(pos)
        if 0 < d <= SIGHT and terrain.los(patch.centre, pos):
            out.append((patch.centre, max(d, 1.0)))
    return out


def exchange(bot, view, u, pos, moved: str) -> tuple[float, float, float, float]:
    """(score, best shot, least threat, facing) at one destination."""
    p, shots, terrain = bot.profile, bot.shots, bot.terrain(view)
    here = (u["x"], u["y"])
    seen = []
    for e in bot._known_enemies(view):
        d = math.dist(pos, (e["x"], e["y"]))
        if d <= SIGHT and terrain.los(pos, (e["x"], e["y"])):
            seen.append((e, d))
    travel = bearing(here, pos) if math.dist(here, pos) > 1e-6 else u.get("facing", 0.0)
    facings = [travel] + [bearing(pos, (e["x"], e["y"])) for e, _ in seen]
    cover = terrain.cover_row(pos[0], pos[1], True)
    mine, share = bot._value(u), bot._shares(view, u["id"])
    best, facing = math.inf, travel
    for f in facings:
        total = 0.0
        for e, d in seen:
            aspect = aspect_from((e["x"], e["y"]), pos, f, shots.half_angle)
            total += shots.worth(
                e["type"], u["type"], d, aspect, target_moved=moved != "none", cover=cover
            ) / share.get(e["id"], 1)
        threat = mine * total + mine * suspects(bot, view, u, pos, f, moved)
        if threat < best - 1e-9:
            best, facing = threat, f
    shot = max(
        (
            shots.worth(
                u["type"],
                e["type"],
                d,
                aspect_from(pos, (e["x"], e["y"]), e.get("facing", 0.0), shots.half_angle),
                firer_moved=moved,
                cover=terrain.cover_row(e["x"], e["y"], e.get("kind") == "vehicle"),
            )
            * bot._value(e, view)
            for e, d in seen
        ),
        default=0.0,
    )
    return (p.kill * shot - p.loss * best) * bot._fire_ahead(view), shot, best, facing
