"""data.yamlsplice: one value rewritten, every other byte kept, the result reads back."""

from __future__ import annotations

import yaml
from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.data.yamlsplice import record, set_value

TEXT = """# comment kept
records:
- id: a
  name: A   # trailing comment kept
  to_hit:
  - 12
  - 11
  pen: []
  notes: x
- id: b
  row: {kind: HEAT, to_hit: [9]}
"""


def test_block_list_replaced_and_rest_kept():
    root = yaml.compose(TEXT)
    out = set_value(
        TEXT, record(root, "a"), "pen", [{"value": 1.5, "provenance": "seed"}], "to_hit"
    )
    assert out.startswith("# comment kept\n") and "A   # trailing comment kept" in out
    data = yaml.safe_load(out)["records"][0]
    assert data["pen"] == [{"value": 1.5, "provenance": "seed"}] and data["notes"] == "x"


def test_missing_key_added_after_and_flow_mapping_extended():
    root = yaml.compose(TEXT)
    rec_a = record(root, "a")
    out = set_value(TEXT, rec_a, "extra", "null", after="to_hit")
    assert yaml.safe_load(out)["records"][0]["extra"] == "null"  # quoted: a string, not None
    row = [v for k, v in record(yaml.compose(out), "b").value if k.value == "row"][0]
    out2 = set_value(out, row, "pen", [2.0], after="to_hit")
    assert yaml.safe_load(out2)["records"][1]["row"] == {
        "kind": "HEAT",
        "to_hit": [9],
        "pen": [2.0],
    }


@given(st.lists(st.text(max_size=20), max_size=4))
def test_any_strings_read_back_unchanged(strings):
    root = yaml.compose(TEXT)
    out = set_value(TEXT, record(root, "a"), "pen", strings, "to_hit")
    assert yaml.safe_load(out)["records"][0]["pen"] == strings
