"""Pictures of a table as one side sees it (PNG or SVG), drawn from a view."""

from .table import render_view

__all__ = ["render_view"]
