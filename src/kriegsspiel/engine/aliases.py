"""Per-side aliases for enemy pieces: a side never learns an unseen enemy's true id.

A side names an enemy piece by an alias that only it uses: the same piece has another alias for
the other side, the alias says nothing of the piece's type or order in the scenario, and a dummy
marker gets an alias of the same form as a real piece, so an alias cannot tell them apart. An
alias is a keyed hash of (side, piece id) under a key derived from the game's secret seed, so it
is stable for the whole game (replay, undo and reconnects give the same names) and needs no
state. (When the players chose the seed themselves they can compute aliases too; a chosen seed
is for reproducible games, not for hidden-information play.)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

PREFIX = "x-"


class Aliases:
    """The alias book of one game."""

    def __init__(self, seed: int, width: int = 8):
        self._key = hashlib.sha256(f"kriegsspiel-alias:{seed}".encode()).digest()
        self._width = width
        self._memo: dict[tuple[str, str], str] = {}
        self._back: dict[tuple[str, str], str] = {}

    def alias(self, side: str, piece: str) -> str:
        """The name `side` knows enemy `piece` by."""
        k = (side, piece)
        hit = self._memo.get(k)
        if hit is None:
            mac = hmac.new(self._key, f"{side}\x00{piece}".encode(), hashlib.sha256)
            hit = self._memo[k] = PREFIX + mac.hexdigest()[: self._width]
            self._back[(side, hit)] = piece
        return hit

    def learn(self, side: str, pieces: Iterable[str]) -> None:
        """Make every alias of these pieces resolvable for `side`."""
        for p in pieces:
            self.alias(side, p)

    def resolve(self, side: str, name: str) -> str | None:
        """The true id behind an alias `side` used, or None (call `learn` first)."""
        return self._back.get((side, name))
