"""`kriegsspiel demo` and `kriegsspiel serve` as real processes: links work, the page and the
API docs are served by the same process."""

from __future__ import annotations

import re
import sys

import httpx

import infra


def test_demo_prints_seat_and_umpire_links_that_open_their_seats(tmp_path):
    argv = [sys.executable, "-m", "kriegsspiel.cli.main", "demo", "--port", "{port}"]
    argv += ["--db", f"sqlite:///{tmp_path / 'demo.db'}"]
    with infra.subprocess_server(argv, cwd=tmp_path) as server:
        out = server.output()
        links = dict(re.findall(r"^\s*(\w+): (http://\S+)$", out, flags=re.M))
        assert {"germany", "usa", "umpire", "spectator"} <= set(links), out
        for seat, link in links.items():
            game = re.search(r"game=(\w+)", link).group(1)
            assert link.startswith(server.url)
            token = link.split("#token=")[1] if "#token=" in link else None
            headers = {"X-Token": token} if token else {}
            r = httpx.get(f"{server.url}/api/games/{game}/seats/{seat}/view", headers=headers)
            assert r.status_code == 200 and r.json()["you"] == seat
        page = httpx.get(links["germany"])
        assert page.status_code == 200 and "/static/app.js" in page.text
        assert httpx.get(f"{server.url}/static/app.js").status_code == 200
        assert httpx.get(f"{server.url}/docs").status_code == 200
        spec = httpx.get(f"{server.url}/openapi.json").json()
        assert "/api/games/{game_id}/seats/{seat}/commands" in spec["paths"]


def test_demo_on_a_busy_port_fails_before_writing_a_game(tmp_path, capsys):
    import socket

    from kriegsspiel.cli.main import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "demo.db"
        code = main(["demo", "--port", str(port), "--db", f"sqlite:///{db}"])
        err = capsys.readouterr().err
        assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err
        assert not db.exists()  # no game was created for links nobody can open
        assert main(["serve", "--port", str(port)]) == 2
