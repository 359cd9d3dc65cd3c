"""battleground ruleset: Battleground World War II (see docs/decisions/battleground.md)."""

from .models import KINDS
from .options import Options

UNIT = "inch"

__all__ = ["KINDS", "UNIT", "Options"]
