"""The cheap scans that tell the rule components where a pattern can match
must never miss a place where the pattern does match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

# -- numbers: tried only where a number can begin, gains looked for only near their words ------
_NUMBER_PIECES = ["1", "12", "3.5", ".5", "1,000", "2019", "+", "-", "\u2212", "\u00b1", ".", ",", " ", " ", "~",
                  "\u2013", "between", "Between", "BETWEEN", "and", "to", "from", "%", "x", "X", "times", "points",
                  "pp", "p.p.", "ms", "a", "v", "ResNet", "@", "/", "(", ")", "absolute", "Relative", "percentage",
                  "\u0661\u0662", "\u00e9", "\u017f", "\u0130", "ab\u017folute", "relat\u0131ve"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_NUMBER_PIECES), max_size=25))
def test_numbers_tried_where_they_can_begin_are_those_a_scan_finds(pieces: list[str]) -> None:
    from kg.extract.numbers import _ANY_DIGIT, _number_starts, _patterns
    from kg.extract.scanning import matches_at

    text = "".join(pieces)
    digit = _ANY_DIGIT.search(text)
    if not digit:
        return
    single, _, span = _patterns()
    starts = _number_starts(text, digit.start())
    spans = [m.span() for m in matches_at(single, text, starts)]
    assert spans == [m.span() for m in single.finditer(text)]
    if text.isascii():
        between = [i for i in range(len(text)) if text.lower().startswith("between", i)]
        spans = [m.span() for m in matches_at(span, text, sorted(starts + between))]
        assert spans == [m.span() for m in span.finditer(text)]


def _gain_read_in_full(text: str, start: int, end: int, unit: str | None) -> str | None:
    """numbers._gain without its early return: both windows are cut and searched."""
    from kg.extract.numbers import _ABSOLUTE, _OTHER_NUMBER, _RELATIVE

    before = _OTHER_NUMBER.split(text[max(0, start - 40):start])[-1]
    after = _OTHER_NUMBER.split(text[end:end + 25])[0]
    if unit == "points" and "percentage" in text[start:end].lower():
        return "absolute"
    for window in (after[:20], before):
        if _ABSOLUTE.search(window):
            return "absolute"
        if _RELATIVE.search(window):
            return "relative"
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_NUMBER_PIECES), max_size=25), st.data())
def test_gain_returning_early_misses_no_gain_word(pieces: list[str], data) -> None:
    from kg.extract.numbers import _gain

    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    unit = data.draw(st.sampled_from([None, "points", "%"]))
    assert _gain(text, start, end, unit) == _gain_read_in_full(text, start, end, unit)
