"""Readers (one per input format) and atomic writers."""

from kg.io.readers import read_inputs, read_file, ReadReport

__all__ = ["read_inputs", "read_file", "ReadReport"]
