"""Batch battles between bots: seeded battle runner, executors (local processes, Dask), stats
and report."""

from .battle import BattleSpec, battle_seed, run_battle
from .executors import run_battles
from .stats import summarize

__all__ = ["BattleSpec", "battle_seed", "run_battle", "run_battles", "summarize"]
