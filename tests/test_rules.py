"""Rules files (kg.rules): the packaged families, and a user's --rules file
that extends or replaces them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kg import rules
from kg.extraction.record import Extractor
from kg.model import Abstract

_TEXT = "We present GlacierNet for river ice nowcasting. GlacierNet is evaluated on ImageNet."


def _write(tmp_path: Path, data: object, name: str = "rules.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_every_packaged_family_is_an_object_with_an_about_note():
    assert {"lexicon", "relation_cues", "units"} <= set(rules.families())
    for family in rules.families():
        raw = json.loads(rules.packaged_path(family).read_text(encoding="utf-8"))
        assert isinstance(raw.get("_about"), str) and raw["_about"], family
        assert rules.load(family) and not any(k.startswith("_") for k in rules.load(family))


def test_every_family_is_documented_in_docs_rules():
    doc = (Path(__file__).parent.parent / "docs" / "rules.md")
    if not doc.exists():
        pytest.skip("docs/rules.md not in this checkout")
    text = doc.read_text(encoding="utf-8")
    for family in rules.families():
        assert f"`{family}`" in text, family


def test_extend_adds_to_a_packaged_list_and_replace_puts_a_list_in_its_place(tmp_path):
    path = _write(tmp_path, {"lexicon": {"extend": {"task_heads": ["nowcasting"]},
                                         "replace": {"task_cues": ["chore"]}}})
    changed = rules.load("lexicon", [path])
    packaged = rules.load("lexicon")
    assert "nowcasting" in changed["task_heads"] and "nowcasting" not in packaged["task_heads"]
    assert set(packaged["task_heads"]) < set(changed["task_heads"])
    assert changed["task_cues"] == ["chore"]


def test_files_apply_in_order(tmp_path):
    first = _write(tmp_path, {"lexicon": {"replace": {"task_cues": ["chore"]}}}, "a.json")
    second = _write(tmp_path, {"lexicon": {"extend": {"task_cues": ["errand"]}}}, "b.json")
    assert rules.load("lexicon", [first, second])["task_cues"] == ["chore", "errand"]
    assert rules.load("lexicon", [second, first])["task_cues"] == ["chore"]


def test_load_hands_out_copies(tmp_path):
    rules.load("lexicon")["task_cues"].append("mutated")
    assert "mutated" not in rules.load("lexicon")["task_cues"]


@pytest.mark.parametrize("data, says", [
    ({"lexicn": {"extend": {"task_heads": ["x"]}}}, "no rule family 'lexicn'"),
    ({"lexicon": {"extend": {"task_head": ["x"]}}}, "lexicon has no key 'task_head'"),
    ({"lexicon": {"extend": {"task_heads": "x"}}}, "lexicon.task_heads must be a JSON list"),
    ({"lexicon": {"append": {"task_heads": ["x"]}}}, "\"extend\" and/or \"replace\""),
    (["lexicon"], "one JSON object"),
])
def test_a_rules_file_that_nothing_could_read_is_an_error_naming_the_file(tmp_path, data, says):
    path = _write(tmp_path, data)
    with pytest.raises(rules.RulesError) as err:
        rules.load("lexicon", [path])
    assert str(path) in str(err.value) and says in str(err.value)


def test_broken_json_names_file_and_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"lexicon":\n  {"extend": [}\n}', encoding="utf-8")
    with pytest.raises(rules.RulesError, match=rf"{path}:2: not valid JSON"):
        rules.check_files([path])


def test_a_lexicon_rule_changes_what_the_extractor_finds(tmp_path):
    path = _write(tmp_path, {"lexicon": {"extend": {"task_heads": ["nowcasting"]}}})
    tasks = lambda ex: [e["name"] for e in ex.record(Abstract("a", _TEXT))["entities"]["Task"]]  # noqa: E731
    assert "river ice nowcasting" not in tasks(Extractor())
    assert tasks(Extractor(rules=[path])) == ["river ice nowcasting"]


def test_cli_extract_takes_rules_and_reports_a_bad_file(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "p1", "abstract": _TEXT}) + "\n", encoding="utf-8")
    good = _write(tmp_path, {"lexicon": {"extend": {"task_heads": ["nowcasting"]}}})
    out = tmp_path / "out.jsonl"
    run = subprocess.run([sys.executable, "-m", "kg", "extract", str(inp), "-o", str(out), "--rules", str(good),
                          "--quiet"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["entities"]["Task"][0]["name"] == "river ice nowcasting"
    bad = _write(tmp_path, {"lexicon": {"extend": {"nope": []}}}, "bad.json")
    run = subprocess.run([sys.executable, "-m", "kg", "extract", str(inp), "--rules", str(bad), "--quiet"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert f"kg: error: rules: {bad}: lexicon has no key 'nope'" in run.stderr


def test_extending_an_object_family_adds_keys(tmp_path):
    path = _write(tmp_path, {"units": {"extend": {"units": {"J": ["J", "joules"], "%": ["pct"]}}}})
    units = rules.load("units", [path])["units"]
    assert units["J"] == ["J", "joules"]
    assert units["%"][-1] == "pct" and units["%"][:-1] == rules.load("units")["units"]["%"]


def test_a_units_rule_reaches_the_numbers_of_a_result(tmp_path):
    """A unit added by a rules file is read after a number, down to the achieves relation."""
    from kg.relations.numbers import quantities

    path = _write(tmp_path, {"units": {"extend": {"units": {"jf": ["jiffies"]}}}})
    assert [(q.value, q.unit) for q in quantities("12 jiffies", [path])] == [("12", "jf")]
    assert [(q.value, q.unit) for q in quantities("12 jiffies")] == [("12", None)]
    text = "We propose FooNet. FooNet achieves a latency of 12 jiffies on ImageNet."

    def scores(extractor: Extractor) -> list[tuple]:
        return [(r["s"], r["metric"], r["value"], r.get("unit")) for r in
                extractor.record(Abstract("a", text))["relations"] if r["p"] == "achieves"]

    assert scores(Extractor()) == [("FooNet", "latency", "12", None)]
    assert scores(Extractor(rules=[path])) == [("FooNet", "latency", "12", "jf")]


def test_an_addresses_rule_reaches_the_relation_rules(tmp_path):
    """A purpose link added by a rules file links a method to the task it is applied to."""
    path = _write(tmp_path, {"addresses": {"extend": {"purpose_links": ["applied to"]}}})
    text = "Results of QuillNet applied to semantic segmentation are strong."

    def addressed(extractor: Extractor) -> list[tuple[str, str]]:
        return [(r["s"], r["o"]) for r in extractor.record(Abstract("a", text))["relations"] if r["p"] == "addresses"]

    assert addressed(Extractor()) == []
    assert addressed(Extractor(rules=[path])) == [("QuillNet", "semantic segmentation")]


def _doc_sections() -> dict[str, str]:
    """docs/rules.md by family: the text of each "### `family`" section."""
    doc = Path(__file__).parent.parent / "docs" / "rules.md"
    if not doc.exists():
        pytest.skip("docs/rules.md not in this checkout")
    text = doc.read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r"^### `(\w+)`.*?(?=^##|\Z)", text, re.M | re.S)}


def test_every_key_of_every_family_is_documented_in_its_section():
    sections = _doc_sections()
    missing = [(family, key) for family in rules.families() for key in rules.load(family)
               if f"`{key}`" not in sections.get(family, "")]
    assert not missing, f"keys docs/rules.md does not describe in their family's section: {missing}"


# Run in a fresh interpreter, so that no loader's cache hides a key read:
# rules.load hands out dicts that note every key looked up, and one abstract
# is extracted (every loader runs when the extractor is built or first used).
_KEYS_READ = r"""
import json, sys
import kg.rules as R
read = {}
packaged = R.load

