"""Property tests: no finder or parser raises on random or adversarial text, and each finishes in bounded time."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.domain import Document, LegalUnit, UnitType, normalize_text
from ingest.citations.classify import classify_citation
from ingest.formats import format_named
from ingest.parsers.adgm import AdgmParser
from ingest.parsers.generic.format import GenericParser
from ingest.parsers.hipaa import HipaaParser

# Fragments that feed every grammar's hot paths: markers, list joiners, ranges, document names.
FRAGMENTS = [
    "§", "§§", " 164.508", "(a)", "(2)", "(ii)", "(A)", " and ", ", ", " through ", " to ", "-", " of this section",
    " paragraph ", " Rule ", "3.8.1", " MIR ", " FSMR ", " section 205", "(1)(b)", " Article 15", " of Circular 30/2024",
    " Điều 5", " khoản 3", " Thông tư 30/2024/TT-BYT", "제5조", "제2항", "①", " subpart C of part 160", "\u200e",
    "((((", "))))", "....", "\n", " as defined in ", " is amended by ",
]
adversarial = st.lists(st.sampled_from(FRAGMENTS), max_size=400).map("".join)
any_text = st.one_of(st.text(max_size=3000), adversarial)


def _unit(text: str, corpus: str, doc_id: str, unit_id: str) -> tuple[LegalUnit, Document]:
    unit = LegalUnit(id=unit_id, corpus=corpus, document_id=doc_id, type=UnitType.PARAGRAPH, label="x",
                     text=normalize_text(text), keys=[])
    return unit, Document(id=doc_id, corpus=corpus, title="t", source_path="-", units=[unit])


FINDERS = {
    "cfr": (format_named("hipaa"), "h", "h/164.508", "h/164.508/a/1"),
    "adgm": (format_named("adgm"), "a", "adgm/10", "x-1"),
    "generic": (format_named("generic"), "g", "g/doc", "g/doc/art-1"),
}


@pytest.mark.parametrize("name", sorted(FINDERS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=any_text)
def test_finders_never_raise_and_spans_point_into_text(name: str, text: str):
    fmt, corpus, doc_id, unit_id = FINDERS[name]
    unit, document = _unit(text, corpus, doc_id, unit_id)
    # CPU time of this process: the bound is on the work, not on what else the machine runs.
    started = time.process_time()
    mentions = fmt.finder([document]).find(unit, document)
    assert time.process_time() - started < 5.0
    for mention in mentions:
        assert 0 <= mention.start <= mention.end <= len(unit.text)
        classify_citation(unit.text, mention.start, mention.end)


@pytest.mark.parametrize("name", sorted(FINDERS))
def test_hostile_units_finish_in_bounded_time(name: str):
    fmt, corpus, doc_id, unit_id = FINDERS[name]
    hostile = ["x" * 100_000, "(" * 50_000 + "a" + ")" * 50_000, "§ 164.508(a), " * 10_000,
               "Rule 3.8.1, " * 10_000, "Article 5 " * 10_000, "1.1.1.1.1." * 10_000]
    for text in hostile:
        unit, document = _unit(text, corpus, doc_id, unit_id)
        started = time.process_time()
        fmt.finder([document]).find(unit, document)
        assert time.process_time() - started < 10.0, f"{name} too slow on {text[:30]!r}…"


@settings(max_examples=40, deadline=None)
@given(body=st.binary(max_size=2000))
def test_parsers_turn_any_bytes_into_units_or_one_failure(tmp_path_factory, body: bytes):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "doc.md").write_bytes(body)
    parsed = GenericParser().parse([root / "doc.md"], "f")
    assert len(parsed.failures) + len(parsed.documents) == 1
    adgm_file = root / "1.json"
    adgm_file.write_bytes(body)
    parsed = AdgmParser().parse([adgm_file], "a")
    assert len(parsed.failures) + len(parsed.documents) >= 1


def test_hipaa_parser_survives_garbage_section(tmp_path: Path):
    (tmp_path / "regulations").mkdir()
    (tmp_path / "hipaa.yml").write_text("regulation: [}")
    (tmp_path / "regulations" / "164-999-x.md").write_text("(a) " + "(1) " * 20000)
    parsed = HipaaParser().parse([tmp_path], "h")
    assert parsed.failures  # the broken yml is reported, by name
    assert any("hipaa.yml" in f.path for f in parsed.failures)
