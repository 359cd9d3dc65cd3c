"""`Roster.duplicate` (the web builder's "duplicate a platoon", issue 18 item 5): the copy sits
right after the original, has the same entries, counts and names all the way down, and every id
in the roster stays unique."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kriegsspiel.armylist import Roster, Selection


def _shape(sel: Selection) -> tuple:
    return (sel.entry, sel.count, sel.name, tuple(_shape(c) for c in sel.children))


@st.composite
def rosters(draw) -> Roster:
    roster = Roster(ruleset="panzerfaust", nation="germany", date="1943-06")

    def grow(level: list[Selection], depth: int) -> None:
        for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
            sel = Selection(
                id=roster.new_id(),
                entry=f"organisation:x/{draw(st.sampled_from('abc'))}",
                count=draw(st.integers(1, 4)),
            )
            level.append(sel)
            grow(sel.children, depth + 1)

    roster.selections.append(Selection(id="s1", entry="organisation:x/top"))
    grow(roster.selections[0].children, 1)
    return roster


@settings(max_examples=60, deadline=None)
@given(rosters(), st.data())
def test_duplicate_copies_the_subtree_with_fresh_ids(roster, data):
    paths = [p for p, _, _ in roster.walk()]
    path = data.draw(st.sampled_from(paths))
    original = roster.find(path)
    before = len(paths)
    size = sum(1 for _ in Roster(**{**roster.model_dump(), "selections": [original]}).walk())

    copy = roster.duplicate(path)

    ids = [s.id for _, s, _ in roster.walk()]
    assert len(ids) == len(set(ids)) == before + size
    assert _shape(copy) == _shape(original)
    parent = "/".join(path.split("/")[:-1])
    siblings = roster.parent_list(parent)
    assert siblings[siblings.index(original) + 1] is copy
