"""The law as of a date in what the user sees (issue 50), render layer only: the word-level comparison of two
wordings, a provision's version timeline, the card's "as in force on D" and pending line, the answer, permalink
and export saying the date, and the chat panel's date field. Wordings are the real 제12조제1항 of 응급의료에 관한 법률
before and after 법률 제21237호 (promulgated 2025-12-23, in force 2026-06-24)."""
from __future__ import annotations

import html
import io

import pytest

from core.answer.models import AnswerEnvelope, AttributedAnswer, Claim, RuleClaims
from core.as_of import WordingRow, from_wordings
from core.chat.controls import PanelChange, RunOptions, read_as_of
from core.render.compare import DELETED, INSERTED, SAME, compare, word_diff
from core.render.dated import dated_view, timeline
from core.render.export import render_export
from core.render.markdown import answer_markdown
from core.render.share_page import source_page_html
from core.render.source_view import SourceUnitView, SourceView
from core.render.view import build_view
from core.stores.queries import UnitRecord
from tests.render_support import HOSTILE, answer_html

UNIT = "kr/emergency/art-12/p-1"
LABEL = "응급의료에 관한 법률 제12조제1항"
OLD = ("누구든지 응급의료종사자(「의료기사 등에 관한 법률」 제2조에 따른 의료기사와 「간호법」 제6조에 따른 간호조무사를 포함한다)와 "
       "구급차등의 응급환자에 대한 구조ㆍ이송ㆍ응급처치 또는 진료를 폭행, 협박, 위계(僞計), 위력(威力), 그 밖의 방법으로 방해하거나")
NEW = ("누구든지 응급의료종사자(「의료기사 등에 관한 법률」 제2조에 따른 의료기사와 「간호법」 제6조에 따른 간호조무사를 포함한다. "
       "이하 이 조에서 같다)와 구급차등의 응급환자에 대한 상담ㆍ구조ㆍ이송ㆍ응급처치 또는 진료를 폭행, 협박, 위계(僞計), "
       "위력(威力), 그 밖의 방법으로 방해하거나")
OLD_VERSION, NEW_VERSION = "2026-04-02|2025-04-01|20887", "2026-06-24|2025-12-23|21237"
ROWS = [WordingRow(unit_id=UNIT, valid_from="2026-04-02", valid_until="2026-06-24", text=OLD, versions=[OLD_VERSION]),
        WordingRow(unit_id=UNIT, valid_from="2026-06-24", text=NEW, versions=[NEW_VERSION])]


def test_word_diff_marks_what_went_and_what_came_and_keeps_each_wording_whole() -> None:
    old, new = word_diff(OLD, NEW)
    assert "".join(p.text for p in old) == OLD and "".join(p.text for p in new) == NEW
    assert [p.text.strip() for p in old if p.change == DELETED] == ["포함한다)와", "구조ㆍ이송ㆍ응급처치"]
    inserted = " ".join(p.text.strip() for p in new if p.change == INSERTED)
    assert "이하 이 조에서 같다)와" in inserted and "상담ㆍ구조ㆍ이송ㆍ응급처치" in inserted
    assert not any(p.change == INSERTED for p in old) and not any(p.change == DELETED for p in new)
    same = compare(UNIT, "2026-04-02", OLD, "2026-04-02", OLD)
    assert not same.changed and [p.change for p in same.old] == [SAME]


def test_timeline_marks_the_wording_in_force_and_the_pending_one() -> None:
    versions = timeline(reversed(ROWS), "2026-05-01")
    assert [v.valid_from for v in versions] == ["2026-04-02", "2026-06-24"]
    assert [v.current for v in versions] == [True, False] and [v.pending for v in versions] == [False, True]
    assert versions[0].span == "in force from 2026-04-02 until 2026-06-24"
    assert versions[1].source == "version in force 2026-06-24 (no. 21237, promulgated 2025-12-23)"
    assert [v.current for v in timeline(ROWS, "2026-07-01")] == [False, True]
    assert timeline(ROWS[:1], "2026-05-01") == []  # one wording: no timeline


def test_card_says_the_date_and_flags_the_pending_amendment() -> None:
    before = dated_view(from_wordings(LABEL, UNIT, ROWS, "2026-05-01"))
    assert before is not None
    assert before.line == "As in force on 2026-05-01 (this wording from 2026-04-02)"
    assert [p.line for p in before.pending] == [
        "Amended with effect from 2026-06-24 by version in force 2026-06-24 (no. 21237, promulgated 2025-12-23)"]
    after = dated_view(from_wordings(LABEL, UNIT, ROWS, "2026-07-01"))
    assert after is not None and after.line.startswith("As in force on 2026-07-01") and not after.pending
    earlier = dated_view(from_wordings(LABEL, UNIT, ROWS, "2026-01-01"))
    assert earlier is not None and earlier.line.startswith("Not yet in force on 2026-01-01")


