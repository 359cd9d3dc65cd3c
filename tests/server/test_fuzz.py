"""Fuzz the live API from its own OpenAPI schema (schemathesis): no input gives a 5xx.

Each generated request is sent three ways: as generated (mostly unknown games), against a real
game, and against a real game with a real seat and its token, so that bodies reach the rules."""

from __future__ import annotations

from collections import Counter

import httpx
import pytest
from hypothesis import HealthCheck, given, settings

import infra
from kriegsspiel.server import create_app

from .client import Table

schemathesis = pytest.importorskip("schemathesis")


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    with infra.live_server(lambda: create_app(f"sqlite:///{db}")) as base:
        http = httpx.Client(base_url=base, timeout=30)
        table = Table.create(http)
        for side in ("germany", "usa"):  # into the fire phase, where bodies matter most
            table.command(side, {"type": "end_phase"})
        yield base, table


def operations(base: str) -> list:
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def test_no_input_gives_a_server_error(live):
    base, table = live
    ops = operations(base)
    seen: Counter[int] = Counter()
    assert len(ops) >= 8  # every documented endpoint is fuzzed
    for op in ops:

        @given(case=op.as_strategy())
        @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
        def fuzz(case) -> None:
            variants = [{}]
            if "game_id" in (case.path_parameters or {}):
                variants.append({"game_id": table.id})
                if "seat" in case.path_parameters:
                    variants.append({"game_id": table.id, "seat": "germany"})
            for override in variants:
                case.path_parameters = {**(case.path_parameters or {}), **override}
                headers = {"X-Token": table.tokens["germany"]} if override.get("seat") else None
                response = case.call(base_url=base, headers=headers)
                seen[response.status_code] += 1
                assert response.status_code < 500, (case.method, case.formatted_path, case.body)

        fuzz()
    # the fuzz reached the rules (200s) and the validators (4xx), and never a 5xx
    assert seen[200] and seen[404] and seen[422] and (seen[400] or seen[403]), seen
