"""One task named in full and then by its last words is one task."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from spacy.tokens import Span

from kg.nlp.task_contexts import names_work, task_contexts

if TYPE_CHECKING:
    from kg.nlp.entities import Entity
    from kg.nlp.lexicon import Lexicon
    from kg.nlp.tokens import Tok


def narrowed_task_names(entities: list[Entity], fold_name: Callable[[str], str]) -> list[Entity]:
    """A text names its task in full once ("multimodal representation
    learning") and then by its last words ("representation learning"): the
    shorter mentions take the full name, so the record holds one task. When
    several longer tasks end in the same words, which one is meant is
    unknown, and the short name stays. `fold_name` gives the key under
    which names count as one (kg.nlp.entities.fold_name)."""
    names = {fold_name(e.name): e.name for e in entities if e.label == "Task" and e.name}
    full: dict[str, str] = {}
    for short in names:
        longer = [k for k in names if k.endswith(" " + short)]
        if len(longer) == 1:
            full[short] = names[longer[0]]
    if not full:
        return entities
    out = []
    for e in entities:
        name = full.get(fold_name(e.name)) if e.label == "Task" and e.name and not e.aliases else None
        out.append(e._replace(name=name, canonical=None, exact_match=None) if name else e)
    return out


def is_task_pair(v: list[Tok], long: Span, after: int, lex: Lexicon) -> bool:
    """Does an abbreviation pair name a task by what follows it: "the
    Incremental FOO (IFOO) task", or, for a lower-case long form whose last
    word names work, a tool ("training data attribution (TDA) methods")?
    `after` is the token after the short form's bracket."""
    nxt = v[after].lower_
    if nxt in lex.task_cues:
        return True
    tc = task_contexts()
    words = v[long.start:long.end]
    return nxt in tc.verb_tools and names_work(words[-1].lower_, tc, lex.task_heads) \
        and all(not w.text[:1].isupper() for w in words[1:])
