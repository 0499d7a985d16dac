"""Relations between the entities of one sentence: evaluatedOn, addresses,
improvesOver, achieves. A spaCy component (registered as "kg_relations")
that reads doc.spans["entities"] and writes doc._.kg_relations.

Each relation comes from one sentence and is a dict as in
spec/extraction-record.md (s, p, o, metric, value, unit, dataset), plus
"span" (the sentence's character offsets), "confidence" (0..1) and, for a
gain the text calls absolute or relative, "gain".

The subject of a sentence is, in this order: a proposed method named before
the cue; "our method", "the proposed approach", "we", "it" standing for the
paper's main proposal; another named method before the cue. When the paper
proposes nothing by name, sentences about "our method" give nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.address_cues import AddressCues, address_cues
from kg.extract.baselines import Baseline, baselines_from
from kg.extract.numbers import Quantity, number_reader, runs
from kg.extract.relation_cues import Cues, cues
from kg.extract.relation_sentence import Mention, Sentence, doc_mentions, sentence_view
from kg.extract.results import (averaged, baseline_score, cost_figure, efficiency, for_method, measured_against,
                                named_for_training, plain_score, previous_in_list, respective, respective_metric,
                                result_rules, result_setting, rules_of, score_list, unit_fits)
from kg.nlp.tokens import doc_text, sentence_starts_of, view_columns


@dataclass
class Comparison:
    """One improvement cue of a sentence with what it compares."""

    subject: str
    baselines: list[Baseline]
    cue_start: int
    end: int  # where the last baseline ends


# -- the component -------------------------------------------------------------
if not Doc.has_extension("kg_relations"):
    Doc.set_extension("kg_relations", default=None)


@Language.factory("kg_relations", default_config={"min_confidence": 0.0, "rules": []})
def make_relations(nlp: Language, name: str, min_confidence: float, rules: list[str]) -> "RelationFinder":
    """`rules`: the user's rules files (kg.rules), applied over the packaged cues."""
    return RelationFinder(min_confidence, rules)


class RelationFinder:
    """Finds the four relations sentence by sentence."""

    def __init__(self, min_confidence: float = 0.0, rules: Iterable[str] = ()):
        self.min_confidence = min_confidence
        self.cues = cues(rules)
        self.results = result_rules(rules)
        self.numbers = number_reader(rules)
        self.address_cues = address_cues(rules)

    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)
        ents = doc_mentions(doc, text)
        c = self.cues
        main = _main_proposal(ents, text, c) or title_only_name(doc)
        # The ways the text writes its proposals, to find them where no entity span marks them.
        proposals = {text[m.start:m.end]: m.name for m in ents if m.label == "Method" and m.proposed}
        if main is not None:
            proposals.setdefault(main, main)
        starts = [m.tok_start for m in ents]
        any_trigger = c.any_trigger
        found = _Relations()
        proposed_at = [(m.start, m.name) for m in ents if m.label == "Method" and m.proposed]
        own_data_at = [(m.start, m.name) for m in ents if m.label == "Dataset" and m.proposed]
        unplaced: list[tuple[Sentence, dict]] = []  # margins said without a baseline (_unplaced_gains)
        named_before = False  # whether the sentence before names a proposal (Sentence.follows_proposal)
        setting = None  # the dataset of the results reported so far (see results.result_setting)
        for bounds in _sentences(doc):
            first, end, char_start, char_end = bounds
            lo, hi = bisect_left(starts, first), bisect_left(starts, end)
            lower = None
            if lo == hi:
                if main is None:
                    continue  # no entity, and no proposal to be the subject: nothing to relate
                lower = text[char_start:char_end].lower()
                if not any_trigger(lower):
                    continue  # no entity, and no comparison whose subject could be the proposal
            before = [name for at, name in proposed_at if at < char_start]
            s = sentence_view(doc, bounds, text, [m for m in ents[lo:hi] if m.tok_end <= end], main, c, proposals, lower)
            s.last_proposal = before[-1] if before else None
            s.follows_proposal = named_before
            s.own_datasets = tuple(dict.fromkeys(name for at, name in own_data_at if at < char_start))
            s.context_dataset, s.result_rules, s.numbers = setting, self.results, self.numbers
            s.address_cues = self.address_cues
            comparisons = _comparisons(s)
            _improvements(s, comparisons, found)
            _achievements(s, comparisons, found)
            if not comparisons and s.main is not None and _DIGIT.search(s.text):
                unplaced += _unplaced_gains(s, found)
            _evaluations(s, comparisons, found)
            _addresses(s, found)
            setting = result_setting(s, _test_datasets(s), setting)
            named_before = any(m.proposed and m.label == "Method" for m in s.mentions) \
                or _written_proposal(s, s.text) is not None
        _place_gains(unplaced, found)  # after every sentence: the baseline may be named later
        _evaluations_of_results(found)
        doc._.kg_relations = [r for r in found.items() if r["confidence"] >= self.min_confidence]
        return doc


def _sentences(doc: Doc) -> Iterator[tuple[int, int, int, int]]:
    """Each sentence of `doc` as (first token, end token, start char, end
    char), read from the token columns (kg.nlp.tokens) and its sentence
    starts: Doc.sents makes a Token object for every token, and doc[a:b] a
    Span, and most sentences are skipped unbuilt. The end char is where the
    last token ends (Span.end_char), without the whitespace after it."""
    n = len(doc)
    if not n:
        return
    columns = view_columns(doc)
    texts, idxs = columns[0], columns[2]
    first = 0
    for end in sentence_starts_of(doc)[1:] + [n]:
        yield first, end, idxs[first], idxs[end - 1] + len(texts[end - 1])
        first = end


