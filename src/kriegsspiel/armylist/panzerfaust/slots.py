"""An organisation chart's slots as they stand at a roster's date (p5, p44 step 3, decision P110).

A chart may list one item in several slots: a radio and a plain copy of the same team, or dated
variants of one slot (Soviet company mortar section: 3 mortars 1939-41, 2 from 1942). At a date a
slot whose own window excludes it drops out when a variant in force replaces it (same item, or same
choice group); with none, it stays with minimum 0 (not part of the chart then, and the validator
names it if bought). The remaining slots of one item add up their minimum and maximum, or, as
alternatives of one choice group (4 or 3 squads), span them.
"""

from __future__ import annotations

from ...rulesets.panzerfaust.models import Organisation, OrgSlot
from .catalogue import in_window


def _dated_out(slot: OrgSlot, year: int, month: int) -> bool:
    return slot.valid is not None and in_window(slot.valid, year, month) is False


def slot_groups(org: Organisation, year: int, month: int) -> list[list[OrgSlot]]:
    """The chart's groups at the date: one list per choice group (its alternatives), else one
    merged slot per item."""
    live = {s.choice_group or s.ref for s in org.slots if not _dated_out(s, year, month)}
    slots = []
    for slot in org.slots:
        if not _dated_out(slot, year, month):
            slots.append(slot)
        elif (slot.choice_group or slot.ref) not in live:  # not in the chart then: optional
            slots.append(slot.model_copy(update={"min": 0}))
    out: list[list[OrgSlot]] = []
    choices: dict[str, list[OrgSlot]] = {}
    items: dict[str, int] = {}
    for slot in slots:
        if slot.choice_group:
            group = choices.setdefault(slot.choice_group, [])
            if not group:
                out.append(group)
            same = next((i for i, s in enumerate(group) if s.ref == slot.ref), None)
            if same is None:
                group.append(slot)
            else:  # alternatives of one item (4 or 3 squads): any count between them
                group[same] = _merged(group[same], slot, min, max)
        elif slot.ref in items:
            out[items[slot.ref]] = [_merged(out[items[slot.ref]][0], slot, _sum, _sum)]
        else:
            items[slot.ref] = len(out)
            out.append([slot])
    return out


def _sum(a: int, b: int) -> int:
    return a + b


def _merged(a: OrgSlot, b: OrgSlot, low, high) -> OrgSlot:
    return a.model_copy(
        update={
            "min": low(a.min, b.min),
            "max": high(a.max, b.max),
            "conditions": list(dict.fromkeys(a.conditions + b.conditions)),
        }
    )
