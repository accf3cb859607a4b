"""`python -m core.ask`: readable and JSON output, and clear messages for questions it will not answer."""
from __future__ import annotations

import json

from core import ask
from core.answer.models import AnswerEnvelope, AttributedAnswer, Claim, RuleClaims
from core.answer.text import render_text
from core.domain import Edge


def test_empty_question_gives_clear_message_and_exit_code(capsys):
    assert ask.main(["   ", "--model", "extractive"]) == 2
    assert "question is empty" in capsys.readouterr().out


def test_too_long_question_as_json(capsys):
    assert ask.main(["--json", "--model", "extractive", "x" * 5000]) == 2
    envelope = AnswerEnvelope.model_validate(json.loads(capsys.readouterr().out))
    assert envelope.error and "limit is 2,000" in envelope.error and envelope.model == "extractive"


def test_readable_form_shows_cards_chain_and_notices():
    envelope = AnswerEnvelope(
        question="q", corpus="hipaa", mode="extractive", model="extractive", method="citewalk",
        notices=["Citation graph unavailable."],
        answer=AttributedAnswer(
            answer="Yes.",
            rules=[RuleClaims(unit_id="a", label="45 CFR 164.508(b)", claims=[Claim(text="A valid authorization …", paragraph="(b)")]),
                   RuleClaims(unit_id="b", label="45 CFR 164.508(c)", claims=[Claim(text="must contain")])],
            chain=[Edge(source="a", type="REFERENCES", target="b")],
        ),
    )
    text = render_text(envelope)
    assert "■ 45 CFR 164.508(b)" in text and "• (b) A valid authorization" in text
    assert "Chain: 45 CFR 164.508(b) —references→ 45 CFR 164.508(c)" in text
    assert "extractive answerer" in text and "Notice: Citation graph unavailable." in text
