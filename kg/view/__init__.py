"""Graph -> a self-contained interactive HTML page."""

from kg.view.html import write_view

__all__ = ["write_view"]
