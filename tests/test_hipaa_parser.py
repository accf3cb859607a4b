"""The HIPAA format: hierarchy from hipaa.yml, paragraph trees, definitions, failures; then the real corpus."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.domain import LegalUnit, UnitType
from ingest.parsers.base import CorpusParse
from ingest.parsers.hipaa import HipaaParser

TOC = """\
name: HIPAA
regulation:
  - title: Security and Privacy
    subparts:
      - id: Subpart E
        title: Privacy of Individually Identifiable Health Information
        subparts:
          - id: § 164.501
            title: Definitions
            url: 164-501-definitions
          - id: § 164.508
            title: Uses and disclosures for which an authorization is required
            url: 164-508-uses
"""

SECTION = """\
Lead-in words before any paragraph.

(a) Standard: General rule. (1) Permitted uses. A covered entity may act under [§ 164.502](/hipaa/regulations/164-502/)(a).

> (2) Psychotherapy notes:

> > (i) To carry out treatment:

> > > (A) Use by the originator; or

> > > &#40;B) Use for training.

> > (ii) Required by [§ 162.100](/hipaa/regulations/162-100/)2.

(b) Implementation specifications:
General requirements

> (1) Defective authorizations:

> > (i) First defect;

> > (ii) Second defect;

> > (i) Repeated first;

> > (ii) Repeated second;

> > (iii) Third defect.

(c) Third.

(d) Fourth.

(e) Fifth.

(f) Sixth.

(g) Seventh.

(h) Eighth.

> (1) Under eighth.

(i) Ninth, a letter after (h) and a (1).

[67 FR 53268, Aug. 14, 2002]
"""

DEFINITIONS = """\
As used in this subpart, the following terms have the following meanings:

Correctional institution means any penal facility.

Marketing:

> (1) Except as provided in paragraph (2) of this definition, marketing means a communication.

> (2) Marketing does not include:

> > (i) Refill reminders.

Contrary, when used to compare a provision of State law to a standard, requirement, or specification, means:

