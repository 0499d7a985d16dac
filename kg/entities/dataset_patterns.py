"""Datasets told by their context: the words around a name say it is a
dataset ("the VoxCeleb dataset", "datasets such as X and Y", "On FooSet, ...",
a list with a known dataset). Each rule adds candidates (kg.entities.candidates),
or retypes the name candidates of a list; kg.entities.patterns runs them."""

from __future__ import annotations

from kg.entities.candidates import Candidate
from kg.entities.lexicon import Lexicon
from kg.entities.name_shapes import is_name_like
from kg.nlp.tokens import Tok, past_gloss, phrase_at


def dataset_cue_candidates(v: list[Tok], lex: Lexicon, cues: list[int]) -> list[Candidate]:
    """Names before "dataset(s)", "benchmark(s)", "corpus": "the VoxCeleb
    dataset", "on CIFAR-10 and SVHN benchmarks", "the FooEval Challenge 2023"
    (a capitalised cue word is part of the name), "the FOO weak supervision
    benchmark" (a name, then what the benchmark is about)."""
    conj = lex.patterns.list_separators
    out = []
    for i in cues:
        tok = v[i]
        k = tok.i - 1
        sent_start = tok.sent_start
        nearest = True
        while k >= sent_start:
            end = k + 1
            while k >= sent_start and end - k <= 4 and _dataset_word(v[k], v, lex):
                k -= 1
            if k + 1 < end and not (end - k == 2 and v[k + 1].text in lex.languages):
                # "a Cantonese benchmark": a language alone says what the data is in, not its name.
                out.append(Candidate(k + 1, _titled_cue_end(v, tok, lex) if nearest else end, "Dataset", "cue"))
            else:
                if nearest:
                    out += _name_before_topic(v, tok, lex)
                break
            nearest = False
            if k >= sent_start and v[k].text in conj:
                while k >= sent_start and v[k].text in conj:
                    k -= 1
                continue
            break
    return out


def _titled_cue_end(v: list[Tok], cue: Tok, lex: Lexicon) -> int:
    """Where a name that ends at `cue` ends: after a capitalised cue word and
    its number ("Challenge 2022", "Dataset 25"), else before the cue."""
    if cue.is_sent_start or not cue.text[:1].isupper():
        return cue.i
    end = cue.i + 1
    if end < cue.sent_end and lex.patterns.version_number.match(v[end].text):
        end += 1
    return end


def event_names(v: list[Tok], lex: Lexicon, cues: list[int]) -> list[Candidate]:
    """ "the SIGIR 2031 FooRAG challenge", "the Quoll 2030 Deep Wombat track",
    "the Numbat Cup 2031", "previous Bilby Challenges": an evaluation
    campaign names the data its entrants are scored on. The name runs back
    from the event word over capitalised words (a venue's too) and years, and
    keeps the event word; it needs a year, or a capitalised event word. After
    a capitalised one a year and a numbered task or track go on ("Challenge
    2031 Task 2")."""
    shapes = lex.patterns
    out = []
    for i in cues:
        cue = v[i]
        if cue.is_sent_start:
            continue
        k = i - 1
        words = years = 0
        while k >= cue.sent_start and i - k <= 6:
            t = v[k].text
            if shapes.year.match(t):
                years += 1
            elif t[:1].isupper() and t.replace("-", "").isalnum() \
                    and not (v[k].is_sent_start and v[k].lower_ in lex.name_stop_words):
                words += 1  # "Deep" is a name's word here, though a common one elsewhere
            else:
                break
            k -= 1
        titled = cue.text[:1].isupper()
        if not words or not (years or titled):
            continue
        end = i + 1
        if titled:
            if end < cue.sent_end and shapes.year.match(v[end].text):
                end += 1
            if end + 1 < cue.sent_end and v[end].text in shapes.event_parts \
                    and shapes.version_number.match(v[end + 1].text):
                end += 2
        out.append(Candidate(k + 1, end, "Dataset", "cue"))
    return out


def named_parts(v: list[Tok], lex: Lexicon, found: list[Candidate]) -> list[Candidate]:
    """ "TREC Genomics", "TREC CAR", "FooEval Hard": a known dataset right
    before a capitalised word or a name (not one the rules know as something
    else) names a part of it, and the whole is the dataset the text means."""
    known = [c for c in found if c.label == "Dataset" and c.source in ("gazetteer", "variant")]
    if not known:
        return []
    taken = {k for c in found if c.source in ("gazetteer", "variant", "abbreviation") for k in range(c.start, c.end)}
    out = []
    for c in known:
        end = c.end
        sent_end = v[c.start].sent_end
        while end < sent_end and end - c.end < 2 and end not in taken and _part_word(v[end], lex):
            end += 1
        if end > c.end:
            out.append(Candidate(c.start, end, "Dataset", "cue"))
    return out


def _part_word(tok: Tok, lex: Lexicon) -> bool:
    return is_name_like(tok, lex) or _capital_word(tok, lex)


