"""The rule family "number_roles" (kg/resources/rules/number_roles.json),
compiled: the words that tell what a number of a result sentence is. The
rules that read them are in kg/relations/number_roles.py."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kg import rules
from kg.rules import any_of

# A word as the patterns below skip it: no number, no mark that ends a phrase.
_WORD = r"[^\s\d,;:()]+"


@dataclass(frozen=True)
class RoleRules:
    """The compiled rule family "number_roles"."""

    direction_after: re.Pattern  # matched right after a number (or its metric): " lower", " accuracy loss"
    direction_before: re.Pattern  # ends where the number begins: "reduces the error by ", "a drop of "
    up: re.Pattern  # which way a direction word found goes
    down: re.Pattern
    worse: re.Pattern
    better: re.Pattern
    cost: re.Pattern  # a measure in which lower is better: "parameters", "FLOPs"
    setting_after: re.Pattern  # matched right after a number: " labeled data", " of the labels", " sparsity"
    setting_next: re.Pattern  # matched right after a number: "-fold", " bits"
    setting_opener: re.Pattern  # ends where the number begins: "with only ", "at "
    setting_before: re.Pattern  # ends where the number begins: "at a sparsity of ", "the target ", "budget of "
    setting_link: re.Pattern  # fullmatch between a metric and the number it sets: " as "
    owner_link: re.Pattern  # matched right after a number's metric: " of the ", " reported by "
    pieces: dict  # key -> its regular-expression pieces, for tests


@rules.compiled
def role_rules(extra: tuple[str, ...]) -> RoleRules:
    """The number role rules, with the changes of the user's rules files `extra`."""
    data = rules.load("number_roles", extra)
    qualifier = any_of(rules.load("relation_cues", extra)["number_qualifiers"], longest_first=True)
    qualifiers = rf"(?:{qualifier}\s+)*~?"
    nonempty = rf"(?:{qualifier}\s+)+~?"
    directions = any_of(data["up_words"] + data["down_words"] + data["worse_words"] + data["better_words"],
                        longest_first=True)
    setting = any_of(data["setting_words"], longest_first=True)
    opener = any_of(data["setting_openers"], longest_first=True)
    try:
        return RoleRules(
            direction_after=re.compile(rf"\s*(?P<dir>{directions})\b", re.I),
            # "reduces the top-1 accuracy by", "an accuracy drop of", "increases in accuracy up to": up to five
            # words between, then "by", "of" or a qualifier; "less than" alone is a qualifier.
            direction_before=re.compile(
                rf"\b(?P<dir>{directions})\b(?!\s+than)(?:\s+{_WORD}){{0,5}}?(?:\s+(?:by|of)\s+{qualifiers}|\s+{nonempty})$", re.I),
            up=re.compile(rf"{any_of(data['up_words'], longest_first=True)}\b", re.I),
            down=re.compile(rf"{any_of(data['down_words'], longest_first=True)}\b", re.I),
            worse=re.compile(rf"{any_of(data['worse_words'], longest_first=True)}\b", re.I),
            better=re.compile(rf"{any_of(data['better_words'], longest_first=True)}\b", re.I),
            cost=re.compile(rf"\b{any_of(data['cost_words'], longest_first=True)}\b", re.I),
            setting_after=re.compile(rf"(?:\s+of(?:\s+the)?)?(?:\s+{_WORD}){{0,1}}?\s+(?P<word>{setting})", re.I),
            setting_next=re.compile(rf"(?:-|\s+){any_of(data['setting_after'], longest_first=True)}\b", re.I),
            setting_opener=re.compile(rf"\b{opener}\s+{qualifiers}$", re.I),
            setting_before=re.compile(
                rf"(?:\b{opener}\s+(?:(?:a|an|the)\s+)?(?:{_WORD}\s+){{0,2}}?{setting}(?:\s+{_WORD})?\s+(?:of|=|:)\s*"
                rf"|\b{any_of(data['setting_before'], longest_first=True)}\s+(?:of\s+)?){qualifiers}$", re.I),
            setting_link=re.compile(rf"\s+{any_of(data['setting_links'], longest_first=True)}\s+{qualifiers}", re.I),
            owner_link=re.compile(rf"\s+{any_of(data['owner_links'], longest_first=True)}\s+(?:the\s+|a\s+|an\s+)?", re.I),
            pieces={k: list(v) for k, v in data.items()},
        )
    except re.error as err:
        raise rules.RulesError(f"number_roles: a piece is not a regular expression ({err})") from None