def _view(day: str | None):
    envelope = AnswerEnvelope(
        question="응급의료종사자의 진료를 방해하면?", corpus="kov", mode="extractive", model="extractive", as_of=day,
        answer=AttributedAnswer(answer=OLD[:40], rules=[RuleClaims(unit_id=UNIT, label=LABEL, claims=[Claim(text=OLD[:60])])]),
        seed_ids=[UNIT], evidence_ids=[UNIT])
    units = {UNIT: UnitRecord(id=UNIT, label=LABEL, text=OLD, document_id="kr/emergency")}
    law = dated_view(from_wordings(LABEL, UNIT, ROWS, day)) if day else None
    return build_view(envelope, units, {"kr/emergency": "응급의료에 관한 법률"}, dated={UNIT: law} if law else None)


def test_answer_markdown_html_and_exports_say_the_date() -> None:
    view = _view("2026-05-01")
    assert view.as_of == "2026-05-01" and view.cards[0].dated is not None
    assert "Law as of 2026\\-05\\-01" in answer_markdown(view)
    page = answer_html(view)
    assert "Law as of 2026-05-01" in page and "As in force on 2026-05-01" in page
    assert "Amended with effect from 2026-06-24 by version in force 2026-06-24" in page
    markdown = render_export(view, "a1", "md")[0].decode()
    assert "**Law as of:** 2026\\-05\\-01" in markdown and "- Law as of: 2026\\-05\\-01" in markdown
    assert "Amended with effect from 2026\\-06\\-24" in markdown
    from docx import Document  # late, as core.render.export imports it

    docx = "\n".join(p.text for p in Document(io.BytesIO(render_export(view, "a1", "docx")[0])).paragraphs)
    assert "Law as of: 2026-05-01" in docx and "Amended with effect from 2026-06-24" in docx
    undated = _view(None)  # a snapshot from before dates: nothing claims one
    assert "Law as of" not in answer_markdown(undated) and "Law as of" not in answer_html(undated)
    assert "Law as of: not recorded" in render_export(undated, "a1", "md")[0].decode()


def test_source_page_shows_versions_one_wording_and_a_comparison_escaped() -> None:
    rows = [ROWS[0].model_copy(update={"text": f"{OLD} {HOSTILE}"}), ROWS[1]]
    source = SourceView(unit_id=UNIT, label=LABEL, as_of="2026-05-01", versions=timeline(rows, "2026-05-01"),
                        dated=dated_view(from_wordings(LABEL, UNIT, rows, "2026-05-01")),
                        units=[SourceUnitView(id=UNIT, label=LABEL, target=True)])
    comparison = compare(UNIT, "2026-04-02", rows[0].text, "2026-06-24", NEW)
    page = source_page_html(source, token="t" * 32, question="q", shared=frozenset({UNIT}), version="2026-04-02", comparison=comparison)
    assert "<script>" not in page and html.escape('<script>alert("x")</script>') in page
    assert "Law as of 2026-05-01" in page and "As in force on 2026-05-01" in page
    assert page.count('class="version-link"') == 2 and "version=2026-06-24" in page
    assert 'data-testid="version-text"' in page and "in force from 2026-04-02 until 2026-06-24" in page
    assert "<del>구조ㆍ이송ㆍ응급처치</del>" in page and "<ins>상담ㆍ구조ㆍ이송ㆍ응급처치</ins>" in page
    assert '<option value="2026-04-02" selected>' in page and '<option value="2026-06-24" selected>' in page


@pytest.mark.parametrize(("typed", "kept", "problem"), [
    ("2024-03-01", "2024-03-01", None),
    (" 2026-06-24 ", "2026-06-24", None),
    ("", None, None),  # cleared: today
    ("2024-02-30", "2025-01-01", "'2024-02-30' is not a date"),
    ("yesterday", "2025-01-01", "'yesterday' is not a date"),
    (["2024-03-01"], "2025-01-01", "'a list' is not a date"),
])
def test_chat_date_field_takes_a_date_and_keeps_the_previous_one_otherwise(typed, kept, problem) -> None:
    current = RunOptions(corpus="kov", as_of="2025-01-01")
    change = read_as_of({"as_of": typed, "k": 8}, PanelChange(options=current))
    assert change.options.as_of == kept
    if problem is None:
        assert change.problems == []
    else:
        assert len(change.problems) == 1 and problem in change.problems[0] and "stay as of 2025-01-01" in change.problems[0]
    assert read_as_of({"k": 8}, PanelChange(options=current)).options == current
