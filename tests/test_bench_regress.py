"""`make answers` (bench.regress): the per-question diff against the committed figures and what counts as a fall."""
from __future__ import annotations

import json

from bench import regress
from bench.retrieval import Question
from core.settings import REPO_ROOT


def _q(p: float, r: float, abstained: bool = False, gold: int = 1) -> dict:
    return {"p": p, "r": r, "abstained": abstained, "gold": gold}


def _run(answers: dict, retrieval: dict | None = None, verbatim: float = 1.0, outside: int = 0) -> dict:
    out = {"answers": answers, "checks": {"claims_verbatim_share": verbatim, "cited_outside_ledger": outside}}
    return out | ({"retrieval": retrieval} if retrieval is not None else {})


def test_changed_questions_are_listed_each_way():
    before = {"answers": {"a": _q(1.0, 1.0), "b": _q(0.5, 0.5), "c": _q(1.0, 0.5), "gone": _q(1.0, 1.0)},
              "retrieval": {"a": {"r10": 1.0, "first": 1}, "b": {"r10": 0.5, "first": 4}}}
    after = {"answers": {"a": _q(0.5, 1.0), "b": _q(1.0, 1.0), "c": _q(1.0, 0.5), "new": _q(0.0, 0.0)},
             "retrieval": {"a": {"r10": 1.0, "first": 2}, "b": {"r10": 1.0, "first": 1}}}
    changes = {(c.id, c.what): c for c in regress.question_changes(before, after)}
    assert set(changes) == {("a", "answer"), ("b", "answer"), ("gone", "answer"), ("new", "answer"), ("b", "retrieval")}
    assert not changes["a", "answer"].better and changes["b", "answer"].better
    assert changes["a", "answer"].before == "P/R 1.00/1.00" and changes["a", "answer"].after == "P/R 0.50/1.00"
    assert not changes["gone", "answer"].better and changes["gone", "answer"].after == "absent"
    assert changes["b", "retrieval"].better and changes["b", "retrieval"].after == "R@10 1.00"


def test_declining_is_better_only_on_an_off_topic_set():
    before, after = {"answers": {"x": _q(0.0, 0.0, gold=0)}}, {"answers": {"x": _q(0.0, 0.0, True, gold=0)}}
    assert regress.question_changes(before, after, off_topic=True)[0].better
    assert not regress.question_changes(before, after, off_topic=False)[0].better
    assert regress.set_means(after["answers"], {}, off_topic=True) == {"n": 1.0, "declined": 1.0}
    assert regress.set_means(after["answers"], {}) == {"n": 1.0, "answered": 0.0}


def test_a_fall_of_a_mean_fails_and_an_equal_run_passes():
    base = _run({"a": _q(1.0, 1.0), "b": _q(0.5, 0.5)}, {"a": {"r10": 1.0, "first": 1}, "b": {"r10": 0.5, "first": 3}})
    lines, regressed = regress.compare("s", base, base, tolerance=0.0)
    assert not regressed and lines == ["s: n 2, P 0.750, R 0.750, R@10 0.750  ->  n 2, P 0.750, R 0.750, R@10 0.750   "
                                       "(0 questions better, 0 worse)"]
    worse = _run({"a": _q(1.0, 1.0), "b": _q(0.5, 0.25)}, {"a": {"r10": 1.0, "first": 1}, "b": {"r10": 0.5, "first": 3}})
    lines, regressed = regress.compare("s", base, worse, tolerance=0.0)
    assert regressed and "  FELL R 0.7500 -> 0.6250" in lines
    assert any(line.startswith("  - b ") and "P/R 0.50/0.50 -> P/R 0.50/0.25" in line for line in lines)
    assert not regress.compare("s", base, worse, tolerance=0.2)[1]  # within the tolerance asked for


def test_an_answer_reworded_at_the_same_figures_is_listed_apart_and_fails_nothing():
    base = _run({"a": _q(1.0, 1.0) | {"said": "aaa"}, "b": _q(0.5, 0.5) | {"said": "bbb"}, "c": _q(1.0, 1.0)})
    now = _run({"a": _q(1.0, 1.0) | {"said": "zzz"}, "b": _q(1.0, 1.0) | {"said": "yyy"}, "c": _q(1.0, 1.0) | {"said": "c"}})
    assert regress.reworded(base, now) == ["a"]  # b moved (listed as better), c had no digest to compare
    lines, regressed = regress.compare("s", base, now, tolerance=0.0)
    assert not regressed and lines[0].endswith("(1 questions better, 0 worse, 1 reworded at the same figures)")
    assert "  ~ a                            answer    reworded" in lines


