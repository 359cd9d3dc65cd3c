"""How the quickref bot's vehicles weigh a destination (a part of `QuickrefBot`): the exact odds
of the best gun shot it gives next fire step against those of the shots the enemies that would
see it have (`ShotOdds`, the rules core's own numbers), with the facing that exposes least; an
enemy's one shot a turn shared among all the units it sees; guns suspected in concealing terrain
no own unit has looked into yet; nothing at stake in a move that no enemy fire step follows.
"""

from __future__ import annotations

import math
from typing import Any

from ..rulesets.quickref.game.geometry_helpers import bearing
from .shot_odds import aspect_from

SIGHT = 40.0  # inches: beyond this an enemy is not counted as seeing or being seen
SPOT = 10.0  # inches: an own unit this close to concealing terrain has looked into it (Q32)


class VehicleExchange:
    """Mixed into `QuickrefBot`, whose profile, terrain, memos and target values it uses."""

    profile: Any
    shots: Any
    _scouted: set[str]
    _enemy_types: set[str]
    _watch: dict[str, frozenset[str]]
    _exchanges: dict[tuple, tuple[float, str, float | None]]
    _enemy_key: str
    _hiding: dict[tuple, list[tuple[tuple[float, float], float]]]
    _share_memo: dict[str, tuple[tuple[str, int], ...]]

    def _scout(self, view) -> None:
        """Mark concealing terrain as looked into once an own unit came within spotting range
        of it or an enemy was seen in it; remember the enemy's vehicle types."""
        terrain = self.terrain(view)
        for e in self._known_enemies(view):
            if e.get("kind") == "vehicle":
                self._enemy_types.add(e.get("type", ""))
        for patch in terrain.concealing:
            if patch.id in self._scouted:
                continue
            if any(patch.distance((u["x"], u["y"])) <= SPOT for u in view["units"]) or any(
                patch.contains((e["x"], e["y"])) for e in view["enemies"]
            ):
                self._scouted.add(patch.id)

    def _suspects(self, view, u, pos, facing, moved) -> float:
        """Worth of the shots an enemy not yet seen could have at `u` from concealing terrain
        not yet looked into: the worst known enemy vehicle type, at the terrain's distance,
        times the profile's `suspect` probability."""
        p = self.profile
        if not p.suspect or not self._enemy_types:
            return 0.0
        total = 0.0
        for centre, d in self._hiding_places(view, pos):
            aspect = aspect_from(centre, pos, facing, self.shots.half_angle)
            total += max(
                self.shots.worth(t, u["type"], d, aspect, target_moved=moved != "none")
                for t in self._enemy_types
            )
        return p.suspect * total

    def _hiding_places(self, view, pos) -> list[tuple[tuple[float, float], float]]:
        """(centre, distance) of the concealing terrain not yet looked into that could fire on
        `pos` (memoised with the other exchange terms)."""
        key = (pos, len(self._scouted))  # the looked-into set only grows
        hit = self._hiding.get(key)
        if hit is None:
            terrain = self.terrain(view)
            hit = []
            for patch in terrain.concealing:
                if patch.id in self._scouted:
                    continue
                d = patch.distance(pos)  # 0 inside: a unit in the terrain is not fired on from it
                if 0 < d <= SIGHT and terrain.los(patch.centre, pos):
                    hit.append((patch.centre, max(d, 1.0)))
            self._hiding[key] = hit
        return hit

    def _watchers(self, view) -> dict[str, frozenset[str]]:
        """For each known enemy, the own units in its sight now: an enemy fires once a turn,
        so its threat to one of them is shared among all it sees."""
        terrain = self.terrain(view)
        mine = [u for u in view["units"] if not u.get("removed") and not u.get("transport")]
        out = {}
        for e in self._known_enemies(view):
            at = (e["x"], e["y"])
            out[e["id"]] = frozenset(
                u["id"]
                for u in mine
                if math.dist(at, (u["x"], u["y"])) <= SIGHT and terrain.los(at, (u["x"], u["y"]))
            )
        return out

    def _shares(self, uid: str) -> tuple[tuple[str, int], ...]:
        """For each known enemy, how many own units (counting `uid`) share its one shot a turn
        (memoised per decision: `_watch` is worked out once per decision)."""
        hit = self._share_memo.get(uid)
        if hit is None:
            hit = self._share_memo[uid] = tuple(
                sorted((e, len(ids - {uid}) + 1) for e, ids in self._watch.items())
            )
        return hit

    def _exchange(self, view, u, pos, moved: str) -> tuple[float, str, float | None]:
        """Vehicles: the worth of the best gun shot from `pos` next fire step less the worth
        of the shots the enemies that would see `pos` have at the unit (exact odds by
        `ShotOdds`), with the facing that exposes the least; (0, "", None) for others."""
        p = self.profile
        if u["kind"] != "vehicle" or not (p.kill or p.loss):
            return 0.0, "", None
        here = (u["x"], u["y"])
        shares = self._shares(u["id"])
        key = (view["turn"], view["phase"], u["type"], here, pos, moved, self._enemy_key, shares)
        key += (len(self._scouted),)
        if key in self._exchanges:
            return self._exchanges[key]
        terrain = self.terrain(view)
        seen = []
        for e in self._known_enemies(view):
            d = math.dist(pos, (e["x"], e["y"]))
            if d <= SIGHT and terrain.los(pos, (e["x"], e["y"])):
                seen.append((e, d))
        travel = bearing(here, pos) if math.dist(here, pos) > 1e-6 else u.get("facing", 0.0)
        facings = [travel]
        if p.face_threat:
            facings += [bearing(pos, (e["x"], e["y"])) for e, _ in seen]
        cover = terrain.cover_row(pos[0], pos[1], True)
        mine = self._value(u)
        share = dict(shares)
        by_aspect: list[dict[str, float]] = [{} for _ in seen]  # an enemy's worth per aspect
        best_threat, facing = math.inf, travel
        for f in facings:
            total = 0
            for (e, d), known in zip(seen, by_aspect, strict=True):
                aspect = aspect_from((e["x"], e["y"]), pos, f, self.shots.half_angle)
                w = known.get(aspect)
                if w is None:
                    w = known[aspect] = self.shots.worth(
                        e.get("type", ""),
                        u["type"],
                        d,
                        aspect,
                        target_moved=moved != "none",
                        cover=cover,
                    ) / share.get(e["id"], 1)
                total += w
            threat = mine * total + mine * self._suspects(view, u, pos, f, moved)
            if threat < best_threat - 1e-9:
                best_threat, facing = threat, f
        shot = max(
            (
                self.shots.worth(
                    u["type"],
                    e.get("type", ""),
                    d,
                    aspect_from(pos, (e["x"], e["y"]), e.get("facing", 0.0), self.shots.half_angle),
                    firer_moved=moved,
                    cover=terrain.cover_row(e["x"], e["y"], e.get("kind") == "vehicle"),
                )
                * self._value(e, view)
                for e, d in seen
            ),
            default=0.0,
        )
        ahead = self._fire_ahead(view)
        score = (p.kill * shot - p.loss * best_threat) * ahead
        out = (
            score,
            f"; best shot {shot:.2f}, threat {best_threat:.2f}",
            facing if p.face_threat else None,
        )
        self._exchanges[key] = out
        return out
