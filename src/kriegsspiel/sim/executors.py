"""Where battles run: in this process, on local worker processes (concurrent.futures) or on
a Dask cluster (dask.distributed: a LocalCluster, or a scheduler address). Results come back
ordered by battle index, so they do not depend on the executor or the number of workers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from .battle import BattleSpec, run_battle

Progress = Callable[[dict[str, Any]], None]
EXECUTORS = ("local", "dask")


def _run_local(specs: list[BattleSpec], workers: int, progress: Progress | None) -> list[dict]:
    if workers <= 1:
        out = []
        for s in specs:
            out.append(run_battle(s))
            if progress:
                progress(out[-1])
        return out
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(run_battle, s) for s in specs]):
            results.append(fut.result())
            if progress:
                progress(results[-1])
    return results


def _run_dask(
    specs: list[BattleSpec], workers: int, scheduler: str | None, progress: Progress | None
) -> list[dict]:
    from dask.distributed import Client, LocalCluster
    from dask.distributed import as_completed as dask_completed

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = client.map(run_battle, specs, pure=False)
        results = []
        for fut in dask_completed(futures):
            results.append(fut.result())
            if progress:
                progress(results[-1])
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_battles(
    specs: Iterable[BattleSpec],
    executor: str = "local",
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Run every battle on the chosen executor; results sorted by battle index."""
    specs = list(specs)
    if executor == "local":
        results = _run_local(specs, workers, progress)
    elif executor == "dask":
        results = _run_dask(specs, workers, scheduler, progress)
    else:
        raise ValueError(f"unknown executor {executor!r}; use one of {EXECUTORS}")
    return sorted(results, key=lambda r: r["index"])