> (1) Impossible to comply with both.
"""


def _corpus(tmp_path: Path, files: dict[str, str | bytes], toc: str = TOC) -> Path:
    root = tmp_path / "hipaa"
    (root / "regulations").mkdir(parents=True)
    (root / "hipaa.yml").write_text(toc, encoding="utf-8")
    for name, content in files.items():
        path = root / "regulations" / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return root


def _units(parsed: CorpusParse) -> dict[str, LegalUnit]:
    return {u.id: u for d in parsed.documents for u in d.units}


@pytest.fixture()
def parsed(tmp_path: Path) -> CorpusParse:
    root = _corpus(tmp_path, {"164-508-uses.md": SECTION, "164-501-definitions.md": DEFINITIONS})
    return HipaaParser().parse([root], "hipaa")


def test_detect(tmp_path: Path) -> None:
    root = _corpus(tmp_path, {"164-508-uses.md": SECTION})
    fmt = HipaaParser()
    assert fmt.detect([root]) and fmt.detect([root / "hipaa.yml"]) and fmt.detect([root / "regulations" / "164-508-uses.md"])
    assert not fmt.detect([tmp_path / "elsewhere"])


def test_hierarchy_from_the_table_of_contents(parsed: CorpusParse) -> None:
    units = _units(parsed)
    assert not parsed.failures
    part, subpart, section = units["hipaa/part-164"], units["hipaa/part-164/subpart-E"], units["hipaa/164.508"]
    assert (part.type, part.label, part.keys, part.parent_id) == (UnitType.PART, "45 CFR Part 164", ["cfr:part:164"], None)
    assert (subpart.label, subpart.keys, subpart.parent_id) == ("45 CFR Part 164, Subpart E", ["cfr:part:164:subpart:E"], part.id)
    assert (section.type, section.label, section.parent_id, section.keys) == (UnitType.SECTION, "45 CFR 164.508", subpart.id, ["cfr:164.508"])
    assert section.title == "Uses and disclosures for which an authorization is required"
    assert section.text == "Lead-in words before any paragraph."
    assert section.metadata["part"] == "164" and section.metadata["subpart"] == "E"
    for document in parsed.documents:
        assert all(u.document_id == document.id for u in document.units)


def test_inline_split_levels_and_entities(parsed: CorpusParse) -> None:
    units = _units(parsed)
    a, a1 = units["hipaa/164.508/a"], units["hipaa/164.508/a/1"]
    assert a.text == "Standard: General rule." and a.type is UnitType.PARAGRAPH
    assert a1.parent_id == a.id and a1.type is UnitType.CLAUSE and a1.text.startswith("Permitted uses.")
    assert "§ 164.502(a)" in a1.text  # the link is gone, its words stay
    b_point = units["hipaa/164.508/a/2/i/B"]
    assert b_point.label == "45 CFR 164.508(a)(2)(i)(B)" and b_point.parent_id == "hipaa/164.508/a/2/i"
    assert b_point.keys == ["cfr:164.508(a)(2)(i)(B)"] and b_point.type is UnitType.POINT
    assert "§ 162.1002" in units["hipaa/164.508/a/2/ii"].text
    assert units["hipaa/164.508/b"].text == "Implementation specifications: General requirements"


def test_letter_i_after_h_and_roman_i_after_a_number(parsed: CorpusParse) -> None:
    units = _units(parsed)
    assert units["hipaa/164.508/i"].parent_id == "hipaa/164.508"
    assert units["hipaa/164.508/i"].text.startswith("Ninth")
    assert units["hipaa/164.508/h/1"].parent_id == "hipaa/164.508/h"
    assert "[67 FR" not in units["hipaa/164.508/i"].text


def test_repeated_markers_get_unique_ids(parsed: CorpusParse) -> None:
    units = _units(parsed)
    ids = [u.id for d in parsed.documents for u in d.units]
    assert len(ids) == len(set(ids))
    first, repeat = units["hipaa/164.508/b/1/i"], units["hipaa/164.508/b/1/i-2"]
    assert first.keys == ["cfr:164.508(b)(1)(i)"] and repeat.keys == []
    assert repeat.label == "45 CFR 164.508(b)(1)(i)" and repeat.text == "Repeated first;"
    assert units["hipaa/164.508/b/1/iii"].parent_id == "hipaa/164.508/b/1"
    orders = [u.order for u in parsed.documents[-1].units]
    assert orders == sorted(orders)


def test_definitions_become_term_units(parsed: CorpusParse) -> None:
    units = _units(parsed)
    marketing = units["hipaa/164.501/def/marketing"]
    assert marketing.type is UnitType.DEFINITION and marketing.metadata["term"] == "Marketing"
    assert marketing.label == '45 CFR 164.501 (definition of "Marketing")' and marketing.parent_id == "hipaa/164.501"
    assert "(2) Marketing does not include" in marketing.text and "Refill reminders" in marketing.text
    assert units["hipaa/164.501/def/contrary"].metadata["term"] == "Contrary"
    assert units["hipaa/164.501/def/correctional-institution"].text == "Correctional institution means any penal facility."
    assert units["hipaa/164.501"].text.startswith("As used in this subpart")


def test_bad_files_fail_alone(tmp_path: Path) -> None:
    root = _corpus(
        tmp_path,
        {
            "164-508-uses.md": SECTION,
            "164-510-empty.md": "  \n\n",
            "164-512-latin1.md": "caf\xe9 (a) text".encode("latin-1"),
            "notes.md": "(a) no number in the name",
            "164-530-extra.md": "(a) Not in the table of contents.",
        },
    )
    parsed = HipaaParser().parse([root], "hipaa")
    problems = {Path(f.path).name: f.problem for f in parsed.failures}
    assert set(problems) == {"164-510-empty.md", "164-512-latin1.md", "notes.md"}
    assert all("\n" not in p for p in problems.values())
    units = _units(parsed)
    assert "hipaa/164.508/a/1" in units
    assert units["hipaa/164.530"].parent_id == "hipaa/part-164"
    assert any("164.530" in note for note in parsed.notes)


def test_broken_table_of_contents_still_parses_sections(tmp_path: Path) -> None:
    root = _corpus(tmp_path, {"164-508-uses.md": SECTION}, toc="regulation: [unclosed\n  - : :")
    parsed = HipaaParser().parse([root], "hipaa")
    assert [Path(f.path).name for f in parsed.failures] == ["hipaa.yml"]
    section = _units(parsed)["hipaa/164.508"]
    assert section.parent_id is None and section.keys == ["cfr:164.508"]


def test_hostile_files_parse_fast(tmp_path: Path) -> None:
    root = _corpus(
        tmp_path,
        {
            "164-900-line.md": "(a) Standard: x. " + " ".join(f"({i % 999 + 1}) Item. (i) Sub § 164.5{i % 10}." for i in range(3000)),
            "164-901-repeats.md": "\n\n".join("> " * (i % 7) + f"({'abcdefgh'[i % 8]}) text" for i in range(20_000)),
            "164-902-flat.md": "x" * 100_000,
            "164-903-parens.md": "(" * 100_000,
        },
    )
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    parsed = HipaaParser().parse([root], "hipaa")
    assert time.process_time() - started < 5
    ids = [u.id for d in parsed.documents for u in d.units]
    assert len(ids) == len(set(ids))


# -- the shared corpus ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def real(hipaa_dir: Path) -> CorpusParse:
    return HipaaParser().parse([hipaa_dir], "hipaa")


def test_real_corpus_paragraphs(real: CorpusParse) -> None:
    units = _units(real)
    assert not real.failures
    point = units["hipaa/164.508/a/2/i/A"]
    assert point.parent_id == "hipaa/164.508/a/2/i" and point.label == "45 CFR 164.508(a)(2)(i)(A)"
    assert units["hipaa/164.508"].parent_id == "hipaa/part-164/subpart-E"
    assert units["hipaa/164.508/b/2/i-2"].keys == []
    assert units["hipaa/164.512/b/1"].parent_id == "hipaa/164.512/b"  # split off "(b) Standard: … (1) Permitted uses"


@pytest.mark.parametrize(("section", "term"), [("160.103", "Business associate"), ("164.501", "Marketing"),
                                                ("164.304", "Encryption"), ("164.402", "Breach")])
def test_real_definitions_sections(real: CorpusParse, section: str, term: str) -> None:
    terms = {u.metadata["term"] for u in _units(real).values() if u.type is UnitType.DEFINITION and u.document_id == f"hipaa/{section}"}
    assert term in terms and len(terms) >= 2
