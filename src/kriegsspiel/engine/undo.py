"""Honest undo (DESIGN: fair play): undo never buys a re-roll or a free look.

The game's option `undo` sets the policy:
- `consent` (default): a side undoes its own last command at once if that command rolled no dice
  and revealed nothing (no side observes an enemy piece it did not observe before); otherwise its `undo` becomes a
  request that the other side answers with `undo_accept` or `undo_decline`;
- `free`: a side undoes its own last command at once (friendly games);
- `off`: only the umpire undoes.
The umpire undoes the last command in force at any time. Every seat's log shows the undo (and
any request and refusal), naming the undone command by that seat's own number or by nothing if
the seat never saw it. Dice cannot be re-rolled either way: a command's dice depend on its place
in the line of play and its content (engine/fairplay.py), so the same command given again after
an undo rolls the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .commands import IllegalCommand
from .events import UMPIRE, Draft

if TYPE_CHECKING:
    from .game import Game

UNDO_COMMANDS = frozenset({"undo", "undo_accept", "undo_decline"})
SIGHTED = "enemies"  # the view's enemy pieces observed now (engine/envelope.py PIECES)


@dataclass(frozen=True)
class Target:
    command: int  # true command number
    author: str | None
    rolled: bool  # its dice were drawn (command or automatic follow-ups)
    first: int  # index of its first event


class UndoBook:
    """The undo flow of one game: requests, answers and the undo itself."""

    def __init__(self, game: Game):
        self.game = game

    # ----------------------------------------------------------------- queries
    def target(self) -> Target | None:
        """The last command in force that the rules resolved (not the start, not undo flow)."""
        from .game import GIVEN, undone_commands

        events = self.game.events
        undone = undone_commands(events)
        for e in reversed(events):
            if e.type != GIVEN or e.command in undone:
                continue
            if e.data["command"]["type"] in UNDO_COMMANDS:
                continue
            first = next(x.index for x in events if x.command == e.command)
            return Target(e.command, e.side, bool(e.data.get("dice")), first)
        return None

    def pending(self) -> dict[str, Any] | None:
        """The open undo request (its data), if its command is still the last in force."""
        target = self.target()
        for e in reversed(self.game.events):
            if e.type in ("undo", "undo_declined"):
                return None
            if e.type == "undo_request":
                if target is not None and e.data["command"] == target.command:
                    return dict(e.data)
                return None
        return None

    def pending_for(self, side: str) -> dict[str, Any] | None:
        """The open request as `side` may know it: who asks and whether it is theirs to answer."""
        req = self.pending()
        if req is None:
            return None
        answers = side != req["by"] and (side == UMPIRE or side in self.game.sides)
        return {"by": req["by"], "yours_to_answer": answers}

    def mine(self, side: str) -> bool:
        """Whether `side` could take back the last command in force: its own (the umpire: any)."""
        target = self.target()
        return target is not None and (side == UMPIRE or target.author == side)

    def revealed(self, target: Target) -> bool:
        """Whether after the command any side observes an enemy piece it did not before (a new
        sighting, a hidden unit seen); seen pieces moving in sight reveal nothing new."""
        game = self.game
        before = game._fold(game.events[: target.first], count=False)
        for side in game.sides:
            then, now = game.rules.view(before, side), game.rules.view(game.state, side)
            if _ids(now) - _ids(then):
                return True
        return False

    # ----------------------------------------------------------------- commands
    def command(self, side: str, kind: str) -> list:
        if kind == "undo":
            return self.undo(side)
        req = self.pending()
        if req is None:
            raise IllegalCommand("there is no undo request to answer", "type")
        if side == req["by"]:
            raise IllegalCommand("the other side answers your undo request", "type")
        if kind == "undo_accept":
            return self._undo(side, self.target(), kind)
        data = {"command": req["command"], "by": side}
        return self.game.append_engine(side, kind, [Draft("undo_declined", data)])

    def undo(self, side: str) -> list:
        target = self.target()
        if target is None:
            raise IllegalCommand("nothing to undo", "type")
        if side == UMPIRE:
            return self._undo(side, target)
        policy = self.game.engine_options.undo
        if policy == "off":
            raise IllegalCommand("undo is off in this game (option undo); ask the umpire", "type")
        if target.author != side:
            raise IllegalCommand(
                "only your own last command can be undone, before any later command", "type"
            )
        if policy == "free" or not (target.rolled or self.revealed(target)):
            return self._undo(side, target)
        if self.pending() is not None:
            raise IllegalCommand("your undo request awaits the other side's answer", "type")
        data = {"command": target.command, "by": side}
        return self.game.append_engine(side, "undo", [Draft("undo_request", data)])

    def _undo(self, side: str, target: Target | None, kind: str = "undo") -> list:
        assert target is not None
        data = {"command": target.command, "by": side}
        return self.game.append_engine(side, kind, [Draft("undo", data)])


def _ids(view: dict[str, Any]) -> set[str]:
    return {str(p.get("id")) for p in view.get(SIGHTED) or []}
