"""`kriegsspiel game ...` plays a Panzerfaust game (issue 19 item 6): new, command, view, log,
replay, undo and show work for a cm table, every roll explained in the log, user errors exit 2."""

from __future__ import annotations

import json

from kriegsspiel.cli.main import main

from .conftest import SKIRMISH


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_panzerfaust_game_from_the_command_line(capsys, tmp_path):
    db = f"sqlite:///{tmp_path / 'games.db'}"
    code, out, _ = run(capsys, "game", "new", str(SKIRMISH), "--seed", "7", "--db", db, "--json")
    assert code == 0
    gid = json.loads(out)["id"]
    code, out, _ = run(capsys, "game", "view", gid, "germany", "--db", db)
    assert code == 0 and "D: covering fire" in out and "pips: 5. Kompanie" in out
    cover = '{"type": "cover", "unit": "g-pz-1", "x": 95.0, "y": 24.0}'
    code, out, _ = run(capsys, "game", "command", gid, "germany", cover, "--db", db, "--json")
    assert code == 0 and [e["type"] for e in json.loads(out)["events"]][:2] == ["cover", "cf_zone"]
    # a refusal: exit 2, the reason, nothing written
    bad = '{"type": "cover", "unit": "g-pak", "x": 95.0, "y": 24.0}'
    code, _, err = run(capsys, "game", "command", gid, "germany", bad, "--db", db)
    assert code == 2 and "covering fire" in err and "Traceback" not in err
    for side in ("germany", "britain"):
        run(capsys, "game", "command", gid, side, '{"type": "end_phase"}', "--db", db)
    move = '{"type": "move", "unit": "b-inf-2", "path": [[95, 28]]}'
    code, out, _ = run(capsys, "game", "command", gid, "britain", move, "--db", db)
    assert code == 0 and "pin_test" in out  # b-inf-2 is pinned: the morale test first (p17)
    code, out, _ = run(capsys, "game", "log", gid, "--side", "britain", "--db", db)
    assert code == 0 and "roll morale test: 2d6" in out and "roll movement pips" in out
    assert "roll movement pips (veteran)" not in out  # the German pips are not Britain's to see
    code, out, _ = run(capsys, "game", "replay", gid, "--db", db)
    assert code == 0 and "reproduced" in out
    code, out, _ = run(capsys, "game", "undo", gid, "--side", "britain", "--db", db)
    assert code == 0  # it rolled dice: a request to Germany (engine undo policy)
    code, out, _ = run(capsys, "game", "show", gid, "--side", "germany", "--db", db,
                       "--out", str(tmp_path / "t.png"))  # fmt: skip
    assert code == 0 and (tmp_path / "t.png").stat().st_size > 1000
