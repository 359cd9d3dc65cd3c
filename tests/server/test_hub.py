"""The hub's cached views are exactly the engine's views (nothing added, nothing missing)."""

from __future__ import annotations

import json

from kriegsspiel.engine import IllegalCommand
from kriegsspiel.engine.game import Game
from kriegsspiel.engine.scenario import find_scenario
from kriegsspiel.engine.store import Store
from kriegsspiel.server.hub import GameHub

from .client import next_command


def test_hub_view_equals_game_view_for_every_seat_through_a_game(tmp_path):
    hub = GameHub(Store(f"sqlite:///{tmp_path / 'hub.db'}"))
    game = Game(find_scenario("qr-village-assault"), 3)
    hub.create(game, {})
    seats = [*game.sides, "umpire", "spectator"]
    for _ in range(40):
        for seat in seats:
            expected = game.view(seat)
            expected["legal"] = game.legal_commands(seat) if seat in game.sides else []
            expected["game"]["step"] = hub.step(game)  # the public step key the hub adds
            assert hub.view(game, seat) == expected
        active = game.rules.active_sides(game.state)
        if game.outcome or not active:
            break
        cmd = next_command(hub.view(game, active[0]))
        try:
            game.submit(active[0], cmd)
        except IllegalCommand:  # a blocked short move
            game.submit(active[0], {"type": "end_phase"})


def test_the_socket_message_is_the_view_as_text(tmp_path):
    hub = GameHub(Store(f"sqlite:///{tmp_path / 'hub.db'}"))
    game = Game(find_scenario("qr-crossroads-armour"), 1)
    hub.create(game, {})
    for side in game.sides:
        game.submit(side, {"type": "end_phase"})
    for seat in [*game.sides, "umpire", "spectator"]:
        msg = json.loads(hub.message(game, seat))
        view = json.loads(json.dumps(hub.view(game, seat)))  # tuples become lists
        assert msg == {"type": "view", "seat": seat, "view": view}
