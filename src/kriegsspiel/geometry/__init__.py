"""Ruleset-agnostic table geometry: units, footprints, terrain, line of sight, movement
along paths (pivots, swept areas), templates and scatter."""

from kriegsspiel.geometry.footprint import (
    Footprint,
    aspect,
    bearing,
    centre_distance,
    distance,
    in_arc,
    move_along,
    path_length,
    relative_bearing,
    turn_needed,
)
from kriegsspiel.geometry.los import (
    LOSResult,
    SightRules,
    line_of_sight,
    line_of_sight_to_footprint,
    visible,
    visible_many,
)
from kriegsspiel.geometry.motion import (
    PathPoint,
    pivot_sweep,
    point_along,
    point_at_fraction,
    swept,
    turns,
)
from kriegsspiel.geometry.reach import reach_cells
from kriegsspiel.geometry.templates import (
    cone,
    rectangle,
    ring,
    scatter,
    scatter_bearing,
    scatter_outcomes,
    share_under,
    under,
)
from kriegsspiel.geometry.terrain import Crossing, Feature, Table, blocking_predicate, clip_lines
from kriegsspiel.geometry.units import Unit, convert

__all__ = [
    "PathPoint",
    "cone",
    "pivot_sweep",
    "point_along",
    "point_at_fraction",
    "reach_cells",
    "rectangle",
    "ring",
    "scatter",
    "scatter_bearing",
    "scatter_outcomes",
    "share_under",
    "swept",
    "turns",
    "under",
    "Crossing",
    "Feature",
    "Footprint",
    "LOSResult",
    "SightRules",
    "Table",
    "Unit",
    "aspect",
    "bearing",
    "blocking_predicate",
    "centre_distance",
    "clip_lines",
    "convert",
    "distance",
    "in_arc",
    "line_of_sight",
    "line_of_sight_to_footprint",
    "move_along",
    "path_length",
    "relative_bearing",
    "turn_needed",
    "visible",
    "visible_many",
]
