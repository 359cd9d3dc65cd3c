"""panzerfaust ruleset (see docs/decisions/panzerfaust.md)."""

KINDS: dict = {}
