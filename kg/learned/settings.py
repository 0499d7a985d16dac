"""The tagger's size and how long it trains: kept apart from the training
code so that the command line reads the defaults without loading spaCy."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaggerSettings:
    """The tagger's size and how long it trains."""

    epochs: int = 10
    width: int = 48
    depth: int = 2
    embed_rows: int = 2000
    dropout: float = 0.2
    seed: int = 0

    def model_config(self) -> dict:
        return {"model": {
            "@architectures": "spacy.Tagger.v2",
            "tok2vec": {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None,
                        "width": self.width, "depth": self.depth, "embed_size": self.embed_rows,
                        "window_size": 1, "maxout_pieces": 2, "subword_features": True}}}
