"""The CFR citation grammar on short texts: every pattern, relative forms, statutes, hostile input."""
from __future__ import annotations

import time

import pytest

from core.domain import Document, LegalUnit, UnitType
from ingest.citations.cfr import CfrCitationFinder, Position

HERE = Position(section="164.508", part="164", subpart="E", path=("a", "2"))


def find(text: str, where: Position = HERE, finder: CfrCitationFinder | None = None) -> list[tuple[str, list[str]]]:
    mentions = (finder or CfrCitationFinder()).find_in(text, "src", where)
    for m in mentions:
        assert text[m.start : m.end].strip() == m.text
    return [(m.text, m.keys) for m in mentions]


def firsts(text: str, where: Position = HERE) -> list[str]:
    return [keys[0] for _, keys in find(text, where)]


def test_section_with_paragraph_lists_ancestors_finest_first() -> None:
    assert find("See § 164.508(a)(2) here.") == [
        ("§ 164.508(a)(2)", ["cfr:164.508(a)(2)", "cfr:164.508(a)", "cfr:164.508", "cfr:part:164"])
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("§§ 164.502 and 164.504", ["cfr:164.502", "cfr:164.504"]),
        ("§§ 164.502(a), 164.504(e) and 164.508", ["cfr:164.502(a)", "cfr:164.504(e)", "cfr:164.508"]),
        ("§ 164.310, § 164.312 and § 164.316", ["cfr:164.310", "cfr:164.312", "cfr:164.316"]),
        ("section 164.508 applies", ["cfr:164.508"]),
        ("Section 164.504 relating to", ["cfr:164.504"]),
        ("45 CFR 164.508", ["cfr:164.508"]),
        ("§ 164.501 of this subchapter", ["cfr:164.501"]),
        ("§ 164.502(g)(3)(i)(A), (B), or (C)", ["cfr:164.502(g)(3)(i)(A)", "cfr:164.502(g)(3)(i)(B)", "cfr:164.502(g)(3)(i)(C)"]),
        ("§ 164.524(c)(2)(ii) and (3)(ii)", ["cfr:164.524(c)(2)(ii)", "cfr:164.524(c)(3)(ii)"]),
        ("§ 164.406(a), and 164.408(a)", ["cfr:164.406(a)", "cfr:164.408(a)"]),
        ("§ 162.1002 and", ["cfr:162.1002"]),
        ("7 CFR 1c.107", ["cfr:7:1c.107"]),
        ("45 CFR 46.110", ["cfr:46.110"]),
    ],
)
def test_section_citations(text: str, expected: list[str]) -> None:
    assert firsts(text) == expected


def test_range_expands_to_known_sections_else_endpoints() -> None:
    assert firsts("§§ 164.500 through 164.534") == ["cfr:164.500", "cfr:164.534"]
    documents = [_section_document(n) for n in ("164.500", "164.501", "164.502", "164.534", "164.600")]
    finder = CfrCitationFinder(documents)
    got = [k[0] for _, k in find("§§ 164.500 through 164.534", finder=finder)]
    assert got == ["cfr:164.500", "cfr:164.501", "cfr:164.502", "cfr:164.534"]
    assert [k[0] for _, k in find("§ 160.404-160.408", finder=finder)] == ["cfr:160.404", "cfr:160.408"]


def test_bare_section_numbers_count_only_when_the_corpus_has_them() -> None:
    finder = CfrCitationFinder([_section_document("164.502"), _section_document("164.504")])
    assert [k[0] for _, k in find("as required under 164.502(a) and 164.504, not 164.999 or 1.502", finder=finder)] == [
        "cfr:164.502(a)", "cfr:164.504"
    ]
    assert find("under 164.502(a)") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("paragraph (a)(2) of this section", ["cfr:164.508(a)(2)"]),
        ("paragraphs (b)(1) and (2) of this section", ["cfr:164.508(b)(1)", "cfr:164.508(b)(2)"]),
        ("as in paragraph (c)(1)(i).", ["cfr:164.508(c)(1)(i)"]),
        ("paragraph (a)(3)(ii), (a)(4)(ii), (c)(1), and (c)(2) of this section",
         ["cfr:164.508(a)(3)(ii)", "cfr:164.508(a)(4)(ii)", "cfr:164.508(c)(1)", "cfr:164.508(c)(2)"]),
        ("paragraphs (a) through (c) of this section", ["cfr:164.508(a)", "cfr:164.508(b)", "cfr:164.508(c)"]),
        # A bare lower level is a sibling of the citing unit's ancestor: inside (a)(2), "(1)" is (a)(1).
        ("listed in paragraph (1) or (2)", ["cfr:164.508(a)(1)", "cfr:164.508(a)(2)"]),
        ("paragraph (i) of this paragraph", ["cfr:164.508(a)(2)(i)"]),
        ("paragraph (e)(1) of § 164.502", ["cfr:164.502(e)(1)", "cfr:164.502"]),
    ],
)
def test_relative_paragraphs(text: str, expected: list[str]) -> None:
    assert firsts(text) == expected


