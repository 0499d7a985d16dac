"""Task rules that read a task from where it sits in the sentence
(kg/resources/rules/task_contexts.json), on sentences written for the tests."""

from __future__ import annotations

import json

import pytest

from kg import rules
from kg.pipeline import entity_pipeline


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def tasks(nlp, text: str) -> set[str]:
    doc = nlp(text)
    return {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Task"}


# -- adjectives_before: words between the task word and the task ------------------
@pytest.mark.parametrize("adjective", sorted(rules.load("task_contexts")["adjectives_before"]))
def test_an_adjective_between_for_and_the_task_is_left_out_of_its_name(nlp, adjective) -> None:
    found = tasks(nlp, f"We built ReefNet for {adjective} coral reef segmentation on drone footage.")
    assert "coral reef segmentation" in found


def test_without_a_task_word_before_the_adjective_nothing_is_named(nlp) -> None:
    assert not tasks(nlp, "Their efficient coral reef segmentation was praised by divers.")


# -- bare_context: a task word alone ---------------------------------------------------
@pytest.mark.parametrize("context", sorted(rules.load("task_contexts")["bare_context"]))
def test_a_task_word_alone_after_a_bare_context_is_a_task(nlp, context) -> None:
    assert "inpainting" in tasks(nlp, f"The new decoder, tuned {context} inpainting, was kept small.")


def test_a_task_word_alone_elsewhere_is_not_a_task(nlp) -> None:
    assert "inpainting" not in tasks(nlp, "The inpainting of these photos took a week.")


def test_a_task_word_alone_listed_beside_a_known_task(nlp) -> None:
    found = tasks(nlp, "Results cover question answering, reranking and clustering of reviews.")
    assert {"question answering", "reranking"} <= found


# -- cues_before: the phrase after "the problem of", "tasks such as" ... ------------
def _written(cue: str) -> str:
    """A cue's tokens as a text writes them: "tasks ( e.g. ," -> "tasks (e.g.,"."""
    return cue.replace(" ,", ",").replace("( ", "(").replace(" )", ")")


@pytest.mark.parametrize("cue", sorted(rules.load("task_contexts")["cues_before"]))
def test_the_phrase_after_a_task_cue_is_a_task(nlp, cue) -> None:
    found = tasks(nlp, f"Prior work looks at {_written(cue)} glacier calving forecasts, dune mapping and NLI.")
    assert {"glacier calving forecasts", "dune mapping", "NLI"} <= found


def test_a_cue_phrase_said_with_a_verb(nlp) -> None:
    found = tasks(nlp, "We revisit the problem of sorting integer lists, and applications such as steering.")
    assert {"sorting integer lists", "steering"} <= found


def test_list_items_after_a_cue_said_with_a_verb_and_its_object(nlp) -> None:
    found = tasks(nlp, "We test four toy problems: charting the depth of reef channels, adding integers, "
                       "and sorting word lists.")
    assert {"charting the depth of reef channels", "adding integers", "sorting word lists"} <= found


def test_a_list_item_no_rule_reads_is_passed_over(nlp) -> None:
    found = tasks(nlp, "Scores serve tasks such as answer quality evaluation, reef labeling, and route planning.")
    assert {"reef labeling", "route planning"} <= found


def test_a_clause_after_a_dash_cue_is_no_task(nlp) -> None:
    assert tasks(nlp, "It does well on three tasks -- we then ask why it fails elsewhere.") == set()


def test_a_verb_whose_object_is_still_to_come_is_not_a_task(nlp) -> None:
    assert "locating" not in tasks(nlp, "We revisit the problem of locating and naming the main speaker.")


# -- cues_after, action_suffixes, not_work: "X tasks" whatever X's last word ----------
@pytest.mark.parametrize("cue", sorted(rules.load("task_contexts")["cues_after"]))
def test_a_phrase_naming_work_before_a_task_word_is_a_task(nlp, cue) -> None:
    assert "glacier outline digitization" in tasks(nlp, f"It helps on glacier outline digitization {cue} in alpine maps.")


_WORK = ["glacier outline digitization", "route decision", "crater counting", "dune alignment", "sonar similarity",
         "orbit analysis", "signal provenance", "reef coverage inference", "host parasitism", "leaf taxonomics"]


@pytest.mark.parametrize("word", _WORK)
def test_each_ending_of_work_before_tasks(nlp, word) -> None:
    assert word in tasks(nlp, f"We report results on {word} tasks from two surveys.")


@pytest.mark.parametrize("word", ["geological", "vision", "application", "heuristics", "statistics"])
def test_a_word_that_names_no_work_before_tasks_is_not_a_task(nlp, word) -> None:
    assert word not in tasks(nlp, f"We report results on {word} tasks from two surveys.")


def test_every_ending_of_work_is_tested() -> None:
    for suffix in rules.load("task_contexts")["action_suffixes"]:
        assert any(w.endswith(suffix) for w in _WORK), suffix


# -- a task named in full, then by its last words ---------------------------------------
def test_a_task_named_later_by_its_last_words_is_the_same_task(nlp) -> None:
    doc = nlp("We study multimodal representation learning for maps. Representation learning of this kind needs pairs.")
    names = {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Task"}
    assert names == {"multimodal representation learning"}


def test_two_longer_tasks_ending_alike_leave_the_short_one_alone(nlp) -> None:
    doc = nlp("We study multimodal representation learning and graph representation learning, unlike "
              "representation learning in general.")
    names = {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Task"}
    assert "representation learning" in names


# -- fields: a field of research is not a task ----------------------------------------------
@pytest.mark.parametrize("field", sorted(rules.load("task_contexts")["fields"]))
def test_a_field_named_as_background_is_not_a_task(nlp, field) -> None:
    found = tasks(nlp, f"Transformers changed {field} tasks, and we apply them to dune mapping tasks.")
    assert field not in found and "dune mapping" in found


# -- a method or metric name inside a task name -----------------------------------------------
def test_a_known_method_before_a_task_word_is_part_of_the_task(nlp) -> None:
    doc = nlp("The recipe tunes models for chain-of-thought reasoning, and it predicts latency.")
    found = {(s.text, s.label_) for s in doc.spans["entities"]}
    assert ("chain-of-thought reasoning", "Task") in found
    assert ("chain-of-thought", "Method") not in found


def test_a_known_metric_before_a_task_word_is_part_of_the_task(nlp) -> None:
    found = tasks(nlp, "We study per-device latency estimation for phones.")
    assert "per-device latency estimation" in found


# -- a phrase listed beside a task ------------------------------------------------------------
def test_phrases_naming_work_listed_beside_a_task_are_tasks(nlp) -> None:
    found = tasks(nlp, "The suite covers question answering, crater counting, dune digitization and slope stability.")
    assert {"question answering", "crater counting", "dune digitization", "slope stability"} <= found


def test_a_listed_phrase_before_the_task_counts_too(nlp) -> None:
    found = tasks(nlp, "It helps with crater counting, dune digitization and question answering.")
    assert {"crater counting", "dune digitization"} <= found


@pytest.mark.parametrize("cue", ["benchmarks", "tasks", "problems"])
def test_a_listed_phrase_ends_before_the_task_cue_after_it(nlp, cue) -> None:
    # The cue after the last item closes that item's name; it is no part of it.
    found = tasks(nlp, f"DuneNet does well on a range of crater detection and slope computing {cue}.")
    assert {"crater detection", "slope computing"} <= found


def test_view_may_stand_inside_a_task_name(nlp) -> None:
    assert "lunar view synthesis" in tasks(nlp, "DuneNet is a system for lunar view synthesis from orbit.")


def test_long_may_open_a_task_name(nlp) -> None:
    assert "long dune log summarization" in tasks(nlp, "DuneNet is a system for long dune log summarization.")


def test_a_listed_word_that_names_no_work_or_a_verb_is_not_a_task(nlp) -> None:
    found = tasks(nlp, "We study question answering, geology and maps, suggesting that sand moves.")
    assert not {"geology", "maps", "suggesting"} & found


# -- kinds_before, tools_after: "existing X methods" -----------------------------------------
@pytest.mark.parametrize("kind", sorted(rules.load("task_contexts")["kinds_before"]))
def test_methods_of_a_kind_are_named_by_their_task(nlp, kind) -> None:
    assert "dune digitization" in tasks(nlp, f"FooNet beats {kind} dune digitization methods on lunar maps.")


@pytest.mark.parametrize("tool", sorted(rules.load("task_contexts")["tools_after"]))
def test_each_tool_word_after_a_kind_of_task(nlp, tool) -> None:
    assert "dune digitization" in tasks(nlp, f"FooNet beats existing dune digitization {tool} on lunar maps.")


def test_a_tool_named_by_its_own_words_is_not_a_task(nlp) -> None:
    assert "dune digitization" not in tasks(nlp, "FooNet is a dune digitization method on lunar maps.")


# -- a task phrase that describes another noun -------------------------------------------------
def test_a_task_phrase_before_another_noun_is_not_a_task(nlp) -> None:
    assert "crater counting" not in tasks(nlp, "We release data for crater counting quality checks.")


@pytest.mark.parametrize("after", ["tasks", "systems", "remains hard", ", we think"])
def test_a_task_phrase_before_a_task_word_a_tool_or_a_verb_stays(nlp, after) -> None:
    assert "crater counting" in tasks(nlp, f"We study crater counting {after}.".replace(" ,", ","))


# -- task heads of the lexicon (kg/resources/rules/lexicon.json) -------------------------------
@pytest.mark.parametrize("head", ["interpretability", "allocation", "curation", "fitting", "routing"])
def test_newer_task_heads_name_tasks_after_for(nlp, head) -> None:
    assert f"glacier {head}" in tasks(nlp, f"FooNet is built for glacier {head}, and it is fast.")


def test_a_task_head_alone_needs_a_task_position(nlp) -> None:
    assert "autoformalization" in tasks(nlp, "It helps summarization, autoformalization and code generation.")
    assert "autoformalization" not in tasks(nlp, "Their autoformalization was slow.")


@pytest.mark.parametrize("text", ["Models", "Tasks", "Methods.", "tasks", "Existing methods", "of", "the problem of",
                                  "such as", ", and", "for"])
def test_cue_words_at_the_edges_of_a_text(nlp, text) -> None:
    # a cue with nothing before or after it raises nothing and names nothing
    doc = nlp(text)
    assert doc.text == text and list(doc.spans["entities"]) == []


# -- verb_tools, verb_abilities ...: a task said with a verb in -ing ---------------------------
@pytest.mark.parametrize("tool", sorted(rules.load("task_contexts")["verb_tools"]))
def test_a_verb_phrase_after_a_tool_and_for_is_a_task(nlp, tool) -> None:
    assert "charting glacier retreat" in tasks(nlp, f"We give a new {tool} for charting glacier retreat, tested twice.")


@pytest.mark.parametrize("ability", sorted(rules.load("task_contexts")["verb_abilities"]))
def test_a_verb_phrase_after_an_ability_and_in_is_a_task(nlp, ability) -> None:
    assert "charting glacier retreat" in tasks(nlp, f"They showed {ability} in charting glacier retreat.")


def test_the_verbs_object_may_take_the_and_of(nlp) -> None:
    found = tasks(nlp, "FooNet has high accuracy in charting the melt rates of alpine glaciers.")
    assert "charting the melt rates of alpine glaciers" in found


@pytest.mark.parametrize("noun", sorted(rules.load("task_contexts")["verb_nouns"]))
def test_a_noun_in_ing_with_an_object_is_a_verb_phrase(nlp, noun) -> None:
    assert f"{noun} glacier outlines" in tasks(nlp, f"We give an algorithm for {noun} glacier outlines.")


def test_an_of_phrase_that_names_no_part_of_the_object_is_left_out(nlp) -> None:
    found = tasks(nlp, "We give a method for charting the melt rates of a single glacier over time.")
    assert "charting the melt rates" in found


def test_learning_from_data_is_part_of_the_task(nlp) -> None:
    found = tasks(nlp, "We give an algorithm for learning glacier outlines from radar scans.")
    assert "learning glacier outlines from radar scans" in found


@pytest.mark.parametrize("adjective", sorted(rules.load("task_contexts")["object_adjectives"]))
def test_an_adjective_kept_out_of_names_may_stand_in_the_verbs_object(nlp, adjective) -> None:
    found = tasks(nlp, f"We give a new method for charting {adjective} glacier outlines, tested twice.")
    assert f"charting {adjective} glacier outlines" in found


def test_the_verbs_object_never_ends_in_such_an_adjective(nlp) -> None:
    assert not tasks(nlp, "We give a new method for charting large, tested twice.")


def test_a_tool_named_in_brackets_before_for(nlp) -> None:
    found = tasks(nlp, "We give an algorithm (GLAC) for charting glacier retreat, tested twice.")
    assert "charting glacier retreat" in found
    assert "dune digitization" in tasks(nlp, "We give a method (DuDi) for dune digitization, tested twice.")


def test_learning_from_data_with_no_object_before_the_link(nlp) -> None:
    found = tasks(nlp, "We give a framework for learning from radar scans, tested twice.")
    assert "learning from radar scans" in found


def test_an_adverb_before_the_verb_is_left_out(nlp) -> None:
    assert "charting glacier retreat" in tasks(nlp, "We give a method for automatically charting glacier retreat.")


def test_a_verb_phrase_after_any_other_word_and_for_is_not_a_task(nlp) -> None:
    assert not tasks(nlp, "This is crucial for charting glacier retreat.")


def test_a_verb_phrase_that_runs_on_is_not_a_task(nlp) -> None:
    assert not tasks(nlp, "We give a method for charting glacier retreat maps of many small alpine valleys.")


# -- not_tasks_alone: one word of a step in building or running a model ------------------------
@pytest.mark.parametrize("word", sorted(rules.load("task_contexts")["not_tasks_alone"]))
def test_a_step_of_model_building_alone_is_no_task(nlp, word) -> None:
    assert word not in tasks(nlp, f"Earlier tools compare various {word} methods on few scenes.")
    assert word not in tasks(nlp, f"We study glacier segmentation and {word}.")


def test_a_step_of_model_building_with_a_modifier_may_be_a_task(nlp) -> None:
    assert "glacier decoding" in tasks(nlp, "Earlier tools compare various glacier decoding methods on few scenes.")


# -- verbs are no part of a task's name (lexicon name_stop_words) ------------------------------
@pytest.mark.parametrize("verb", ["exert", "compares", "relate", "focuses", "ameliorate", "continue", "analyze",
                                  "examines", "assess", "quantify", "deploys", "construct", "conduct"])
def test_a_verb_before_a_task_phrase_is_left_out(nlp, verb) -> None:
    found = tasks(nlp, f"Earlier tools {verb} glacier segmentation methods on few scenes.")
    assert "glacier segmentation" in found and not any(t.startswith(verb) for t in found)


@pytest.mark.parametrize("word", ["due", "regardless", "albeit", "instead"])
def test_a_linking_word_after_a_task_word_does_not_make_it_a_modifier(nlp, word) -> None:
    assert "inpainting" in tasks(nlp, f"FooNet is strong for inpainting {word} of its small size.")


# -- verb_tools: "a method for X" where X names work ------------------------------------------
@pytest.mark.parametrize("tool", sorted(rules.load("task_contexts")["verb_tools"]))
def test_a_phrase_of_work_after_a_tool_and_for_is_a_task(nlp, tool) -> None:
    assert "dune digitization" in tasks(nlp, f"We give a new {tool} for dune digitization, tested twice.")


def test_a_phrase_after_a_tool_and_for_that_names_no_work_is_not_a_task(nlp) -> None:
    assert not tasks(nlp, "We give a new method for dune maps, tested twice.")


# -- purpose_heads: words that end a task's name after a tool and "for" -----------------
@pytest.mark.parametrize("head", sorted(rules.load("task_contexts")["purpose_heads"]))
def test_a_purpose_head_ends_the_task_after_a_tool_and_for(nlp, head) -> None:
    assert f"reef model {head}" in tasks(nlp, f"We give a cheap method for reef model {head} on small boards.")


@pytest.mark.parametrize("head", sorted(rules.load("task_contexts")["purpose_heads"]))
def test_a_purpose_head_alone_after_for_is_no_task(nlp, head) -> None:
    assert tasks(nlp, f"We give a cheap method for {head} on small boards.") == set()


# -- a modifier that shares the task word after it ------------------------------------------
def test_a_hyphenated_modifier_shares_the_task_word_after_and(nlp) -> None:
    found = tasks(nlp, "It does well on tasks including reef-scale and coast-scale segmentation of maps.")
    assert {"reef-scale segmentation", "coast-scale segmentation"} <= found
    assert "reef-scale" not in found


# -- tool_nouns: "a glacier segmentation system" ------------------------------------------
_TC = rules.load("task_contexts")


@pytest.mark.parametrize("noun", sorted(_TC["tool_nouns"]))
def test_a_task_phrase_before_a_tool_noun_is_a_task(nlp, noun) -> None:
    assert "glacier segmentation" in tasks(nlp, f"Their glacier segmentation {noun} was slow.")


# -- phrase_ends: what closes a name read after a cue -----------------------------------------
@pytest.mark.parametrize("word", sorted(_TC["phrase_ends"]))
def test_a_phrase_after_a_cue_ends_before_a_phrase_end(nlp, word) -> None:
    assert "dune mapping" in tasks(nlp, f"Prior work looks at the problem of dune mapping {word} radar scans.")


# -- verb_tool_links, verb_ability_links: "a method for ...", "accuracy in ..." ----------------
@pytest.mark.parametrize("link", sorted(_TC["verb_tool_links"]))
def test_a_verb_phrase_or_a_phrase_of_work_after_a_tool_and_its_link(nlp, link) -> None:
    found = tasks(nlp, f"We give a new method {link} charting glacier retreat, tested twice.")
    assert "charting glacier retreat" in found
    assert "dune digitization" in tasks(nlp, f"We give a new method {link} dune digitization, tested twice.")


@pytest.mark.parametrize("link", sorted(_TC["verb_ability_links"]))
def test_a_verb_phrase_after_an_ability_and_its_link(nlp, link) -> None:
    assert "charting glacier retreat" in tasks(nlp, f"They showed high accuracy {link} charting glacier retreat.")


# Each key with a word that is no entry: the sentence names no task, until a
# rules file adds the word to the key.
_ADDED = {
    "tool_nouns": ("quality", "Their glacier segmentation quality was slow.", "glacier segmentation"),
    "phrase_ends": ("was", "Prior work looks at the problem of dune mapping was radar scans.", "dune mapping"),
    "verb_tool_links": ("toward", "We give a new method toward dune digitization, tested twice.", "dune digitization"),
    "verb_ability_links": ("when", "They showed high accuracy when charting glacier retreat.",
                           "charting glacier retreat"),
    "not_tasks_alone": ("charting", "Earlier tools compare various charting methods on few scenes.", None),
    "object_adjectives": ("every", "We give a new method for charting every glacier outline, tested twice.",
                          "charting every glacier outline"),
}


@pytest.mark.parametrize("key", sorted(_ADDED))
def test_a_word_added_to_a_key_by_a_rules_file_does_its_part(nlp, tmp_path, key) -> None:
    word, text, task = _ADDED[key]
    # A key that takes tasks away: the word is a task until the rules file adds it.
    gone = task is None
    task = word if gone else task
    assert word not in _TC[key] and (task in tasks(nlp, text)) == gone
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"task_contexts": {"extend": {key: [word]}}}), encoding="utf-8")
    assert (task in tasks(entity_pipeline(rules=[path]), text)) != gone


