"""Graph -> a self-contained interactive HTML page."""

from kg.view.html import write_view
from kg.view.select import DEFAULT_MAX_NODES, ViewError, parse_types

__all__ = ["write_view", "ViewError", "parse_types", "DEFAULT_MAX_NODES"]
