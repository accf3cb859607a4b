"""The answer benchmark's scoring: roll-up-free P/R summaries and the per-group breakdowns users read."""
from __future__ import annotations

import json

from bench.answers import article_of, breakdowns, load_questions, summarise


def _row(precision: float, recall: float, groups: dict[str, str], gold: int = 2) -> dict:
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "rules": 2, "claims": 2, "verbatim": 2,
            "latency_ms": 100.0, "mode": "extractive", "outside_ledger": 0, "gold": gold, "gold_in_evidence": gold,
            "notices": [], "groups": groups, "article_precision": precision, "article_recall": recall,
            "abstained": False}


def test_breakdown_by_xrefrag_method_and_reference_type(tmp_path):
    rows = [{"id": "a", "question": "q", "method": "DPEL", "reference_type": "Internal", "source_passage_id": "s",
             "target_passage_id": "t"},
            {"id": "b", "question": "q", "method": "SCHEMA", "reference_type": "External", "source_passage_id": "s",
             "target_passage_id": "t"}]
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    questions = load_questions(path, "xrefrag", None)
    assert [q.groups for q in questions] == [{"method": "DPEL", "reference_type": "Internal"},
                                             {"method": "SCHEMA", "reference_type": "External"}]
    scored = [_row(1.0, 1.0, questions[0].groups), _row(0.5, 0.5, questions[1].groups)]
    out = breakdowns(scored)
    assert out["method"]["DPEL"]["citation_precision"] == 1.0 and out["method"]["SCHEMA"]["citation_recall"] == 0.5
    assert out["reference_type"]["External"]["n"] == 1
    summary = summarise(scored)
    assert summary["questions"] == 2 and summary["citation_precision"] == 0.75
    assert (summary["all_gold_cited"], summary["no_gold_cited"]) == (1, 0)


def test_answer_type_breakdown_article_level_and_abstention(tmp_path):
    rows = [{"id": "a", "question": "How long?", "answer_type": "deadline", "gold_labels": ["Reg, Article 33(1)"]},
            {"id": "b", "question": "What must it contain?", "answer_type": "list", "gold_labels": ["Reg, Article 13(2)"]}]
    path = tmp_path / "u.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    questions = load_questions(path, None, None)
    assert [q.groups for q in questions] == [{"answer_type": "deadline"}, {"answer_type": "list"}]
    assert article_of("Regulation (EU) 2016/679, Article 9(2)(a)") == "Regulation (EU) 2016/679, Article 9"
    assert article_of("Regulation (EU) 2016/679, Recital 32") == "Regulation (EU) 2016/679, Recital 32"
    assert article_of("의료법 제15조제1항") == "의료법 제15조"
    assert article_of("의료법 시행규칙 제13조의3제1항제2호가목") == "의료법 시행규칙 제13조의3"
    assert article_of("의료법 제3조의2") == "의료법 제3조의2"
    assert article_of("Luat-Cu-tru-2020 Điều 27 khoản 1") == "Luat-Cu-tru-2020 Điều 27"
    assert article_of("Bo-Luat-Dan-su-2015 Điều 27 khoản 1 điểm a") == "Bo-Luat-Dan-su-2015 Điều 27"
    scored = [_row(0.0, 0.0, questions[0].groups) | {"article_precision": 1.0, "abstained": True},
              _row(1.0, 1.0, questions[1].groups)]
    summary = summarise(scored)
    assert summary["article_precision"] == 1.0 and summary["abstained_share"] == 0.5
    assert breakdowns(scored)["answer_type"]["deadline"]["article_precision"] == 1.0


def test_gold_in_evidence_share_counts_each_question_gold():
    rows = [_row(1.0, 1.0, {}, gold=1), _row(0.0, 0.0, {}, gold=3)]
    rows[1]["gold_in_evidence"] = 1
    assert summarise(rows)["gold_in_evidence_share"] == 0.5  # (1 + 1) of (1 + 3)
    assert summarise(rows)["no_gold_cited"] == 1 and breakdowns(rows) == {}


def test_label_gold_is_scored_at_its_level_on_the_real_store(tmp_path, test_settings, hipaa_corpus):
    """A units file with gold_labels (bench.retrieval's format): a cited paragraph counts for its section label."""
    from bench.answers import gold_level, prf, rolled_up, run

    path = tmp_path / "units.jsonl"
    path.write_text(json.dumps({"id": "u1", "question": "What must a valid authorization contain?",
                                "gold_labels": ["45 CFR 164.508"]}) + "\n")
    questions = load_questions(path, None, None)
    assert questions[0].by_label and questions[0].gold == {"45 CFR 164.508"}
    members = gold_level(questions, test_settings, hipaa_corpus)
    assert members["hipaa/164.508/c/1"] == "45 CFR 164.508"
    cited = rolled_up(["hipaa/164.508/c/1", "hipaa/164.508/c/2"], questions[0].gold, None, members)
    assert prf(cited, questions[0].gold)[:2] == (1.0, 1.0)
    assert prf(rolled_up(["hipaa/164.502/a"], questions[0].gold, None, members), questions[0].gold)[0] == 0.0
    result = run(questions, hipaa_corpus, test_settings, "citewalk", "extractive", None)
    assert result["citation_recall"] == 1.0 and result["claims_verbatim_share"] == 1.0
    assert result["cited_outside_ledger"] == 0


def test_select_fit_ceiling_is_the_best_candidate_and_the_chooser_can_fall_short_of_it():
    import numpy as np

    from bench.select_fit import Item, ceiling, evaluate

    # one question, three candidates: a wrong single, a right single (half the gold), the gold pair
    item = Item(features=np.array([[1.0, 0.0], [0.5, 0.0], [0.0, 1.0]]),
                scores=np.array([[0.0, 0.0, 0.0], [1.0, 0.5, 2 / 3], [1.0, 1.0, 1.0]]),
                sizes=np.array([1, 1, 2]), reach={"evidence": 1.0, "hits": 1.0, "top5": 0.5})
    top = ceiling([item])
    assert (top["precision"], top["recall"]) == (1.0, 1.0) and top["gold_share_in"]["top5"] == 0.5
    assert evaluate([item], np.array([1.0, 0.0]))["precision"] == 0.0  # prefers the wrong single
    assert evaluate([item], np.array([0.0, 1.0]))["recall"] == 1.0
