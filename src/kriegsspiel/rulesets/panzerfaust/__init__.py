"""panzerfaust ruleset (see docs/decisions/panzerfaust.md)."""

from .models import KINDS
from .options import Options

UNIT = "cm"

__all__ = ["KINDS", "UNIT", "Options"]
