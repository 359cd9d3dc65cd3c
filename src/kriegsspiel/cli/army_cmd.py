"""`kriegsspiel army new|list|add|remove|rename|validate|export|migrate` (issue 18 item 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
import yaml

from ..armylist import builder, load_roster, save_roster
from ..armylist.export import FORMATS, render
from ..armylist.migrate import changes_as_dicts, migrate
from ..armylist.roster import Roster, RosterError, checked
from ..armylist.scenario import build_scenario, load_rosters, validate_scenario
from .common import EXIT_BAD_INPUT, STATE, console, fail, guarded, print_json
from .game_cmd import scenario_app

app = typer.Typer(help="Build, check and export army rosters.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


def _open(file: Path) -> tuple[Roster, object]:
    roster = load_roster(file)
    return roster, builder(roster.ruleset, STATE.overlays)


def _save(roster: Roster, b, file: Path) -> None:
    """Save, adding the current price/availability of entries new to the snapshot (older
    entries keep theirs until `army migrate`)."""
    now = b.snapshot(roster)
    roster.snapshot = {k: v for k, v in {**now, **roster.snapshot}.items() if k in now}
    save_roster(roster, file)


def _edit(file: Path, as_json: bool, change) -> None:
    """Open the roster, apply `change(roster, builder) -> (json, text)`, save, report; a
    failed change writes nothing."""

    def body():
        roster, b = _open(file)
        out = checked(lambda: change(roster, b), str(file))
        _save(roster, b, file)
        return out

    obj, text = guarded(body)
    if as_json:
        print_json(obj)
    else:
        console.print(text, highlight=False, markup=False)


@app.command("new")
def new(
    ruleset: Annotated[str, typer.Argument(help="ruleset id, e.g. panzerfaust")],
    nation: Annotated[str, typer.Option(help="nation id, e.g. germany, ussr")],
    date: Annotated[str, typer.Option(help="YYYY-MM")],
    out: Annotated[Path, typer.Option(help="roster file to write (.yaml or .json)")],
    theatre: Annotated[str | None, typer.Option(help="theatre of operations")] = None,
    points: Annotated[int | None, typer.Option(help="points limit")] = None,
    name: Annotated[str | None, typer.Option(help="the force's name")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Start an empty roster."""

    def body():
        b = builder(ruleset, STATE.overlays)
        roster = checked(lambda: b.new(nation, date, theatre, points, name), "army new")
        _save(roster, b, out)
        if as_json:
            print_json({"file": str(out), "roster": roster.model_dump(mode="json")})
        else:
            console.print(f"wrote {out}: {roster.name}")

    guarded(body)


