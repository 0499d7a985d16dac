"""Relation rules: one module per relation (evaluated_on, addresses,
improves_over, achieves), their cue words, and the helpers they share
(the sentence, its numbers, whose result a number is, baselines, subjects)."""
