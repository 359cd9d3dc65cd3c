"""Fair dice: a secret seed, its public commitment, and dice no side can foresee (DESIGN: fair play).

- A game created without a seed gets a secret 256-bit one (`secrets`). An explicit seed stays
  possible (reproducible play, simulation); it is not secret to whoever chose it, and a small one
  can be found from its commitment by trial, so a chosen seed is for friendly or scripted games.
- The commitment, published in the `start` event, is the hex sha256 of the bytes
  `COMMIT_PREFIX + seed.to_bytes(32, "big")` (`commitment`). The seed itself is revealed to the
  sides when the game ends; `verify` (engine/verify.py) checks a finished game against it.
- A command's dice are a `random.Random` seeded from HMAC-SHA256(seed, key), where the key names
  the command's place in the line of play (how many commands are in force before it), its author,
  its content (canonical JSON) and the round of automatic follow-ups. Nothing a side sees (event
  index, counters) is enough to predict them without the seed. Undo takes a command out of the
  line, so the same command given again holds the same place and rolls the same dice: undo never
  buys a re-roll; a different command gets dice nobody could compute beforehand.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from typing import Any

SEED_BITS = 256
MAX_SEED = 2**SEED_BITS - 1
COMMIT_PREFIX = b"kriegsspiel-seed-v1:"


def new_seed() -> int:
    """A fresh secret seed of 256 bits."""
    return secrets.randbits(SEED_BITS)


def check_seed(seed: Any) -> int:
    """The seed as an int in 0..2**256-1, or ValueError naming what is wrong."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, not {type(seed).__name__}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError("seed must be between 0 and 2**256-1")
    return seed


def seed_bytes(seed: int) -> bytes:
    return seed.to_bytes(SEED_BITS // 8, "big")


def commitment(seed: int) -> str:
    """The published commitment to a seed: sha256(COMMIT_PREFIX + 32-byte big-endian seed)."""
    return hashlib.sha256(COMMIT_PREFIX + seed_bytes(seed)).hexdigest()


# one encoder for every command: `json.dumps` with these arguments builds a new one per call,
# a measurable share of a command's engine cost (the text is the same)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False, default=str)


def canonical(command: Any) -> str:
    """A command as canonical JSON (sorted keys, no spaces): the same command, the same text."""
    return _CANONICAL.encode(command)


class Dice:
    """The `random.Random` of one command step, keyed on first draw (most steps roll nothing,
    and the MAC, the generator's set-up and even the key's text were a measurable share of
    every command): `key` is (line, side, command, round), worded as the MAC's message only
    then. `drawn` says whether anything was rolled."""

    __slots__ = ("_key", "_rng", "_secret", "drawn")

    def __init__(self, secret: bytes, key: tuple[int, str | None, str, int]):
        self._secret, self._key = secret, key
        self._rng: random.Random | None = None
        self.drawn = False

    def __getattr__(self, name: str) -> Any:  # randint, uniform, choice, random, ...
        if self._rng is None:
            line, side, command, round_ = self._key
            text = f"{line}\x00{side or ''}\x00{command}\x00{round_}"
            mac = hmac.new(self._secret, text.encode(), hashlib.sha256).digest()
            self._rng = random.Random(int.from_bytes(mac, "big"))
            self.drawn = True
        return getattr(self._rng, name)


class DiceStream:
    """The dice of one game: `for_step(line, side, command, round)` gives a `Dice`."""

    def __init__(self, seed: int):
        self._secret = hashlib.sha256(b"kriegsspiel-dice-v1:" + seed_bytes(seed)).digest()

    def for_step(self, line: int, side: str | None, command: str, round_: int) -> Dice:
        return Dice(self._secret, (line, side, command, round_))