def _main_proposal(ents: list[Mention], text: str, c: Cues) -> str | None:
    """The paper's own method: the proposed Method the text names most often
    (the first of those on a tie: a part or a variant introduced before the
    system is named less), one written as a name ("Titans", "DEZ") before a
    phrase in lower case ("hidden state"); else the first method the text
    calls its own ("our MambaOut model")."""
    counts: dict[str, int] = {}
    last_end: dict[str, int] = {}
    for m in ents:
        if m.label == "Method" and m.proposed:
            # "Long Form (LF)": a definition names it once
            if m.name not in last_end or text[last_end[m.name]:m.start].strip() not in ("", "("):
                counts[m.name] = counts.get(m.name, 0) + 1
            last_end[m.name] = m.end
    if counts:
        for m in ents:
            # "the FooNet model" names FooNet too
            head = m.name.split(" ", 1)[0]
            if not m.proposed and head != m.name and head in counts:
                counts[head] += 1
        named = {name: n for name, n in counts.items() if not name.islower()}
        return max(named or counts, key=(named or counts).__getitem__)
    for m in ents:
        if m.label == "Method" and c.own_before_name.search(text[max(0, m.start - 20):m.start]):
            return m.name
    return None


def title_only_name(doc: Doc) -> str | None:
    """The method the title names where the abstract never writes it
    ("FooNet: ..." over an abstract about "our network"): the paper's
    proposal when the abstract names none of its own."""
    name = doc._.title_name
    if name is None or name.label != "Method" or name.in_abstract:
        return None
    return name.text


class _Relations:
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

    def items(self) -> list[dict]:
        rels = list(self.by_key.values())
        # A comparison stated once with a number and once without is one relation.
        valued = {(r["s"], r["p"], r.get("o")) for r in rels if "value" in r}
        return [r for r in rels if "value" in r or r["p"] != "improvesOver" or (r["s"], r["p"], r.get("o")) not in valued]


# -- subjects ------------------------------------------------------------------
def _clause_start(s: Sentence, pos: int) -> int:
    """Where the clause holding character `pos` begins."""
    if s.clause_breaks is None:
        s.clause_breaks = _clause_breaks(s.text, s.cues)
    k = bisect_right(s.clause_breaks, pos)
    return s.clause_breaks[k - 1] if k else 0


def _clause_breaks(text: str, c: Cues) -> list[int]:
    """Where a clause of `text` begins: after each mark or word of c.clause_break."""
    return [m.end() for m in c.clause_break.finditer(text)]


def _refers_to_proposal(s: Sentence, pos: int) -> bool:
    """ "our method", "we", "it" before character `pos` of the sentence."""
    c = s.cues
    text = s.text[:pos]
    return bool(c.self_reference.search(text, s.places) or c.it_reference.search(text, s.places))


def _subject(s: Sentence, pos: int, exclude: Iterable[tuple[int, int]] = (),
             compared: bool = False) -> tuple[str | None, float]:
    """Who does what the words at `pos` say, and how sure we are. For a
    comparison (`compared`), earlier work named in the clause ("the previous
    baseline", "existing methods") is its subject rather than the proposal."""
    excluded = list(exclude)

    def free(m: Mention) -> bool:
        return all(m.end <= a or m.start >= b for a, b in excluded)

    start = _clause_start(s, pos)
    before = [m for m in s.of("Method") if start <= m.start and m.end <= pos and free(m)]
    proposed = [m for m in before if m.proposed]
    if proposed:
        return proposed[-1].name, 0.9
    clause = s.text[start:pos]
    # "our method", "we", "it": found once, both to name the proposal and, below, to rule out others.
    refs = [r.end() for r in _self_references(s, clause, start)]
    written = _written_proposal(s, clause)
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
    if s.main and _refers_to_proposal(s, pos) and not _own_subject(s, pos):
        return s.main, 0.65
    return None, 0.0


def _own_subject(s: Sentence, pos: int) -> bool:
    """Whether a clause opened by a word of relation_cues
    subject_clause_openers ("that") names a subject of its own before the
    words at `pos`: "we find that pruning outperforms X" is about pruning,
    not about what "we" made. The opener must stand in the clause of `pos`
    ("we show that our model ..., while improving X over Y" is still ours).
    (A method, "our method" or "the model" there were read before this is asked.)"""
    start = _clause_start(s, pos)
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


def _written_proposal(s: Sentence, clause: str) -> str | None:
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


# -- improvesOver ----------------------------------------------------------------
_DIGIT = re.compile(r"\d")  # the digits margin_over's \d matches, Unicode ones included

def _comparisons(s: Sentence) -> list[Comparison]:
    """Every improvement cue of the sentence with its subject and baselines."""
    c = s.cues
    text = s.text
    found: list[Comparison] = []
    if s.main is None and not s.of("Method"):
        return found  # no method named and no proposal: no comparison has a subject (see _subject)
    may = c.triggered(s.lower)
    if not may:
        return found
    starts: list[tuple[int, int]] = []  # (cue start, where the baselines start)
    for name in ("improve_verb", "comparative_than", "gain_over", "gain_from", "improve_over"):
        if name in may:
            starts += [(m.start(), m.end()) for m in getattr(c, name).finditer(text, s.places)]
    if "margin_over" in may and _DIGIT.search(text):  # a margin is a number: no digit, no scan
        starts += [(m.start(), m.end()) for m in c.margin_over.finditer(text, s.places)]
        # "by an average of 6% over X"; but "85% over three runs" is a score.
        starts += [(m.start(), m.end()) for m in c.percent_over.finditer(text, s.places)
                   if c.gain_before.search(text[max(0, m.start() - 70):m.start()], s.places, max(0, m.start() - 70))]
    if "compared_to" in may:
        compared = [(m.start(), m.end()) for m in c.compared_to.finditer(text, s.places)]
        gainful = bool(compared) and (c.gain_context.search(text, s.places) or any(_is_gain(s, q) for q in s.quantities))
        for cue_start, obj_start in compared:
            other = rules_of(s).other_score.match(text, obj_start)
            if other and _beats(s, cue_start, other):
                starts.append((cue_start, other.end()))
            elif gainful:
                starts.append((cue_start, obj_start))
    # "comparable accuracy to X, with 10x fewer parameters": X is matched, and beaten on the advantage.
    parity: set[int] = set()
    if "parity" in may:
        for m in c.parity.finditer(text, s.places):
            parity.add(m.end())
            starts.append((m.start(), m.end()))
    # "improves BERT", "enhances existing retrievers": the method improved is the object.
    direct: set[int] = set()
    if "improve_object" in may:
        for m in c.improve_object.finditer(text, s.places):
            direct.add(m.end())
            starts.append((m.start(), m.end()))
    # "improves the accuracy of BERT": the method whose result is improved.
    methods = s.of("Method")
    if "improve_of" in may and methods:
        ends = {m.end() for m in c.improve_of.finditer(text, s.places)}
        starts += [(meth.start - 1, meth.start) for meth in methods if meth.start in ends]
        of_method = {meth.start for meth in methods if meth.start in ends}
    else:
        of_method = set()
    # "matches X on A and outperforms it on B": "it" stands for the yardstick named before.
    referred: dict[int, int] = {}  # cue start -> where its pronoun ends
    if parity:
        for k, (cue_start, obj_start) in enumerate(starts):
            before = [p for p in parity if p <= cue_start]
            pronoun = c.pronoun_object.match(text, obj_start) if before and obj_start not in parity else None
            if pronoun:
                starts[k] = (cue_start, max(before))
                referred[cue_start] = pronoun.end()
    starts.sort()
    taken: list[tuple[int, int]] = []
    for cue_start, obj_start in starts:
        if any(a <= obj_start < b for a, b in taken):
            continue
        subject, conf = _subject(s, cue_start, compared=True)
        if subject is None:
            subject, conf = _fronted_subject(s, cue_start, obj_start)
        if subject is None and obj_start not in of_method:
            subject, conf = _reported_subject(s, cue_start)
        if subject is None:
            continue
        baselines = baselines_from(s, obj_start, subject)
        # Not the subject itself, nor the subject's name with kind words ("Starbucks models").
        baselines = [b for b in baselines if b.name != subject and not b.name.startswith(subject + " ")]
        if obj_start in direct and baselines and not _direct_object(s, obj_start, baselines[0]):
            continue
        if not baselines:
            continue
        baselines += _coordinated(s, max(b.end for b in baselines), subject)
        end = referred.get(cue_start, max(b.end for b in baselines))  # "... outperforms it": what follows "it"
        if obj_start in parity and cue_start not in referred and not c.advantage.match(text, end):
            continue  # "on par with X" and no more: X is matched, not beaten
        taken.append((obj_start, end))
        found.append(Comparison(subject, baselines, cue_start, end))
    return found


