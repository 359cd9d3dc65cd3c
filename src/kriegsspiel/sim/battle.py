"""One seeded battle between two bots, and its result as plain JSON data."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from ..ai.bot import Bot
from ..ai.harness import play
from ..ai.registry import RANDOM, default_profile
from ..ai.registry import make_bot as bot_for
from ..engine import Game
from ..engine.scenario import find_scenario

__all__ = ["RANDOM", "BattleSpec", "battle_seed", "make_bot", "run_battle"]


def battle_seed(master: int, index: int) -> int:
    """The seed of battle `index` of a batch: a hash of (master seed, index), so that every
    battle is the same whatever executor or worker runs it (and seeds of neighbouring
    batches do not overlap as S+i would)."""
    digest = hashlib.sha256(f"kriegsspiel-sim:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class BattleSpec:
    """What one battle needs: scenario, its index in the batch, its seed, a profile per side
    ("random" for the random-legal bot; sides not named play `balanced`, or the random bot
    in a ruleset that has no bot of its own)."""

    scenario: str
    index: int
    seed: int
    ai: dict[str, str] = field(default_factory=dict)


def make_bot(profile: str, seed: int, ruleset: str = "quickref") -> Bot:
    return bot_for(ruleset, profile, seed)


def run_battle(spec: BattleSpec) -> dict[str, Any]:
    """Play one battle out and describe it (deterministic for a spec)."""
    game = Game(find_scenario(spec.scenario), seed=spec.seed)
    ruleset = game.scenario.ruleset
    fallback = default_profile(ruleset)
    profiles = {s: spec.ai.get(s, fallback) for s in game.sides}
    bots = {
        s: make_bot(p, spec.seed + i, ruleset) for i, (s, p) in enumerate(sorted(profiles.items()))
    }
    outcome = play(game, bots) or {}
    summary = game.rules.battle_summary(game.state)
    return {
        "index": spec.index,
        "seed": spec.seed,
        "scenario": spec.scenario,
        "profiles": profiles,
        "winner": outcome.get("winner"),
        "reason": outcome.get("reason"),
        "turns": outcome.get("turn", summary["turn"]),
        "commands": game.next_command,
        "losses": summary["losses"],
        "objectives": summary["objectives"],
    }