@app.command("list")
def list_cmd(
    file: Path,
    path: Annotated[str, typer.Argument(help="selection path; '/' = the roster root")] = "/",
    available: Annotated[bool, typer.Option("--available", help="what may be added there")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show the roster's selections, or with --available what may be added at PATH now."""

    def body():
        roster, b = _open(file)
        if available:
            rows = b.available(roster, path)
            if as_json:
                print_json(rows)
                return
            for r in rows:
                mark = " " if r["available"] else "x"
                pv = "" if r.get("pv") is None else f" {r['pv']} PV"
                ph = " (placeholder)" if r.get("pv_provenance") == "placeholder" else ""
                console.print(f"{mark} {r['entry']}  {r['name']}{pv}{ph}", highlight=False)
            return
        rows = [
            {"path": p, "entry": s.entry, "name": s.name or b.label(s.entry), "count": s.count}
            for p, s, _ in roster.walk()
        ]
        if as_json:
            print_json(rows)
            return
        for r in rows:
            depth = r["path"].count("/")
            n = f"{r['count']} x " if r["count"] > 1 else ""
            console.print(f"{'  ' * depth}{r['path']}  {n}{r['name']}", highlight=False)

    guarded(body)


@app.command("add")
def add(
    file: Path,
    path: Annotated[
        str, typer.Argument(help="where: '/' for the roster root, or a selection path")
    ],
    entry: Annotated[
        str, typer.Argument(help="kind:id, e.g. organisation:germany/panzer-company-late")
    ],
    count: Annotated[int, typer.Option(min=1, max=100)] = 1,
    rating: Annotated[
        str | None, typer.Option(help="troop rating selector (ss, guards, ...)")
    ] = None,
    option: Annotated[list[str] | None, typer.Option(help="option id (repeatable)")] = None,
    name: Annotated[str | None, typer.Option(help="custom name")] = None,
    bare: Annotated[bool, typer.Option(help="do not add the chart's mandatory contents")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Add an entry (an organisation brings its mandatory contents)."""

    def change(roster, b):
        sel = b.add(roster, path, entry, count, rating, option, name, expand=not bare)
        return {"added": sel.model_dump(mode="json")}, f"added {sel.id}: {b.label(entry)}"

    _edit(file, as_json, change)


@app.command("remove")
def remove(file: Path, path: str, as_json: JsonOpt = False) -> None:
    """Remove the selection at PATH and everything in it."""

    def change(roster, b):
        sel = roster.remove(path)
        return {"removed": sel.model_dump(mode="json")}, f"removed {path}: {b.label(sel.entry)}"

    _edit(file, as_json, change)


@app.command("rename")
def rename(file: Path, path: str, name: str, as_json: JsonOpt = False) -> None:
    """Give the selection at PATH (or the roster, with PATH '/') a custom name."""

    def change(roster, b):
        if path.strip("/") == "":
            roster.name = name
        else:
            roster.find(path).name = name
        return {"path": path, "name": name}, f"renamed {path}: {name}"

    _edit(file, as_json, change)


@app.command("validate")
def validate_cmd(
    file: Path,
    strict: Annotated[bool, typer.Option(help="warnings count as errors too")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check the roster: errors, warnings, info. Exit 0 when no error, 2 otherwise."""

    def body():
        roster, b = _open(file)
        return b.validate(roster)

    report = guarded(body)
    bad = not report.ok or (strict and report.of("warning"))
    if as_json:
        print_json(report.as_dict())
    else:
        limit = f" of {report.limit}" if report.limit else ""
        console.print(f"{report.total_pv} PV{limit}", highlight=False)
        for m in report.messages:
            console.print(str(m), highlight=False, markup=False)
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command("export")
def export(
    file: Path,
    format: Annotated[str, typer.Option("--format", help="text|json|html|pdf|bs-roster")] = "text",
    out: Annotated[Path | None, typer.Option(help="file to write; stdout when omitted")] = None,
    strict: Annotated[bool, typer.Option(help="refuse to export a roster with errors")] = False,
) -> None:
    """Export the roster as text, JSON, a printable HTML sheet or a BattleScribe-style .ros."""
    if format not in FORMATS:
        fail(f"--format {format!r}: choose one of {', '.join(FORMATS)}")
    if format == "pdf" and out is None:
        fail("--format pdf writes a binary file: give --out FILE.pdf")

    def body():
        roster, b = _open(file)
        report = b.validate(roster)
        if strict and not report.ok:
            first = "; ".join(str(m) for m in report.of("error")[:3])
            raise RosterError(f"{file}: strict mode refuses an invalid roster: {first}")
        return render(format, roster, b.sheet(roster), report)

    text = guarded(body)
    if out is None:
        typer.echo(text, nl=False)
    else:
        if isinstance(text, bytes):
            out.write_bytes(text)
        else:
            out.write_text(text)
        console.print(f"wrote {out}")


@app.command("migrate")
def migrate_cmd(
    file: Path,
    write: Annotated[bool, typer.Option(help="re-pin the roster to the current data")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show what a data update changed for this roster (prices, availability, removed
    entries); nothing is dropped. --write re-pins the roster to the current data."""

    def body():
        roster, b = _open(file)
        new, changes = migrate(roster, b)
        if write:
            save_roster(new, file)
        return roster, new, changes

    roster, new, changes = guarded(body)
    if as_json:
        print_json(
            {
                "from_revision": roster.data_revision,
                "to_revision": new.data_revision,
                "changes": changes_as_dicts(changes),
                "written": write,
            }
        )
        return
    console.print(f"data {roster.data_revision} -> {new.data_revision}", highlight=False)
    for c in changes:
        console.print(f"  {c}", highlight=False, markup=False)
    if not changes:
        console.print("  no change to this roster's entries")


@scenario_app.command("new")
def scenario_new(
    ruleset: Annotated[str, typer.Option(help="ruleset id (panzerfaust)")],
    roster: Annotated[list[Path], typer.Option(help="roster file; give two (side A, side B)")],
    out: Annotated[Path, typer.Option(help="scenario file to write")],
    table: Annotated[str, typer.Option(help="WIDTHxDEPTH in cm")] = "180x120",
    terrain: Annotated[str, typer.Option(help="open|village|hills")] = "open",
    battle: Annotated[
        str, typer.Option(help="encounter|attack-defence|counter-attack|breakthrough")
    ] = "encounter",
    turns: Annotated[int, typer.Option(min=1, max=50)] = 12,
    as_json: JsonOpt = False,
) -> None:
    """A scenario from two rosters: deployment zones and objectives per the battle type (pp. 4-5)."""

    def body():
        if ruleset.casefold() != "panzerfaust":
            raise RosterError(
                f"--ruleset {ruleset!r}: scenarios from rosters exist for panzerfaust"
            )
        doc = build_scenario(load_rosters(roster), table, terrain, battle, turns)
        validate_scenario(doc)
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
        tmp = out.with_name(f".{out.name}.tmp")
        tmp.write_text(text)
        tmp.replace(out)
        return doc

    doc = guarded(body)
    if as_json:
        print_json({"file": str(out), "id": doc["id"], "sides": [s["id"] for s in doc["sides"]]})
    else:
        console.print(f"wrote {out}: {doc['name']}", highlight=False)
