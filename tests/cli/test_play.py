"""`kriegsspiel play` driven by scripted stdin (issue 15 item 5): names not ids, the AI's
shots name their target, losses in words, odds before firing, help and nonsense never crash,
an empty line asks first, q saves and --resume goes on."""

from __future__ import annotations

import re
import subprocess
import sys

from kriegsspiel.engine.store import Store

SID = "qr-crossroads-armour"


def play(tmp_path, script: str, *args: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "kriegsspiel.cli.main", "play", *args]
    proc = subprocess.run(
        argv, cwd=tmp_path, input=script, capture_output=True, text=True, timeout=300
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def test_a_friendly_prompt(tmp_path):
    script = "\n".join(
        [
            "help",
            "invalid literal",  # once crashed the prompt with int()
            "99",
            "{not json",
            "",  # an empty line with actions left asks first...
            "n",  # ...and 'no' keeps the step
            "map",
            "units",
            "end",  # initiative ends
            "odds 1",
            "1",  # fire: the first shot of the list
            "end",
            "1",  # a move asks for its destination
            "here",  # not a position: asked again
            "28 9",
            "map shot.png",
            "q",
        ]
    )
    proc = play(tmp_path, script + "\n", SID, "--ai", "germany", "--seed", "3")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "odds N" in out and "not understood: 'invalid literal'" in out
    assert "choose 1 to" in out and "not JSON" in out
    assert "end this step with 1 actions left? [y/N]" in out
    assert "Sherman B1 (24.0, 3.0)" in out and "* Crossroads" in out  # the text map's legend
    assert re.search(r"fire: Sherman B\d at Panther 311 at [\d.]+\"  odds: miss \d+%", out)
    assert re.search(r"Kampfgruppe Brandt: [\w ]+ fires at Sherman B\d: \w+", out)  # AI's target
    # a loss in words, not an 'update' JSON
    assert re.search(r"Sherman B\d is (knocked out|damaged|tracked|suppressed)", out)
    assert '{"unit"' not in out and '"type"' not in out
    assert re.search(r'move Sherman B\d at \(\d+.0, \d.0\), up to 10.0"', out)
    assert "not a position: 'here'" in out
    assert re.search(r'Sherman B[12] moves [\d.]+" to \(28.0, 9.0\)', out)
    assert (tmp_path / "shot.png").stat().st_size > 0
    game_id = re.search(r"game saved: kriegsspiel play --resume (\w+)", out).group(1)

    again = play(tmp_path, "units\nq\n", "--resume", game_id)
    assert again.returncode == 0
    assert f"game {game_id}: you play usa" in again.stdout
    assert re.search(r"yours Sherman B[12] +\(28.0, 9.0\)", again.stdout)  # the move was kept
    store = Store(f"sqlite:///{tmp_path / 'kriegsspiel.db'}")
    assert store.meta(game_id)["play"] == {"ai": "germany", "profile": "balanced"}


def test_bad_starts_exit_2(tmp_path):
    for args in (
        ["nosuch", "--ai", "germany"],
        [SID],
        ["--resume", "nosuch"],
        [SID, "--ai", "mars"],
    ):
        proc = play(tmp_path, "", *args)
        assert proc.returncode == 2 and proc.stderr.startswith("error:"), (args, proc.stderr)
