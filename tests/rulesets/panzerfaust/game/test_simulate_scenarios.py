"""`simulate` with two random bots on each Panzerfaust test scenario (issue 19 item 6, "Done
when"; the shipped scenarios join when they land): a few battles each through the CLI, each
ending with a reason and the summary naming both sides. The 100-battle runs are in the report."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.cli.main import main

from .conftest import HERE


@pytest.mark.parametrize("name", ["duel", "ambush"])  # the skirmish: test_simulate.py
def test_random_bots_finish_battles_of_each_scenario(name, capsys):
    path = HERE / f"{name}.yaml"
    sides = [line.split("id: ")[1].split(",")[0] for line in path.read_text().splitlines()
             if line.lstrip().startswith("- {id:") and "edge:" in line]  # fmt: skip
    ai = [x for s in sides for x in ("--ai", f"{s}=random")]
    code = main(["simulate", str(path), "--battles", "3", "--json", *ai])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    out = json.loads(printed.out)
    assert out["battles"] == 3
    assert sum(out["reasons"].values()) == 3
    assert set(out["profiles"]) == set(sides) and set(out["profiles"].values()) == {"random"}
