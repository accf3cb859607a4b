"""EU acts in the generic format: identity, recitals, annexes, definitions, quoted amendments, notes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.domain import Document, LegalUnit, UnitType
from ingest.parsers.generic.format import GenericParser
from tests.eu_texts import ACT, DELEGATED, UK_NOTES


def _parse(tmp_path: Path, text: str, name: str = "act.txt") -> Document:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return GenericParser().parse([tmp_path / name], corpus="t").documents[0]


def _by_label(document: Document) -> dict[str, LegalUnit]:
    return {u.label: u for u in document.units}


def test_identity_comes_from_the_text_not_the_file_name(tmp_path: Path) -> None:
    doc = _parse(tmp_path, ACT, "some_file_name.txt")
    root = doc.units[0]
    assert root.label == "Regulation (EU) 2021/77"
    assert doc.title.startswith("Regulation (EU) 2021/77 of the European Parliament and of the Council of 3 March 2021")
    assert "Bird Care Regulation" in doc.names
    assert root.metadata["number"] == "2021/77" and root.metadata["tradition"] == "eu"
    assert "gen-name:no:regulation:2021/77" in root.keys
    labels = _by_label(doc)
    assert "Regulation (EU) 2021/77, Article 2(2)(a)" in labels
    assert labels["Regulation (EU) 2021/77, Article 2"].title == "Duties"


def test_recitals_are_their_own_type_outside_the_enacting_terms(tmp_path: Path) -> None:
    doc = _parse(tmp_path, ACT)
    recitals = [u for u in doc.units if u.type is UnitType.RECITAL]
    assert [u.label for u in recitals] == ["Regulation (EU) 2021/77, recital 1", "Regulation (EU) 2021/77, recital 2"]
    preamble = next(u for u in doc.units if u.type is UnitType.PREAMBLE)
    assert all(u.parent_id == preamble.id for u in recitals)
    assert "in particular Article 114 thereof" in preamble.text
    # The enacting terms start after "HAVE ADOPTED": no clause "(1)" at document level.
    assert not any(u.type is UnitType.CLAUSE and u.parent_id == doc.id for u in doc.units)


def test_annex_and_footnotes_are_kept_apart(tmp_path: Path) -> None:
    doc = _parse(tmp_path, ACT)
    labels = _by_label(doc)
    annex = labels["Regulation (EU) 2021/77, Annex I"]
    assert annex.type is UnitType.ANNEX and annex.title == "LIST OF BIRDS"
    assert labels["Regulation (EU) 2021/77, Annex I(2)"].parent_id == annex.id
    notes = next(u for u in doc.units if u.metadata.get("role") == "notes")
    assert "OJ C 1" in notes.text
    last_article = labels["Regulation (EU) 2021/77, Article 7"]
    assert "OJ C 1" not in last_article.text and "Done at" not in last_article.text


def test_quoted_definitions_become_definition_units(tmp_path: Path) -> None:
    doc = _parse(tmp_path, ACT)
    terms = {u.metadata["term"]: u.label for u in doc.units if u.type is UnitType.DEFINITION}
    assert terms == {"keeper": "Regulation (EU) 2021/77, Article 1(1)", "bird table": "Regulation (EU) 2021/77, Article 1(2)",
                     "nest box": "Regulation (EU) 2021/77, Article 1(3)"}


def test_quoted_provisions_are_not_headings_of_the_amending_act(tmp_path: Path) -> None:
    doc = _parse(tmp_path, ACT)
    labels = _by_label(doc)
    # The quoted "2." stays in point (1)(a): Article 4(2) is the amending act's own point (2).
    assert labels["Regulation (EU) 2021/77, Article 4(2)"].text.startswith("(2) in Annex I")
    assert "Regulation (EU) 2021/77, Article 27a" not in labels  # an inserted article is the amended act's
    instruction = labels["Regulation (EU) 2021/77, Article 4(1)(a)"]
    assert "A second quoted paragraph" in instruction.text
    assert "Regulation (EU) 2021/77, Article 5" in labels  # an unclosed quote cannot swallow the next article
    assert "Regulation (EU) 2021/77, Article 6" in labels and "Regulation (EU) 2021/77, Article 7" in labels


def test_delegated_act_is_tier_two_and_names_what_it_supplements(tmp_path: Path) -> None:
    doc = _parse(tmp_path, DELEGATED)
    root = doc.units[0]
    assert root.label == "Commission Delegated Regulation (EU) 2022/9"
    assert root.metadata["instrument"] == "delegated regulation"
    assert root.metadata["supplements"] == "Regulation (EU) 2021/77"
    assert {u.tier for u in doc.units} == {2}


def test_uk_amendment_notes_become_history_metadata(tmp_path: Path) -> None:
    doc = _parse(tmp_path, UK_NOTES)
    labels = {u.label.rsplit(" ", 1)[-1]: u for u in doc.units}
    substituted = json.loads(labels["4(1)"].metadata["amendment_history"])
    assert substituted == [{"marker": "F1", "action": "substituted", "date": "31.12.2020", "by": "S.I. 2019/419",
                            "note": "F1 Words in Art. 4(1) substituted (31.12.2020) by S.I. 2019/419, regs. 1(1), 3(2)"}]
    assert labels["4(1)"].metadata.get("status", "in_force") == "in_force"
    omitted = json.loads(labels["4(2)"].metadata["amendment_history"])
    assert omitted[0]["action"] == "omitted" and labels["4(2)"].metadata["status"] == "repealed"
    assert "amendment_history" not in labels["4(3)"].metadata
    assert not any("Textual Amendments" in u.text or "S.I. 2019/419" in u.text for u in doc.units)


@pytest.mark.parametrize("text", [ACT.replace("HAVE ADOPTED THIS REGULATION:", "")])
def test_without_enacting_formula_it_is_ordinary_english(tmp_path: Path, text: str) -> None:
    doc = _parse(tmp_path, text)
    assert not any(u.type is UnitType.RECITAL for u in doc.units)
    assert doc.units[0].metadata.get("tradition") is None
