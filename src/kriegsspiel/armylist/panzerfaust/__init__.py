"""The Panzerfaust army builder: catalogue view, construction rules (rules.yaml), pricing,
validation and editing."""

from .builder import PanzerfaustBuilder as Builder

__all__ = ["Builder"]