# -- entity_patterns list_separators: the lists of the task rules ------------------------------
@pytest.mark.parametrize("sep", sorted(rules.load("entity_patterns")["list_separators"]))
def test_task_lists_go_on_past_each_list_separator(nlp, sep) -> None:
    sep = sep if sep == "," else f" {sep}"
    assert {"dune mapping", "crater counting"} <= tasks(nlp, f"Prior work looks at tasks such as dune mapping{sep} "
                                                             "crater counting and NLI.")
    assert "crater counting" in tasks(nlp, f"We study question answering{sep} crater counting on maps.")


# -- apposition: "FooNet, a novel X approach" ---------------------------------------------------
_APPOSED = "We propose DuneNet, {article} {skipped}dune digitization {tool} for lunar maps."


@pytest.mark.parametrize("article", sorted(rules.load("task_contexts")["apposition_articles"]))
def test_each_article_opens_a_description_of_an_apposed_name(nlp, article) -> None:
    assert "dune digitization" in tasks(nlp, _APPOSED.format(article=article, skipped="", tool="framework"))
    assert "dune digitization" not in tasks(nlp, _APPOSED.format(article="zzz", skipped="", tool="framework"))


@pytest.mark.parametrize("word", sorted(rules.load("task_contexts")["apposition_skipped"]))
def test_each_word_of_praise_is_left_out_of_the_apposed_task(nlp, word) -> None:
    found = tasks(nlp, _APPOSED.format(article="a", skipped=word + " ", tool="framework"))
    assert "dune digitization" in found and f"{word} dune digitization" not in found


