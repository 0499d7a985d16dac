"""Text clean-up between the bytes of an input file and an Abstract.

Policy (see docs/input.md):
- a line is UTF-8; failing that Windows-1252 (the usual legacy encoding of
  exported spreadsheets), with a warning; failing both it is not text and the
  record is skipped;
- control characters, lone surrogates and the non-characters U+FFFE/U+FFFF
  are replaced one for one (a space, or U+FFFD for surrogates), so the
  cleaned text has the same length as the input and every character offset
  means the same position in both;
- an abstract longer than MAX_ABSTRACT_CHARS is skipped: it is a whole paper
  or a broken export, and the rule pipeline is tuned for paragraphs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

MAX_ABSTRACT_CHARS = 100_000
LEGACY_ENCODING = "cp1252"

# Tab and newline are ordinary whitespace; every other C0/C1 control, DEL and
# the two non-characters are replaced by a space.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_line(raw: bytes) -> tuple[str | None, bool]:
    """(text, legacy): text is None when the bytes are neither UTF-8 nor
    Windows-1252; legacy says the fallback was used."""
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode(LEGACY_ENCODING), True
    except UnicodeDecodeError:
        return None, False


def clean_text(text: str) -> tuple[str, int]:
    """(cleaned text, number of characters replaced); same length as `text`."""
    n = 0
    if _CONTROL.search(text):
        text, k = _CONTROL.subn(" ", text)
        n += k
    if _SURROGATE.search(text):
        text, k = _SURROGATE.subn("\ufffd", text)
        n += k
    return text, n


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    res = resources.files("kg.resources") / "english_function_words.txt"
    words = res.read_text(encoding="utf-8").split()
    return frozenset(w for w in words if not w.startswith("#"))


_LETTER = re.compile(r"[^\W\d_]")
_NON_LATIN_LETTER = re.compile(r"[^\W\d_\u0000-\u024f]")
_SAMPLE = 1000  # characters judged: enough to tell a language, and keeps the cost flat


def looks_non_english(text: str) -> bool:
    """True when a text of some length is mostly in a non-Latin script, or has
    almost none of the commonest English function words. A heuristic for a
    warning only: the rules are written for English, so such abstracts yield
    few entities."""
    sample = text[:_SAMPLE].lower()
    # Most texts with a non-ASCII character ("–", "é") have no letter outside
    # Latin script: one search tells, before every letter is counted (which
    # costs as much as the rest of reading such an abstract).
    if not sample.isascii() and _NON_LATIN_LETTER.search(sample):
        letters = len(_LETTER.findall(sample))
        if letters >= 30 and len(_NON_LATIN_LETTER.findall(sample)) > letters / 2:
            return True
    words = sample.split()
    if len(words) < 12 or len(sample) < 80:
        return False
    hits = sum(map(_function_words().__contains__, words))
    return hits < 0.05 * len(words)
