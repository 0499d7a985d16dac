"""Learned components: trained from gold records, saved in spaCy's own
format, loaded by config beside the rules."""