def _name_before_topic(v: list[Tok], cue: Tok, lex: Lexicon) -> list[Candidate]:
    """ "the FOO weak supervision benchmark": a name, up to three lower-case
    words saying what it holds, then the cue word; not after "a"/"an"."""
    j = cue.i - 1
    while j >= cue.sent_start and cue.i - j <= 3 and v[j].text.islower() and v[j].text.replace("-", "").isalpha() \
            and v[j].lower_ not in lex.name_stop_words and v[j].lower_ not in lex.task_heads:
        j -= 1
    if j == cue.i - 1 or j < cue.sent_start:
        return []
    end = j + 1
    while j >= cue.sent_start and end - j <= 4 and _dataset_word(v[j], v, lex):
        j -= 1
    start = j + 1
    if start == end or not is_name_like(v[start], lex) \
            or (j >= 0 and v[j].lower_ in lex.patterns.indefinite_articles):
        return []
    return [Candidate(start, end, "Dataset", "cue")]


def names_after_cues(v: list[Tok], lex: Lexicon, cues: list[int]) -> list[Candidate]:
    """The names a dataset word introduces: "two datasets, namely Foo-1 and
    BarSet", "benchmarks (e.g., Foo, Bar)", "a corpus called FooText";
    after a count, a list of names right after it: "two datasets Foo-1 and BarSet"."""
    shapes = lex.patterns
    conj = shapes.list_separators
    out = []
    for i in cues:
        end = v[i].sent_end
        k = i + 1
        listed = v[i].lower_ in shapes.dataset_list_cues
        opened = False
        while k < end:
            if v[k].lower_ in shapes.naming_words:
                k += 1
                opened = True
                continue
            n = phrase_at(v, k, end, shapes.list_openers)
            if listed and (n or v[k].text in (":", "(")):
                k += n or 1
                opened = True
                continue
            if v[k].text == ",":
                k += 1
                continue
            break
        # "on two datasets Foo-1 and BarSet": a count before the word lets a list follow it directly.
        counted = not opened and listed and v[i].i > v[i].sent_start \
            and (v[i - 1].lower_ in shapes.count_words or v[i - 1].text.isdigit())
        if not opened and not counted:
            continue
        items = []
        while k < end:
            j = k
            while j < end and j - k < 4 and _dataset_word(v[j], v, lex):
                j += 1
            if j == k:
                break
            items.append(Candidate(k, j, "Dataset", "cue"))
            if not listed:
                break
            if j < end and v[j].text == "(":  # a gloss: "FooSet (radiology)"
                close = next((m for m in range(j + 1, min(end, j + 8)) if v[m].text == ")"), None)
                j = close + 1 if close is not None else j
            if j < end and v[j].text in conj:
                while j < end and v[j].text in conj:
                    j += 1
                k = j
                continue
            break
        if not counted or len(items) >= 2:  # without an opener, only a list shows the names are the datasets
            out += items
    return out


def _dataset_word(tok: Tok, v: list[Tok], lex: Lexicon) -> bool:
    t = tok.text
    if is_name_like(tok, lex):
        return True
    # "Foo 2", "Foo Part II": a number after a capitalised word of the name.
    if (t in lex.patterns.roman_numerals or lex.patterns.version_number.match(t)) and tok.i > 0:
        return _dataset_word_prev(tok, v, lex)
    if t in lex.not_names:
        return False
    if t.lower() in lex.name_stop_words:
        # "Open Quokka", "New Wombat Times": a common word capitalised inside the sentence is a name's.
        return t[:1].isupper() and t[1:].islower() and t.isalpha() and not tok.is_sent_start
    # "babyLM", "nuScenes": a capital inside a word in lower case is a name where a dataset word says so.
    if t[:1].islower() and any(c.isupper() for c in t[1:]) and t.replace("-", "").isalnum():
        return True
    # "Kestrel", "Helpful-Harmless": capitalised words, alone or joined by hyphens.
    return t[:1].isupper() and not tok.is_sent_start and t.replace("-", "").isalpha()


def _dataset_word_prev(tok: Tok, v: list[Tok], lex: Lexicon) -> bool:
    prev = v[tok.i - 1]
    return prev.text[:1].isupper() and prev.text not in lex.not_names


def evaluated_on(v: list[Tok], lex: Lexicon, found: list[Candidate]) -> list[Candidate]:
    """ "On FooSet, our model reaches ...", "(+2.1 nDCG on FooIR)": a name
    evaluated on is a dataset, unless the words before "on" say otherwise
    ("based on FooNet") or a noun follows it ("on FooNet features")."""
    shapes = lex.patterns
    out = []
    for c in found:
        if c.source != "name" or c.label != "Method" or c.end - c.start != 1:
            continue
        k = c.start - 1
        if k >= 0 and v[k].lower_ == "the" and not v[k].is_sent_start:
            k -= 1
        if k < 0 or v[k].lower_ not in shapes.evaluated_on_words:
            continue
        if k > 0 and not v[k].is_sent_start and v[k - 1].lower_ in shapes.not_evaluation_before_on:
            continue
        nxt = v[c.end] if c.end < len(v) else None
        if nxt is None or nxt.is_sent_start or nxt.is_punct or nxt.text in shapes.list_separators \
                or nxt.lower_ in shapes.after_evaluated_name:
            out.append(Candidate(c.start, c.end, "Dataset", "cue"))
    return out


