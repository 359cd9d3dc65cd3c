"""Strict JSON at the server's edge: bounded request bodies, no NaN or Infinity in or out.

Python's json module reads and writes `NaN` and `Infinity`, which are not JSON: a browser's
JSON.parse fails on them and a NaN coordinate slips past every comparison. Bodies are checked
here, before FastAPI parses them (so no endpoint can forget), and everything the server writes
goes through `dumps` (allow_nan=False), so a non-finite number that reached a view is an
error on the server, never invalid JSON on the wire.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class NonFinite:
    """A `NaN`, `Infinity` or `-Infinity` found while parsing (json's parse_constant)."""

    def __init__(self, text: str):
        self.text = text


class NotJson(ValueError):
    """A message that is not strict JSON; `field` is the path to the offending value."""

    def __init__(self, reason: str, path: tuple[str | int, ...] | None = None):
        super().__init__(reason)
        self.reason = reason
        self.path = path

    @property
    def field(self) -> str | None:
        return None if self.path is None else field_name(self.path)


def non_finite_path(doc: Any, at: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The path to the first NonFinite in a parsed document, or None."""
    if isinstance(doc, NonFinite):
        return at
    items = (
        doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    )
    for k, v in items:
        found = non_finite_path(v, (*at, k))
        if found is not None:
            return found
    return None


def field_name(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path) or "(the whole message)"


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; NotJson names the field holding a NaN or Infinity."""
    try:
        doc = json.loads(text, parse_constant=NonFinite)
    except (ValueError, RecursionError) as e:
        raise NotJson(f"not JSON: {e}") from None
    path = non_finite_path(doc)
    if path is not None:
        raise NotJson(f"{field_name(path)}: NaN and Infinity are not JSON numbers", path)
    return doc


def dumps(doc: Any) -> str:
    """JSON text; ValueError on NaN or Infinity instead of writing them."""
    return json.dumps(doc, allow_nan=False)


class StrictJSONResponse(JSONResponse):
    """The app's responses: a NaN that reached an answer is a server error, never `NaN` on
    the wire, nor silently `null` (pydantic's JSON mode writes non-finite floats as null)."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode()


def _is_json(headers: dict[bytes, bytes]) -> bool:
    """FastAPI parses a body as JSON when it has no content type or a JSON one."""
    ctype = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    return not ctype or ctype == b"application/json" or ctype.endswith(b"+json")


async def _answer(send: Send, status: int, doc: Any) -> None:
    body = dumps(doc).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class StrictBodies:
    """ASGI middleware: a request body over `max_bytes` is answered 413 (read no further);
    a JSON body with NaN or Infinity is answered 422 naming the field, as FastAPI words its
    own validation errors."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        too_big = {"detail": f"request body over {self.max_bytes} bytes"}
        declared = headers.get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _answer(send, 400, {"detail": "Content-Length is not a number"})
                return
            if int(declared) > self.max_bytes:
                await _answer(send, 413, too_big)
                return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _answer(send, 413, too_big)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body and _is_json(headers):
            try:
                loads(body)
            except NotJson as e:
                if e.path is not None:
                    loc = ["body", *e.path]
                    detail = [{"type": "finite_number", "loc": loc, "msg": e.reason}]
                    await _answer(send, 422, {"detail": detail})
                    return
                # other malformed JSON: FastAPI answers it (422 with its position)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
