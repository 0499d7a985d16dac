"""The shape of a name: whether a word looks like a name of a method or
dataset ("FairOPT", "GPT-4o", "Kestrel-7"), by the rule families "lexicon"
and "entity_patterns". Used by the entity patterns and the proposals."""

from __future__ import annotations

from functools import lru_cache

from spacy.tokens import Token

from kg.entities.lexicon import Lexicon
from kg.nlp.tokens import Tok


def is_name_like(tok: Token | Tok, lex: Lexicon) -> bool:
    """A token shaped like a name: CamelCase, acronym, or letters with digits
    and a capital ("FairOPT", "TEAL", "GPT-4o", "Kestrel-7"); not a number, a
    unit, a generic acronym ("GPU", "AI") or a function word."""
    return name_like_text(tok.text, lex)


def _is_language_pair(text: str, lex: Lexicon) -> bool:
    """ "English-to-German", "En-De", "Zh→En": a translation direction, not a name."""
    parts = lex.patterns.language_pair_split.split(text)
    return len(parts) == 2 and all(p.capitalize() in lex.languages or p.lower() in lex.languages for p in parts)


@lru_cache(maxsize=65536)
def name_like_text(text: str, lex: Lexicon) -> bool:
    shapes = lex.patterns
    if len(text) < 2 or text in lex.not_names or shapes.number.match(text) or shapes.unit.match(text) \
            or text in shapes.roman_numerals or shapes.hardware_name.match(text) \
            or text.lower().startswith(shapes.not_name_prefixes):
        return False
    if not text[0].isalnum() or not any(c.isalpha() for c in text) or shapes.not_in_names.search(text):
        return False
    if text.lower() in lex.name_stop_words:
        return False
    if _is_language_pair(text, lex):
        return False
    if "-" in text:
        parts = text.split("-")
        # "transformer-based", "RNN-like": an adjective, not a name.
        if parts[-1].lower() in lex.adjective_suffixes:
            return False
        # "Yule-Walker", "Head-Count": capitalised words joined, no digits or inner capitals.
        if all(p[:1].isupper() and p[1:].islower() for p in parts if p):
            return False
        # "L2-regularized-target-loss": a compound of lower-case words.
        if len(parts) >= 3 and all(p.islower() for p in parts[1:]):
            return False
    inner_caps = sum(c.isupper() for c in text[1:])
    if inner_caps >= 1 and (text[0].isupper() or text[0].isdigit()):
        return True
    # "Kestrel-7", "Gemma2": a capitalised word with a number in it.
    if text[0].isupper() and any(c.isdigit() for c in text):
        return True
    # "wav2vec"-style lower-case names are left to the gazetteer.
    return False
