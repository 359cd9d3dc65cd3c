"""One seeded battle between two bots, and its result as plain JSON data."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..ai.bot import Bot, RandomBot
from ..ai.harness import play
from ..ai.quickref_bot import QuickrefBot
from ..engine import Game
from ..engine.scenario import find_scenario
from ..rulesets.quickref.game.victory import holder

RANDOM = "random"  # the profile name that stands for the random-legal bot


def battle_seed(master: int, index: int) -> int:
    """The seed of battle `index` of a batch: a hash of (master seed, index), so that every
    battle is the same whatever executor or worker runs it (and seeds of neighbouring
    batches do not overlap as S+i would)."""
    digest = hashlib.sha256(f"kriegsspiel-sim:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class BattleSpec:
    """What one battle needs: scenario, its index in the batch, its seed, a profile per side
    ("random" for the random-legal bot; sides not named play `balanced`)."""

    scenario: str
    index: int
    seed: int
    ai: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)  # game options (name -> value)


def make_bot(profile: str, seed: int) -> Bot:
    return RandomBot(seed) if profile == RANDOM else QuickrefBot(profile)


def run_battle(spec: BattleSpec) -> dict[str, Any]:
    """Play one battle out and describe it (deterministic for a spec)."""
    game = Game(find_scenario(spec.scenario), seed=spec.seed, options=spec.options)
    profiles = {s: spec.ai.get(s, "balanced") for s in game.sides}
    bots = {s: make_bot(p, spec.seed + i) for i, (s, p) in enumerate(sorted(profiles.items()))}
    outcome = play(game, bots) or {}
    state = game.state
    losses: dict[str, dict[str, int]] = {}
    for side in game.sides:
        gone = Counter(u.type for u in state.units.values() if u.side == side and u.removed)
        losses[side] = dict(sorted(gone.items()))
    holders = {o.id: holder(game.scenario, state, o.id) for o in game.scenario.objectives}
    return {
        "index": spec.index,
        "seed": spec.seed,
        "scenario": spec.scenario,
        "profiles": profiles,
        "winner": outcome.get("winner"),
        "reason": outcome.get("reason"),
        "turns": outcome.get("turn", state.turn),
        "commands": game.next_command,
        "losses": losses,
        "objectives": holders,
    }