@pytest.mark.parametrize("tool", sorted(rules.load("task_contexts")["apposition_tools"]))
def test_each_apposition_tool_names_the_task_before_it(nlp, tool) -> None:
    assert "dune digitization" in tasks(nlp, _APPOSED.format(article="a", skipped="new ", tool=tool))


def test_without_a_tool_noun_or_a_name_before_the_comma_no_task_is_read(nlp) -> None:
    assert "dune digitization" not in tasks(nlp, _APPOSED.format(article="a", skipped="new ", tool="zzz"))
    assert "dune digitization" not in tasks(nlp, "We study dunes, a dune digitization framework for lunar maps.")


@pytest.mark.parametrize("word", sorted(rules.load("task_contexts")["apposition_not_tasks"]))
def test_a_single_word_that_names_no_task_is_no_apposed_task(nlp, word) -> None:
    assert word not in tasks(nlp, f"We propose DuneNet, a new {word} strategy for lunar maps.")


def test_a_name_with_its_abbreviation_before_the_comma(nlp) -> None:
    assert "dune digitization" in tasks(nlp, "We propose Dune Mapper (DuMa), a dune digitization framework.")


# -- a known task written as its acronym, narrowed by the words before it -----------------------
def test_a_known_task_acronym_narrowed_by_lower_case_words_is_the_task(nlp) -> None:
    found = tasks(nlp, "We tune FooNet for rare dialects in the streaming multilingual ASR.")
    assert "streaming multilingual ASR" in found and "ASR" not in found
    assert "low-resource NMT" in tasks(nlp, "BarNet is compact, and its low-resource NMT beats larger systems.")