def _direct_object(s: Sentence, obj_start: int, b: Baseline) -> bool:
    """Whether the baseline is the whole object right after an improve verb:
    "improves [the] pretrained rankers across ...", not "improves LLM reasoning"
    (a name cut short) nor "improves the training of LLMs"."""
    c = s.cues
    lead_text = s.text[obj_start:b.start]
    marker = c.example_in.search(lead_text)
    if marker:
        # "building on prior methods such as A and B": the examples stand for earlier work named.
        generic = lead_text[:marker.start()].lower().split()
        generic = [w for w in generic if w not in c.drop_first]
        return bool(generic) and (generic[0] in c.baseline_modifiers or bool(c.baseline_phrase.search(lead_text)))
    lead = lead_text.lower().split()
    if any(w not in c.drop_first for w in lead) or " of " in s.text[b.start:b.end]:
        return False
    if not b.named and b.name.split()[0].lower() not in c.baseline_modifiers and not c.baseline_phrase.search(b.name):
        return False  # "improves the results": no earlier work named
    if b.named and c.plural_name.search(s.text[b.start:b.end]):
        return False  # "accelerates diffusion models", "enhances SSMs": a kind the method is applied to
    after = s.text[b.end:].lstrip()
    word = re.match(r"[\w-]*", after).group().lower()
    # "enhances prior parsers and ...": a list separator ends the object as it ends a baseline phrase.
    return not after or not after[0].isalnum() or word in c.stops or word in c.list_separators


def _beats(s: Sentence, cue_start: int, other: re.Match) -> bool:
    """ "an FID of 2.71, compared with 3.17 for DDPM": a comparison of two
    scores in the one metric the sentence names, kept only when the first is
    the better one (lower for errors, distances and costs)."""
    metrics = {m.name for m in s.of("Metric")}
    mine = [q for q in s.quantities if q.end <= cue_start and q.from_value is None and _metric_near(s, q, _run_end(s, q))]
    if len(metrics) != 1 or not mine:
        return False
    try:
        ours, theirs = float(mine[-1].value), float(other.group("num"))
    except ValueError:
        return False
    if ours == theirs:
        return False
    lower_better = bool(s.cues.lower_is_better.search(metrics.pop()))
    return (ours < theirs) == lower_better


def _fronted_subject(s: Sentence, cue_start: int, obj_start: int) -> tuple[str | None, float]:
    """The subject of a sentence that opens with its comparison: the proposed
    method named after the comparison's comma, else the paper's proposal:
    "Compared with X, ...", "However, against X at equal cost, ..."."""
    c = s.cues
    if not c.sentence_opener.match(s.text[:cue_start]) or not c.compared_to.pattern.match(s.text, cue_start):
        return None, 0.0
    comma = s.text.find(",", obj_start)
    if comma < 0:
        return None, 0.0
    after = [m for m in s.of("Method") if m.start > comma]
    if after and after[0].proposed:
        return after[0].name, 0.7
    if s.main and not after:
        return s.main, 0.6
    return None, 0.0


def _reported_subject(s: Sentence, cue_start: int) -> tuple[str | None, float]:
    """The paper's proposal as the subject of a reported result that names
    no method: "Experimental results show a 36% reduction compared to X",
    "Results confirm its efficacy, outperforming X". A finite verb has a
    subject of its own ("results show that prior methods outperform X",
    "... show that fine-tuning improved recall over X")."""
    c = s.cues
    if s.main is None or any(m.start < cue_start for m in s.of("Method")):
        return None, 0.0
    word = re.match(r"[\w-]*", s.text[cue_start:]).group().lower()
    verbs = (c.improve_verb, c.improve_over, c.improve_object, c.parity)
    if not word.endswith("ing") and any(v.pattern.match(s.text, cue_start) for v in verbs):
        return None, 0.0  # a finite verb ("improved the accuracy over X") has a subject of its own
    if c.comparative_than.pattern.match(s.text, cue_start):
        return None, 0.0  # "X perform better than Y": a comparative follows a verb with its own subject
    before = s.text[:cue_start]
    if not c.evaluation.search(before, s.places) or not c.report_verb.search(before):
        return None, 0.0  # "results show", "experiments demonstrate": a result reported
    return s.main, 0.5


