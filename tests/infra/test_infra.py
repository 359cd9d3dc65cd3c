"""Smoke tests of the real-infrastructure harness: PostgreSQL, Chromium, server processes."""

from __future__ import annotations

import sys
import urllib.request

import pytest
import sqlalchemy as sa

import infra


def test_postgres_roundtrip(postgres_url):
    assert postgres_url.startswith("postgresql+psycopg://")
    engine = sa.create_engine(postgres_url)
    meta = sa.MetaData()
    units = sa.Table(
        "units",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
    )
    try:
        meta.create_all(engine)
        with engine.begin() as conn:
            conn.execute(units.insert(), [{"name": "Panzer IV"}, {"name": "T-34"}])
        with engine.connect() as conn:
            names = conn.execute(sa.select(units.c.name).order_by(units.c.id)).scalars().all()
            version = conn.execute(sa.text("select version()")).scalar_one()
        assert names == ["Panzer IV", "T-34"]
        assert version.startswith("PostgreSQL")
    finally:
        meta.drop_all(engine)
        engine.dispose()


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>smoke</title></head>
<body style="font-family: DejaVu Sans, sans-serif">
<h1>Kriegsspiel harness</h1>
<button id="b" onclick="document.getElementById('out').textContent = 'Fire!'">Order</button>
<p id="out">Waiting</p>
</body></html>"""


def make_app():
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

    app = FastAPI()

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return PAGE

    return app


def test_browser_click_through_live_server(page, artifacts_dir):
    with infra.live_server(make_app) as base:
        page.goto(base + "/")
        out = page.locator("#out")
        assert out.text_content() == "Waiting"
        page.click("#b")
        page.wait_for_function("document.getElementById('out').textContent === 'Fire!'")
        assert out.text_content() == "Fire!"
        shot = artifacts_dir / "infra-smoke.png"
        page.screenshot(path=str(shot))
    assert shot.stat().st_size > 1000


def test_live_server_accepts_app_instance():
    import httpx

    with infra.live_server(make_app()) as base:
        r = httpx.get(base + "/")
    assert r.status_code == 200 and "Order" in r.text


def test_subprocess_server_sigkill(tmp_path):
    (tmp_path / "hello.txt").write_text("hello")
    cmd = [sys.executable, "-m", "http.server", "{port}", "--bind", "127.0.0.1"]
    with infra.subprocess_server(cmd, {"PYTHONUNBUFFERED": "1"}, cwd=tmp_path) as srv:
        with urllib.request.urlopen(srv.url + "/hello.txt", timeout=5) as resp:
            assert resp.read() == b"hello"
        assert srv.alive()
        rc = srv.kill()
        assert rc == -9
        assert not srv.alive()
        assert not infra.port_answers(srv.host, srv.port)
        with pytest.raises(OSError):
            urllib.request.urlopen(srv.url + "/hello.txt", timeout=2)
