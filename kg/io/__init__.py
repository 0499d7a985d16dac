"""Readers (one per input format) and atomic writers."""

from kg.io.readers import ReadReport, read_file, read_inputs

__all__ = ["read_inputs", "read_file", "ReadReport"]
