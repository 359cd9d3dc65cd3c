"""Data: schema-checked records with provenance, loaded from YAML, with user overlays."""

from .catalogue import Catalogue, Entry, apply_overlay, load_catalogue
from .errors import DataError, DataIssue, NotImplementedRule, RuleError
from .provenance import FieldProvenance, Provenance, Record, Source

__all__ = [
    "Catalogue",
    "DataError",
    "DataIssue",
    "Entry",
    "FieldProvenance",
    "NotImplementedRule",
    "RuleError",
    "Provenance",
    "Record",
    "Source",
    "apply_overlay",
    "load_catalogue",
]
