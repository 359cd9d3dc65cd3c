"""What a spectator (a seat with no side and no token) sees (issue 15 item 11).

- During play: the ruleset's public view (`view(state, "spectator")`: what each side has shown
  the other) and the public log; never a piece that either side hides.
- Once the game is over: everything, as the umpire sees it (the seed is revealed then too).
- With the per-game option `spectator_delay = N` (turns, 0: off): from turn N + 1 on, the
  full view and log as they stood when turn T - N began (T the turn in play), so a watcher
  follows the whole game, N turns behind, and can tell a side nothing it could use live.

The view carries `spectator: {mode, delay, as_of_turn}`; mode is `public`, `delayed` or `full`.
"""

from __future__ import annotations

import copy
import weakref
from typing import TYPE_CHECKING, Any

from .events import SPECTATOR, UMPIRE

if TYPE_CHECKING:
    from .game import Game


class TurnStarts:
    """The game folded afresh event by event, with a copy of the state at the start of each
    turn (the event count then and the state): kept up to date as the log grows; folded again
    from the start after an undo."""

    def __init__(self) -> None:
        self.state: Any = None
        self.folded = 0
        self.undone: set[int] = set()
        self.starts: dict[int, tuple[int, Any]] = {}

    def update(self, game: Game, undone: set[int]) -> None:
        if self.state is None or undone != self.undone:
            self.state = game.rules.initial_state(game.scenario, game.seed, game.options)
            self.folded, self.undone, self.starts = 0, set(undone), {}
        for e in game.events[self.folded :]:
            if e.command not in undone:
                game._take(self.state, e)
            self.folded += 1
            turn = getattr(self.state, "turn", None)
            if isinstance(turn, int) and turn not in self.starts:
                self.starts[turn] = (self.folded, copy.deepcopy(self.state))


def turn_of(game: Game) -> int | None:
    turn = getattr(game.state, "turn", None)
    return turn if isinstance(turn, int) else None


def spectator_view(game: Game, undone: set[int]) -> dict[str, Any]:
    """The spectator's view without its log (`spectator_log` goes with it)."""
    delay = game.engine_options.spectator_delay
    over = game.outcome is not None
    turn = turn_of(game)
    if over:
        out = game.rules.view(game.state, UMPIRE)
        mode, as_of = "full", turn
    elif delay and turn is not None and turn > delay:
        starts = _starts(game, undone)
        as_of = turn - delay
        _, state = starts.starts.get(as_of, (None, None))
        if state is None:  # the ruleset has no turn count in its state: public only
            out, mode, as_of = game.rules.view(game.state, SPECTATOR), "public", turn
        else:
            out, mode = game.rules.view(state, UMPIRE), "delayed"
            out["active"] = []
    else:
        out, mode, as_of = game.rules.view(game.state, SPECTATOR), "public", turn
    out["you"] = SPECTATOR
    out["legal"] = []
    out["spectator"] = {"mode": mode, "delay": delay, "as_of_turn": as_of, "turn": turn}
    return out


def spectator_log_cut(game: Game, undone: set[int]) -> tuple[str, int | None]:
    """Whose log the spectator reads (`spectator`, or the umpire's once the game is over or
    delayed) and, for a delayed view, how many events of it (None: all)."""
    delay = game.engine_options.spectator_delay
    turn = turn_of(game)
    if game.outcome is not None:
        return UMPIRE, None
    if delay and turn is not None and turn > delay:
        hit = _starts(game, undone).starts.get(turn - delay)
        if hit is not None:
            return UMPIRE, hit[0]
    return SPECTATOR, None


def spectator_log(game: Game, undone: set[int]) -> list[tuple[int, int, dict[str, Any], str]]:
    """The spectator's log entries (true index, command, entry, entry as JSON)."""
    seat, cut = spectator_log_cut(game, undone)
    entries = game.seat_log(seat).live(undone)
    return entries if cut is None else [t for t in entries if t[0] < cut]


_STARTS: weakref.WeakKeyDictionary[Game, TurnStarts] = weakref.WeakKeyDictionary()


def _starts(game: Game, undone: set[int]) -> TurnStarts:
    starts = _STARTS.get(game)
    if starts is None:
        starts = _STARTS[game] = TurnStarts()
    starts.update(game, undone)
    return starts