def test_unverbatim_claims_or_ids_outside_the_ledger_fail_even_without_a_baseline():
    assert regress.compare("s", None, _run({"a": _q(1.0, 1.0)}), 0.0)[1] is False
    lines, regressed = regress.compare("s", None, _run({"a": _q(1.0, 1.0)}, outside=2), 0.0)
    assert regressed and "  FAILED cited_outside_ledger 2" in lines
    assert regress.compare("s", _run({"a": _q(1.0, 1.0)}), _run({"a": _q(1.0, 1.0)}, verbatim=0.98), 0.0)[1]


def test_retrieval_figures_per_question():
    questions = [Question(id="q1", question="?", gold=["a", "b"]), Question(id="q2", question="?", gold=["z"]),
                 Question(id="q3", question="?", gold=[])]
    run = {"q1": [(f"x{i}", 1.0) for i in range(9)] + [("b", 0.5), ("a", 0.4)], "q2": [("y", 1.0)], "q3": []}
    assert regress.retrieval_figures(questions, run) == {"q1": {"r10": 0.5, "first": 10, "pool": 1.0},
                                                         "q2": {"r10": 0.0, "first": None, "pool": 0.0}}


def test_the_committed_baseline_names_known_sets_and_matches_their_stated_means():
    text = regress.BASELINE.read_text()
    baseline = json.loads(text)
    assert regress.baseline_text(baseline) == text  # as --update-baseline writes it
    assert set(baseline["sets"]) <= set(regress.SETS)
    gdpr = baseline["sets"]["gdpr_user"]
    assert regress.set_means(gdpr["answers"], {}) == {"n": 45.0, "P": 0.7111, "R": 0.6519, "searched": 0.6087}  # RESULTS.md's figure
    for dev in regress.SETS.values():
        if dev.root == "repo":
            assert (REPO_ROOT / dev.path).is_file(), dev.path
        assert dev.corpus in regress.CORPORA


def test_unknown_set_names_are_refused():
    assert regress.parse_sets("gdpr_user, ko_dev") == ["gdpr_user", "ko_dev"]
    assert regress.parse_sets(None) == list(regress.SETS)
    try:
        regress.parse_sets("gdpr_user,nope")
    except SystemExit as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("an unknown set was accepted")


def test_a_corpus_is_ingested_only_when_missing_and_its_files_are_named_when_absent(tmp_path, monkeypatch):
    from core.settings import get_settings

    settings = get_settings().model_copy(update={"data_dir": tmp_path / "data", "shared": tmp_path / "shared"})
    calls: list[list[str]] = []
    monkeypatch.setattr(regress, "ingest_main", lambda argv: calls.append(argv) or 0)
    try:
        regress.ensure_corpus("gdpr", settings)
    except SystemExit as exc:
        assert "gdpr_reg-2016-679_oj.txt" in str(exc) and "CITEWALK_SHARED" in str(exc)
    else:
        raise AssertionError("a corpus without files was not refused")
    assert not calls
    text = settings.shared / "corpora/real/eu/gdpr_reg-2016-679_oj.txt"
    text.parent.mkdir(parents=True)
    text.write_text("Article 1")
    regress.ensure_corpus("gdpr", settings)
    assert calls == [[str(text), "--corpus", "gdpr", "--quiet", "--format", "generic"]]
    index = settings.lexical_path / "gdpr"
    index.mkdir(parents=True)
    (index / "unit_ids.json").write_text("[]")
    regress.ensure_corpus("gdpr", settings)  # answerable now: no second ingest
    assert len(calls) == 1


def test_main_fails_on_a_fall_and_update_writes_the_run_as_the_baseline(tmp_path, monkeypatch, capsys):
    baseline, out = tmp_path / "baseline.json", tmp_path / "run.json"
    baseline.write_text(json.dumps({"sets": {"ko_dev": {"measured_on": "old", **_run({"a": _q(1.0, 1.0)})}}}))
    monkeypatch.setattr(regress.neo4j_local, "ensure_running", lambda settings: None)
    monkeypatch.setattr(regress, "run_set", lambda dev, settings: _run({"a": _q(0.5, 1.0)}, {"a": {"r10": 1.0, "first": 1}}))
    argv = ["--sets", "ko_dev", "--baseline", str(baseline), "--out", str(out)]
    assert regress.main(argv) == 1
    printed = capsys.readouterr().out
    assert "- a" in printed and "FELL P 1.0000 -> 0.5000" in printed and printed.rstrip().endswith("REGRESSED")
    assert json.loads(out.read_text())["sets"]["ko_dev"]["means"]["P"] == 0.5
    assert regress.main(argv + ["--update-baseline"]) == 0
    text = baseline.read_text()
    assert '    "a": {"p": 0.5, "r": 1.0, "abstained": false, "gold": 1}' in text.splitlines()  # one line a question
    written = json.loads(text)["sets"]["ko_dev"]
    assert written["answers"]["a"]["p"] == 0.5 and written["retrieval"]["a"]["r10"] == 1.0
    assert regress.main(argv) == 0 and capsys.readouterr().out.rstrip().endswith("no set fell")
