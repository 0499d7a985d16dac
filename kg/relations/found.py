"""The relations a document's rules have found so far, kept once each:
what the rules of every relation add to and the component hands on."""

from __future__ import annotations

from kg.relations.sentence import Sentence


class FoundRelations:
    """Relations found so far, without duplicates, in the order found."""

    def __init__(self) -> None:
        self.by_key: dict[tuple, dict] = {}

    def add(self, s: Sentence, rel: dict, confidence: float) -> None:
        if not rel.get("s") or rel.get("s") == rel.get("o"):
            return
        rel = {k: v for k, v in rel.items() if v is not None}
        key = tuple(rel.get(k) for k in ("s", "p", "o", "metric", "value", "dataset"))
        old = self.by_key.get(key)
        if old is not None:
            old["confidence"] = max(old["confidence"], confidence)
            return
        rel["span"] = [s.start_char, s.end_char]
        rel["confidence"] = round(confidence, 2)
        self.by_key[key] = rel

    def add_unplaced(self, rel: dict, confidence: float) -> None:
        """A relation read outside the abstract's sentences (the title): no span."""
        rel = {k: v for k, v in rel.items() if v is not None}
        key = tuple(rel.get(k) for k in ("s", "p", "o", "metric", "value", "dataset"))
        if key not in self.by_key:
            self.by_key[key] = {**rel, "confidence": round(confidence, 2)}

    def items(self) -> list[dict]:
        rels = list(self.by_key.values())
        # A comparison stated once with a number and once without is one relation.
        valued = {(r["s"], r["p"], r.get("o")) for r in rels if "value" in r}
        # ... and so is one whose baseline is written once with a kind word after it: "Transformer",
        # "the Transformer network" (either may be the one with the number).
        shorter = {(s, p, _first_words(o)) for s, p, o in valued}
        return [r for r in rels if "value" in r or r["p"] != "improvesOver"
                or ((r["s"], r["p"], r.get("o")) not in valued | shorter
                    and (r["s"], r["p"], _first_words(r.get("o"))) not in valued)]


def _first_words(name: str | None) -> str | None:
    """A name without its last word: "Transformer network" -> "Transformer"; a one-word name stays whole."""
    if not name or " " not in name:
        return name
    return name.rsplit(" ", 1)[0]