def coordinated_types(v: list[Tok], found: list[Candidate], lex: Lexicon) -> None:
    """A name in a list with known datasets is a dataset too: "on CIFAR-10,
    SVHN and Foo-7" (same for methods), past a gloss in brackets ("FOO
    (radiology), HAM10000 (skin)"); so is the next name along the list
    ("GLUE, FOO, BAR and BAZ")."""
    conj = lex.patterns.list_separators
    known = {}
    for c in found:
        if c.source in ("gazetteer", "variant", "cue") and c.label in ("Dataset", "Method"):
            known[c.start] = c.label
            known[c.end - 1] = c.label
    pending = {c.start: c for c in found if c.source == "name" and c.end - c.start == 1}
    changed = True
    while changed:
        changed = False
        for start, c in list(pending.items()):
            for step in (-1, 1):
                k = past_gloss(v, start + step, step)  # "FooSet (radiology), BarSet"
                if not (0 <= k < len(v)) or v[k].text not in conj:
                    continue
                while 0 <= k < len(v) and v[k].text in conj:
                    k += step
                k = past_gloss(v, k, step)
                if k in known:
                    c.label = known[start] = known[k]
                    del pending[start]
                    changed = True
                    break


def listed_datasets(v: list[Tok], found: list[Candidate], lex: Lexicon) -> list[Candidate]:
    """ "on ETH, INRIA and Caltech": a capitalised word listed between known
    datasets is one too, though alone it would be too common a word to call a name."""
    conj = lex.patterns.list_separators
    known = sorted((c.start, c.end) for c in found
                   if c.label == "Dataset" and c.source in ("gazetteer", "variant", "cue"))
    if len(known) < 2:
        return []
    taken = {i for c in found for i in range(c.start, c.end)}
    ends = {e for _, e in known}
    starts = {s for s, _ in known}
    out = []
    for i in _beside_separators(v, starts, ends, conj):
        tok = v[i]
        if i in taken or tok.is_sent_start or not tok.text[:1].isupper() or tok.text in lex.not_names \
                or tok.lower_ in lex.name_stop_words or not tok.is_alpha:
            continue
        left = i - 1
        while left >= 0 and v[left].text in conj:
            left -= 1
        right = i + 1
        while right < len(v) and v[right].text in conj:
            right += 1
        # Listed: a known dataset on one side with a list separator between them.
        if (left < i - 1 and left + 1 in ends) or (right > i + 1 and right in starts):
            if i in ends:
                continue  # right after a known name, with no separator: part of it
            start = i
            # "Open Assistant": capitalised words before it belong to the same item.
            while start - 1 >= 0 and start - 1 not in taken and _capital_word(v[start - 1], lex):
                start -= 1
            prev = v[start - 1] if start > 0 else None
            if prev is not None and start - 1 not in taken and not prev.is_sent_start \
                    and prev.text[:1].isupper() and prev.is_alpha:
                continue  # "... Deep Learning Track": the end of a longer name we cannot delimit
            out.append(Candidate(start, i + 1, "Dataset", "name"))
    return out


def _beside_separators(v: list[Tok], starts: set[int], ends: set[int], conj: frozenset[str]) -> list[int]:
    """The tokens a list separator parts from a known name: past the separators
    after one of `ends`, or before those before one of `starts`; ascending.
    Only these can be listed with it, so no other token need be looked at."""
    at = set()
    for e in ends:
        k = e
        while k < len(v) and v[k].text in conj:
            k += 1
        if e < k < len(v):
            at.add(k)
    for s in starts:
        k = s - 1
        while k >= 0 and v[k].text in conj:
            k -= 1
        if 0 <= k < s - 1:
            at.add(k)
    return sorted(at)


def _capital_word(tok: Tok, lex: Lexicon) -> bool:
    return not tok.is_sent_start and tok.text[:1].isupper() and tok.is_alpha and tok.text not in lex.not_names \
        and tok.lower_ not in lex.name_stop_words


def joined_list_items(v: list[Tok], found: list[Candidate], lex: Lexicon) -> list[Candidate]:
    """ "CUHK03, QMUL GRID, CUHK Campus and VIPeR": capitalised names side by
    side inside a list of datasets are one item, not two datasets."""
    conj = lex.patterns.list_separators
    single = {c.start for c in found if c.label == "Dataset" and c.end - c.start == 1}
    out = []
    end = -1
    for i in sorted(single):
        if i < end or i - 1 in single and v[i - 1].text[:1].isupper():
            continue  # inside a run already seen
        j = i
        while j in single and v[j].text[:1].isupper():
            j += 1
        end = j
        if j - i >= 2 and (i > 0 and v[i - 1].text in conj or j < len(v) and v[j].text in conj):
            out.append(Candidate(i, j, "Dataset", "name"))
    return out