def _coordinated(s: Sentence, end: int, subject: str) -> list[Baseline]:
    """Further named baselines each with its own margin: "... B by a wide margin"."""
    out: list[Baseline] = []
    methods = s.of("Method")
    while True:
        step = s.cues.next_by.match(s.text, end)  # "... A by 2.1 points and B by 0.8"
        if not step:
            return out
        nxt = next((m for m in methods if m.start == step.end()), None)
        if nxt is None or nxt.name == subject or nxt.proposed or not s.cues.margin_next.match(s.text, nxt.end):
            return out
        out.append(Baseline(nxt.name, nxt.start, nxt.end, named=True))
        end = nxt.end


def _is_gain(s: Sentence, q: Quantity) -> bool:
    """A number that says by how much, rather than a score reached; the
    numbers listed with one are too ("improvements of 0.4% and 0.7%")."""
    if _gain_by_itself(s, q):
        return True
    if q not in s.quantities:
        return False
    run = next((r for r in runs(s.text, s.quantities, s.numbers) if q in r), [q])
    listed = run if len(run) > 1 else score_list(s, q)
    if any(o is not q and o.from_value is None and _gain_by_itself(s, o) for o in listed):
        return True
    # "by 2.1% on A and 1.5% on B": the margin's list goes on with each number's own dataset.
    before = previous_in_list(s, q)
    while before is not None:
        if before.from_value is None and _gain_by_itself(s, before):
            return True
        before = previous_in_list(s, before)
    return False


def _gain_by_itself(s: Sentence, q: Quantity) -> bool:
    c = s.cues
    if q.from_value is not None:
        return False
    if q.unit == "x" or q.signed or q.gain:
        return True
    window = max(0, q.start - 70)
    after = s.text[q.end:q.end + 40]
    if c.gain_before.search(s.text[window:q.start], s.places, window) or c.gain_after.match(after):
        return True
    # "a 9.6% word error rate reduction": the gain word after the metric's name.
    metric = next((m for m in s.of("Metric") if m.start >= q.end and not s.text[q.end:m.start].strip()), None)
    return bool(metric and c.gain_after.match(s.text[metric.end:metric.end + 40]))


def _metric_near(s: Sentence, q: Quantity, run_end: int) -> str | None:
    """The metric a number is stated in: "22.3% WER", "WER of 22.3%",
    "by 2% in accuracy", "an FID score of 2.35" (the words between are the
    results family's metric_value_* and value_metric_* keys). A metric its
    unit cannot be stated in ("320 ms" and WER) is not it."""
    text = s.text
    r = rules_of(s)
    # "NDCG@10 (0.7225)": a number alone in brackets after its metric.
    bracketed = text[q.end:q.end + 3].lstrip().startswith(")")
    for m in s.of("Metric"):
        if q.start < m.start < q.end:
            return m.name  # the unit is the metric: "141 tokens/s"
        if not unit_fits(s, q.unit, m.name):
            continue
        if m.end <= q.start and (r.metric_then_value.fullmatch(text, m.end, q.start)
                                 or (bracketed and _OPEN_BRACKET.fullmatch(text, m.end, q.start))):
            return m.name
        if m.start >= run_end and r.value_then_metric.fullmatch(text, run_end, m.start):
            return m.name
    return None


_OPEN_BRACKET = re.compile(r"\s*\(\s*")


def _dataset_near(s: Sentence, q_start: int, q_end: int, next_start: int) -> str | None:
    """The dataset a number was measured on: the one paired with it in order
    ("85.1% and 78.3% on A and B"), the only one in the sentence, the only
    one between this number and the next, or the nearest before it in the
    clause. Training data does not count. A sentence that names no dataset
    has the one of the results before it (results.result_setting)."""
    datasets = _test_datasets(s)
    if not datasets:
        return None if s.of("Dataset") else s.context_dataset
    q = next((q for q in s.quantities if q.start == q_start), None)
    paired = respective(s, q, "Dataset", s.quantities) if q is not None else None
    if paired:
        return paired
    names = {d.name for d in datasets}
    if len(names) == 1:
        return datasets[0].name
    next_start = min(next_start, _clause_end(s, q_end))
    after = {d.name for d in datasets if q_end <= d.start < next_start}
    if not after and q is not None:
        # "NDCG@10 (0.72) and MAP (0.51) on TREC DL": the dataset after a list is each number's.
        last = score_list(s, q)[-1]
        q_end, next_start = last.end, min(_next_starts(s).get(last.start, next_start), _clause_end(s, last.end))
        after = {d.name for d in datasets if q_end <= d.start < next_start}
    if after:
        return after.pop() if len(after) == 1 else None
    start = _clause_start(s, q_start)
    before = [d for d in datasets if start <= d.start and d.end <= q_start]
    if before and rules_of(s).dataset_before.search(s.text[max(0, before[-1].start - 10):before[-1].start]):
        return before[-1].name
    return None


def _clause_end(s: Sentence, pos: int) -> int:
    """Where the clause holding character `pos` ends: the next clause break ("while", ";")."""
    _clause_start(s, pos)  # fills s.clause_breaks
    k = bisect_right(s.clause_breaks, pos)
    return s.clause_breaks[k] if k < len(s.clause_breaks) else len(s.text)


def _test_datasets(s: Sentence) -> list[Mention]:
    """The datasets of the sentence that results may be measured on: those
    not named as training data, or, where all are, those trained on (not
    pre-trained on): "When trained on ImageNet, it reaches an FID of 7.4"."""
    datasets = s.of("Dataset")
    tested = [d for d in datasets if not _training_data(s, d)]
    if tested or not datasets:
        return tested
    return [d for d in datasets if not rules_of(s).pretrained_on.search(s.text[max(0, d.start - 60):d.start])]


