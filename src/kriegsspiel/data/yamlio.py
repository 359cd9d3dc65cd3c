"""YAML reading that remembers the line of every mapping key, for error messages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, DataIssue


class LineDict(dict):
    """A dict from YAML that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.key_lines = {}


class LineList(list):
    """A list from YAML that knows its own line and the line of each item."""

    line: int = 0
    item_lines: list[int]

    def __init__(self, *args: Any):
        super().__init__(*args)
        self.item_lines = []


# libyaml's parser when PyYAML has it (about 10x faster on the Panzerfaust data); its nodes
# carry the same line marks
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[str(key)] = key_node.start_mark.line + 1
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    out = LineList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml(path: Path) -> Any:
    """Parse one YAML file; a syntax error becomes a DataError with file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError([DataIssue(str(path), None, None, f"cannot read file: {exc}")]) from exc
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        msg = f"YAML syntax: {exc.problem or exc.context}"
        raise DataError([DataIssue(str(path), line, None, msg)]) from exc


def line_of(node: Any, loc: tuple[Any, ...]) -> int | None:
    """The line of the deepest element of `loc` (a pydantic error location) inside `node`."""
    line = getattr(node, "line", None) or None
    current = node
    for part in loc:
        if isinstance(current, LineDict) and part in current:
            line = current.key_lines.get(str(part), line)
            current = current[part]
        elif isinstance(current, LineList) and isinstance(part, int) and part < len(current):
            line = current.item_lines[part]
            current = current[part]
        else:
            break
    return line
