"""Every shell example of the README runs, in order, in a fresh folder (issue 15 item 1).

The ```sh and ```bash blocks are joined (backslash continuations included) into one bash
script run with `set -e` and the venv's `kriegsspiel` first on PATH, so a variable such as
`$GAME` captured from `game new` carries to the later lines. Overlay examples (```yaml blocks
starting with `ruleset:`) are written to a file and loaded with `--data-overlay`.

Not run, by the explicit lists below (each with its reason), never silently:
- SKIP: commands that install, serve until stopped, or need a Dask cluster.
- SHRINK: simulations run with 2 battles instead of the README's hundreds.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import infra

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent

# (pattern at the start of a command, why it is not run here)
SKIP = (
    (r"\. \.venv/bin/activate", "the test already puts the venv's bin first on PATH"),
    (r"make (demo|test)\b", "installs the venv / runs the whole suite (the suite is this run)"),
    (r"kriegsspiel (serve|demo)\b", "starts a server that runs until stopped"),
    (r"dask (scheduler|worker)\b", "starts a Dask cluster that runs until stopped"),
    (r"kriegsspiel simulate .*--scheduler", "needs a running Dask scheduler"),
)
SHRINK = ((r"--battles \d+", "--battles 2"),)


def blocks(text: str, langs: tuple[str, ...]) -> list[str]:
    pattern = r"^```(" + "|".join(langs) + r")\n(.*?)^```"
    return [m.group(2) for m in re.finditer(pattern, text, re.S | re.M)]


def commands(block: str) -> list[str]:
    """One entry per command: continuations joined, blank and comment-only lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [
        ln.strip() for ln in joined.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    ]


def skipped(cmd: str) -> str | None:
    return next((why for pat, why in SKIP if re.match(pat, cmd)), None)


def runnable(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    run, skip = [], []
    for block in blocks(text, ("sh", "bash")):
        for cmd in commands(block):
            why = skipped(cmd)
            if why:
                skip.append((cmd, why))
                continue
            for pat, repl in SHRINK:
                cmd = re.sub(pat, repl, cmd)
            run.append(cmd)
    for i, block in enumerate(blocks(text, ("yaml",))):
        m = re.match(r"ruleset:\s*(\S+)", block)
        if m:
            name = f"readme-overlay-{i}.yaml"
            run.append(f"cat > {name} <<'EOF'\n{block}EOF")
            run.append(f"kriegsspiel --data-overlay {name} data audit {m.group(1)} > /dev/null")
    return run, skip


def test_skip_list_is_explicit_and_small():
    run, skip = runnable(README.read_text())
    assert len(run) >= 20, "the README lost its examples?"
    assert all(why for _, why in skip) and len(skip) <= 10, skip


def test_every_readme_shell_example_runs(tmp_path):
    run, _ = runnable(README.read_text())
    with infra.subprocess_server(
        [
            str(BIN / "kriegsspiel"),
            "serve",
            "--port",
            "{port}",
            "--db",
            f"sqlite:///{tmp_path}/s.db",
        ]
    ) as server:  # the README's curl examples talk to a server at localhost:8000
        run = [cmd.replace("localhost:8000", f"localhost:{server.port}") for cmd in run]
        run_script(run, tmp_path)


def run_script(run: list[str], tmp_path) -> None:
    script = "\n".join(
        [
            "set -e",
            "trap 'echo \"README command failed (exit $?): $BASH_COMMAND\" >&2' ERR",
            *run,
        ]
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KRIEGSSPIEL_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "120"
    proc = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr + proc.stdout
    assert re.search(r"\d+ events; state hash \w+ reproduced", proc.stdout)
    assert (tmp_path / "sim-out" / "report.html").exists()


@pytest.mark.parametrize(
    "cmd, expected",
    [
        (". .venv/bin/activate", True),
        ("make demo   # starts", True),
        ("kriegsspiel serve --port 1", True),
        ("kriegsspiel simulate x --executor dask --scheduler tcp://h:1", True),
        ("kriegsspiel simulate x --battles 500", False),
        ("kriegsspiel odds quickref morale", False),
    ],
)
def test_skip_markers(cmd, expected):
    assert (skipped(cmd) is not None) is expected
