"""kg eval's kinds of error (kg.eval_kinds), on small records written by hand."""

from __future__ import annotations

import json

from kg.cli import main
from kg.eval import evaluate
from kg.eval_kinds import ENTITY_TYPES, error_kinds


def rec(pid: str, relations: list | None = None, **ents: list) -> dict:
    return {"id": pid, "entities": {t: ents.get(t, []) for t in ENTITY_TYPES}, "relations": relations or []}


def counts(kinds: dict) -> dict:
    return {k: v.count for k, v in kinds.items() if v.count}


GOLD = [rec(
    "p1",
    Method=[{"name": "FooNet", "proposed": True}, {"name": "BarNet", "proposed": True}, {"name": "BM25"},
            {"name": "Quux Ranker"}, {"name": "WidgetFormer"}],
    Dataset=[{"name": "CIFAR-10"}, {"name": "open vocabulary detection suite"}],
    Task=[{"name": "image captioning"}, {"name": "open vocabulary object detection"}, {"name": "music tagging"}],
    Metric=[{"name": "accuracy"}],
    relations=[
        {"s": "FooNet", "p": "evaluatedOn", "o": "CIFAR-10"},
        {"s": "BarNet", "p": "evaluatedOn", "o": "CIFAR-10"},
        {"s": "FooNet", "p": "addresses", "o": "image captioning"},
        {"s": "FooNet", "p": "addresses", "o": "music tagging"},
        {"s": "FooNet", "p": "improvesOver", "o": "BM25", "value": "2.1", "dataset": "CIFAR-10"},
        {"s": "FooNet", "p": "improvesOver", "o": "Quux Ranker", "value": "3.0"},
        {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2", "dataset": "CIFAR-10"},
        {"s": "BarNet", "p": "achieves", "metric": "accuracy", "value": "88.0", "dataset": "CIFAR-10"},
    ])]

PRED = [rec(
    "p1",
    Method=[{"name": "FooNet", "proposed": True}, {"name": "BarNet"}, {"name": "BM25", "proposed": True},
            {"name": "Quux Ranker"}, {"name": "image captioning"}, {"name": "ZapNet", "proposed": True}],
    Dataset=[{"name": "CIFAR-10"}, {"name": "ImageNet"}],
    Task=[{"name": "detection"}, {"name": "speech recognition"}],
    Metric=[{"name": "accuracy"}],
    relations=[
        {"s": "FooNet", "p": "evaluatedOn", "o": "CIFAR-10"},
        {"s": "ZapNet", "p": "evaluatedOn", "o": "CIFAR-10"},       # wrong subject: gold BarNet
        {"s": "FooNet", "p": "addresses", "o": "speech recognition"},  # wrong object
        {"s": "ZapNet", "p": "addresses", "o": "detection"},  # nothing alike: spurious
        {"s": "FooNet", "p": "improvesOver", "o": "BM25"},           # found, without value and dataset
        {"s": "FooNet", "p": "improvesOver", "o": "Quux Ranker", "value": "4.0"},  # found, another value
        {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2", "dataset": "ImageNet"},
    ])]


def test_entity_kinds_each_error_once():
    k = error_kinds(GOLD, PRED)
    # "image captioning" is a gold Task predicted as a Method: wrong type in the Method row, not missed as a Task.
    assert counts(k.entities["Method"]) == {"wrong_type": 1, "spurious": 1, "missed": 1}
    assert counts(k.entities["Task"]) == {"wrong_boundary": 1, "spurious": 1, "missed": 1}
    assert counts(k.entities["Dataset"]) == {"spurious": 1, "missed": 1}
    assert counts(k.entities["Metric"]) == {}
    ex = k.entities["Method"]["wrong_type"].examples[0]
    assert (ex.paper, ex.gold, ex.predicted) == ("p1", "Task: image captioning", "Method: image captioning")
    ex = k.entities["Task"]["wrong_boundary"].examples[0]
    assert (ex.gold, ex.predicted) == ("open vocabulary object detection", "detection")
    assert k.entities["Task"]["missed"].examples[0].gold == "music tagging"
    assert k.entities["Method"]["missed"].examples[0].gold == "WidgetFormer"


def test_every_false_hit_has_one_kind():
    report = evaluate(GOLD, PRED)
    k = error_kinds(GOLD, PRED)
    for t in ENTITY_TYPES:
        s = report.entities[t]
        row = k.entities[t]
        assert s.pred - s.correct == row["spurious"].count + row["wrong_boundary"].count + row["wrong_type"].count, t
    for p, s in report.relations.items():
        row = k.relations[p]
        assert s.pred - s.correct == row["spurious"].count + row["wrong_subject"].count + row["wrong_object"].count


def test_names_that_share_only_a_common_word_do_not_overlap():
    gold = [rec("q", Task=[{"name": "music tagging"}])]
    pred = [rec("q", Task=[{"name": "music generation"}, {"name": "automatic music tagging of long tracks"}])]
    k = error_kinds(gold, pred)
    assert counts(k.entities["Task"]) == {"spurious": 1, "wrong_boundary": 1}
    assert k.entities["Task"]["spurious"].examples[0].predicted == "music generation"


def test_proposed_kinds():
    k = error_kinds(GOLD, PRED)
    assert counts(k.proposed) == {"not_marked": 1, "marked_wrongly": 1, "spurious": 1}
    assert k.proposed["not_marked"].examples[0].gold == "BarNet"
    assert k.proposed["marked_wrongly"].examples[0].predicted == "BM25"
    assert k.proposed["spurious"].examples[0].predicted == "ZapNet"


def test_relation_kinds():
    k = error_kinds(GOLD, PRED)
    assert counts(k.relations["evaluatedOn"]) == {"wrong_subject": 1}
    assert counts(k.relations["addresses"]) == {"wrong_object": 1, "spurious": 1, "missed": 1}
    assert counts(k.relations["improvesOver"]) == {"missing_value": 1, "missing_dataset": 1, "wrong_value": 1}
    assert counts(k.relations["achieves"]) == {"wrong_dataset": 1, "missed": 1}
    ex = k.relations["evaluatedOn"]["wrong_subject"].examples[0]
    assert (ex.gold, ex.predicted) == ("BarNet evaluatedOn CIFAR-10", "ZapNet evaluatedOn CIFAR-10")
    ex = k.relations["improvesOver"]["wrong_value"].examples[0]
    assert (ex.gold, ex.predicted) == ("FooNet improvesOver Quux Ranker (3.0)", "FooNet improvesOver Quux Ranker (4.0)")
    ex = k.relations["achieves"]["wrong_dataset"].examples[0]
    assert ex.gold == "FooNet achieves (accuracy 91.2 on CIFAR-10)"


def test_a_paper_without_prediction_is_all_missed():
    k = error_kinds(GOLD, [])
    assert counts(k.entities["Method"]) == {"missed": 5}
    assert counts(k.relations["achieves"]) == {"missed": 2}


def test_examples_are_kept_up_to_the_limit():
    gold = [rec(f"p{i}", Metric=[{"name": "BLEU"}]) for i in range(5)]
    k = error_kinds(gold, [], examples=2)
    assert k.entities["Metric"]["missed"].count == 5
    assert [e.paper for e in k.entities["Metric"]["missed"].examples] == ["p0", "p1"]
    assert error_kinds(gold, [], examples=0).entities["Metric"]["missed"].examples == []


def _files(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in GOLD), encoding="utf-8")
    pred.write_text("".join(json.dumps(r) + "\n" for r in PRED), encoding="utf-8")
    return str(gold), str(pred)


def test_cli_prints_the_kinds_table_and_examples_on_request(tmp_path, capsys):
    gold, pred = _files(tmp_path)
    assert main(["eval", gold, pred]) == 0
    out = capsys.readouterr().out
    assert "errors by kind" in out and "examples" not in out
    row = next(line.split() for line in out.splitlines() if line.strip().startswith("evaluatedOn")
               and "-" in line.split())
    assert row[:5] == ["evaluatedOn", "0", "0", "1", "0"]
    assert main(["eval", gold, pred, "--kinds", "1", "--errors"]) == 0
    out = capsys.readouterr().out
    assert "p1  gold: BarNet evaluatedOn CIFAR-10  predicted: ZapNet evaluatedOn CIFAR-10" in out
    assert out.index("examples") < out.index("errors (paper, miss|false")


def test_cli_json_has_the_kinds(tmp_path, capsys):
    gold, pred = _files(tmp_path)
    assert main(["eval", gold, pred, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["error_kinds"]["entities"]["Task"]["wrong_boundary"] == {"count": 1, "examples": []}
    assert main(["eval", gold, pred, "--json", "--kinds"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["error_kinds"]["proposed"]["not_marked"]["examples"] == [
        {"paper": "p1", "gold": "BarNet", "predicted": "BarNet"}]


ROLE_GOLD = [rec("r1", Method=[{"name": "FooNet", "proposed": True}, {"name": "BarNet"}], Metric=[{"name": "accuracy"}],
                 relations=[{"s": "FooNet", "p": "improvesOver", "o": "BarNet", "value": "2.1"},
                            {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2"},
                            {"s": "BarNet", "p": "achieves", "metric": "accuracy", "value": "88.0"}])]
ROLE_PRED = [rec("r1", Method=[{"name": "FooNet", "proposed": True}, {"name": "BarNet"}], Metric=[{"name": "accuracy"}],
                 relations=[{"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "2.1"},  # a margin as a score
                            {"s": "FooNet", "p": "improvesOver", "o": "BarNet", "value": "91.2"},  # a score as a margin
                            {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "88.0"},  # BarNet's as FooNet's
                            {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2"},  # right
                            {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "0.6"}])]  # no gold holds it


def test_numbers_given_the_wrong_role_are_a_kind_of_their_own():
    k = error_kinds(ROLE_GOLD, ROLE_PRED)
    assert k.relations["achieves"]["wrong_role"].count == 2
    assert k.relations["improvesOver"]["wrong_role"].count == 1
    assert [(e.gold, e.predicted) for e in k.relations["achieves"]["wrong_role"].examples] == [
        ("FooNet improvesOver BarNet (2.1)", "FooNet achieves (accuracy 2.1)"),
        ("BarNet achieves (accuracy 88.0)", "FooNet achieves (accuracy 88.0)")]
    ex = k.relations["improvesOver"]["wrong_role"].examples[0]
    assert (ex.gold, ex.predicted) == ("FooNet achieves (accuracy 91.2)", "FooNet improvesOver BarNet (91.2)")
    assert k.relations["evaluatedOn"]["wrong_role"].count == 0


def test_cli_prints_the_role_column_with_examples(tmp_path, capsys):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in ROLE_GOLD), encoding="utf-8")
    pred.write_text("".join(json.dumps(r) + "\n" for r in ROLE_PRED), encoding="utf-8")
    assert main(["eval", str(gold), str(pred), "--kinds"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("relations") and "missed" in line)
    header = lines[at].split()
    row = next(line.split() for line in lines[at:] if line.strip().startswith("achieves"))
    assert header[-1] == "role" and row[-1] == "2"
    assert "achieves, wrong role (2):" in out
    assert "r1  gold: FooNet improvesOver BarNet (2.1)  predicted: FooNet achieves (accuracy 2.1)" in out