def _improvements(s: Sentence, comparisons: list[Comparison], found: _Relations) -> None:
    if not comparisons:
        return
    gains = _gains(s)
    groups: dict[int, list[Quantity]] = {i: [] for i in range(len(comparisons))}
    asides = {i: _aside(s, comp) for i, comp in enumerate(comparisons)}
    for i, aside in asides.items():
        if aside is not None:
            # "a 2.0x speedup on A (a further 7.2% gain over X)": the margin is the aside's own number
            groups[i] = [q for q in s.quantities if aside[0] < q.start < aside[1] and _is_gain(s, q)]
    for q in gains:
        if _owned_by_baseline(s, comparisons, q) or any(a is not None and a[0] < q.start < a[1] for a in asides.values()):
            continue
        free = [i for i in range(len(comparisons)) if asides[i] is None]
        if not free:
            continue
        nearest = min(free, key=lambda i: _distance(comparisons[i], q, s.text))
        groups[nearest].append(q)
    nexts = _next_starts(s)
    for i, comp in enumerate(comparisons):
        qs = groups[i]
        pairs = _pair(comp.baselines, qs, s)
        for baseline, q in pairs:
            rel = {"s": comp.subject, "p": "improvesOver", "o": baseline.name}
            conf = 0.75 if baseline.named else 0.6
            if q is not None:
                run_end = _run_end(s, q)
                rel.update(metric=_metric_near(s, q, run_end) or _metric_stated_before(s, q), value=q.value, unit=_gain_unit(s, q, run_end),
                           dataset=_dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text))), gain=q.gain)
                conf += 0.1
            else:
                rel.update(metric=_only_metric(s), dataset=_dataset_after(s, comp.end) or _only_dataset(s))
            found.add(s, rel, conf)


def _unplaced_gains(s: Sentence, found: _Relations) -> list[tuple[Sentence, dict]]:
    """The margins of the paper's proposal in a sentence that names no
    baseline ("our method reaches a 2.3x speedup (8.1% improvement) on A"):
    improvesOver relations still without their baseline ("o"), for
    _place_gains. A number read as a score reached (achieves) is not one."""
    out: list[tuple[Sentence, dict]] = []
    achieved = {(r["s"], r["value"]) for r in found.by_key.values() if r["p"] == "achieves"}
    nexts = None
    for q in s.quantities:
        if not _is_gain(s, q):
            continue
        subject, _ = _subject(s, q.start)
        if subject is None or (subject, q.value) in achieved:
            continue
        if subject != s.main and not any(m.proposed and m.name == subject for m in s.mentions):
            continue  # another method's margin: its baseline is not the proposal's
        nexts = nexts or _next_starts(s)
        run_end = _run_end(s, q)
        out.append((s, {"s": subject, "p": "improvesOver", "metric": _metric_near(s, q, run_end) or _metric_stated_before(s, q),
                        "value": q.value, "unit": _gain_unit(s, q, run_end),
                        "dataset": _dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text))), "gain": q.gain}))
    return out


def _place_gains(unplaced: list[tuple[Sentence, dict]], found: _Relations) -> None:
    """A margin said without its baseline is over the one baseline the
    abstract compares its subject with, in any sentence: "FooNet improves
    over BarNet. ... It reaches a 2.3x speedup (8.1% improvement) on A." With
    several baselines the margin could be over any of them, and is left out."""
    for s, rel in unplaced:
        baselines = {r["o"] for r in found.by_key.values() if r["p"] == "improvesOver" and r["s"] == rel["s"]}
        if len(baselines) == 1:
            found.add(s, {**rel, "o": baselines.pop()}, 0.5)


def _gains(s: Sentence) -> list[Quantity]:
    """The margins of a sentence that compares. Numbers listed alongside a
    margin in the same unit are margins too ("up to 6.3% improvement on A,
    2.1% on B")."""
    clear = [q for q in s.quantities if (_is_gain(s, q) and not _in_brackets(s, q)) or _paren_after_method(s, q)]
    units = {q.unit for q in clear if q.unit}
    more = [q for q in s.quantities if q not in clear and q.unit in units and q.from_value is None
            and not _in_brackets(s, q) and not _score_context(s, q)]
    return sorted(clear + more, key=lambda q: q.start)


def _aside(s: Sentence, comp: Comparison) -> tuple[int, int] | None:
    """The brackets of a comparison made in brackets with a margin of its
    own, "... (a further 7.2% gain over X)", or None: those that hold its
    first baseline and a margin before it."""
    pos = comp.baselines[0].start
    opened = s.text.rfind("(", 0, pos)
    if opened < 0 or s.text.rfind(")", 0, pos) > opened:
        return None
    closed = s.text.find(")", pos)
    if closed < 0 or not any(opened < q.start and q.end <= pos and _is_gain(s, q) for q in s.quantities):
        return None
    return opened, closed


def _owns_gain(s: Sentence, comparisons: list[Comparison], q: Quantity) -> bool:
    """Whether a comparison of the sentence takes the margin `q`: any, but
    one made in brackets only the numbers there."""
    for comp in comparisons:
        aside = _aside(s, comp)
        if aside is None or aside[0] < q.start < aside[1]:
            return True
    return False


def _in_brackets(s: Sentence, q: Quantity) -> bool:
    opened = s.text.rfind("(", 0, q.start)
    return opened >= 0 and s.text.rfind(")", 0, q.start) < opened


def _score_context(s: Sentence, q: Quantity) -> bool:
    """ "achieves 88.5%", "an accuracy of 88.5%": a score, not a margin; and
    so is a number listed after one, each with its dataset ("a WER of 2.3%
    on A and 5.4% on B, a 12% reduction over X": 5.4% is no margin)."""
    while q is not None:
        if rules_of(s).score_context.search(s.text[max(0, q.start - 30):q.start]):
            return True
        q = previous_in_list(s, q)
    return False


def _paren_after_method(s: Sentence, q: Quantity) -> bool:
    """ "Llama-3-8B (4.96%)": a number in brackets right after a method."""
    before = s.text[:q.start]
    return bool(re.search(r"\(\s*$", before)) and any(
        re.fullmatch(r"\s*\(\s*", s.text[m.end:q.start]) for m in s.of("Method"))


def _owned_by_baseline(s: Sentence, comparisons: list[Comparison], q: Quantity) -> bool:
    """ "surpassing X's gain of 1.7%": the number is the baseline's own, not a margin over it."""
    owned = rules_of(s).possessive_score
    return any(owned.fullmatch(s.text, b.end, q.start) for comp in comparisons for b in comp.baselines if b.end <= q.start)