def test_a_known_task_acronym_alone_stays_as_it_is(nlp) -> None:
    assert "ASR" in tasks(nlp, "FooNet is a model for ASR and was tuned on call audio.")


@pytest.mark.parametrize("noun", ["model", "method"])
def test_one_tool_described_by_its_work_names_no_task(nlp, noun) -> None:
    # "a glacier segmentation method": the kind of one tool, not a task the paper works on.
    assert "glacier segmentation" not in tasks(nlp, f"Their glacier segmentation {noun} was slow.")
    assert "glacier segmentation" in tasks(nlp, f"Their glacier segmentation {noun}s were slow.")


# -- addresses means_links: a task named only as the means of a method -------------------------
def test_a_task_named_only_as_a_means_is_no_task(nlp) -> None:
    found = tasks(nlp, "DuneNet fuses passage retrieval, dune reranking and lexical matching into one model.")
    assert not found & {"passage retrieval", "dune reranking"}
    assert "frame prediction" not in tasks(nlp, "We train a decoder based on frame prediction for two days.")


def test_a_task_named_as_a_means_and_elsewhere_stays(nlp) -> None:
    text = "DuneNet fuses passage retrieval into one model. DuneNet is a system for passage retrieval."
    assert "passage retrieval" in tasks(nlp, text)


