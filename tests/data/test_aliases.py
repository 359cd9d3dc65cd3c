"""Every record of the shipped data is found by its id, its name and each alias; a name or
alias several records share lists every one of them (issue 15 item 1)."""

from __future__ import annotations

import pytest

from kriegsspiel.rulesets import RULESETS, load

COMMON = {  # README and player vocabulary -> the record it must mean
    ("quickref", "vehicle", "Tiger"): "ger/pzkw-vi",
    ("quickref", "vehicle", "Panther"): "ger/pzkw-v",
    ("quickref", "vehicle", "Sherman"): "usa/m4-medium-tank",
    ("quickref", "vehicle", "Stuart"): "usa/m3-light-tank",
    ("quickref", "vehicle", "Hetzer"): "ger/jgpz-38t",
    ("panzerfaust", "afv", "Panther"): "germany/pz-v-panther",
    ("panzerfaust", "afv", "Tiger"): "germany/pz-vi-tiger",
    ("panzerfaust", "afv", "Hellcat"): "usa_europe/m18-gmc-hellcat",
}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_record_is_found_by_each_of_its_names(ruleset):
    cat = load(ruleset, ())
    for kind, entry in cat:
        rec = entry.record
        assert cat.get(kind, rec.id) is rec
        for name in (rec.name, *rec.aliases):
            try:
                assert cat.get(kind, name).id == rec.id
            except LookupError as exc:  # shared: the message must offer this record
                assert "ambiguous" in str(exc) and rec.id in str(exc), str(exc)


@pytest.mark.parametrize(
    "key, ident", list(COMMON.items()), ids=[k[2] + "-" + k[0] for k in COMMON]
)
def test_common_names(key, ident):
    ruleset, kind, name = key
    assert load(ruleset, ()).get(kind, name).id == ident
