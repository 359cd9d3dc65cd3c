"""One seeded battle between two bots, and its result as plain JSON data."""

from __future__ import annotations

import ctypes
import functools
import gc
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..ai.harness import play
from ..ai.registry import RANDOM, default_profile, make_bot
from ..engine import Game
from ..engine.scenario import find_scenario

__all__ = ["RANDOM", "BattleSpec", "battle_seed", "run_battle"]


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
    options: dict[str, str] = field(default_factory=dict)  # game options (name -> value)


# the cyclic collector's youngest-generation threshold during a battle (Python's default: 700)
BATTLE_GC_THRESHOLD = 20_000
# glibc's mallopt parameters, and the values a process that plays battles sets: a free top of
# the heap kept up to 256 MiB, blocks up to 32 MiB (glibc's documented most) served by the heap
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
KEPT_HEAP, HEAP_BLOCKS = 256 * 2**20, 32 * 2**20  # bytes


@functools.cache
def _keep_heap() -> bool:
    """Keep the memory a battle's arrays took for the next ones: by default glibc serves large
    blocks (the bots' numpy arrays) by fresh mappings and trims the heap's top as soon as it
    is free, so every battle faults the same pages in again (twice a battle's page faults
    otherwise, and the zeroed pages push what the engine reads next out of the caches). Once
    per process; False where the C library is not glibc (nothing changes there)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(
            libc.mallopt(M_TRIM_THRESHOLD, KEPT_HEAP)
            and libc.mallopt(M_MMAP_THRESHOLD, HEAP_BLOCKS)
        )
    except (OSError, AttributeError):
        return False


@contextmanager
def _battle_gc() -> Iterator[None]:
    """The cyclic garbage collector tuned for one battle: what the process held before it
    (modules, rules data, process-wide memos) is frozen out of the collector's walks, and the
    youngest generation is collected less often (a battle makes many short-lived objects and
    few cycles); both are restored afterwards (measured by benchmarks/bench_sim.py)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BATTLE_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def run_battle(spec: BattleSpec) -> dict[str, Any]:
    """Play one battle out and describe it (deterministic for a spec)."""
    _keep_heap()
    with _battle_gc():
        return _run_battle(spec)


def _run_battle(spec: BattleSpec) -> dict[str, Any]:
    game = Game(find_scenario(spec.scenario), seed=spec.seed, options=spec.options)
    ruleset = game.scenario.ruleset
    fallback = default_profile(ruleset)
    profiles = {s: spec.ai.get(s, fallback) for s in game.sides}
    bots = {
        s: make_bot(ruleset, p, spec.seed + i) for i, (s, p) in enumerate(sorted(profiles.items()))
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
