"""tests/regex_parse.py, the parser cue_texts writes example texts with."""

from __future__ import annotations

import re

import pytest

from regex_parse import (AnyChar, Anchor, Assertion, Branch, CharSet, Group, Literal, RegexSyntaxError, Repeat,
                         parse)


def test_the_tree_of_each_kind_of_syntax() -> None:
    assert parse(r"\bbe(?:at|st)s?\s+[^\d.a-c-]{1,3}?(?-i:X)(?P<n>.)*(?<!a)(?=\u2212)$") == (
        Anchor("\\b"), Literal("b"), Literal("e"),
        Branch(((Literal("a"), Literal("t")), (Literal("s"), Literal("t")))),
        Repeat(0, 1, (Literal("s"),)), Repeat(1, None, (CharSet((), ("s",)),)),
        Repeat(1, 3, (CharSet(((".", "."), ("a", "c"), ("-", "-")), ("d",), negated=True),), lazy=True),
        Group((Literal("X"),), flags="-i"), Repeat(0, None, (Group((AnyChar(),), name="n"),)),
        Assertion((Literal("a"),), behind=True, negative=True),
        Assertion((Literal("\u2212"),), behind=False, negative=False), Anchor("$"))
    assert parse(r"[.]\.[\]]\-\ (x)") == (Literal("."), Literal("."), Literal("]"), Literal("-"), Literal(" "),
                                          Group((Literal("x"),), name="1"))


def test_alternatives_are_joined_as_re_parses_them() -> None:
    # Shared openings move out, and one-character alternatives become one set (one example, not two).
    s, d = CharSet((("s", "s"), ("d", "d"))), CharSet((), ("d",))
    assert parse("improves|improved") == (*map(Literal, "improve"), s)
    assert parse(r"a|\d") == (CharSet((("a", "a"),), ("d",)),)
    assert parse(r"\s+a|\s+b")[0] == Branch(((Repeat(1, None, (CharSet((), ("s",)),)), Literal("a")),
                                             (Repeat(1, None, (CharSet((), ("s",)),)), Literal("b"))))
    assert parse(r"x\d|x\d")[:2] == (Literal("x"), d)


@pytest.mark.parametrize("pattern", [r"(a)\1", "(?i)a", "a*+", "a**", "a{2", r"\x41", "(?#c)", r"[\b]", "(?>a)",
                                     "a)", "(a", "[a", "*a", r"\b*", "(?P=n)", "[z-a]", "a{3,1}", "(?<n>a)"])
def test_syntax_it_does_not_read_fails_loudly(pattern: str) -> None:
    with pytest.raises(RegexSyntaxError):
        parse(pattern)


def test_a_verbose_pattern_fails_loudly() -> None:
    with pytest.raises(RegexSyntaxError):
        parse("a", re.VERBOSE)
