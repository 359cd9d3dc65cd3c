"""The web umpire's limits: configurable, with defaults a table of people never reaches.

Each limit is read from an environment variable (`KRIEGSSPIEL_<NAME>`) when the app is
created, or given to `create_app(limits=Limits(...))`. Counters live in each server process:
behind a load balancer a client's share is per process (see README, "Limits").
"""

from __future__ import annotations

import os
import time
from collections import defaultdict, deque
from dataclasses import dataclass, fields

PREFIX = "KRIEGSSPIEL_"


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 64 * 1024
    """largest HTTP request body (413 beyond)"""
    max_frame_bytes: int = 64 * 1024
    """largest WebSocket message (the socket is closed with 1009 beyond)"""
    games_per_client_per_minute: int = 30
    """games one client may create in any 60 s (429 beyond)"""
    sockets_per_game: int = 32
    """open WebSockets on one game (closed with 4429 beyond)"""
    sockets_per_client: int = 64
    """open WebSockets from one client address (closed with 4429 beyond)"""
    commands_per_step: int = 250
    """commands one seat may give within one step (turn, phase, sides to act) that do not
    end it (429 beyond): the rules allow some commands (hatches, ...) to be repeated"""
    unread_replies: int = 256
    """acks and errors queued for a socket that does not read them; beyond, the client is
    disconnected (4008) and resyncs with a fresh view when it reconnects"""
    trust_forwarded_for: bool = False
    """take the client's address from X-Forwarded-For (only behind a proxy that sets it)"""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by `KRIEGSSPIEL_MAX_BODY_BYTES=...` etc.; a bad value is an error
        naming the variable."""
        env = dict(os.environ if env is None else env)
        values: dict[str, int | bool] = {}
        for f in fields(cls):
            name = PREFIX + f.name.upper()
            if name not in env:
                continue
            raw = env[name].strip()
            if f.type in (bool, "bool"):
                if raw.lower() not in ("1", "0", "true", "false", "yes", "no"):
                    raise ValueError(f"{name}={raw!r}: expected true or false")
                values[f.name] = raw.lower() in ("1", "true", "yes")
                continue
            if not raw.isdigit() or int(raw) < 1:
                raise ValueError(f"{name}={raw!r}: expected a whole number >= 1")
            values[f.name] = int(raw)
        return cls(**values)


class Window:
    """Events per key in a sliding window of `seconds` (e.g. games created per client)."""

    def __init__(self, limit: int, seconds: float = 60.0):
        self.limit = limit
        self.seconds = seconds
        self._times: dict[str, deque[float]] = defaultdict(deque)

    def admit(self, key: str, now: float | None = None) -> bool:
        """Count one event for `key` if it is within the limit; False (nothing counted) if not."""
        now = time.monotonic() if now is None else now
        times = self._times[key]
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True
