"""Rewrite one value inside a data YAML file and leave every other byte as it was.

Data files carry comments, flow rows and hand layout that a load-and-dump would destroy; the
scripts that fill values from extracted sources use this to touch only the value they set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

_BARE = re.compile(r"[a-z][a-z-]*")  # words YAML reads back as the same string (provenance labels)
_UNPRINTABLE = re.compile(r"[\x7f-\x9f\ud800-\udfff\ufffe\uffff]")  # JSON leaves these raw
_YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}


def get(node: yaml.MappingNode, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    """(key node, value node) of `key` in a composed mapping, or None."""
    for k, v in node.value:
        if k.value == key:
            return k, v
    return None


def record(root: yaml.MappingNode, rid: str) -> yaml.MappingNode:
    """The mapping node of record `rid` in a data file's `records` list."""
    for item in get(root, "records")[1].value:
        if get(item, "id")[1].value == rid:
            return item
    raise LookupError(f"no record {rid}")


def flow(value: Any) -> str:
    """`value` as one line of YAML flow style (strings double-quoted and JSON-escaped unless a bare lower-case word)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, str):
        bare = _BARE.fullmatch(value) and value not in _YAML_WORDS
        if bare:
            return value
        quoted = json.dumps(value, ensure_ascii=False)
        return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)
    return "null" if value is None else str(value)


def _last_line(node: yaml.Node) -> int:
    """0-based line of the node's last character (a block collection ends with its last item)."""
    while (
        isinstance(node, (yaml.SequenceNode, yaml.MappingNode))
        and not node.flow_style
        and node.value
    ):
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    end = node.end_mark
    return end.line - 1 if end.column == 0 else end.line


def set_value(text: str, parent: yaml.MappingNode, key: str, value: Any, after: str) -> str:
    """`text` with `key` of the composed mapping `parent` set to `value`: in place when the key
    exists, else added (after key `after` in a block mapping, at the end of a flow mapping). A
    list value is written one item per line in a block mapping, inline in a flow mapping."""
    found = get(parent, key)
    if parent.flow_style:
        if found:
            s, e = found[1].start_mark.index, found[1].end_mark.index
            return text[:s] + flow(value) + text[e:]
        close = parent.end_mark.index - 1
        return text[:close] + f", {key}: {flow(value)}" + text[close:]
    lines = text.splitlines(keepends=True)
    if found:
        knode, vnode = found
        first, last = knode.start_mark.line, _last_line(vnode)
    else:
        knode, vnode = get(parent, after)
        first = _last_line(vnode) + 1
        last = first - 1
    pad = " " * knode.start_mark.column
    if isinstance(value, list) and value:
        block = [f"{pad}{key}:\n"] + [f"{pad}  - {flow(v)}\n" for v in value]
    elif isinstance(value, dict) and value:
        block = [f"{pad}{key}:\n"] + [f"{pad}  {k}: {flow(v)}\n" for k, v in value.items()]
    else:
        block = [f"{pad}{key}: {flow(value)}\n"]
    return "".join(lines[:first] + block + lines[last + 1 :])


def rewrite(path: Path, edit: Callable[[str], str], check: bool, root: Path) -> bool:
    """Apply `edit` to a data file's text; write the result unless `check`. Says what it
    did (or would do) and returns whether the file changes: the loop of the scripts that
    write sourced figures into the data (scripts/pf_*.py)."""
    before = path.read_text(encoding="utf-8")
    text = edit(before)
    if text == before:
        return False
    if not check:
        path.write_text(text, encoding="utf-8")
    print(f"{'would change' if check else 'wrote'} {path.relative_to(root)}")
    return True
