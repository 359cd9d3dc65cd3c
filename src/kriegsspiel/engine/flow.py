"""Turn-flow helpers every ruleset's turn loop is built from (docs/engine.md, "Flow helpers").

Each helper is plain data that lives in a ruleset's state, changes only when an event is folded,
and turns to JSON and back (`to_json` / `from_json`), so replay and undo rebuild it exactly:

- `PhaseCycle`: phases as data (id, title, who acts, automatic or not), in turn order.
- `ActivationQueue`: alternating activations, the side with more pieces to activate taking
  several in a row (Panzerfaust phase F, platoons move alternately, p.6).
- `CardDeck`: a deck shuffled from the game's dice and drawn card by card (Battleground's
  action phase, one card per unit or group, reshuffled each turn).
- `SealedOrders`: orders both sides write in secret and that are revealed together
  (Panzerfaust phase A artillery orders, Battleground's Special Fire marking).
- `ResultBuffer`: results that land together at the end of a step, so that a piece destroyed
  in the step still acts in it (Panzerfaust phase G simultaneous fire at equal FO and class).
- `ReactionPrompt`: while one side's action is in progress, the other side is asked whether to
  react (Battleground Op-Fire and Ambush, Panzerfaust covering fire), with a deterministic
  default answer and an optional deadline, asked at every eligible moment whether or not the
  reacting side has anything to react with, so waiting tells the actor nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .events import Draft

# ---------------------------------------------------------------------------------- phases


@dataclass(frozen=True)
class Phase:
    """One phase of a turn: `actors` is "all" (every side gives commands and ends its part),
    "active" (the side(s) the ruleset names: initiative, activation queue, card), or "none"
    (the rules run it by themselves: `automatic`)."""

    id: str
    title: str
    actors: str = "all"
    automatic: bool = False

    def __post_init__(self) -> None:
        if self.actors not in ("all", "active", "none"):
            raise ValueError(f"phase {self.id!r}: actors must be all, active or none")


class PhaseCycle:
    """The phases of a turn in order; after the last comes the first of the next turn."""

    def __init__(self, phases: list[Phase]):
        if not phases:
            raise ValueError("a turn needs at least one phase")
        ids = [p.id for p in phases]
        if len(set(ids)) != len(ids):
            raise ValueError(f"phase ids must be unique: {ids}")
        self.phases = tuple(phases)
        self.by_id = {p.id: p for p in phases}

    @property
    def first(self) -> Phase:
        return self.phases[0]

    def __getitem__(self, phase_id: str) -> Phase:
        try:
            return self.by_id[phase_id]
        except KeyError:
            raise LookupError(
                f"unknown phase {phase_id!r}; phases are {list(self.by_id)}"
            ) from None

    def after(self, phase_id: str, turn: int) -> tuple[Phase, int]:
        """The phase after `phase_id` and the turn it belongs to."""
        i = self.phases.index(self[phase_id])
        if i + 1 < len(self.phases):
            return self.phases[i + 1], turn
        return self.phases[0], turn + 1


# ----------------------------------------------------------------------------- activations


@dataclass
class ActivationQueue:
    """Alternating activations with ratios.

    `remaining` counts each side's pieces (or platoons) still to activate. The side to act
    activates `bursts[side]` pieces in a row before the other side's turn: the ratio of its
    count to the largest other count when the queue started (rounded down, at least 1), so a
    side with twice the platoons moves two for each of the other's. When one side has nothing
    left the others activate the rest. (Panzerfaust's ratio thresholds were
    lost in the seed, research/panzerfaust-rules.md §2 F: `ratio` is that rule's hook.)"""

    order: list[str]
    remaining: dict[str, int]
    bursts: dict[str, int]
    current: str | None = None
    left_in_spell: int = 0

    @classmethod
    def start(cls, first: str, counts: dict[str, int], ratio: bool = True) -> ActivationQueue:
        if first not in counts:
            raise ValueError(f"{first!r} is not one of the sides {sorted(counts)}")
        order = [first] + [s for s in counts if s != first]
        bursts = {}
        for s, n in counts.items():
            theirs = max((m for t, m in counts.items() if t != s), default=0)
            bursts[s] = max(1, n // theirs) if (ratio and theirs) else 1
        q = cls(order, dict(counts), bursts)
        q._begin(first)
        return q

    def _others(self, side: str) -> int:
        return max((n for s, n in self.remaining.items() if s != side), default=0)

    def _begin(self, side: str) -> None:
        if self.remaining.get(side, 0) <= 0:
            side = next((s for s in self.order if self.remaining[s] > 0), None)
        self.current = side
        if side is None:
            self.left_in_spell = 0
            return
        mine, theirs = self.remaining[side], self._others(side)
        self.left_in_spell = mine if theirs == 0 else min(self.bursts[side], mine)

    @property
    def done(self) -> bool:
        return self.current is None

    def to_act(self) -> str | None:
        """The side whose piece activates next (None when every piece has)."""
        return self.current

    def activated(self, side: str) -> None:
        """Fold one activation by `side` (raises ValueError if it was not its turn)."""
        if side != self.current:
            raise ValueError(f"it is {self.current!r}'s activation, not {side!r}'s")
        self.remaining[side] -= 1
        self.left_in_spell -= 1
        if self.left_in_spell > 0 and self.remaining[side] > 0:
            return
        i = self.order.index(side)
        nxt = self.order[(i + 1) % len(self.order)]
        self._begin(nxt)

    def withdraw(self, side: str, n: int = 1) -> None:
        """A side loses `n` pieces it had still to activate (destroyed, broken)."""
        self.remaining[side] = max(0, self.remaining[side] - n)
        if self.current == side and self.remaining[side] == 0:
            i = self.order.index(side)
            self._begin(self.order[(i + 1) % len(self.order)])
        elif self.current is not None and self.current != side:
            # the spell keeps its length, bounded by what is left
            self.left_in_spell = min(self.left_in_spell, self.remaining[self.current])

    def to_json(self) -> dict[str, Any]:
        return {
            "order": list(self.order),
            "remaining": dict(self.remaining),
            "bursts": dict(self.bursts),
            "current": self.current,
            "left_in_spell": self.left_in_spell,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ActivationQueue:
        return cls(
            list(d["order"]),
            dict(d["remaining"]),
            dict(d["bursts"]),
            d["current"],
            d["left_in_spell"],
        )


# ------------------------------------------------------------------------------ card deck


@dataclass
class CardDeck:
    """A deck of cards, each naming a side and what it activates (a unit, a group).

    `shuffle_draft` shuffles with the command's dice and returns the umpire-only event that
    records the order (so replay needs no dice and the players do not learn the order);
    `draw` takes the top card. A card is any JSON object with a `side`."""

    cards: list[dict[str, Any]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    drawn: int = 0

    @staticmethod
    def shuffle_order(n: int, rng: random.Random) -> list[int]:
        order = list(range(n))
        rng.shuffle(order)
        return order

    def shuffle_draft(self, rng: random.Random, event: str = "deck_shuffled") -> Draft:
        """The event of a new shuffle of every card (visible to the umpire only)."""
        return Draft(event, {"order": self.shuffle_order(len(self.cards), rng)}, visible_to=())

    def shuffled(self, order: list[int]) -> None:
        """Fold a shuffle."""
        if sorted(order) != list(range(len(self.cards))):
            raise ValueError("a shuffle must order every card once")
        self.order = list(order)
        self.drawn = 0

    @property
    def left(self) -> int:
        return len(self.order) - self.drawn

    def peek(self) -> dict[str, Any] | None:
        """The next card (for the rules: never put it in a player's view)."""
        return self.cards[self.order[self.drawn]] if self.left else None

    def draw(self) -> dict[str, Any]:
        """Fold a draw: the top card, now public."""
        if not self.left:
            raise ValueError("the deck is empty")
        card = self.cards[self.order[self.drawn]]
        self.drawn += 1
        return card

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "order": list(self.order), "drawn": self.drawn}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CardDeck:
        return cls(list(d["cards"]), list(d["order"]), d["drawn"])


# ---------------------------------------------------------------------------- sealed orders


@dataclass
class SealedOrders:
    """Orders each side writes in secret, revealed together once every side has written.

    `write_draft` is the event of one side's orders (visible to that side only); once the last
    side has written, `reveal_draft` is the public event that shows them all. A side may
    rewrite its orders until the reveal."""

    sides: list[str]
    written: dict[str, Any] = field(default_factory=dict)
    revealed: bool = False

    def write_draft(self, side: str, orders: Any, event: str = "orders_written") -> Draft:
        if side not in self.sides:
            raise ValueError(f"{side!r} does not write orders here")
        if self.revealed:
            raise ValueError("the orders are already revealed")
        return Draft(event, {"side": side, "orders": orders}, visible_to=(side,))

    def write(self, side: str, orders: Any) -> None:
        """Fold a side's orders."""
        self.written[side] = orders

    @property
    def complete(self) -> bool:
        return all(s in self.written for s in self.sides)

    def waiting_for(self) -> list[str]:
        return [s for s in self.sides if s not in self.written]

    def reveal_draft(self, event: str = "orders_revealed") -> Draft:
        if not self.complete:
            raise ValueError(f"still waiting for {self.waiting_for()}")
        return Draft(event, {"orders": {s: self.written[s] for s in self.sides}})

    def reveal(self) -> dict[str, Any]:
        """Fold the reveal; every side's orders."""
        self.revealed = True
        return dict(self.written)

    def seen_by(self, side: str) -> dict[str, Any]:
        """What `side` may know of the orders: its own until the reveal, all after."""
        if self.revealed:
            return dict(self.written)
        return {side: self.written[side]} if side in self.written else {}

    def to_json(self) -> dict[str, Any]:
        return {"sides": list(self.sides), "written": dict(self.written), "revealed": self.revealed}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SealedOrders:
        return cls(list(d["sides"]), dict(d["written"]), d["revealed"])


# ---------------------------------------------------------------------------- result buffer


@dataclass
class ResultBuffer:
    """Results of a step held back to land together at its end.

    A result is a JSON object with a `target` (and whatever the rules need); `pending(target)`
    tells the rules what is already due to a piece, and `flush` hands every result back in the
    order they were added (ties broken by that order, so it is deterministic), emptying the
    buffer."""

    results: list[dict[str, Any]] = field(default_factory=list)

    def add(self, result: dict[str, Any]) -> None:
        if "target" not in result:
            raise ValueError("a buffered result names its target")
        self.results.append(dict(result))

    def pending(self, target: str) -> list[dict[str, Any]]:
        return [r for r in self.results if r["target"] == target]

    def __len__(self) -> int:
        return len(self.results)

    def flush(self) -> list[dict[str, Any]]:
        out, self.results = self.results, []
        return out

    def to_json(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.results]

    @classmethod
    def from_json(cls, d: list[dict[str, Any]]) -> ResultBuffer:
        return cls([dict(r) for r in d])


# --------------------------------------------------------------------------- reaction prompt


@dataclass
class ReactionPrompt:
    """A question put to one side while another side's action is in progress.

    `actor` is acting, `side` is asked; `action` is what is in progress as the asked side may
    see it (the rules decide; an action it cannot observe is described as `{}`); `options` are
    the asked side's legal answers, always including `default` (the deterministic answer the
    engine gives when the side does not answer: at the deadline, or at once for a side
    nobody plays); `deadline_s` is how long a face may wait for a human, or None.

    The rules open a prompt at *every* moment that could allow a reaction, whether or not the
    asked side has anything able to react: the acting side then sees the same pause every
    time, and learns nothing from it (research/battleground.md §2-3, Op-Fire)."""

    actor: str
    side: str
    action: dict[str, Any]
    default: dict[str, Any] = field(default_factory=lambda: {"type": "decline"})
    deadline_s: float | None = None
    kind: str = "reaction"

    def for_side(self, side: str) -> dict[str, Any] | None:
        """The prompt as `side` sees it: the asked side gets the question, the actor only
        that it waits for an answer (the same whatever the answer could be), others nothing."""
        if side == self.side:
            return {
                "kind": self.kind,
                "actor": self.actor,
                "action": dict(self.action),
                "default": dict(self.default),
                "deadline_s": self.deadline_s,
            }
        if side == self.actor:
            return {"kind": "waiting", "for": self.side, "deadline_s": self.deadline_s}
        return None

    def expired(self, waited_s: float) -> bool:
        """Whether a face that has waited `waited_s` seconds should answer the default."""
        return self.deadline_s is not None and waited_s >= self.deadline_s

    def to_json(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "side": self.side,
            "action": dict(self.action),
            "default": dict(self.default),
            "deadline_s": self.deadline_s,
            "kind": self.kind,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ReactionPrompt:
        return cls(
            d["actor"], d["side"], dict(d["action"]), dict(d["default"]), d["deadline_s"], d["kind"]
        )