def _distance(comp: Comparison, q: Quantity, text: str) -> int:
    """How far a number is from a comparison: 0 inside it, or right before
    its cue with only words between ("8.6% relative WER reduction over X")."""
    if comp.cue_start <= q.start <= comp.end:
        return 0
    if q.end <= comp.cue_start and _ADJACENT.fullmatch(text, q.end, comp.cue_start):
        return 0
    return min(abs(q.start - comp.end), abs(comp.cue_start - q.end))


_ADJACENT = re.compile(r"(?:\s+(?:[\w-]+|\([\w-]+\)))(?:\s+(?:[\w-]+|\([\w-]+\))){0,4}\s*|\s*")


def _pair(baselines: list[Baseline], qs: list[Quantity], s: Sentence) -> list[tuple[Baseline, Quantity | None]]:
    """Each baseline with its number: in order when the counts agree
    ("BM25 and DPR by 3.1 and 1.2 points"), the one number for every
    baseline, or one relation per number when one baseline is beaten by
    several margins."""
    if not qs:
        return [(b, None) for b in baselines]
    interleaved = len(baselines) > 1 and any(baselines[0].end <= q.start < baselines[-1].start for q in qs)
    if len(qs) == len(baselines) and not interleaved:
        return list(zip(baselines, qs))
    if len(qs) == 1 and not interleaved:
        return [(b, qs[0]) for b in baselines]
    if len(baselines) == 1:
        return [(baselines[0], q) for q in qs]
    out = []
    for k, b in enumerate(baselines):
        nxt = baselines[k + 1].start if k + 1 < len(baselines) else len(s.text)
        mine = [q for q in qs if b.end <= q.start < nxt]
        out.append((b, mine[0] if mine else None))
    return out


def _gain_unit(s: Sentence, q: Quantity, run_end: int) -> str | None:
    """A margin written as "0.3 BLEU" or "2 F1" is in points of that metric."""
    if q.unit:
        return q.unit
    after = s.text[run_end:run_end + 40]
    if any(m.start >= run_end and re.fullmatch(r"\s*", s.text[run_end:m.start]) for m in s.of("Metric")):
        return "points"
    if (s.numbers or number_reader()).points_after.match(after):
        return "points"  # "2.1 absolute points"
    return None


def _run_end(s: Sentence, q: Quantity) -> int:
    for run in runs(s.text, s.quantities, s.numbers):
        if q in run:
            return run[-1].end
    return q.end


def _next_starts(s: Sentence) -> dict[int, int]:
    """Where the next number after each number begins: the window in which a
    dataset after a number is that number's. A count ("on 30 datasets from
    MTEB") is no next result and does not close the window."""
    qs = s.quantities
    results = [q for q in qs if not _counts(s, q)]
    out = {}
    for q in qs:
        nxt = next((r.start for r in results if r.start > q.start), len(s.text))
        out[q.start] = nxt
    return out


def _counts(s: Sentence, q: Quantity) -> bool:
    """A whole number with no unit right before a plural noun ("40 datasets";
    units `count_nouns`): how many, not a result."""
    return q.unit is None and q.value.isdigit() and bool((s.numbers or number_reader()).counted.match(s.text, q.end))


def _only_metric(s: Sentence) -> str | None:
    names = {m.name for m in s.of("Metric")}
    return names.pop() if len(names) == 1 else None


def _metric_stated_before(s: Sentence, q: Quantity) -> str | None:
    """ "improves zero-shot accuracy for A (4.96%)": the one metric named
    before the number with no other metric in between."""
    before = [m for m in s.of("Metric") if m.end <= q.start]
    if not before or len({m.name for m in s.of("Metric")}) > 1 or not unit_fits(s, q.unit, before[-1].name):
        return None
    return before[-1].name


def _dataset_after(s: Sentence, end: int) -> str | None:
    """ "outperforms X on seven of the eight GLUE tasks": the dataset a comparison names after its baseline."""
    at = rules_of(s).dataset_after.match(s.text, end)
    if not at:
        return None
    window = s.text.find(",", at.end())
    window = len(s.text) if window < 0 else window
    found = [d for d in s.of("Dataset") if at.end() <= d.start < window]
    return found[0].name if found else None


def _only_dataset(s: Sentence) -> str | None:
    names = {m.name for m in s.of("Dataset")}
    return names.pop() if len(names) == 1 else None


# -- achieves --------------------------------------------------------------------
def _achievements(s: Sentence, comparisons: list[Comparison], found: _Relations) -> None:
    if not s.of("Metric") and not rules_of(s).plain_score_cue.search(s.text):
        return  # a score is in a metric (_metric_near) or "a score of" (plain_score): without one, no number need be read
    c = s.cues
    nexts = _next_starts(s)
    for q in s.quantities:
        gain = _is_gain(s, q)
        if gain and _owns_gain(s, comparisons, q):
            continue  # said by how much it beats a baseline: an improvesOver value
        run_end = _run_end(s, q)
        metric = respective_metric(s, q) or _metric_near(s, q, run_end)
        before = previous_in_list(s, q) if metric is None else None
        while before is not None and metric is None:  # "85.3% accuracy on A and 62.1% on B"
            metric = _metric_near(s, before, _run_end(s, before))
            before = previous_in_list(s, before)
        if metric is None and not s.of("Metric"):
            metric = plain_score(s, q)  # "a best-yet score of 71.84 on FooBench"
        if metric is None and q.from_value is not None:
            # "improves F1 on X from 86% to 87%": the last metric before "from", no number between.
            before = [m for m in s.of("Metric") if m.end <= q.start
                      and not any(m.end <= o.start < q.start for o in s.quantities)]
            metric = before[-1].name if before else None
        if metric is None:
            continue
        achieved = c.achieve_verb.search(s.text[:q.start], s.places)
        if q.unit is None and not re.search(r"\d\.\d|^0", q.value) and not achieved:
            continue  # a bare whole number ("3 layers") is rarely a score
        if baseline_score(s, q, _clause_start(s, q.start)):
            continue  # "surpassing the previous best FID of 21.6": the baseline's
        excluded = [(b.start, b.end) for comp in comparisons for b in comp.baselines]
        subject, conf = _subject(s, q.start, excluded)
        if subject is None:
            subject, conf = _sole_method(s, q.start, excluded)
        named = for_method(s, run_end)
        if named is not None:
            subject, conf = named.name, 0.8  # "141 tokens/s for FooNet-8B and 117 tokens/s for FooNet-70B"
        if subject is None:
            continue
        if gain and (not efficiency(s, q, metric, run_end) or measured_against(s, _clause_start(s, q.start), q)):
            continue  # a margin over something unnamed is no score reached; a speedup is, unless over a yardstick
        dataset = _dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text)))
        if averaged(s, run_end) or (not s.of("Dataset") and cost_figure(s, metric, run_end)):
            dataset = None  # an average over several datasets; a speed measured on hardware
        rel = {"s": subject, "p": "achieves", "metric": metric, "value": q.value, "unit": q.unit, "dataset": dataset}
        found.add(s, rel, conf * (0.9 if achieved else 0.75))


