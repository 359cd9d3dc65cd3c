"""`kriegsspiel data audit|show|missing`."""

from __future__ import annotations

import difflib
from typing import Annotated

import typer
import yaml
from rich.table import Table

from ..data.audit import audit, missing_fields
from ..rulesets import RULESETS, load, ruleset_coverage
from .common import STATE, check_output_file, console, guarded, print_json, print_table

app = typer.Typer(
    help="Inspect the shipped data: completeness, provenance, records.", no_args_is_help=True
)


def check_nation(cat, nation: str | None) -> None:
    """`--nation` must name a nation of the ruleset's data; the message lists them."""
    if nation is None:
        return
    nations = sorted({str(n) for _, e in cat if (n := getattr(e.record, "nation", None))})
    if nation.casefold() not in {n.casefold() for n in nations}:
        close = difflib.get_close_matches(nation.casefold(), nations, n=3, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise LookupError(
            f"unknown nation {nation!r} in {cat.ruleset}{hint}; nations: {', '.join(nations)}"
        )


@app.command("audit")
def audit_cmd(
    ruleset: Annotated[str | None, typer.Argument(help="ruleset id; all when omitted")] = None,
    nation: Annotated[str | None, typer.Option(help="only this nation")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Rows per table and the share of fields by provenance (an empty list of lost values counts
    as missing), then the ruleset's coverage counts (have / of) where it has them."""

    def body():
        ids = [ruleset] if ruleset else list(RULESETS)
        out = {}
        for rid in ids:
            cat = load(rid, STATE.overlays)
            if ruleset and next(iter(cat), None) is None:
                raise LookupError(f"{rid} has no data yet: nothing to audit")
            if ruleset:
                check_nation(cat, nation)
            out[rid] = {
                "tables": [t.as_dict() for t in audit(cat, only_group=nation)],
                "coverage": ruleset_coverage(rid, cat),
            }
        if as_json:
            print_json(out)
            return
        for rid, report in out.items():
            rows = report["tables"]
            if not rows:
                console.print(f"{rid}: no data yet", markup=False)
                continue
            table = Table(title=f"{rid} data audit", show_lines=False)
            for col in (
                "kind",
                "nation",
                "rows",
                "fields",
                "seed",
                "inferred",
                "historical",
                "placeholder",
                "overlay",
                "missing",
            ):
                table.add_column(col, justify="right" if col not in ("kind", "nation") else "left")
            for r in rows:
                s = r["shares"]
                table.add_row(
                    r["kind"],
                    str(r["group"] or "-"),
                    str(r["rows"]),
                    str(r["fields"]),
                    *(
                        f"{100 * s[k]:.0f}%"
                        for k in (
                            "seed",
                            "seed-inferred",
                            "historical",
                            "placeholder",
                            "overlay",
                            "missing",
                        )
                    ),
                )
            print_table(table)
            if report["coverage"]:
                print_table(_coverage_table(rid, report["coverage"]))

    guarded(body)


def _coverage_table(rid: str, coverage: dict) -> Table:
    table = Table(title=f"{rid} coverage (whole catalogue)", show_lines=False)
    for col in ("measure", "kind", "have", "of", "share"):
        table.add_column(col, justify="left" if col in ("measure", "kind") else "right")
    for measure, kinds in coverage.items():
        for kind, (have, of) in kinds.items():
            share = f"{100 * have / of:.0f}%" if of else "-"
            table.add_row(measure, kind, str(have), str(of), share)
    return table


@app.command("show")
def show_cmd(
    ruleset: Annotated[str, typer.Argument(help="ruleset id")],
    kind: Annotated[str, typer.Argument(help="record kind, e.g. vehicle")],
    name: Annotated[str, typer.Argument(help="record id or name")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """One record with the provenance of each field."""

    def body():
        cat = load(ruleset, STATE.overlays)
        if kind not in cat.kinds:
            raise LookupError(f"unknown kind {kind!r}; expected one of {sorted(cat.kinds)}")
        rec = cat.get(kind, name)
        fields = {
            p: {
                "value": v,
                "provenance": "missing" if v is None else str(rec.prov(p)),
                **({"note": rec.prov_entry(p).note} if rec.prov_entry(p).note else {}),
            }
            for p, v in rec.leaf_fields().items()
        }
        payload = {
            "kind": kind,
            "id": rec.id,
            "name": rec.name,
            "aliases": list(rec.aliases),
            "source": rec.source.model_dump(),
            "notes": rec.notes,
            "fields": fields,
        }
        if as_json:
            print_json(payload)
            return
        console.print(f"[bold]{rec.name}[/] ({kind} {rec.id}) — {rec.source}")
        if rec.aliases:
            console.print("also known as: " + ", ".join(rec.aliases), markup=False)
        if rec.notes:
            console.print(rec.notes)
        table = Table(show_header=True)
        for col in ("field", "value", "provenance", "note"):
            table.add_column(col)
        for p, f in fields.items():
            table.add_row(p, str(f["value"]), f["provenance"], f.get("note", "") or "")
        print_table(table)

    guarded(body)


@app.command("missing")
def missing_cmd(
    ruleset: Annotated[str, typer.Argument(help="ruleset id")],
    nation: Annotated[str | None, typer.Option(help="only this nation")] = None,
    out: Annotated[
        str | None, typer.Option(help="write the overlay template here (default stdout)")
    ] = None,
) -> None:
    """An overlay template listing every lost or placeholder field, to fill from a printed copy."""

    if out:
        check_output_file(out)

    def body():
        cat = load(ruleset, STATE.overlays)
        check_nation(cat, nation)
        changes: dict[tuple[str, str], dict] = {}
        for kind, rec, path, status in missing_fields(cat, only_group=nation):
            entry = changes.setdefault(
                (kind, rec.id),
                {"kind": kind, "id": rec.id, "set": {}, "note": f"{rec.name}, {rec.source}"},
            )
            entry["set"][path] = None
            entry.setdefault("was", {})[path] = status
        doc = {"ruleset": ruleset, "changes": list(changes.values())}
        header = (
            "# Overlay template: replace each null with the value from your printed copy,\n"
            "# delete lines you cannot fill, drop the 'was' blocks, then load it with\n"
            "# --data-overlay FILE (or KRIEGSSPIEL_DATA_OVERLAY=FILE).\n"
        )
        text = header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        if out:
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
            console.print(f"wrote {sum(len(c['set']) for c in changes.values())} fields to {out}")
        else:
            print(text, end="")

    guarded(body)
