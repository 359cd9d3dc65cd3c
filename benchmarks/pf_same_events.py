"""Digests of seeded random-bot Panzerfaust battles, to show that a speed-up plays the same
battles (issue 19): run it before and after a change and compare the two outputs.

    PYTHONHASHSEED=0 PYTHONPATH=src .venv/bin/python benchmarks/pf_same_events.py [N] > a.json

Per battle (N per shipped scenario, default 6): the number of events, a digest of the event
log, and a digest of the log plus each side's final view (the view lists some sets, whose
order follows Python's string hashing: hence PYTHONHASHSEED=0 for that column). Not a test:
any rules change changes the digests, so pinning them would fail every other change.
"""

from __future__ import annotations

import hashlib
import json
import sys

import yaml

from kriegsspiel.ai.harness import play
from kriegsspiel.ai.registry import make_bot
from kriegsspiel.engine import Game, registry
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.sim import battle_seed


def digests(n: int) -> dict[str, tuple[int, str, str]]:
    out = {}
    for path in sorted(registry.entry("panzerfaust").scenarios.glob("*.yaml")):
        sides = [s["id"] for s in yaml.safe_load(path.read_text())["sides"]]
        for i in range(n):
            seed = battle_seed(7, i)
            game = Game(find_scenario(str(path)), seed=seed)
            bots = {
                s: make_bot("panzerfaust", "random", seed + k) for k, s in enumerate(sorted(sides))
            }
            play(game, bots)
            h = hashlib.sha256()
            for e in game.events:
                h.update(json.dumps(e.to_json(), sort_keys=True, default=str).encode())
            events = h.hexdigest()[:16]
            for s in sides:
                h.update(
                    json.dumps(game.rules.view(game.state, s), sort_keys=True, default=str).encode()
                )
            out[f"{path.stem}-{i}"] = (len(game.events), events, h.hexdigest()[:16])
    return out


if __name__ == "__main__":
    json.dump(digests(int(sys.argv[1]) if len(sys.argv) > 1 else 6), sys.stdout, indent=1)
    print()