def _sole_method(s: Sentence, pos: int, excluded: list[tuple[int, int]]) -> tuple[str | None, float]:
    """In a paper that proposes nothing, the one method named in the clause
    of a number (or dataset) at `pos` is what the result is of: "we reach
    78.4% accuracy on ImageNet with a pruned FooNet-L3" (the authors
    apply it)."""
    if s.main is not None:
        return None, 0.0
    clause = _clause_start(s, pos)
    names = {m.name for m in s.of("Method") if all(m.end <= a or m.start >= b for a, b in excluded)
             and _clause_start(s, m.start) == clause}
    return (names.pop(), 0.55) if len(names) == 1 else (None, 0.0)


# -- evaluatedOn -----------------------------------------------------------------
def _evaluations(s: Sentence, comparisons: list[Comparison], found: _Relations) -> None:
    c = s.cues
    datasets = s.of("Dataset")
    if not datasets:
        _evaluations_on_own_data(s, found)
        return
    evaluative = bool(c.evaluation.search(s.text, s.places))
    excluded = [(b.start, b.end) for comp in comparisons for b in comp.baselines]
    for d in datasets:
        if _training_data(s, d):
            continue  # training data, not a test
        subject, conf = _subject(s, d.start, excluded)
        if subject is not None and s.main is not None and subject != s.main \
                and not any(m.proposed and m.name == subject for m in s.mentions):
            # In a paper with a proposal, other methods named beside a dataset are
            # mostly background ("X has been applied to D"); the proposal is what is tested.
            subject = None
        if subject is None and s.main and evaluative:
            subject, conf = s.main, 0.5
        if subject is None:
            subject, conf = _subject_after(s, d.end, excluded)
        if subject is None or (d.proposed and subject == s.main and not _tested_on_own(s, d, evaluative)):
            continue
        if not evaluative:
            conf *= 0.7
        for name in _listed_with(s, subject, d.start):
            found.add(s, {"s": name, "p": "evaluatedOn", "o": d.name}, conf)


def _tested_on_own(s: Sentence, d: Mention, evaluative: bool) -> bool:
    """Whether the sentence tests the proposal on `d`, a dataset of the
    paper's own: it speaks of evaluation, and does not make the dataset
    ("we release FooBench", "we build a benchmark called FooBench")."""
    return evaluative and not s.cues.release_verb.search(s.text, 0, d.start)


def _evaluations_on_own_data(s: Sentence, found: _Relations) -> None:
    """ "We build FooBench, a benchmark for ... Experiments show that our
    method ...": a sentence that reports results with the proposal as their
    subject and names no dataset reports them on the datasets the paper made
    before it."""
    if s.main is None or not s.own_datasets:
        return
    c = s.cues
    report = c.report_verb.search(s.text)
    if report is None or not c.evaluation.search(s.text[:report.start()], s.places):
        return
    subject, _ = _subject(s, len(s.text))
    if subject != s.main:
        return
    for name in s.own_datasets:
        found.add(s, {"s": s.main, "p": "evaluatedOn", "o": name}, 0.5)


def _training_data(s: Sentence, d: Mention) -> bool:
    """ "trained on D", "pre-trained on D", "the training set of D"."""
    return bool(rules_of(s).trained_on.search(s.text[max(0, d.start - 60):d.start])) or \
        named_for_training(s, _clause_start(s, d.start), d)


def _evaluations_of_results(found: _Relations) -> None:
    """A score or a margin on a dataset says the method was evaluated on it."""
    for rel in found.items():
        if rel["p"] in ("achieves", "improvesOver") and rel.get("dataset") and rel.get("value"):
            key = (rel["s"], "evaluatedOn", rel["dataset"], None, None, None)
            if key not in found.by_key:
                found.by_key[key] = {"s": rel["s"], "p": "evaluatedOn", "o": rel["dataset"],
                                     "span": rel["span"], "confidence": rel["confidence"]}



def _subject_after(s: Sentence, pos: int, excluded: list[tuple[int, int]]) -> tuple[str | None, float]:
    """ "On ImageNet, ResNet-50 reaches ...": a proposed method named after
    the dataset; in a paper that proposes nothing by name, also a method
    evaluated there ("On FooBench, we conduct an evaluation of 45 rerankers")."""
    for m in s.of("Method"):
        if m.start >= pos and all(m.end <= a or m.start >= b for a, b in excluded):
            if m.proposed:
                return m.name, 0.7
            if s.main is None and s.cues.evaluated_object.search(s.text, pos, m.start):
                return m.name, 0.6
    return None, 0.0


def _listed_with(s: Sentence, subject: str, pos: int) -> list[str]:
    """ "We compare A, B and C on D": the subject and the methods listed with
    it (its mention nearest `pos`), those that could be the subject
    themselves: any, in a paper that proposes nothing by name, else the
    paper's own."""
    methods = s.of("Method")
    at = [k for k, m in enumerate(methods) if m.name == subject]
    if not at:
        return [subject]
    k = min(at, key=lambda k: abs(methods[k].start - pos))
    lo = hi = k
    join = s.cues.subject_list_join  # ", ", " and ", " & "
    while lo > 0 and join.fullmatch(s.text, methods[lo - 1].end, methods[lo].start):
        lo -= 1
    while hi + 1 < len(methods) and join.fullmatch(s.text, methods[hi].end, methods[hi + 1].start):
        hi += 1
    listed = [m.name for m in methods[lo:hi + 1] if s.main is None or m.proposed or m.name == subject]
    return list(dict.fromkeys(listed))


