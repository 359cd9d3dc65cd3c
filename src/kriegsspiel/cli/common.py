"""Shared CLI plumbing: exit codes, errors, JSON output, overlays."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from ..data.errors import DataError, RuleError

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)
EXIT_BAD_INPUT = 2


class State:
    overlays: tuple[Path, ...] | None = None


STATE = State()


def fail(message: str) -> None:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT)


def print_table(table: Table) -> None:
    """A table at its natural width: never cut to the terminal's (or a pipe's 80) columns."""
    natural = min(
        Measurement.get(console, console.options.update_width(10_000), table).maximum, 200
    )
    if natural <= console.width:
        console.print(table)
    else:  # Console.print caps `width` at the console's: print through a wider console
        Console(width=natural, soft_wrap=True).print(table)


def check_output_file(path: str | Path) -> Path:
    """Before any work: the file's folder must exist and be writable, the path not a folder."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        fail(f"{path}: is a folder; give a file name")
    if not folder.is_dir():
        fail(f"{path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        fail(f"{path}: the folder {folder} is not writable")
    return path


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, default=str) + "\n")


def guarded(fn):
    """Run a command body; bad input of any known kind exits 2 with a clear message."""
    try:
        return fn()
    except DataError as exc:
        fail("invalid data:\n" + str(exc))
    except (LookupError, RuleError, ValueError, NotImplementedError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        fail(str(msg))
