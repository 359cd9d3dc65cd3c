"""Army builder: rosters, construction rules as data, validation, export (DESIGN: armylist/).

Layer: above rulesets, below the faces. `roster` is ruleset-neutral; each ruleset with points
has a builder package (`builders.BUILDERS`)."""

from .builders import builder
from .report import Message, Report
from .roster import Roster, RosterError, Selection, load_roster, save_roster

__all__ = [
    "Message",
    "Report",
    "Roster",
    "RosterError",
    "Selection",
    "builder",
    "load_roster",
    "save_roster",
]
