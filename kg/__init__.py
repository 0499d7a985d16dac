"""kg: a knowledge-graph builder for machine-learning paper abstracts.

Flow: read -> extract -> records -> graph -> store -> query / view / export.
"""

__version__ = "0.1.0"