def test_a_word_added_to_means_links_by_a_rules_file_drops_the_task(nlp, tmp_path) -> None:
    text = "DuneNet rests on passage retrieval from older systems."
    assert "passage retrieval" in tasks(nlp, text)
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"addresses": {"extend": {"means_links": ["rests on"]}}}), encoding="utf-8")
    assert "passage retrieval" not in tasks(entity_pipeline(rules=[path]), text)


# -- part_nouns: "a language modeling objective" ------------------------------------------------
@pytest.mark.parametrize("noun", sorted(_TC["part_nouns"]))
def test_a_task_phrase_before_a_part_noun_is_no_task(nlp, noun) -> None:
    assert "language modeling" not in tasks(nlp, f"DuneNet adds a language modeling {noun} to the encoder.")
    assert "language modeling" in tasks(nlp, "DuneNet is a system for language modeling on dune logs.")


# -- recast_before: "as a classification problem" ---------------------------------------------------
@pytest.mark.parametrize("cue", sorted(_TC["cues_after"]))
def test_the_kind_of_problem_a_paper_recasts_its_own_as_is_no_task(nlp, cue) -> None:
    found = tasks(nlp, f"DuneNet casts dune routing as a classification {cue} and as an anomaly detection {cue}.")
    assert not found & {"classification", "anomaly detection"}


