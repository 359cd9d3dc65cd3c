"""`kriegsspiel game ...` end to end on a SQLite file: new, command, view, log, replay, undo, show."""

from __future__ import annotations

import json
from pathlib import Path

from kriegsspiel.cli.main import main

PROBE = str(Path(__file__).parents[1] / "engine" / "scenarios" / "infantry_probe.yaml")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_game_round_trip(capsys, tmp_path):
    db = f"sqlite:///{tmp_path / 'games.db'}"
    code, out, _ = run(capsys, "game", "new", PROBE, "--seed", "4", "--db", db, "--json")
    assert code == 0
    gid = json.loads(out)["id"]
    code, out, _ = run(capsys, "game", "view", gid, "red", "--db", db, "--json")
    view = json.loads(out)
    assert code == 0 and view["phase"] == "initiative"
    winner = view["initiative_winner"]
    code, out, _ = run(
        capsys,
        "game",
        "command",
        gid,
        winner,
        '{"type": "initiative", "side_a": "red"}',
        "--db",
        db,
        "--json",
    )
    assert code == 0 and json.loads(out)["events"][0]["type"] == "side_a"
    code, _, err = run(capsys, "game", "command", gid, "red", "{not json", "--db", db)
    assert code == 2 and "not JSON" in err
    for _ in range(20):
        code, out, _ = run(capsys, "game", "view", gid, "umpire", "--db", db, "--json")
        view = json.loads(out)
        if view["phase"] == "move_a1":
            break
        run(capsys, "game", "command", gid, view["active"][0], '{"type": "end_phase"}', "--db", db)
    assert view["phase"] == "move_a1"
    # out of turn: exit 2 with the reason as JSON
    code, out, _ = run(
        capsys,
        "game",
        "command",
        gid,
        "blue",
        '{"type": "move", "unit": "b1", "path": [[15, 19]]}',
        "--db",
        db,
        "--json",
    )
    assert code == 2 and "not your turn" in json.loads(out)["reason"]
    code, out, _ = run(
        capsys,
        "game",
        "command",
        gid,
        "red",
        '{"type": "move", "unit": "r1", "path": [[15, 4]]}',
        "--db",
        db,
    )
    assert code == 0 and "move" in out
    code, out, _ = run(capsys, "game", "log", gid, "--side", "blue", "--db", db, "--json")
    assert "move" not in {e["type"] for e in json.loads(out)}  # red's move is red's secret
    code, out, _ = run(capsys, "game", "log", gid, "--side", "blue", "--db", db)
    assert code == 0 and "why: every side has ended the step" in out  # item 7: the cause
    code, out, _ = run(capsys, "game", "replay", gid, "--db", db)
    assert code == 0 and "reproduced" in out
    code, out, _ = run(capsys, "game", "undo", gid, "--db", db)
    assert code == 0
    code, out, _ = run(capsys, "game", "view", gid, "umpire", "--db", db, "--json")
    r1 = next(u for u in json.loads(out)["units"] if u["id"] == "r1")
    assert r1["y"] == 2
    pic = tmp_path / "table.png"
    code, out, _ = run(capsys, "game", "show", gid, "--side", "red", "--out", str(pic), "--db", db)
    assert code == 0 and pic.stat().st_size > 1000 and pic.read_bytes()[:4] == b"\x89PNG"


def test_unknown_game_and_scenario(capsys, tmp_path):
    db = f"sqlite:///{tmp_path / 'g.db'}"
    code, _, err = run(capsys, "game", "view", "nope", "red", "--db", db)
    assert code == 2 and "no game 'nope'" in err
    code, _, err = run(capsys, "game", "new", "no-such-scenario", "--db", db)
    assert code == 2 and "unknown scenario" in err


def test_bad_scenario_file_names_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path(PROBE).read_text().replace("turn_limit: 3", "turn_limit: zero"))
    code, _, err = run(capsys, "scenario", "show", str(bad))
    assert code == 2 and "bad.yaml:" in err and "turn_limit" in err


def test_a_demo_game_from_the_command_line(capsys, tmp_path):
    """The CLI's game printing reads the view envelope: a demo game (issue 14 item 9) is
    created, commanded, viewed in text and drawn without quickref's keys."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    code, out, _ = run(capsys, "game", "new", "demo-patrol", "--seed", "2", "--db", db, "--json")
    assert code == 0
    gid = json.loads(out)["id"]
    hold = '{"type": "hold", "unit": "b-scouts-1"}'
    assert run(capsys, "game", "command", gid, "blue", hold, "--db", db)[0] == 0
    code, out, _ = run(capsys, "game", "view", gid, "red", "--db", db)
    assert code == 0 and "Alternate activations" in out and "acting: red" in out
    assert "enemy scouts" in out and "Scouts 1" not in out  # blue's pieces by alias only
    code, out, _ = run(capsys, "game", "show", gid, "--out", str(tmp_path / "t.png"), "--db", db)
    assert code == 0 and (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_game_options_secret_seed_and_verify(capsys, tmp_path):
    """Issue 13 item 1, issue 14 item 1: options typed and checked, a secret seed by default,
    `game verify` against the commitment."""
    db = f"sqlite:///{tmp_path / 'games.db'}"
    code, _, err = run(capsys, "game", "new", PROBE, "--option", "morale_dice=3d10", "--db", db)
    assert code == 2 and "morale_dice" in err
    code, _, err = run(capsys, "game", "new", PROBE, "--option", "nope=1", "--db", db)
    assert code == 2 and "nope" in err and "unknown option" in err
    code, _, err = run(capsys, "game", "new", PROBE, "--option", "undo", "--db", db)
    assert code == 2 and "name=value" in err
    code, _, err = run(capsys, "game", "new", PROBE, "--seed", "9" * 401, "--db", db)
    assert code == 2 and "seed" in err
    code, out, _ = run(
        capsys,
        "game",
        "new",
        PROBE,
        "-o",
        "undo=free",
        "-o",
        "rt_morale_option=false",
        "--db",
        db,
        "--json",
    )
    made = json.loads(out)
    assert code == 0 and made["seed"] is None and len(made["commitment"]) == 64
    gid = made["id"]
    code, out, _ = run(capsys, "game", "view", gid, "red", "--db", db, "--json")
    view = json.loads(out)
    assert (
        view["options"]["rt_morale_option"] is False and view["game"]["options"]["undo"] == "free"
    )
    assert view["game"]["seed"] is None and view["game"]["commitment"] == made["commitment"]
    code, out, _ = run(
        capsys, "game", "command", gid, "red", '{"type": "hatches", "buttoned": {}}', "--db", db
    )
    assert code == 2
    code, out, _ = run(capsys, "game", "verify", gid, "--db", db, "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["ok"] is True and verdict["commitment"] == made["commitment"]
