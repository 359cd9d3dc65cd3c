"""The battle simulator: seeds from (master seed, index), identical results whatever the
executor and the number of workers, stats, report files, and the CLI (issue 5 items 3-5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from kriegsspiel.cli.main import main
from kriegsspiel.sim import BattleSpec, battle_seed, run_battles, summarize

SID = "qr-crossroads-armour"
AI = {"germany": "balanced", "usa": "random"}


def specs(n: int, master: int = 9) -> list[BattleSpec]:
    return [BattleSpec(SID, i, battle_seed(master, i), AI) for i in range(n)]


def test_battle_seeds_are_hashed_not_consecutive():
    seeds = [battle_seed(5, i) for i in range(50)]
    assert len(set(seeds)) == 50
    assert battle_seed(5, 1) != battle_seed(6, 0)  # S+i would give the same battle
    assert battle_seed(5, 3) == battle_seed(5, 3)


def test_results_identical_across_executors():
    one = run_battles(specs(4), "local", workers=1)
    two = run_battles(specs(4), "local", workers=2)
    dask = run_battles(specs(4), "dask", workers=2)  # a real LocalCluster, 2 processes
    assert one == two == dask
    assert [r["index"] for r in one] == [0, 1, 2, 3]
    assert len({json.dumps(r["losses"]) + str(r["commands"]) for r in one}) > 1


def test_a_second_ruleset_simulates_alike_on_every_executor():
    """The demo ruleset (no bot of its own: sides not named play the random bot) gives the same
    battles on local processes and on a Dask LocalCluster (issue 14 item 9)."""
    demo = [BattleSpec("demo-patrol", i, battle_seed(3, i)) for i in range(6)]
    one = run_battles(demo, "local", workers=1)
    assert one == run_battles(demo, "local", workers=2) == run_battles(demo, "dask", workers=2)
    assert {r["profiles"]["blue"] for r in one} == {"random"}
    assert all(r["winner"] in ("blue", "red") and r["reason"] for r in one)
    assert any(r["losses"]["blue"] or r["losses"]["red"] for r in one)
    assert set(one[0]["objectives"]) == {"mill"}
    s = summarize(one)
    assert s["wins"]["red"]["count"] + s["wins"]["blue"]["count"] == 6


def test_dask_scheduler_address():
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as c:
        out = run_battles(specs(2), "dask", scheduler=c.scheduler_address)
    assert out == run_battles(specs(2), "local")


def test_summary_and_wilson_intervals():
    fake = [
        {
            "scenario": SID,
            "profiles": AI,
            "winner": w,
            "reason": "r",
            "turns": t,
            "losses": {"germany": {"a": 1}, "usa": {"b": 2}},
            "objectives": {"x": w},
        }
        for w, t in [("germany", 8), ("germany", 5), (None, 8), ("usa", 6)]
    ]
    s = summarize(fake)
    assert s["wins"]["germany"]["count"] == 2 and s["wins"]["germany"]["rate"] == 0.5
    lo, hi = s["wins"]["germany"]["ci95"]
    assert 0.1 < lo < 0.5 < hi < 0.9
    assert s["draws"]["count"] == 1
    assert s["losses_per_battle"] == {"germany": {"a": 1.0}, "usa": {"b": 2.0}}
    assert s["turns"]["histogram"] == {5: 1, 6: 1, 8: 2}
    assert s["objective_control"]["x"] == {"germany": 0.5, "nobody": 0.25, "usa": 0.25}


def test_simulate_cli_writes_report(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "simulate",
            SID,
            "--battles",
            "3",
            "--seed",
            "4",
            "--workers",
            "2",
            "--ai",
            "usa=random",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["battles"] == 3
    data = json.loads((out / "results.json").read_text())
    assert [b["seed"] for b in data["battles"]] == [battle_seed(4, i) for i in range(3)]
    assert len((out / "battles.csv").read_text().splitlines()) == 4
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 3
    # issue 15 item 6: victory reasons, objective control and profiles in the page, sides coloured
    for reason in summary["reasons"]:
        assert reason in html
    for objective in summary["objective_control"]:
        assert f"<td>{objective}</td>" in html
    assert "<td>usa</td><td>random</td>" in html and "<td>germany</td><td>balanced</td>" in html
    assert html.count("style='color:#3a6ea5'") >= 2  # germany's results and profile rows


def test_simulate_text_summary_rounds_and_explains(capsys):
    code = main(["simulate", SID, "--battles", "2", "--seed", "4", "--ai", "usa=random"])
    out = capsys.readouterr().out
    assert code == 0
    assert "how battles ended:" in out and "objective" in out and "AI random" in out
    for pct in re.findall(r"(\d+\.\d+)%", out):
        assert len(pct.split(".")[1]) == 1  # bounds rounded to 0.1 %


def test_simulate_checks_output_and_scheduler_before_any_battle(tmp_path, capsys):
    taken = tmp_path / "file"
    taken.write_text("mine")
    assert main(["simulate", SID, "--battles", "500", "--out", str(taken)]) == 2
    assert "not a folder" in capsys.readouterr().err and taken.read_text() == "mine"
    argv = ["simulate", SID, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    assert main(argv) == 2
    # the CLI's own connect check (3 s), not Dask's client after its 30 s timeout
    assert "cannot reach the Dask scheduler at 127.0.0.1:9" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bad",
    [
        ["--ai", "usa"],
        ["--ai", "mars=random"],
        ["--executor", "mpi"],
        ["--option", "nope=1"],
        ["--option", "morale_dice=3d10"],
    ],
)
def test_simulate_cli_bad_input(bad):
    assert main(["simulate", SID, "--battles", "1", *bad]) == 2


def test_simulate_a_ruleset_without_a_bot_names_the_profile(capsys):
    assert main(["simulate", "demo-patrol", "--battles", "1", "--ai", "blue=balanced"]) == 2
    assert "a bot for the demo ruleset (profile 'balanced')" in capsys.readouterr().err
    assert main(["simulate", "demo-patrol", "--battles", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["battles"] == 2


def test_play_with_piped_stdin(tmp_path):
    # the human (usa) ends every phase; the AI plays germany to the end of the game
    lines = "end\n" * 400
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kriegsspiel.cli.main",
            "play",
            SID,
            "--ai",
            "germany",
            "--seed",
            "3",
        ],
        cwd=tmp_path,
        input=lines,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "you play usa" in proc.stdout
    assert "game over after turn" in proc.stdout
    assert "Kampfgruppe Brandt: Panther 311 " in proc.stdout  # the AI's actions, by name


def test_simulate_runs_the_scenario_file_given(tmp_path, capsys):
    """A scenario designer's edited copy is what the battles play, not the shipped scenario
    that shares its id (here: a one-turn limit ends every battle in turn 1)."""
    from kriegsspiel.engine.scenario import scenario_dirs

    shipped = next(f for _, d in scenario_dirs() for f in d.glob("*.yaml") if SID in f.read_text())
    edited = tmp_path / "edited.yaml"
    edited.write_text(shipped.read_text().replace("turn_limit: 8", "turn_limit: 1"))
    assert main(["simulate", str(edited), "--battles", "2", "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["turns"]["mean"] == 1


_TRACE_HASH = """
import hashlib, json
from kriegsspiel.ai import harness
from kriegsspiel.ai.quickref.bot import QuickrefBot
from kriegsspiel.engine import Game
from kriegsspiel.engine.scenario import find_scenario
h = hashlib.sha256()
for seed in (0, 1):
    g = Game(find_scenario("qr-crossroads-armour"), seed=seed)
    bots = {s: QuickrefBot("balanced") for s in g.sides}
    last = None
    while g.outcome is None:
        side = next((s for s in g.rules.active_sides(g.state) if s != last), None)
        side = side or g.rules.active_sides(g.state)[0]
        harness.act(g, side, bots[side], lambda d: h.update(json.dumps(d.trace).encode()))
        last = side
    h.update(g.state_hash().encode())
print(h.hexdigest())
"""


def test_battles_do_not_depend_on_the_hash_seed():
    """Workers are separate processes, each with its own random string hashing: no decision
    or state may follow the iteration order of a set (last-known markers once did)."""

    def run(hash_seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _TRACE_HASH], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run("5") == run("6")


def test_simulate_options_reach_every_battle():
    """A battle spec's options are its game's (issue 14 item 1): a bad one stops the battle
    naming it; good ones give the same battle every time."""
    from kriegsspiel.engine.options import BadOption
    from kriegsspiel.sim.battle import run_battle

    ai = {"germany": "random", "usa": "random"}
    with pytest.raises(BadOption, match="morale_dice"):
        run_battle(BattleSpec(SID, 0, battle_seed(4, 0), ai, {"morale_dice": "3d10"}))
    spec = BattleSpec(SID, 0, battle_seed(4, 0), ai, {"front_arc_half_angle": "80"})
    assert run_battle(spec) == run_battle(spec)
