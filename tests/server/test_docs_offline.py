"""The API docs page works without the internet: Swagger UI's files come from the server
itself, not a CDN (issue 15 item 4)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from kriegsspiel.server import create_app


def test_docs_page_loads_its_assets_from_this_server(tmp_path):
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}"))
    page = client.get("/docs")
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=['"]([^'"]+\.(?:js|css))['"]""", page.text)
    assert assets and all(a.startswith("/") for a in assets), assets  # no https:// CDN
    for asset in assets:
        r = client.get(asset)
        assert r.status_code == 200 and len(r.content) > 1000
    assert "/openapi.json" in page.text and client.get("/openapi.json").status_code == 200
