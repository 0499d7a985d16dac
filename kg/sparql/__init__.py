"""SPARQL access: the query guard, result formats, ready questions and the worker processes
that run queries under a time limit. Nothing here imports spaCy."""
