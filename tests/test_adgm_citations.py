"""The ADGM citation grammar on short texts written for each pattern, plus a hostile-text time bound."""
from __future__ import annotations

import time

import pytest

from core.domain import Document, LegalUnit, UnitType
from ingest.citations.adgm import AdgmCitationFinder


def _document(number: str, names: list[str], tier: int = 1, numbering: str = "rules") -> Document:
    head = LegalUnit(id=f"adgm/{number}", corpus="adgm", document_id=f"adgm/{number}", type=UnitType.DOCUMENT,
                     label=names[0], tier=tier, metadata={"document_number": number, "numbering": numbering})
    return Document(id=head.id, corpus="adgm", title=names[-1], source_path="x", names=names, units=[head])


DOCUMENTS = [
    _document("3", ["COBS", "Conduct of Business Rulebook"]),
    _document("6", ["FUNDS", "Fund Rules (FUNDS)"]),
    _document("7", ["GEN", "General Rulebook (GEN)"]),
    _document("10", ["MIR", "Market Infrastructure Rulebook (MIR)"]),
    _document("17", ["FSMR", "FINANCIAL SERVICES AND MARKETS REGULATIONS 2015"], numbering="sections"),
    _document("30", ["Guidance – Disclosure Requirements for Mining Reporting Entities"], tier=2),
]
FINDER = AdgmCitationFinder(DOCUMENTS)


def _keys(text: str, document: Document = DOCUMENTS[3]) -> list[list[str]]:
    unit = LegalUnit(id="u1", corpus="adgm", document_id=document.id, type=UnitType.RULE, label="x", text=text)
    return [m.keys for m in FINDER.find(unit, document)]


def _firsts(text: str, document: Document = DOCUMENTS[3]) -> list[str]:
    return [keys[0] for keys in _keys(text, document)]


def test_rule_in_own_document_with_ancestors_finest_first() -> None:
    assert _keys("Pursuant to Rule 3.8.1(a), a Recognised Body") == [
        ["adgm:10:3.8.1(a)", "adgm:10:3.8.1", "adgm:10:3.8"]
    ]


def test_abbreviation_before_head_and_after_head() -> None:
    assert _firsts("see MIR Rule 3.8.1 and Rule COBS 22.2.2(d)", DOCUMENTS[0]) == ["adgm:10:3.8.1", "adgm:3:22.2.2(d)"]
    assert _firsts("Conduct of Business Rules (COBS) Rule 8.2.2 applies") == ["adgm:3:8.2.2"]


def test_abbreviation_directly_before_number() -> None:
    assert _firsts("GEN 2.2.1(a) requires") == ["adgm:7:2.2.1(a)"]


def test_list_of_rules_carries_the_document() -> None:
    assert _firsts("FUNDS Rules 9.2.1(b), 9.4.2(1)(b)") == ["adgm:6:9.2.1(b)", "adgm:6:9.4.2(1)(b)"]
    assert _firsts("Rules 3.8.1 and 3.8.2") == ["adgm:10:3.8.1", "adgm:10:3.8.2"]


def test_sections_of_fsmr_named_after_the_list() -> None:
    assert _firsts("sections 215, 216 or 217 of the FSMR") == ["adgm:17:215", "adgm:17:216", "adgm:17:217"]
    assert _keys("section 205(2) of FSMR")[0] == ["adgm:17:205(2)", "adgm:17:205"]


def test_bare_section_in_a_rulebook_falls_back_to_the_statute() -> None:
    assert _keys("under section 92(2) the") == [["adgm:17:92(2)", "adgm:17:92", "adgm:10:92(2)", "adgm:10:92"]]


def test_ranges_expand() -> None:
    firsts = _firsts("paragraphs 47-54 of the Guidance on Mining")
    assert firsts[:2] == ["adgm:30:47", "adgm:30:54"] and len(firsts) == 8
    assert sorted(_firsts("Rules 4.13.5 to 4.13.8")) == [f"adgm:10:4.13.{k}" for k in (5, 6, 7, 8)]


def test_more_subparagraphs_of_one_rule() -> None:
    assert _firsts("Rule 9.1.1(3) or (4)") == ["adgm:10:9.1.1(3)", "adgm:10:9.1.1(4)"]


def test_chapter_and_paragraph_heads() -> None:
    assert _keys("Chapter 3 of this Rulebook") == [["adgm:10:3"]]
    assert _firsts("as in paragraph 47 above", DOCUMENTS[5]) == ["adgm:30:47"]


def test_document_named_by_title() -> None:
    assert _firsts("Rule 3.2.1 of the Conduct of Business Rulebook") == ["adgm:3:3.2.1"]
    assert _firsts("comply with the Conduct of Business Rulebook generally") == ["adgm:3"]


def test_split_letter_and_appendix_numbers() -> None:
    assert _firsts("In accordance with Rule 15.11.A.2 Money", DOCUMENTS[0]) == ["adgm:3:15.11a.2"]
    assert _keys("Appendix A1.3 of the Fund Rules") == [["adgm:6:a1.3", "adgm:6:a1"]]


def test_outside_law_is_kept_as_unresolvable_keys() -> None:
    keys = _keys("section 3 of the Companies Regulations 2020 and UAE Federal Law No. 4 of 2002")
    assert len(keys) == 2 and all(k[0].startswith("external:") for k in keys)


def test_numbers_that_are_not_citations() -> None:
    assert _keys("In 2015 the ratio was 3.5 times, see page 12 and Category 1.") == []


def test_hostile_text_finishes_fast() -> None:
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    FINDER.find(LegalUnit(id="h", corpus="adgm", document_id="adgm/10", type=UnitType.RULE, label="h",
                          text="Rule 1.2.3(a)(b), " * 10_000), DOCUMENTS[3])
    FINDER.find(LegalUnit(id="h2", corpus="adgm", document_id="adgm/10", type=UnitType.RULE, label="h",
                          text=("Aa Bb Cc (((( 1.1.1.1.1.1.1.1 of the of the " * 2_500)[:100_000]), DOCUMENTS[3])
    assert time.process_time() - started < 10


@pytest.mark.parametrize("text", ["", "Rule", "Rule ()", "section (1)(a)"])
def test_degenerate_text(text: str) -> None:
    assert isinstance(_keys(text), list)


def test_paragraph_inside_a_schedule_is_that_schedules() -> None:
    unit = LegalUnit(id="s", corpus="adgm", document_id="adgm/17", type=UnitType.SECTION, label="x",
                     text="within paragraph 98", metadata={"passage_id": "Schedule 1.Part 3 .76.(10)"})
    assert FINDER.find(unit, DOCUMENTS[4])[0].keys[:2] == ["adgm:17:schedule1.98", "adgm:17:98"]
