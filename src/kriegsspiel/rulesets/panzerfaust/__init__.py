"""panzerfaust ruleset (see docs/decisions/panzerfaust.md)."""

from .models import KINDS

__all__ = ["KINDS"]
