"""Table units: every distance in the geometry layer is in the table's own unit."""

from __future__ import annotations

from enum import StrEnum

CM_PER_INCH = 2.54


class Unit(StrEnum):
    """The unit a table is measured in (quickref/battleground: inch, panzerfaust: cm)."""

    INCH = "in"
    CM = "cm"

    @property
    def cm(self) -> float:
        """Length of one of this unit in centimetres."""
        return CM_PER_INCH if self is Unit.INCH else 1.0


def convert(value: float, from_unit: Unit | str, to_unit: Unit | str) -> float:
    """Convert a length between table units."""
    return value * Unit(from_unit).cm / Unit(to_unit).cm