# -- addresses -------------------------------------------------------------------
def _addresses(s: Sentence, found: _Relations) -> None:
    if not s.of("Task"):
        return
    about_others = s.main is None or _about_others(s)
    c = s.address_cues or address_cues()
    for t in s.of("Task"):
        first = _first_listed_task(s, t, c).start
        if c.means.search(s.text, 0, first) or c.uses.search(s.text, 0, first):
            continue  # "FooNet fuses span retrieval", "applications such as web search": not what it addresses
        for example in _class_examples(s, t):
            found.add(s, {"s": example, "p": "addresses", "o": t.name}, 0.42)
        if about_others:
            # "Mamba offers a fast alternative for long-context modeling": Mamba's task, whether or not
            # the paper proposes something of its own.
            subjects = _methods_for_task(s, t, purpose_only=s.main is not None)
            for subject in subjects:
                found.add(s, {"s": subject, "p": "addresses", "o": t.name}, 0.42)
            if s.main is None:
                continue
            if subjects:
                # The paper's own method may take up a task that others are known for.
                found.add(s, {"s": s.main, "p": "addresses", "o": t.name}, 0.45)
                continue
        subject, conf = _subject(s, t.start)
        if subject is not None and subject != s.main:
            # Background sentences name other methods; the paper's tasks are its proposal's,
            # unless another of its own proposals is named.
            if not any(m.proposed and m.name == subject for m in s.mentions):
                subject = None
        if subject is None:
            # "Results on language modeling show that FooNet ...": a proposal named after the task.
            later = [m for m in s.of("Method") if m.start >= t.end and m.proposed]
            subject, conf = (later[0].name, 0.6) if later else (s.main, 0.5)
        found.add(s, {"s": subject, "p": "addresses", "o": t.name}, conf)


def _about_others(s: Sentence) -> bool:
    """A sentence that names none of the paper's proposals and says neither
    "we" nor "our method": it is about the methods of others."""
    if any(m.proposed for m in s.of("Method")) or _written_proposal(s, s.text) is not None:
        return False
    return not _refers_to_proposal(s, len(s.text))


def _methods_for_task(s: Sentence, t: Mention, purpose_only: bool = False) -> list[str]:
    """The methods whose task `t` is: those that open its clause ("BERT and T5
    are strong at question answering", "Rankers such as BERT are strong at
    ..."), else the one right before "for" ("DeepSets for set representation",
    "DeepSets for sets and graphs"). With `purpose_only`, those that open the
    clause only where a purpose word leads to the task ("BERT is a model for
    QA", not "BERT made progress in QA")."""
    c = s.address_cues or address_cues()
    start = _clause_start(s, t.start)
    before = [m for m in s.of("Method") if start <= m.start and m.end <= t.start
              and not c.rival.search(s.text, start, m.start)]
    if not before and start > 0 and c.relative.search(s.text, 0, start):
        # "SSMs are models that have emerged for sequence modeling": the clause before "that",
        # a purpose word leading to the task ("models that consist of retrieval" name a part).
        purpose_only = True
        start = _clause_start(s, c.relative.search(s.text, 0, start).start())
        before = [m for m in s.of("Method") if start <= m.start and m.end <= t.start
                  and not c.rival.search(s.text, start, m.start)]
    if not before:
        return _finding_subject(s, t, c) if s.main is None else []
    first_task = _first_listed_task(s, t, c)
    if c.opening.fullmatch(s.text, start, before[0].start) or c.examples.fullmatch(s.text, start, before[0].start):
        if not purpose_only or c.purpose_before.search(s.text, start, first_task.start):
            return [m.name for m in _listed(s, before, c)]
    if c.purpose.fullmatch(s.text, before[-1].end, first_task.start):
        return [before[-1].name]
    if s.main is None:
        # A paper that proposes nothing: "We audit FooLM and BarLM on stance prediction".
        studied = [m for m in s.of("Method") if m.end <= t.start]
        for k, m in enumerate(studied):
            if c.study.search(s.text, 0, m.start):
                return [n.name for n in _listed(s, studied[k:], c)]
    return []


def _class_examples(s: Sentence, t: Mention) -> list[str]:
    """The examples of a class of methods named by task `t`: "manifold
    learning algorithms such as UMAP and IsoMap", "approaches for
    transferability estimation (LogME, kNN)"."""
    c = s.address_cues or address_cues()
    after = [m for m in s.of("Method") if m.start >= t.end]
    if not after:
        return []
    if c.class_after.fullmatch(s.text, t.end, after[0].start) or (
            c.class_before.search(s.text, 0, _first_listed_task(s, t, c).start)
            and c.class_examples.fullmatch(s.text, t.end, after[0].start)):
        return [m.name for m in _listed(s, after, c)]
    return []


def _finding_subject(s: Sentence, t: Mention, c: AddressCues) -> list[str]:
    """ "Experiments on passage ranking show that FooNet ...": the method
    opening the clause after a task named where results were found."""
    if not c.finding.match(s.text) or _clause_start(s, t.start) != 0:
        return []
    for m in s.of("Method"):
        if m.start >= t.end:
            start = _clause_start(s, m.start)
            if start > t.end and c.opening.fullmatch(s.text, start, m.start):
                return [n.name for n in _listed(s, [n for n in s.of("Method") if n.start >= m.start], c)]
            return []
    return []


def _listed(s: Sentence, methods: list[Mention], c: AddressCues) -> list[Mention]:
    """The first of `methods` with those listed after it ("BERT, RoBERTa and
    T5") or given as its examples ("SSMs, such as Mamba")."""
    out = [methods[0]]
    for m in methods[1:]:
        between = s.text[out[-1].end:m.start]
        if not between.strip(" ()") or c.joint.fullmatch(between):
            out.append(m)
        else:
            break
    return out


def _first_listed_task(s: Sentence, t: Mention, c: AddressCues) -> Mention:
    """The first task of the list that ends with `t`: "for parsing, tagging and chunking"."""
    tasks = [m for m in s.of("Task") if m.end <= t.start]
    first = t
    for m in reversed(tasks):
        if not c.joint.fullmatch(s.text, m.end, first.start):
            break
        first = m
    return first
