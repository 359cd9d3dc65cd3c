"""Seats and their secret tokens. Only sha256 digests are stored; checks are constant-time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from ..engine.events import SPECTATOR, UMPIRE


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(sides: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Fresh tokens for every side and the umpire: (seat -> token, seat -> digest)."""
    tokens = {seat: new_token() for seat in [*sides, UMPIRE]}
    return tokens, {seat: digest(t) for seat, t in tokens.items()}


def seat_of(digests: dict[str, str], token: str | None) -> str | None:
    """The seat a token belongs to, or None. Every seat is compared, so timing tells nothing."""
    if not token:
        return None
    d = digest(token)
    found = None
    for seat, stored in digests.items():
        if hmac.compare_digest(d, stored):
            found = seat
    return found


def authorised(digests: dict[str, str], seat: str, token: str | None) -> bool:
    """May `token` act for `seat`? Spectators need no token."""
    if seat == SPECTATOR:
        return True
    stored = digests.get(seat)
    if stored is None or not token:
        return False
    return hmac.compare_digest(digest(token), stored)
