"""Chance extensions: a burst of fire with a per-hit effect roll, exact, three ways.

- flat: every shot's rolls inline, with multi-cut d20 rolls (bands, not faces);
- tally: the burst as one `Tally` of a memoised one-shot sub-resolution;
- Monte Carlo: 100,000 samples of the same burst.

Prints the time of each (fresh memo per exact run) and the ratios, in one run. Target: the
tallied ROF-4 burst exact at least 100x faster than the 100,000-sample Monte Carlo.
Run: .venv/bin/python benchmarks/bench_chance.py
"""

from __future__ import annotations

from cold import best_of
from kriegsspiel.chance import Roll, Tally, exact, monte_carlo


def one_shot(to_hit: int, kill: int, pin: int):
    roll = yield Roll("d20", "to-hit", cuts=(1, to_hit, 19))
    if roll == 20 or (roll != 1 and roll > to_hit):
        return "miss"
    effect = yield Roll("d20", "effect", cuts=(kill, pin))
    return "kill" if effect <= kill else ("wound" if effect <= pin else "pinned")


def burst(rof: int, to_hit: int, kill: int, pin: int):
    tally = yield Tally(one_shot, rof, (to_hit, kill, pin), label="shot")
    return "killed" if tally["kill"] else ("wounded" if tally["wound"] else "other")


def burst_flat(rof: int, to_hit: int, kill: int, pin: int):
    worst = "other"
    for _ in range(rof):
        roll = yield Roll("d20", "to-hit", cuts=(1, to_hit, 19))
        if roll == 20 or (roll != 1 and roll > to_hit):
            continue
        effect = yield Roll("d20", "effect", cuts=(kill, pin))
        if effect <= kill:
            worst = "killed"
        elif effect <= pin and worst != "killed":
            worst = "wounded"
    return worst


def main() -> None:
    args = (4, 12, 3, 9)
    t_tally = best_of(lambda: exact(burst, *args))
    t_flat = best_of(lambda: exact(burst_flat, *args))
    t_mc = best_of(lambda: monte_carlo(burst_flat, *args, n=100_000), repeat=1)
    assert exact(burst, *args).probs == exact(burst_flat, *args).probs
    print("ROF-4 burst, d20 to-hit with naturals, per-hit effect roll")
    print(f"  exact, tally      {t_tally * 1e3:9.2f} ms  ({exact(burst, *args).leaves} leaves)")
    print(f"  exact, flat tree  {t_flat * 1e3:9.2f} ms  ({exact(burst_flat, *args).leaves} leaves)")
    print(f"  Monte Carlo 100k  {t_mc * 1e3:9.2f} ms")
    print(f"  ratio MC / tally  {t_mc / t_tally:9.0f}x  (target >= 100x)")
    print(f"  ratio flat / tally{t_flat / t_tally:9.1f}x")


if __name__ == "__main__":
    main()
