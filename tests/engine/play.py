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
