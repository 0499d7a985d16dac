"""A parser of the regex syntax kg's cue patterns use, into a small tree that
tests/cue_texts.py writes texts from (re's own parser is private).

Only that syntax is read: literals and escaped punctuation, \\uXXXX, \\n, \\t,
. and the classes \\d \\s \\w (and \\D \\S \\W), sets [...] with ranges and
negation, groups (plain, (?:...), (?P<name>...), scoped flags (?i-m:...)),
lookaround, |, the quantifiers ? * + {m} {m,n} {m,} {,n} and their lazy forms,
and the anchors ^ $ \\b \\B \\A \\Z. Anything else (backreferences, global
inline flags, possessive quantifiers, verbose patterns, ...) raises
RegexSyntaxError, so that a rule using new syntax fails the tests loudly
instead of being written wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union


class RegexSyntaxError(ValueError):
    """Syntax this parser does not read."""


@dataclass(frozen=True)
class Literal:
    char: str


@dataclass(frozen=True)
class AnyChar:
    pass


@dataclass(frozen=True)
class CharSet:
    ranges: tuple[tuple[str, str], ...]  # in the order written; a single character is a range of one
    categories: tuple[str, ...] = ()  # "d", "s", "w"; upper case for their complements
    negated: bool = False


@dataclass(frozen=True)
class Branch:
    alternatives: tuple[Seq, ...]


@dataclass(frozen=True)
class Group:
    items: Seq
    name: str = ""  # a capture's name or number; "" for (?flags:...)
    flags: str = ""


@dataclass(frozen=True)
class Repeat:
    low: int
    high: int | None  # None: no upper bound
    item: Seq
    lazy: bool = False


@dataclass(frozen=True)
class Assertion:
    items: Seq
    behind: bool
    negative: bool


@dataclass(frozen=True)
class Anchor:
    kind: str  # "^", "$", "\\b", "\\B", "\\A", "\\Z"


Node = Union[Literal, AnyChar, CharSet, Branch, Group, Repeat, Assertion, Anchor]
Seq = tuple[Node, ...]

_CATEGORIES = "dswDSW"
_CHAR_ESCAPES = {"n": "\n", "t": "\t"}


def parse(pattern: str, flags: int = 0) -> Seq:
    """The tree of `pattern`: a sequence of nodes."""
    if flags & re.VERBOSE:
        raise RegexSyntaxError(f"verbose patterns are not read: {pattern!r}")
    return _Parser(pattern).whole()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.pos, self.groups = text, 0, 0

    def error(self, what: str) -> RegexSyntaxError:
        return RegexSyntaxError(f"{what} at {self.pos} in {self.text!r}")

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def eat(self, s: str) -> bool:
        if self.text.startswith(s, self.pos):
            self.pos += len(s)
            return True
        return False

    def next(self) -> str:
        if self.pos >= len(self.text):
            raise self.error("unexpected end")
        self.pos += 1
        return self.text[self.pos - 1]

    def whole(self) -> Seq:
        seq = self.alternation()
        if self.pos < len(self.text):
            raise self.error("unbalanced )")
        return seq

    def alternation(self) -> Seq:
        alternatives = [self.sequence()]
        while self.eat("|"):
            alternatives.append(self.sequence())
        return _joined(alternatives)

    def sequence(self) -> Seq:
        items: list[Node] = []
        while self.pos < len(self.text) and self.peek() not in "|)":
            atom = self.atom()
            repeat = self.quantifier(atom)
            # (?:...) adds no node of its own; re's parse does the same, which matters to _joined.
            items.extend((repeat,) if repeat else atom)
        return tuple(items)

    def quantifier(self, atom: Seq) -> Repeat | None:
        if self.eat("?"):
            low, high = 0, 1
        elif self.eat("*"):
            low, high = 0, None
        elif self.eat("+"):
            low, high = 1, None
        elif bounds := re.match(r"\{(\d*)(,?)(\d*)\}", self.text[self.pos:]):
            self.pos += bounds.end()
            low = int(bounds[1] or 0)
            high = int(bounds[3]) if bounds[3] else None if bounds[2] else low
            if not (bounds[1] or bounds[2]) or (high is not None and high < low):
                raise self.error("bad repeat bounds")
        else:
            return None
        if not atom or len(atom) == 1 and isinstance(atom[0], (Anchor, Assertion)):
            raise self.error("nothing to repeat")
        lazy = self.eat("?")
        if self.peek() and self.peek() in "?*+{":
            raise self.error("repeat of a repeat (or a possessive one)")
        return Repeat(low, high, atom, lazy)

    def atom(self) -> Seq:
        ch = self.next()
        if ch == "(":
            return self.group()
        if ch == "[":
            return (self.charset(),)
        if ch == ".":
            return (AnyChar(),)
        if ch in "^$":
            return (Anchor(ch),)
        if ch == "\\":
            return (self.escape(),)
        if ch in "?*+":
            raise self.error(f"nothing to repeat with {ch}")
        if ch == "{":  # re would read it as a literal; a rule meaning a repeat would be written wrong
            raise self.error("a { that opens no repeat (escape it)")
        return (Literal(ch),)

    def group(self) -> Seq:
        if self.eat("?:"):
            items = self.alternation()
            self.close()
            return items
        if look := re.match(r"\?(<?)([=!])", self.text[self.pos:]):
            self.pos += look.end()
            items = self.alternation()
            self.close()
            return (Assertion(items, behind=bool(look[1]), negative=look[2] == "!"),)
        name, flags = "", ""
        if self.eat("?P<"):
            end = self.text.find(">", self.pos)
            if end < 0 or not self.text[self.pos:end].isidentifier():
                raise self.error("bad group name")
            name, self.pos = self.text[self.pos:end], end + 1
        elif flag := re.match(r"\?([ims]*-?[ims]*):", self.text[self.pos:]):
            self.pos += flag.end()
            flags = flag[1]
        elif self.peek() == "?":
            raise self.error("unsupported group")
        else:
            self.groups += 1
            name = str(self.groups)
        items = self.alternation()
        self.close()
        return (Group(items, name, flags),)

    def close(self) -> None:
        if not self.eat(")"):
            raise self.error("missing )")

    def escape(self) -> Node:
        ch = self.next()
        if ch in "bBAZ":
            return Anchor("\\" + ch)
        if ch in _CATEGORIES:
            return CharSet((), (ch,))
        return Literal(self.escaped_char(ch))

    def escaped_char(self, ch: str) -> str:
        if ch == "u":
            digits = self.peek(4)
            if not re.fullmatch(r"[0-9a-fA-F]{4}", digits):
                raise self.error("bad \\u escape")
            self.pos += 4
            return chr(int(digits, 16))
        if ch in _CHAR_ESCAPES:
            return _CHAR_ESCAPES[ch]
        if ch.isascii() and ch.isalnum():
            raise self.error(f"unsupported escape \\{ch}")
        return ch

    def charset(self) -> Node:
        negated = self.eat("^")
        ranges: list[tuple[str, str]] = []
        categories: list[str] = []
        first = True
        while first or not self.eat("]"):
            first = False
            lo = self.set_item()
            if self.peek() == "-" and self.peek(2) != "-]":
                self.pos += 1
                hi = self.set_item()
                if len(lo) != 1 or len(hi) != 1 or hi < lo:
                    raise self.error("bad range")
                ranges.append((lo, hi))
            elif len(lo) == 1:
                ranges.append((lo, lo))
            else:
                categories.append(lo[1])
        ranges, categories = list(dict.fromkeys(ranges)), list(dict.fromkeys(categories))
        if not negated and not categories and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
            return Literal(ranges[0][0])  # [.] is "." (re's parse does the same)
        return CharSet(tuple(ranges), tuple(categories), negated)

    def set_item(self) -> str:
        """A character of a set, or "\\d" and the like for a class."""
        ch = self.next()
        if ch != "\\":
            return ch
        ch = self.next()
        return "\\" + ch if ch in _CATEGORIES else self.escaped_char(ch)


def _joined(alternatives: list[Seq]) -> Seq:
    """Alternatives as one node, after the nodes they all open with.

    This is what re's own parse does: it moves out the characters that all
    alternatives open with, and makes one-character alternatives one set.
    cue_texts writes one example per branch, not per set, so doing the same
    keeps the examples the tests were written against ("improves|improved"
    gives "improves" alone). Repeats, groups and lookarounds never count as
    shared openings, as in re, which compares only single characters."""
    if len(alternatives) == 1:
        return alternatives[0]
    head: list[Node] = []
    while all(alternatives) and isinstance(alternatives[0][0], (Literal, AnyChar, CharSet, Anchor)) \
            and all(alt[0] == alternatives[0][0] for alt in alternatives):
        head.append(alternatives[0][0])
        alternatives = [alt[1:] for alt in alternatives]
    ranges: list[tuple[str, str]] = []
    categories: list[str] = []
    for alt in alternatives:
        if len(alt) != 1 or not isinstance(alt[0], (Literal, CharSet)) or getattr(alt[0], "negated", False):
            return (*head, Branch(tuple(alternatives)))
        if isinstance(alt[0], Literal):
            ranges.append((alt[0].char, alt[0].char))
        else:
            ranges.extend(alt[0].ranges)
            categories.extend(alt[0].categories)
    return (*head, CharSet(tuple(dict.fromkeys(ranges)), tuple(dict.fromkeys(categories))))