class Noted(dict):
    def __init__(self, family, data):
        super().__init__(data)
        self.family = family
    def __getitem__(self, key):
        read.setdefault(self.family, set()).add(key)
        return dict.__getitem__(self, key)
    def get(self, key, *default):
        read.setdefault(self.family, set()).add(key)
        return dict.get(self, key, *default)

R.load = lambda family, extra=(), base=None: Noted(family, packaged(family, extra, base))
from kg.extraction.record import Extractor
from kg.model import Abstract
Extractor().record(Abstract("a", sys.argv[1]))
print(json.dumps({family: sorted(keys) for family, keys in read.items()}))
"""


def test_every_key_of_every_family_is_read_by_the_extractor():
    text = ("We propose FooNet for image classification, e.g. of birds. FooNet outperforms BarNet by 2.1% "
            "(absolute) accuracy on ImageNet, with a 3x speedup.")
    run = subprocess.run([sys.executable, "-c", _KEYS_READ, text], capture_output=True, text=True,
                         cwd=Path(__file__).parent.parent)
    assert run.returncode == 0, run.stderr
    read = json.loads(run.stdout.splitlines()[-1])
    unread = [(family, key) for family in rules.families() for key in rules.load(family)
              if key not in read.get(family, [])]
    assert not unread, f"keys no code reads (remove them, or read them): {unread}"