def test_the_same_task_word_elsewhere_stays(nlp) -> None:
    assert "anomaly detection" in tasks(nlp, "DuneNet is a system for anomaly detection on dune logs.")


# -- an abbreviation in brackets inside a task said with a verb ----------------------------------
def test_an_abbreviation_inside_the_object_of_a_task_verb_stays_in_it(nlp) -> None:
    # A generic acronym of the lexicon's not_names (no name of its own) in brackets after a word of the object.
    found = tasks(nlp, "DuneNet is a method for detecting out-of-distribution (OOD) dunes in radar maps.")
    assert "detecting out-of-distribution (OOD) dunes" in found


# -- a task named inside a method's name: "Sparse Probe Framework for Slope Estimation" -----------
def test_a_method_named_as_a_tool_for_a_task_holds_that_task(nlp) -> None:
    doc = nlp("We propose DMCC (Dune Mapper for Crater Counting), a new system.")
    methods = {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Method"}
    assert "Dune Mapper for Crater Counting" in methods
    assert "Crater Counting" in tasks(nlp, "We propose DMCC (Dune Mapper for Crater Counting), a new system.")


def test_a_rules_file_without_the_link_word_finds_no_task_in_the_name(tmp_path) -> None:
    # The rule reads the user's rules files: with "for" taken out of verb_tool_links it finds nothing.
    links = [w for w in rules.load("task_contexts")["verb_tool_links"] if w != "for"]
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"task_contexts": {"replace": {"verb_tool_links": links}}}))
    text = "We propose DMCC (Dune Mapper for Crater Counting), a new system."
    assert "Crater Counting" not in tasks(entity_pipeline(rules=[str(path)]), text)


def test_a_method_name_after_for_that_names_no_work_holds_no_task(nlp) -> None:
    assert not tasks(nlp, "We propose DMMR (Dune Mapper for Mars Rovers), a new system.")
