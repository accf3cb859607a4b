"""The law as of a date for an EU amending act (issue 50, must show 3): the real amending articles of
Regulation (EU) 2022/2554 (DORA), read from ../shared, ingested beside the real wording they amend.

What is real and where it comes from:
- DORA: its title lines, Articles 60 and 63 and its Article 64 ("It shall apply from 17 January 2025"), cut from
  ../shared/corpora/real/eu/dora_reg-2022-2554_oj.txt at test time.
- Regulation (EU) No 648/2012 (EMIR), Article 26(1) to (4): the wording in force 16 August 2012 to 16 January
  2025 as service.betterregulation.com prints it (document 164448, "version 2 of 3").
- Regulation (EU) 2016/1011 (BMR), Article 6(3) and (4): the English wording judict.eu prints
  (32016R1011-X/article-6). Paragraphs 1, 2 and 5 are left out: no English wording of them was found.
The two amended acts' title lines are their real titles; each excerpt holds only the provisions named here.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import law as law_cli
from core.current_law import amending_date
from core.embeddings import SENTENCE_TRANSFORMERS
from core.quoted_words import quoted_words
from core.settings import Settings
from ingest.parsers.generic.format import GenericParser
from ingest.pipeline import run_ingest

CORPUS = "eu-asof-test"
EMIR_26_3 = "Regulation (EU) No 648/2012, Article 26(3)"
BMR_6_6 = "Regulation (EU) 2016/1011, Article 6(6)"
DAY_BEFORE, APPLIES = "2025-01-16", "2025-01-17"

EMIR = """27.7.2012
EN
Official Journal of the European Union
L 201/1
REGULATION (EU) No 648/2012 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 4 July 2012
on OTC derivatives, central counterparties and trade repositories
(Text with EEA relevance)
HAVE ADOPTED THIS REGULATION:
Article 26
General provisions
1. A CCP shall have robust governance arrangements, which include a clear organisational structure with well-defined, transparent and consistent lines of responsibility, effective processes to identify, manage, monitor and report the risks to which it is or might be exposed, and adequate internal control mechanisms, including sound administrative and accounting procedures.
2. A CCP shall adopt policies and procedures which are sufficiently effective so as to ensure compliance with this Regulation, including compliance of its managers and employees with all the provisions of this Regulation.
3. A CCP shall maintain and operate an organisational structure that ensures continuity and orderly functioning in the performance of its services and activities. It shall employ appropriate and proportionate systems, resources and procedures.
4. A CCP shall maintain a clear separation between the reporting lines for risk management and those for the other operations of the CCP.
"""

BMR = """29.6.2016
EN
Official Journal of the European Union
L 171/1
REGULATION (EU) 2016/1011 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL
of 8 June 2016
on indices used as benchmarks in financial instruments and financial contracts or to measure the performance of investment funds and amending Directives 2008/48/EC and 2014/17/EU and Regulation (EU) No 596/2014
(Text with EEA relevance)
HAVE ADOPTED THIS REGULATION:
Article 6
Control framework requirements
3. The control framework shall include:
(a) management of operational risk;
(b) adequate and effective business continuity and disaster recovery plans;
(c) contingency procedures that are in place in the event of a disruption to the process of the provision of the benchmark.
4. An administrator shall establish measures to:
(a) ensure that contributors adhere to the code of conduct referred to in Article 15 and comply with the applicable standards for input data;
(b) monitor input data including, where feasible, monitoring input data before publication of the benchmark and validating input data after publication to identify errors and anomalies.
"""


def _between(lines: list[str], first: str, stop: str) -> list[str]:
    start = lines.index(first)
    return lines[start: lines.index(stop, start + 1)]


def dora_excerpt(shared_root: Path) -> str:
    """DORA's title lines, its amending Articles 60 and 63 and its Article 64, in the Official Journal's words."""
    source = shared_root / "corpora" / "real" / "eu" / "dora_reg-2022-2554_oj.txt"
    if not source.exists():
        pytest.skip(f"{source} not found (set CITEWALK_SHARED)")
    lines = source.read_text(encoding="utf-8").splitlines()
    head = lines[: lines.index("THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,")]
    kept = [*head, "HAVE ADOPTED THIS REGULATION:", *_between(lines, "Article 60", "Article 61"),
            *_between(lines, "Article 63", "Done at Strasbourg, 14 December 2022.")]
    return "\n".join(kept) + "\n"


@pytest.fixture(scope="module")
def ingested(shared_root: Path, test_settings: Settings, neo4j_driver, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    settings = test_settings.model_copy(update={"embedding_backend": SENTENCE_TRANSFORMERS})
    folder = tmp_path_factory.mktemp("eu-as-of")
    files = {"emir.txt": EMIR, "bmr.txt": BMR, "dora.txt": dora_excerpt(shared_root)}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    summary = run_ingest([folder / n for n in files], CORPUS, settings, quiet=True)
    assert not summary.failures, summary.failures
    # The amended act read again (changed: a line added at its end) without its amender keeps the paragraph the
    # amender inserted into it.
    (folder / "bmr.txt").write_text(BMR + "Done at Strasbourg, 8 June 2016.\n", encoding="utf-8")
    again = run_ingest([folder / "bmr.txt"], CORPUS, settings, quiet=True)
    assert not again.failures and again.documents_written == 1, again
    return settings


def _law(capsys, settings: Settings, monkeypatch, day: str, *labels: str) -> list[dict]:
    monkeypatch.setattr(law_cli, "get_settings", lambda: settings)
    law_cli.main(["--corpus", CORPUS, "--as-of", day, "--json", *labels])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _flat(text: str | None) -> str:
    return " ".join((text or "").split())


def test_a_replaced_paragraph_reads_its_old_words_until_the_act_applies(ingested: Settings, capsys, monkeypatch) -> None:
    old = ("3. A CCP shall maintain and operate an organisational structure that ensures continuity and orderly "
           "functioning in the performance of its services and activities. It shall employ appropriate and "
           "proportionate systems, resources and procedures.")
    before, on = (_law(capsys, ingested, monkeypatch, day, EMIR_26_3)[0] for day in (DAY_BEFORE, APPLIES))
    assert before["status"] == "in_force" and _flat(before["text"]) == old
    assert [(p["date"], p["action"]) for p in before["pending"]] == [(APPLIES, "replaced")]
    assert "including ICT systems managed in accordance with Regulation (EU) 2022/2554" in before["pending"][0]["text"]
    assert on["status"] == "in_force" and on["in_force_from"] == APPLIES and not on["pending"]
    new = _flat(on["text"])
    # The new words are the quoted paragraph alone: no instruction, no quotation marks, no footnote.
    assert new.startswith("3. A CCP shall maintain and operate an organisational structure")
    assert new.endswith("including ICT systems managed in accordance with Regulation (EU) 2022/2554 of the European "
                        "Parliament and of the Council (*2).")
    assert "replaced by the following" not in new and "‘" not in new and "OJ L 333" not in new
    assert any(e["date"] == APPLIES and e["action"] == "replaced" for e in on["events"])


def test_an_added_paragraph_is_not_yet_in_force_before_the_act_applies(ingested: Settings, capsys, monkeypatch) -> None:
    before, on = (_law(capsys, ingested, monkeypatch, day, BMR_6_6)[0] for day in (DAY_BEFORE, APPLIES))
    assert before["status"] == "not_yet_in_force" and before["text"] is None
    assert [p["date"] for p in before["pending"]] == [APPLIES]
    assert on["status"] == "in_force"
    assert _flat(on["text"]).startswith("6. For critical benchmarks, an administrator shall have sound administrative")
    assert "is added" not in on["text"]


def test_the_untouched_paragraphs_keep_their_words(ingested: Settings, capsys, monkeypatch) -> None:
    label = "Regulation (EU) No 648/2012, Article 26(4)"
    before, on = (_law(capsys, ingested, monkeypatch, day, label)[0] for day in (DAY_BEFORE, APPLIES))
    assert before["text"] == on["text"] and "clear separation" in on["text"] and not before["pending"]


def _dora_lines(shared_root: Path) -> list[str]:
    dora_excerpt(shared_root)  # skips where ../shared is missing
    return (shared_root / "corpora" / "real" / "eu" / "dora_reg-2022-2554_oj.txt").read_text(encoding="utf-8").splitlines()


def _point(lines: list[str], first: str, stop: str) -> str:
    """One amending point of DORA as the parser keeps it: its instruction line and the quoted lines under it."""
    return "\n".join(_between(lines, first, stop))


def test_one_quotation_for_two_paragraphs_gives_each_its_own(shared_root: Path) -> None:
    lines = _dora_lines(shared_root)
    point = _point(lines, "(3) paragraphs 3 and 4 are replaced by the following:",
                   "(4) paragraph 6 is replaced by the following:")
    third = quoted_words(point, "Regulation (EU) No 909/2014, Article 45(3)")
    fourth = quoted_words(point, "Regulation (EU) No 909/2014, Article 45(4)")
    assert third is not None and third.startswith("3. For services that it provides") and "4. The plan" not in third
    assert fourth is not None and fourth.startswith("4. The plan referred to in paragraph 3")
    assert fourth.endswith("as provided for in Article 12(5) and (7) of Regulation (EU) 2022/2554.")


def test_a_replaced_point_and_an_instruction_that_quotes_nothing(shared_root: Path) -> None:
    lines = _dora_lines(shared_root)
    point = _point(lines, "(b) in paragraph 8, point (c) is replaced by the following:", "(2) Article 27h is amended as follows:")
    assert quoted_words(point, "Regulation (EU) No 600/2014, Article 27g(8)(c)") == \
        "(c) the concrete organisational requirements laid down in paragraphs 3 and 5."
    points = _point(lines, "(a) points (a) and (b) are replaced by the following:", "(b) point (c) is deleted.")
    second = quoted_words(points, "Regulation (EU) No 648/2012, Annex I, Section II, point (b)")
    assert second is not None and second.startswith("(b) a trade repository infringes Article 79(2)")
    # "Article 26 is amended as follows:" introduces its points and quotes no words of its own.
    assert quoted_words("(1) Article 26 is amended as follows:", "Regulation (EU) No 648/2012, Article 26") is None
    # A provision that is no instruction is its own words.
    assert quoted_words("It shall apply from 17 January 2025.") == "It shall apply from 17 January 2025."


def test_the_amending_acts_dates_come_from_its_final_article(shared_root: Path, tmp_path: Path) -> None:
    (tmp_path / "dora.txt").write_text(dora_excerpt(shared_root), encoding="utf-8")
    root = GenericParser().parse([tmp_path / "dora.txt"], corpus="t").documents[0].units[0]
    # Published 27.12.2022, in force on the twentieth day after; its provisions, the amending ones too, apply later.
    assert root.metadata["effective_date"] == "2023-01-16" and root.metadata["applies_from"] == APPLIES
    assert amending_date({}, root.metadata) == APPLIES
    assert amending_date({}, {"effective_date": "2023-01-16"}) == "2023-01-16"
