"""A random-legal player for tests: picks among the legal command templates and fills them in."""

from __future__ import annotations

import math
import random

from kriegsspiel.engine import Game, IllegalCommand

TEMPLATE_ONLY = ("max", "withdraw_only", "infantry", "target_hint")


def fill(game: Game, cmd: dict, rng: random.Random) -> dict:
    c = {k: v for k, v in cmd.items() if k not in TEMPLATE_ONLY}
    if c["type"] == "move":
        u = game.state.units[c["unit"]]
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0, cmd["max"])
        w, h = game.scenario.table.width, game.scenario.table.depth
        c["path"] = [[min(max(u.x + d * math.sin(a), 0), w), min(max(u.y + d * math.cos(a), 0), h)]]
    return c


def random_play(game: Game, rng: random.Random, max_commands: int = 4000, on_step=None) -> int:
    """Play until the game ends; returns the number of commands given."""
    n = 0
    while game.outcome is None and n < max_commands:
        side = game.rules.active_sides(game.state)[0]
        cmd = fill(game, rng.choice(game.legal_commands(side)), rng)
        try:
            game.submit(side, cmd)
        except IllegalCommand as exc:
            # a legal template must be accepted as given; only random move paths may fail
            assert cmd["type"] == "move", (cmd, exc.reason)
            game.submit(side, {"type": "end_phase"})
        n += 1
        if on_step:
            on_step(game)
    return n


def toward(game: Game, unit_id: str, goal: tuple[float, float], dist: float) -> list[list[float]]:
    u = game.state.units[unit_id]
    dx, dy = goal[0] - u.x, goal[1] - u.y
    norm = math.hypot(dx, dy)
    if norm < 0.5:
        return [[u.x, u.y]]
    step = min(dist, norm)
    return [[u.x + dx / norm * step, u.y + dy / norm * step]]


def scripted_play(game: Game, max_commands: int = 5000) -> int:
    """A fixed, dice-independent plan: call fire on, then shoot, the first target in the legal
    list; advance straight on the first objective (shorter steps if terrain forbids the full
    one); assault whatever is in contact; side A is always the initiative winner."""
    goal = (game.scenario.objectives[0].x, game.scenario.objectives[0].y)
    n = 0
    while game.outcome is None and n < max_commands:
        side = game.rules.active_sides(game.state)[0]
        legal = game.legal_commands(side)
        pick = None
        for kind in ("initiative", "call_fire", "assault", "fire"):
            options = [c for c in legal if c["type"] == kind]
            if options:
                pick = {k: v for k, v in options[0].items() if k not in TEMPLATE_ONLY}
                if kind == "initiative":
                    pick["side_a"] = side
                break
        moves = [c for c in legal if c["type"] == "move"]
        if pick is None and moves:
            for c in moves:
                for frac in (1.0, 0.5, 0.25):
                    cmd = {
                        "type": "move",
                        "unit": c["unit"],
                        "path": toward(game, c["unit"], goal, c["max"] * frac),
                    }
                    try:
                        game.submit(side, cmd)
                        n += 1
                        break
                    except IllegalCommand:
                        continue
            pick = {"type": "end_phase"}
        game.submit(side, pick or {"type": "end_phase"})
        n += 1
    return n
