"""Check a game's whole log against its seed commitment (DESIGN: fair play).

A finished game reveals its seed. `verify` checks that the seed matches the commitment the
`start` event published, then plays the game again from nothing: a fresh game with the same
scenario, seed and options, given every recorded command (the umpire-only `given` events, undo
requests and answers included) in order. The game is honest if the replay writes the same
events, byte for byte, and folds to the same state hash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import IllegalCommand
from .fairplay import commitment
from .game import GIVEN, Game


@dataclass
class Verdict:
    ok: bool
    commitment: str
    seed: str
    commands: int = 0
    events: int = 0
    state_hash: str = ""
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment": self.commitment,
            "seed": self.seed,
            "commands": self.commands,
            "events": self.events,
            "state_hash": self.state_hash,
            "problems": list(self.problems),
        }


def verify(game: Game) -> Verdict:
    """The verdict on a game's log (the caller decides who may see it: the seed is in it)."""
    start = game.events[0].data if game.events else {}
    published = start.get("commitment", "")
    out = Verdict(False, published, str(game.seed), events=len(game.events))
    if published != commitment(game.seed):
        out.problems.append("the seed does not match the commitment published at the start")
        return out
    chosen = bool(start.get("seed_chosen"))
    fresh = Game(
        game.scenario, game.seed, game.options, game.id, (), game.rules, seed_chosen=chosen
    )
    for e in game.events:
        if e.type != GIVEN:
            continue
        out.commands += 1
        try:
            fresh.submit(e.side or "umpire", e.data["command"])
        except IllegalCommand as exc:
            out.problems.append(f"command {e.command} ({e.data['command']['type']}): {exc.reason}")
            return out
    mine = [x.to_json() for x in game.events]
    theirs = [x.to_json() for x in fresh.events]
    if mine != theirs:
        at = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
            min(len(mine), len(theirs)),
        )
        out.problems.append(f"the replay differs from the log at event {at}")
        return out
    out.state_hash = fresh.state_hash()
    if out.state_hash != game.state_hash():
        out.problems.append("the replay's state hash differs from the game's")
        return out
    out.ok = True
    return out
