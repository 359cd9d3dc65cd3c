"""The web army builder's JSON routes over the armylist core (issue 18 item 5). Stateless: the
page holds the roster and sends it with each call; the server adds (with the chart's mandatory
contents), validates, prices and exports it with the same builder the `army` CLI uses."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..armylist import Roster, RosterError, builder
from ..armylist.builders import BUILDERS
from ..armylist.export import FORMATS, render

Text = Annotated[str, Field(max_length=200)]
MEDIA = {
    "text": "text/plain; charset=utf-8",
    "json": "application/json",
    "html": "text/html; charset=utf-8",
    "bs-roster": "application/xml",
    "pdf": "application/pdf",
}
TREE_DEPTH = 6
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


class NewRoster(BaseModel):
    model_config = ConfigDict(extra="forbid")

    nation: Text
    date: Annotated[str, Field(pattern=r"^(19[3-4]\d)-(0[1-9]|1[0-2])$")]
    theatre: Text | None = None
    points: Annotated[int, Field(ge=1, le=100000)] | None = None
    name: Annotated[str, Field(max_length=120)] | None = None


class RosterBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    roster: Roster


class Edit(RosterBody):
    """One change: add ENTRY under PATH ('' = root), remove / duplicate the selection at PATH,
    or set its count, name or troop rating selector (p22; None = the nation's default)."""

    op: Literal["add", "remove", "duplicate", "count", "rename", "rating"]
    path: Text = ""
    entry: Text | None = None
    count: Annotated[int, Field(ge=1, le=100)] = 1
    rating: Annotated[str, Field(max_length=60)] | None = None
    options: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=20
    )
    name: Annotated[str, Field(max_length=120)] | None = None


class ExportBody(RosterBody):
    strict: bool = False


def _fail(field: str | None, reason: str, status: int = 422) -> HTTPException:
    return HTTPException(status, {"field": field, "reason": reason})


@cache
def _builder(ruleset: str) -> Any:
    try:
        return builder(ruleset)
    except LookupError as e:
        raise _fail("ruleset", str(e.args[0]), 404) from None


def _for(ruleset: str, roster: Roster) -> Any:
    if roster.ruleset.casefold() != ruleset.casefold():
        raise _fail("roster.ruleset", f"the roster is for {roster.ruleset!r}, not {ruleset!r}")
    return _builder(ruleset)


def _state(b: Any, roster: Roster) -> dict[str, Any]:
    """The roster with its validation report (totals, errors, warnings, info) and priced sheet."""
    return {
        "roster": roster.model_dump(mode="json"),
        "report": b.validate(roster).as_dict(),
        "sheet": b.sheet(roster),
    }


def _tree(b: Any, roster: Roster, parent: str | None, depth: int, seen: tuple) -> list[dict]:
    rows = b.available_in(roster, parent)
    for row in rows:
        ref = row["entry"]
        nests = ref.startswith(("organisation:", "adhoc:"))
        if nests and depth < TREE_DEPTH and ref not in seen:
            row["children"] = _tree(b, roster, ref, depth + 1, (*seen, ref))
    return rows


def router() -> APIRouter:
    api = APIRouter(prefix="/api/army")

    @api.get("")
    def rulesets() -> list[str]:
        """The rulesets that have an army builder."""
        return sorted(BUILDERS)

    @api.get("/{ruleset}/nations")
    def nations(ruleset: str) -> dict[str, Any]:
        """Every nation with an army list (with its troop rating selectors, p22), and the dates
        a roster may carry."""
        b = _builder(ruleset)
        return {
            "nations": [
                {
                    "id": n.id,
                    "name": n.name,
                    "pages": list(n.pages),
                    "ratings": sorted({r.selector for r in n.rating_rules}),
                }
                for n in sorted(b.ac.cat.all("nation"), key=lambda n: n.name)
            ],
            "dates": {"min": "1930-01", "max": "1949-12"},
        }

    @api.post("/{ruleset}/new")
    def new(ruleset: str, body: NewRoster) -> dict[str, Any]:
        """An empty roster for a nation and date, with its (empty) report."""
        b = _builder(ruleset)
        try:
            roster = b.new(body.nation, body.date, body.theatre, body.points, body.name)
        except LookupError as e:
            raise _fail("nation", str(e.args[0])) from None
        return _state(b, roster)

    @api.get("/{ruleset}/tree")
    def tree(
        ruleset: str,
        nation: Annotated[str, Query(max_length=60)],
        date: Annotated[str, Query(pattern=r"^(19[3-4]\d)-(0[1-9]|1[0-2])$")],
        theatre: Annotated[str | None, Query(max_length=60)] = None,
    ) -> dict[str, Any]:
        """The organisation tree a nation may buy from at a date: the root entries, and inside
        each organisation its slots, each marked available or not now."""
        b = _builder(ruleset)
        try:
            roster = b.new(nation, date, theatre, None, None)
        except LookupError as e:
            raise _fail("nation", str(e.args[0])) from None
        return {"nation": roster.nation, "date": date, "entries": _tree(b, roster, None, 0, ())}

    @api.post("/{ruleset}/validate")
    def validate(ruleset: str, body: RosterBody) -> dict[str, Any]:
        """Errors, warnings and info (each with its selection path and page) and the totals."""
        return _state(_for(ruleset, body.roster), body.roster)

    @api.post("/{ruleset}/edit")
    def edit(ruleset: str, body: Edit) -> dict[str, Any]:
        """Apply one change and answer with the new roster and its report; a failed change
        answers 422 naming the field and changes nothing (the page keeps its roster)."""
        roster = body.roster
        b = _for(ruleset, roster)
        try:
            if body.op == "add":
                if not body.entry:
                    raise _fail("entry", "add needs an entry, e.g. organisation:germany/...")
                if not b.exists(body.entry):
                    raise _fail("entry", f"no entry {body.entry!r} in the {ruleset} lists")
                b.add(roster, body.path, body.entry, body.count, body.rating, body.options)
            elif body.op == "remove":
                roster.remove(body.path)
            elif body.op == "duplicate":
                roster.duplicate(body.path)
            elif body.op == "count":
                roster.find(body.path).count = body.count
            elif body.op == "rating":
                roster.find(body.path).rating = body.rating or None
            else:
                roster.find(body.path).name = body.name or None
        except RosterError as e:
            raise _fail("path", str(e)) from None
        return _state(b, roster)

    @api.post("/{ruleset}/export/{fmt}")
    def export(ruleset: str, fmt: str, body: ExportBody) -> Response:
        """The roster as text, json, html (the printable force sheet), pdf or bs-roster (.ros)."""
        if fmt not in FORMATS:
            raise _fail("format", f"format {fmt!r}: choose one of {', '.join(FORMATS)}")
        roster = body.roster
        b = _for(ruleset, roster)
        report = b.validate(roster)
        if body.strict and not report.ok:
            first = "; ".join(str(m) for m in report.of("error")[:3])
            raise _fail("roster", f"strict mode refuses an invalid roster: {first}")
        return Response(render(fmt, roster, b.sheet(roster), report), media_type=MEDIA[fmt])

    outer = APIRouter()
    outer.include_router(api)

    @outer.get("/army", include_in_schema=False)
    def page() -> FileResponse:
        """The army builder page (web/static/army.html)."""
        return FileResponse(STATIC / "army.html")

    return outer
