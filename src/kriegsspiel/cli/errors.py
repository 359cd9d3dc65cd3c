"""The one place where an exception becomes what a user sees and the exit code.

A user error (bad flag or value, unknown name, malformed file, unwritable output, unreachable
database or scheduler) is one line on stderr and exit 2. Anything else is a bug in Kriegsspiel:
exit 1 with a short hint to report it (the traceback only with KRIEGSSPIEL_DEBUG=1).
"""

from __future__ import annotations

import os
import traceback

import click
import typer
from rich.markup import escape
from typer._click import exceptions as typer_click  # typer vendors its own copy of click

from ..data.errors import DataError, RuleError
from .common import EXIT_BAD_INPUT, err_console

EXIT_BUG = 1
CLICK_ERRORS = (click.ClickException, typer_click.ClickException)
EXITS = (click.exceptions.Exit, typer.Exit)
ABORTS = (click.exceptions.Abort, typer.Abort)
HELP_ERRORS = (click.exceptions.NoArgsIsHelpError, typer_click.NoArgsIsHelpError)


class UserError(Exception):
    """A problem with what the user asked for; the message says what and where."""


def _say(message: str) -> int:
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    return EXIT_BAD_INPUT


def _usage(exc: click.ClickException) -> int:
    ctx = getattr(exc, "ctx", None)
    where = f"{ctx.command_path}: " if ctx is not None else ""
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    return _say(f"{where}{exc.format_message()}{hint}")


def _database_error(exc: BaseException) -> str | None:
    """A one-line reason when `exc` comes from opening or using a database URL."""
    mod = type(exc).__module__
    if not mod.startswith("sqlalchemy"):
        return None
    orig = getattr(exc, "orig", None)
    reason = str(orig or exc).splitlines()[0]
    return f"database: {reason}"


def user_message(exc: BaseException) -> str | None:
    """The message for a user error, or None when `exc` is a bug."""
    if isinstance(exc, UserError | DataError | RuleError | NotImplementedError):
        return str(exc)
    if isinstance(exc, LookupError) and not isinstance(exc, KeyError | IndexError):
        return str(exc.args[0]) if exc.args else str(exc)
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    if isinstance(exc, ConnectionError | TimeoutError):
        return str(exc)
    return _database_error(exc)


def handle(run) -> int:
    """Call `run()` (the CLI) and turn whatever it raises into an exit code."""
    try:
        code = run()  # not standalone: an Exit raised by a command comes back as its code
    except HELP_ERRORS as exc:
        exc.show()
        return EXIT_BAD_INPUT
    except CLICK_ERRORS as exc:
        return _usage(exc)
    except EXITS as exc:
        return exc.exit_code
    except ABORTS:
        err_console.print("aborted")
        return 130
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return _say(str(exc.code))
    except Exception as exc:  # noqa: BLE001 - the top-level handler
        message = user_message(exc)
        if message is not None:
            return _say(message)
        if os.environ.get("KRIEGSSPIEL_DEBUG"):
            traceback.print_exc()
        err_console.print(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in Kriegsspiel. Please report it with the command you ran "
            "(KRIEGSSPIEL_DEBUG=1 shows the traceback).",
            markup=False,
            highlight=False,
        )
        return EXIT_BUG
    return code if isinstance(code, int) else 0
