"""Who a relation of a sentence is about: the subject the rules of every
relation ask for (`find_subject`), and the ways a sentence names the paper's
proposal ("our method", "we", "it", a proposal's name where no entity span
marks it) or compares with another method rather than being about it.

The subject of a sentence is, in this order: a proposed method named before
the cue; "our method", "the proposed approach", "we", "it" standing for the
paper's main proposal; another named method before the cue. When the paper
proposes nothing by name, sentences about "our method" give nothing.
"""

from __future__ import annotations

import re
from typing import Iterable

from kg.relations.sentence import Mention, Sentence, start_of_clause


def refers_to_proposal(s: Sentence, pos: int) -> bool:
    """ "our method", "we", "it" before character `pos` of the sentence."""
    c = s.cues
    text = s.text[:pos]
    return bool(c.self_reference.search(text, s.places) or c.it_reference.search(text, s.places))


def find_subject(s: Sentence, pos: int, exclude: Iterable[tuple[int, int]] = (),
             compared: bool = False) -> tuple[str | None, float]:
    """Who does what the words at `pos` say, and how sure we are. For a
    comparison (`compared`), earlier work named in the clause ("the previous
    baseline", "existing methods") is its subject rather than the proposal."""
    excluded = list(exclude)

    def free(m: Mention) -> bool:
        return all(m.end <= a or m.start >= b for a, b in excluded)

    start = start_of_clause(s, pos)
    before = [m for m in s.of("Method") if start <= m.start and m.end <= pos and free(m)]
    proposed = [m for m in before if m.proposed]
    if proposed:
        return proposed[-1].name, 0.9
    clause = s.text[start:pos]
    # "our method", "we", "it": found once, both to name the proposal and, below, to rule out others.
    refs = [r.end() for r in _self_references(s, clause, start)]
    written = written_proposal(s, clause)
    if written is not None:
        return written, 0.8
    if s.main and refs:
        # "It" stands for the proposal named last before the sentence; "our method" for the paper's.
        its = s.cues.it_reference.finditer(clause, s.places, start)
        if s.last_proposal and its and its[-1].end() == refs[-1]:
            return s.last_proposal, 0.8
        return s.main, 0.8
    others = [m for m in before if not _compared_mention(s, start, m)]
    if refs and (not others or start + refs[-1] > others[-1].end):
        if others and s.cues.instrument.search(s.text, max(start, others[-1].start - 30), others[-1].start):
            return others[-1].name, 0.6  # "by using FooNet ..., we reach ...": what "we" use does it
        return None, 0.0  # "our method" with nothing proposed by name
    if s.main and s.follows_proposal:
        # "FooNet beats X. They also ...": the proposal the sentence before named, unless a method follows "they".
        carried = s.cues.carried_reference.finditer(clause, s.places, start)
        if carried and (not others or start + carried[-1].end() > others[-1].end):
            return s.last_proposal or s.main, 0.7
    if others:
        own = _proposal_by_head(s, others[-1])
        return (own, 0.7) if own else (others[-1].name, 0.6)
    if compared and s.cues.earlier_work.fullmatch(clause):
        return None, 0.0  # "although the older baseline beats X": earlier work compared, not the proposal
    if s.main and s.cues.definite_reference.search(clause, s.places, start):
        return s.main, 0.65  # "On CIFAR-10 the optimizer converges ...", with no other method named
    whole = [m for m in s.of("Method") if m.end <= pos and m.proposed and free(m)]
    if whole:
        return whole[-1].name, 0.7
    if s.main and refers_to_proposal(s, pos) and not _own_subject(s, pos):
        return s.main, 0.65
    return None, 0.0


def _own_subject(s: Sentence, pos: int) -> bool:
    """Whether a clause opened by a word of relation_cues
    subject_clause_openers ("that") names a subject of its own before the
    words at `pos`: "we find that pruning outperforms X" is about pruning,
    not about what "we" made. The opener must stand in the clause of `pos`
    ("we show that our model ..., while improving X over Y" is still ours).
    (A method, "our method" or "the model" there were read before this is asked.)"""
    start = start_of_clause(s, pos)
    opened = [m for m in s.cues.subject_clause.finditer(s.text, 0, pos) if m.end() >= start]
    return bool(opened) and bool(_WORD.search(s.text, opened[-1].end(), pos))


_WORD = re.compile(r"[A-Za-z]")


def _proposal_by_head(s: Sentence, m: Mention) -> str | None:
    """ "the transformer model scores ...", where the paper proposes "Foo
    Fusion Transformer": the one proposal whose last word the mention is,
    named by it with a determiner before and a method noun after."""
    c = s.cues
    if not c.determiner_before.search(s.text, max(0, m.start - 12), m.start) or not c.method_noun_after.match(s.text, m.end):
        return None
    word = s.text[m.start:m.end].lower()
    own = {name for name in s.proposals.values() if name.lower() != word and name.lower().rsplit(None, 1)[-1] == word}
    return own.pop() if len(own) == 1 else None


def written_proposal(s: Sentence, clause: str) -> str | None:
    """The proposal whose name `clause` writes last, even where no entity
    span marks it ("Quokkas are more effective than ...")."""
    best, at_best = None, -1
    for surface, name in s.proposals.items():
        at = clause.rfind(surface)
        if at > at_best and _names(clause, surface, at):
            best, at_best = name, at
    return best


def _names(text: str, name: str, at: int) -> bool:
    """Whether `name`, found at `at` in `text`, stands there as a whole word."""
    return not text[at + len(name):at + len(name) + 1].isalnum() and not text[at - 1:at].isalnum()


def _self_references(s: Sentence, clause: str, start: int) -> list[re.Match]:
    """ "our method", "we", "it" in `clause`, the sentence's text from `start` on."""
    c = s.cues
    return c.self_reference.finditer(clause, s.places, start) + c.it_reference.finditer(clause, s.places, start)


def _compared_mention(s: Sentence, start: int, m: Mention) -> bool:
    """A method named after "than", "compared to", "unlike", "outperforms": not the subject."""
    c = s.cues
    before = s.text[start:m.start]
    # "match the performance of standard X", "on par with X", "comparable to recent X": X is the yardstick.
    if c.yardstick.search(before):
        return True
    for cue in (c.improve_verb, c.improve_object):
        # "outperforms all X", "improves X performance": X is the object.
        verb = cue.search(before, s.places, start)
        if verb and c.verb_object_start.fullmatch(before, verb.end()):
            return True
    found = c.compared_before.search(before)
    if found and not before[:found.start()].strip() and c.setting_opener.match(before):
        return False  # "On long clauses FooNet outperforms X": the clause opens with where, FooNet is its subject
    return bool(found)
