"""Fixtures: the API over SQLite and over a real PostgreSQL server."""

from __future__ import annotations

import warnings

import pytest

from kriegsspiel.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c
