"""Engine flow helpers (issue 14 item 2), each on its own."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.engine.flow import (
    ActivationQueue,
    CardDeck,
    Phase,
    PhaseCycle,
    ReactionPrompt,
    ResultBuffer,
    SealedOrders,
)


def test_phase_cycle_wraps_to_the_next_turn():
    cycle = PhaseCycle(
        [
            Phase("orders", "Orders"),
            Phase("move", "Move", "active"),
            Phase("end", "End", "none", True),
        ]
    )
    assert cycle.after("orders", 1) == (cycle["move"], 1)
    assert cycle.after("end", 1) == (cycle["orders"], 2)
    with pytest.raises(LookupError, match="unknown phase 'fire'"):
        cycle["fire"]
    with pytest.raises(ValueError, match="unique"):
        PhaseCycle([Phase("a", "A"), Phase("a", "B")])
    with pytest.raises(ValueError, match="actors"):
        Phase("a", "A", "everybody")


def run_queue(q: ActivationQueue) -> list[str]:
    out = []
    while not q.done:
        s = q.to_act()
        out.append(s)
        q.activated(s)
    return out


def test_alternation_one_for_one():
    q = ActivationQueue.start("red", {"red": 3, "blue": 3})
    assert run_queue(q) == ["red", "blue"] * 3


def test_ratio_two_for_one():
    """Six platoons against three: two moves for each of the other's (by hand)."""
    q = ActivationQueue.start("big", {"big": 6, "small": 3})
    assert run_queue(q) == ["big", "big", "small", "big", "big", "small", "big", "big", "small"]


def test_ratio_can_be_switched_off_and_rest_goes_last():
    q = ActivationQueue.start("big", {"big": 4, "small": 1}, ratio=False)
    assert run_queue(q) == ["big", "small", "big", "big", "big"]


def test_out_of_turn_activation_is_refused_and_json_round_trips():
    q = ActivationQueue.start("red", {"red": 2, "blue": 2})
    with pytest.raises(ValueError, match="red"):
        q.activated("blue")
    q.activated("red")
    again = ActivationQueue.from_json(q.to_json())
    assert run_queue(again) == run_queue(q) == ["blue", "red", "blue"]


def test_withdrawn_pieces_leave_the_queue():
    q = ActivationQueue.start("red", {"red": 2, "blue": 2})
    q.withdraw("blue", 2)
    assert run_queue(q) == ["red", "red"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.booleans())
def test_queue_activates_every_piece_once(a, b, ratio):
    q = ActivationQueue.start("a", {"a": a, "b": b}, ratio)
    seq = run_queue(q)
    assert seq.count("a") == a and seq.count("b") == b
    # while both sides have pieces left, nobody takes more in a row than the starting ratio
    if a and b:
        both = seq[: len(seq) - (len(seq) - max(i for i, s in enumerate(seq) if s != seq[-1]) - 1)]
        runs = "".join(both).replace("ab", "a b").replace("ba", "b a").split()
        limit = max(a // b, b // a, 1) if ratio else 1
        assert max(map(len, runs)) <= limit


def test_deck_is_shuffled_from_the_dice_and_drawn_card_by_card():
    cards = [{"side": "axis", "card": c} for c in "A23"] + [
        {"side": "allies", "card": c} for c in "A23"
    ]
    deck = CardDeck(cards)
    draft = deck.shuffle_draft(random.Random(5))
    assert draft.visible_to == ()  # the order is the umpire's
    again = CardDeck(cards).shuffle_draft(random.Random(5))
    assert draft.data == again.data  # same dice, same order
    deck.shuffled(draft.data["order"])
    drawn = [deck.draw() for _ in range(6)]
    assert sorted(map(str, drawn)) == sorted(map(str, cards))
    assert deck.left == 0 and deck.peek() is None
    with pytest.raises(ValueError, match="empty"):
        deck.draw()
    with pytest.raises(ValueError, match="every card"):
        deck.shuffled([0, 0, 1, 2, 3, 4])
    orders = {tuple(CardDeck.shuffle_order(6, random.Random(s))) for s in range(40)}
    assert len(orders) > 20  # the dice do shuffle
    assert CardDeck.from_json(deck.to_json()) == deck


def test_sealed_orders_are_private_until_both_wrote():
    so = SealedOrders(["axis", "allies"])
    d = so.write_draft("axis", {"poa": [10, 20]})
    assert d.visible_to == ("axis",)
    so.write("axis", d.data["orders"])
    assert so.seen_by("allies") == {} and so.seen_by("axis") == {"axis": {"poa": [10, 20]}}
    with pytest.raises(ValueError, match="allies"):
        so.reveal_draft()
    so.write("allies", {"poa": [1, 2]})
    r = so.reveal_draft()
    assert r.visible_to is None and set(r.data["orders"]) == {"axis", "allies"}
    so.reveal()
    assert so.seen_by("allies")["axis"] == {"poa": [10, 20]}
    with pytest.raises(ValueError, match="already"):
        so.write_draft("axis", {})
    with pytest.raises(ValueError, match="does not write"):
        SealedOrders(["a"]).write_draft("b", {})
    assert SealedOrders.from_json(so.to_json()) == so


def test_result_buffer_lands_results_together_in_order():
    buf = ResultBuffer()
    buf.add({"target": "t1", "result": "ko"})
    buf.add({"target": "t2", "result": "pinned"})
    buf.add({"target": "t1", "result": "pinned"})
    assert [r["result"] for r in buf.pending("t1")] == ["ko", "pinned"]
    assert ResultBuffer.from_json(buf.to_json()).results == buf.results
    out = buf.flush()
    assert [r["target"] for r in out] == ["t1", "t2", "t1"] and len(buf) == 0
    with pytest.raises(ValueError, match="target"):
        buf.add({"result": "ko"})


def test_reaction_prompt_shows_the_actor_only_that_it_waits():
    seen = ReactionPrompt("axis", "allies", {"unit": "x-1", "to": [3, 4]}, deadline_s=30)
    unseen = ReactionPrompt("axis", "allies", {}, deadline_s=30)
    # the actor's view of the prompt is the same whatever the asked side could do
    assert (
        seen.for_side("axis")
        == unseen.for_side("axis")
        == {"kind": "waiting", "for": "allies", "deadline_s": 30}
    )
    asked = seen.for_side("allies")
    assert asked["action"] == {"unit": "x-1", "to": [3, 4]} and asked["default"] == {
        "type": "decline"
    }
    assert seen.for_side("neutral") is None
    assert not seen.expired(29.9) and seen.expired(30)
    assert not ReactionPrompt("a", "b", {}).expired(10**6)  # no deadline: waits
    assert ReactionPrompt.from_json(seen.to_json()) == seen