def test_paragraph_of_a_definition_or_of_another_law_is_not_placed_here() -> None:
    assert firsts("paragraph (2) of this definition") == []
    assert firsts("paragraph (3) of the definition of marketing at § 164.501") == ["cfr:164.501"]
    assert not [k for k in firsts("paragraph (1) of section 1128A of the Act") if k.startswith("cfr:")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("subpart C of part 160 of this subchapter", [("subpart C of part 160", ["cfr:part:160:subpart:C", "cfr:part:160"])]),
        ("subpart E of this part", [("subpart E of this part", ["cfr:part:164:subpart:E", "cfr:part:164"])]),
        ("part 164", [("part 164", ["cfr:part:164"])]),
        ("parts 160 and 164", [("parts 160", ["cfr:part:160"]), ("164", ["cfr:part:164"])]),
        ("this subpart", [("this subpart", ["cfr:part:164:subpart:E", "cfr:part:164"])]),
        ("this part", [("this part", ["cfr:part:164"])]),
        ("45 CFR part 164, subpart E", [("45 CFR part 164, subpart E", ["cfr:part:164:subpart:E", "cfr:part:164"])]),
    ],
)
def test_parts_and_subparts(text: str, expected: list) -> None:
    assert find(text) == expected


@pytest.mark.parametrize(
    ("text", "first_key"),
    [
        ("section 1171 of the Act", "statute:act:1171"),
        ("section 2791(b)(2) of the PHS Act", "statute:phs-act:2791(b)(2)"),
        ("sections 13400-13424 of Public Law 111-5", "statute:public-law-111-5:13400-13424"),
        ("42 U.S.C. 1320d", "usc:42:1320d"),
        ("42 U.S.C. 1320d- 5(b)(2)(B)", "usc:42:1320d-5(b)(2)(B)"),
    ],
)
def test_statutes_become_external_keys(text: str, first_key: str) -> None:
    assert firsts(text)[0] == first_key


def test_spans_point_into_the_text() -> None:
    text = "Except as in § 164.502(a) or paragraph (b)(1) of this section, and 42 U.S.C. 1320d-6."
    for mention in CfrCitationFinder().find_in(text, "src", HERE):
        assert text[mention.start : mention.end] == mention.text


def test_position_of_a_paragraph_unit_comes_from_its_id() -> None:
    section = LegalUnit(id="hipaa/164.508", corpus="hipaa", document_id="hipaa/164.508", type=UnitType.SECTION,
                        label="45 CFR 164.508", metadata={"section": "164.508", "part": "164", "subpart": "E"})
    paragraph = LegalUnit(id="hipaa/164.508/b/2/i-2", corpus="hipaa", document_id="hipaa/164.508", type=UnitType.POINT,
                          label="45 CFR 164.508(b)(2)(i)", text="see paragraph (c) of this section", parent_id="hipaa/164.508/b/2")
    document = Document(id="hipaa/164.508", corpus="hipaa", title="t", source_path="x", units=[section, paragraph])
    finder = CfrCitationFinder([document])
    assert finder.position_of(paragraph, document) == Position("164.508", "164", "E", ("b", "2", "i"))
    assert [m.keys[0] for m in finder.find(paragraph, document)] == ["cfr:164.508(c)"]


@pytest.mark.parametrize(
    "text",
    [
        "§ 164.5" + "0" * 3 + " (a)(b)" * 15_000,
        "x" * 100_000,
        "§ " * 50_000,
        "paragraph (" * 20_000,
        "(" * 100_000,
        "section 1" * 12_000,
        "45 CFR " * 15_000,
    ],
)
def test_hostile_single_line_finishes_fast(text: str) -> None:
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    CfrCitationFinder().find_in(text, "src", HERE)
    assert time.process_time() - started < 5


def test_ten_thousand_citations_in_one_unit() -> None:
    text = " ".join(f"§ 164.{500 + i % 40}(a)(1) and paragraph (b)(2) of this section;" for i in range(10_000))
    started = time.process_time()
    mentions = CfrCitationFinder().find_in(text, "src", HERE)
    assert time.process_time() - started < 5
    assert len(mentions) == 20_000
    listed = "§ 164.502" + ", 164.504(a)" * 10_000
    assert len(CfrCitationFinder().find_in(listed, "src", HERE)) == 10_001


def _section_document(number: str) -> Document:
    unit = LegalUnit(id=f"hipaa/{number}", corpus="hipaa", document_id=f"hipaa/{number}", type=UnitType.SECTION,
                     label=f"45 CFR {number}", metadata={"section": number, "part": number.split(".")[0]})
    return Document(id=unit.id, corpus="hipaa", title=number, source_path="x", units=[unit])
