"""The demo's four HIPAA starter questions, on the ingested corpus: each cites the paragraph that answers it.

Users ask for a deadline, a list, a condition; the paragraph that holds it is the answer, not the duty next to
it (164.404(b), not 164.404(a)(1)), and one rare word ("research") decides which rule applies.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.answer.checkable import is_checkable
from core.answer.service import answer_question
from core.answer.stores import open_stores
from core.chat.starters import STARTERS

CITED = {
    "Research without authorization": "45 CFR 164.512(i)(1)",
    "Business associate contracts": "45 CFR 164.504(e)(2)",
    "Breach notification deadline": "45 CFR 164.404(b)",
    "Valid authorization": "45 CFR 164.508(c)(1)",
}
# In a user's own words: the permission and its conditions, not one sub-criterion alone.
PARAPHRASED = "We are a clinic. Can we give a patient's records to a university researcher without asking the patient?"


@pytest.fixture(scope="module")
def stores(test_settings, hipaa_corpus):
    return open_stores(test_settings, hipaa_corpus, "citewalk")


def _labels(question: str, test_settings, hipaa_corpus, stores) -> tuple[list[str], object]:
    envelope = answer_question(question, hipaa_corpus, test_settings, model="extractive", stores=stores)
    return [r.label for r in envelope.answer.rules], envelope


@pytest.mark.parametrize("starter", STARTERS["hipaa"], ids=lambda s: s.label)
def test_starter_cites_the_paragraph_that_answers(starter, test_settings, hipaa_corpus, stores):
    labels, envelope = _labels(starter.question, test_settings, hipaa_corpus, stores)
    assert labels == [CITED[starter.label]], (labels, envelope.answer.answer)
    assert not envelope.answer.abstained


def test_deadline_is_stated_first(test_settings, hipaa_corpus, stores):
    starter = next(s for s in STARTERS["hipaa"] if s.label == "Breach notification deadline")
    _, envelope = _labels(starter.question, test_settings, hipaa_corpus, stores)
    assert envelope.answer.answer.startswith("Without unreasonable delay and in no case later than 60 calendar days")


def test_paraphrased_research_question_cites_the_permission_with_its_conditions(test_settings, hipaa_corpus, stores):
    labels, envelope = _labels(PARAPHRASED, test_settings, hipaa_corpus, stores)
    assert labels and labels[0] in ("45 CFR 164.512(i)(1)", "45 CFR 164.512(i)", "45 CFR 164.512"), labels
    rule = envelope.answer.rules[0]
    assert len([c for c in rule.claims if c.unit_id]) >= 2  # its conditions are quoted under it
    named = [w for c in envelope.answer.caveats for w in c.split("“")[1:]]
    assert all(is_checkable(w.split("”")[0]) for w in named), envelope.answer.caveats


def test_another_laws_question_is_declined_first(test_settings, hipaa_corpus, stores):
    _, envelope = _labels("What speed limit applies to trucks on rural highways?", test_settings, hipaa_corpus, stores)
    assert envelope.answer.abstained
    assert envelope.answer.answer.startswith("The corpus does not cover this")


def test_questions_on_other_laws_are_declined_with_the_closest_shown(test_settings, hipaa_corpus, stores):
    """bench/abstain's HIPAA set (other laws' topics): at least 8 of 10 declined, each naming what was closest."""
    path = Path(__file__).parent.parent / "bench" / "abstain" / "hipaa_unanswerable.jsonl"
    questions = [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    declined = 0
    for question in questions:
        labels, envelope = _labels(question, test_settings, hipaa_corpus, stores)
        if envelope.answer.abstained:
            declined += 1
            assert labels and all(label in envelope.answer.answer for label in labels), envelope.answer.answer
    assert declined >= 0.8 * len(questions), declined
