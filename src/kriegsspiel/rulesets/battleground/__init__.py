"""battleground ruleset (see docs/decisions/battleground.md)."""

KINDS: dict = {}
