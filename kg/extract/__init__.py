"""Doc -> extraction record (the JSON of spec/extraction-record.md)."""

from kg.extract.record import doc_to_record, Extractor

__all__ = ["doc_to_record", "Extractor"]
