"""'Current law' from the amendment data ingest records: EU instructions, Korean tags and 부칙, Vietnamese
notes, UK notes; whole-act mentions; Korean front-matter dates; no tier discount along delegation."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from core.current_law import Incoming, ParsedLaw, read
from core.domain import Edge, EdgeType, StoreError
from ingest.graph import CorpusGraph, build_graph
from tests.eu_texts import ACT, AMENDED, UK_NOTES
from tests.test_vi_codification import CODIFICATION

_AMENDED = "Regulation (EU) No 600/2014, "
_AMENDING = "Regulation (EU) 2021/77, "


def _graph(tmp_path: Path, files: dict[str, str], corpus: str = "t") -> CorpusGraph:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return build_graph([tmp_path], corpus, "generic")


def _laws(graph: CorpusGraph):
    units = {u.id: u for d in graph.documents for u in d.units}
    by_label = {u.label: u.id for u in units.values()}
    return units, lambda label: ParsedLaw(units, graph.edges).read(by_label[label])


def test_eu_amending_act_gives_the_amended_units_their_current_law(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"act.txt": ACT, "amended.txt": AMENDED})
    units, law = _laws(graph)
    replaced = law(_AMENDED + "Article 27(3)")
    assert not replaced.repealed
    assert [(e.action, e.by, e.origin) for e in replaced.events] == [("replaced", _AMENDING + "Article 4(1)(a)", "edge")]
    assert units[replaced.latest_id].label == _AMENDING + "Article 4(1)(a)"  # the new words stand there
    deleted = law(_AMENDED + "Article 27(6)")
    assert deleted.repealed and deleted.repealed_by == _AMENDING + "Article 4(1)(b)" and deleted.latest_id is None
    assert deleted.lines()[0].startswith(_AMENDED + "Article 27(6) is REPEALED (repealed) by " + _AMENDING)
    point = law(_AMENDED + "Article 27(8)(c)")
    assert units[point.latest_id].label == _AMENDING + "Article 4(1)(c)"
    # "Article 27 is amended as follows" changes the article, gives it no new text and repeals nothing.
    article = law(_AMENDED + "Article 27")
    assert [e.action for e in article.events] == ["amended"] and article.latest_id is None and not article.repealed
    untouched = law(_AMENDED + "Article 27(8)")
    assert not untouched.changed and untouched.lines()[-1].endswith("it is the current text.")


def test_an_instruction_resolved_to_an_ancestor_repeals_nothing() -> None:
    # "paragraph 9 is deleted" when Article 27 has no paragraph 9: the edge landed on the article.
    edge = Incoming(source_id="a/4", source_label="A 4", type="AMENDS", action="deleted", resolution="ancestor")
    law = read("b/27", "B 27", "in_force", {}, [edge])
    assert not law.repealed and not law.events


def test_an_edge_without_an_action_keeps_its_chain() -> None:
    # ADGM's "Rules 4.12.4 to 4.12.5 are replaced by Rules A4.12.4 to A4.12.6": no instruction word recorded.
    from core.current_law import longest_chain

    into: dict[str, list[tuple[str, str, str | None, str | None, bool]]] = {"r/4.12.4": [("r/a4.12.4", "REPLACES", None, "exact", True)], "r/a4.12.4": [("r/b4.12.4", "AMENDS", None, "exact", True)]}
    chain = longest_chain("r/4.12.4", into)
    assert [e.source for e in chain] == ["r/a4.12.4", "r/b4.12.4"]
    assert read("r/4.12.4", "4.12.4", "in_force", {}, [], chain).latest_id == "r/b4.12.4"


def test_uk_notes_give_dates_acts_and_the_repeal(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"uk.txt": UK_NOTES})
    units = {u.id: u for d in graph.documents for u in d.units}
    by_text = {u.text.split("\n")[-1][:6]: u.id for u in units.values()}
    substituted = ParsedLaw(units, graph.edges).read(by_text["1. F1‘"])
    assert [(e.action, e.date, e.by) for e in substituted.events] == [("replaced", "2020-12-31", "S.I. 2019/419")]
    assert not substituted.repealed
    omitted = ParsedLaw(units, graph.edges).read(by_text["2. F2."])
    assert omitted.repealed and omitted.repealed_on == "2020-12-31" and omitted.repealed_by == "S.I. 2019/419"


KO_ACT = """---
제목: 보건법
시행일자: 2024-09-20
공포번호: '20445'
---

# 보건법

##### 제2조 (정의)

**①** 이 법에서 "의료인"이란 의사를 말한다. <개정 2024.9.20, 2010.1.18>

**②** 삭제 <2020.1.1>

##### 제3조 (신고)

「약사법」에 따른 약국은 「보건법 시행령」으로 정하는 바에 따라 신고한다. <신설 2015.1.1>

## 부칙

부칙 <제9932호,2010.1.18>

##### 제1조 (시행일)

이 법은 2007년 4월 28일부터 시행한다.

##### 제2조 (다른 법률의 개정)

보건법 일부를 다음과 같이 개정한다.

제3조를 삭제한다.
"""

KO_DECREE = """[시행 2024. 9. 20.] [대통령령 제34000호, 2024. 9. 20., 일부개정]

# 보건법 시행령

##### 제1조 (목적)

이 영은 「보건법」에서 위임된 사항을 규정함을 목적으로 한다.

## 부칙

부칙 <제1호,2008.1.1>

##### 제1조 (시행일)

이 영은 2008년 1월 1일부터 시행한다.
"""


def test_korean_history_dates_repeal_and_applied_instructions(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"act.md": KO_ACT, "decree.md": KO_DECREE})
    units, law = _laws(graph)
    amended = law("보건법 제2조제1항")
    assert [(e.action, e.date) for e in amended.events] == [("amended", "2010-01-18"), ("amended", "2024-09-20")]
    deleted = law("보건법 제2조제2항")
    assert deleted.repealed and deleted.repealed_on == "2020-01-01"
    # 부칙 "제3조를 삭제한다" sits in the act's own (consolidated) file: the text shows what stands.
    article = law("보건법 제3조")
    instruction = next(e for e in article.events if e.origin == "edge")
    assert (instruction.action, instruction.date, instruction.applied) == ("deleted", "2010-01-18", True)
    assert not article.repealed and article.latest_id is None


def test_korean_effective_date_comes_from_the_front_matter_or_header_not_the_addenda(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"act.md": KO_ACT, "decree.md": KO_DECREE})
    roots = {d.title: d.units[0].metadata for d in graph.documents}
    assert roots["보건법"]["effective_date"] == "2024-09-20" and roots["보건법"]["promulgation_number"] == "20445"
    decree = roots["보건법 시행령"]
    assert decree["effective_date"] == "2024-09-20" and decree["promulgated"] == "2024-09-20"
    assert decree["promulgation_number"] == "대통령령 제34000호" and decree["amendment_kind"] == "일부개정"


def test_korean_whole_act_mentions(tmp_path: Path) -> None:
    graph = _graph(tmp_path, {"act.md": KO_ACT, "decree.md": KO_DECREE})
    units = {u.id: u for d in graph.documents for u in d.units}
    names = {x.id: x.raw for x in graph.externals}
    article = next(u.id for u in units.values() if u.label == "보건법 제3조")
    targets = {(EdgeType(e.type).value, units[e.target].label if e.target in units else "EXT " + names[e.target])
               for e in graph.edges if e.source == article and e.citation and e.citation.startswith("「")}
    # 「보건법 시행령」 is ingested: its document; 「약사법」 is not: an External named by the act, no provision.
    assert targets == {("REFERENCES", "보건법 시행령"), ("REFERENCES", "EXT 약사법")}
    decree_purpose = next(u.id for u in units.values() if u.label == "보건법 시행령 제1조")
    assert {units[e.target].label for e in graph.edges if e.source == decree_purpose and e.citation == "「보건법」"} == {"보건법"}


def test_eu_whole_act_mentions_reach_the_act_never_an_article(tmp_path: Path) -> None:
    recital = "(1) Birds need care, as Regulation (EU) No 600/2014 says."
    graph = _graph(tmp_path, {"act.txt": ACT.replace("(1) Birds need care.", recital), "amended.txt": AMENDED})
    units = {u.id: u for d in graph.documents for u in d.units}
    names = {x.id: x.raw for x in graph.externals}
    whole = [e for e in graph.edges if e.citation in ("Directive 98/12/EC", "Regulation (EU) No 600/2014")
             and e.type is EdgeType.REFERENCES]
    assert whole
    for edge in whole:
        target = units.get(edge.target)
        assert (target is not None and target.type == "document") or names[edge.target] in ("Directive 98/12/EC",)
    assert {units[e.target].label for e in whole if e.target in units} == {"Regulation (EU) No 600/2014"}
    # The act's own number in its title is no edge; "Amendments to Regulation (EU) No 600/2014" is its AMENDS.
    assert not [e for e in graph.edges if e.citation == "Regulation (EU) 2021/77" and units[e.source].document_id == "t/act"]


def test_vietnamese_notes_give_history_and_repeal_and_no_guessed_amends(tmp_path: Path) -> None:
    extra = "4. Người theo Luật Chăm sóc sức khỏe số 10/2020/QH14 và Nghị định 54/2021/NĐ-CP được sửa đổi, bổ sung.\n\n"
    graph = _graph(tmp_path, {"pd.md": CODIFICATION.replace("## Danh sách điều khoản", extra + "## Danh sách điều khoản")})
    units, law = _laws(graph)
    article = law("Chăm sóc sức khỏe Điều 4.1.NĐ.2.3")
    assert [(e.action, e.date, e.by) for e in article.events] == [
        ("amended", "2022-11-12", "Điều 5 Nghị định số 155/2022/NĐ-CP"),
        ("inserted", "2022-11-12", "Điều 5 Nghị định số 155/2022/NĐ-CP"),
        ("repealed", "2023-02-01", "Điều 2 Thông tư số 08/2023/TT-BYT"),
    ]
    # "có nội dung bị bãi bỏ" removed part of the article, not the article; its point b) is the part.
    assert not article.repealed
    point = next(u for u in units.values() if u.text.startswith("b) (được bãi bỏ)"))
    assert ParsedLaw(units, graph.edges).read(point.id).repealed
    # Near words ("được sửa đổi, bổ sung") type nothing in a codification; whole acts are named, no provision.
    assert not [e for e in graph.edges if e.type in (EdgeType.AMENDS, EdgeType.REPLACES) and e.action is None]
    names = {x.raw for x in graph.externals}
    assert {"Luật số 10/2020/QH14", "Nghị định số 54/2021/NĐ-CP"} <= names


def test_tier_discount_spares_the_decree_article_that_specifies_a_delegation() -> None:
    from core.retrieval.refwalk import authority_weighted

    units = {"act/4": SimpleNamespace(tier=1), "decree/2": SimpleNamespace(tier=2), "decree/9": SimpleNamespace(tier=2)}
    query = SimpleNamespace(stores=SimpleNamespace(units=units))
    scores = {"act/4": 1.0, "decree/2": 0.9, "decree/9": 0.9}
    # Without the exemption the delegated detail (decree/2 SPECIFIES act/4) falls to 0.63, below the act.
    assert authority_weighted(query, scores, 0.7)["decree/2"] < 0.7  # type: ignore[arg-type]  # a stand-in with the units only
    weighted = authority_weighted(query, scores, 0.7, exempt={"act/4", "decree/2"})  # type: ignore[arg-type]
    assert weighted == {"act/4": 1.0, "decree/2": 0.9, "decree/9": 0.9 * 0.7}


def test_history_records_of_every_grammar_read_alike() -> None:
    from core.current_law import history_events

    records = [{"action": "inserted", "date": "2009-01-30", "note": "<신설 2009.1.30>"},
               {"kinds": ["amended", "supplemented"], "by": "Điều 1 Luật số 46/2014/QH13", "act": "46/2014/QH13",
                "effective_date": "2015-01-01"},
               {"marker": "F3", "action": "substituted", "date": "1.2.2019", "by": "S.I. 2019/1", "note": "F3 …"}]
    events = history_events({"amendment_history": json.dumps(records)})
    assert [(e.action, e.date) for e in events] == [("inserted", "2009-01-30"), ("amended", "2015-01-01"),
                                                     ("inserted", "2015-01-01"), ("replaced", "2019-02-01")]
    assert history_events({"amendment_history": "not json"}) == []


def test_stored_graph_answers_current_law_and_the_tool_marks_the_repeal(tmp_path: Path, test_settings, neo4j_driver) -> None:
    """The Cypher read (core.stores.queries.current_law) gives the parse's record, and the agent's
    current_version tool shows a repealed unit as REPEALED with a notice, never as current text."""
    from core.answer.deps import AnswerDeps, Evidence
    from core.answer.graph import Neo4jGraph
    from core.answer.tools import current_version
    from core.stores import queries as gq
    from core.stores.neo4j_store import edges_owned_by, write_document
    from tests.support.answer_fakes import FakeRetriever

    graph = _graph(tmp_path, {"act.txt": ACT, "amended.txt": AMENDED}, corpus="curlaw")
    owned = edges_owned_by(graph.documents, graph.edges)
    db = test_settings.neo4j_database
    for document in graph.documents:
        write_document(neo4j_driver, db, document, owned.get(document.id, []), graph.externals, "h")
    units, law = _laws(graph)
    for label in (_AMENDED + "Article 27(3)", _AMENDED + "Article 27(6)", _AMENDED + "Article 27", _AMENDED + "Article 27(8)"):
        stored = gq.current_law(neo4j_driver, db, law(label).unit_id)
        assert stored is not None and stored.model_dump() == law(label).model_dump(), label
    assert gq.current_law(neo4j_driver, db, "curlaw/no-such-unit") is None
    repealed = law(_AMENDED + "Article 27(6)")
    deps = AnswerDeps(test_settings, "curlaw", "q", FakeRetriever(), Neo4jGraph(neo4j_driver, db))
    deps.ledger.record(Evidence(gq.fetch_units(neo4j_driver, db, [repealed.unit_id])[repealed.unit_id], "seed"))
    out = current_version(SimpleNamespace(deps=deps), repealed.unit_id)  # type: ignore[arg-type]  # a RunContext stand-in
    assert "is REPEALED" in out and "Article 4(1)(b)" in out and any("REPEALED" in n for n in deps.notices)
    replaced = law(_AMENDED + "Article 27(3)")
    deps.ledger.record(Evidence(gq.fetch_units(neo4j_driver, db, [replaced.unit_id])[replaced.unit_id], "seed"))
    out = current_version(SimpleNamespace(deps=deps), replaced.unit_id)  # type: ignore[arg-type]
    assert "in force; newest text in" in out and replaced.latest_id in deps.ledger  # the new words are evidence



def test_answer_caveats_name_a_repeal_and_newer_words_but_not_plain_history(tmp_path: Path) -> None:
    from core.current_law import caveats

    graph = _graph(tmp_path, {"act.txt": ACT, "amended.txt": AMENDED, "ko.md": KO_ACT})
    units, law = _laws(graph)
    reader = SimpleNamespace(current_law=law)  # a GraphReader's current_law, over the parse
    said = caveats(reader, [_AMENDED + "Article 27(6)", _AMENDED + "Article 27(3)", "보건법 제2조제1항"])
    assert len(said) == 2 and "REPEALED" in said[0] and said[1].startswith(_AMENDED + "Article 27(3) has newer words")
    chain = [Edge(source="r/a1", type="REPLACES", target="r/1")]
    untyped = SimpleNamespace(current_law=lambda _: read("r/1", "R 1", "in_force", {},
                                                         [Incoming(source_id="r/a1", type="REPLACES")], chain))
    assert caveats(untyped, ["r/1"]) == []  # an edge typed by near words says nothing about current law
    def unreachable(_: str) -> None:
        raise StoreError("graph down")

    assert caveats(SimpleNamespace(current_law=unreachable), ["x"]) == []  # a store fault: no caveat, the notice says it
    with pytest.raises(ZeroDivisionError):  # a bug is not a store fault: it is not swallowed
        caveats(SimpleNamespace(current_law=lambda _: 1 / 0), ["x"])


def _two_amenders(order: list[str]) -> tuple[dict, list[Edge], list]:
    """An ADGM-like rule amended by two undated guidance notes whose edges record no action (each gives new words),
    with the edges listed in `order`."""
    from core.domain import Document, LegalUnit, UnitType

    def unit(uid: str, label: str, text: str) -> LegalUnit:
        return LegalUnit(id=uid, corpus="tie", document_id=uid.split("/")[0], type=UnitType.SECTION, label=label,
                         text=text)

    rule = unit("rules/2.11", "MIR 2.11", "Rules and consultation.")
    notes = {n: unit(f"guide/{n}", f"GEN A1.1.Guidance.{n}", f"Guidance {n} wording.") for n in ("13", "15")}
    edges = [Edge(source=notes[n].id, type=EdgeType.AMENDS, target=rule.id) for n in order]
    docs = [Document(id="rules", corpus="tie", title="Rules", source_path="rules.txt", units=[rule]),
            Document(id="guide", corpus="tie", title="Guide", source_path="guide.txt", units=list(notes.values()))]
    return {u.id: u for d in docs for u in d.units}, edges, docs


def test_two_equal_amending_chains_read_alike_whatever_order_the_edges_come_in(test_settings, neo4j_driver) -> None:
    """Two text-giving chains of one length into a unit: the parse and the graph (which returns edges in no fixed
    order) name the same amending unit as holding the newest words, and list the amendments in the same order."""
    from core.stores import queries as gq
    from core.stores.neo4j_store import write_document

    units, forward, docs = _two_amenders(["13", "15"])
    _, backward, _ = _two_amenders(["15", "13"])
    parsed = ParsedLaw(units, forward).read("rules/2.11")
    assert parsed.model_dump() == ParsedLaw(units, backward).read("rules/2.11").model_dump()
    assert parsed.latest_id == "guide/15" and [e.source_id for e in parsed.events] == ["guide/13", "guide/15"]
    db = test_settings.neo4j_database
    for edges in (backward, forward):  # stored in either order, read back the same
        for document in docs:
            write_document(neo4j_driver, db, document, [e for e in edges if units[e.source].document_id == document.id],
                           [], "h")
        stored = gq.current_law(neo4j_driver, db, "rules/2.11")
        assert stored is not None and stored.model_dump() == parsed.model_dump()


def test_instructions_of_one_date_apply_in_the_order_they_are_written() -> None:
    """Two instructions of one gazette date on one phrase: "khoản 2" turns A into B, "khoản 10" then B into C. Applied
    by id ("khoan-10" sorts first) the second would find no B; in the order written the unit ends with C, whichever
    order the edges arrive in."""
    from core.current_law import current_text

    def edge(n: int, old: str, new: str) -> Incoming:
        return Incoming(source_id=f"amending/dieu-1/khoan-{n}", type="AMENDS", action="replaced", date="2024-07-01",
                        words=(old, new), order=n)

    second, first = edge(10, "bên B", "bên C"), edge(2, "bên A", "bên B")
    for edges in ([first, second], [second, first]):
        assert current_text("Hợp đồng giữa bên A và người lao động.", edges) == "Hợp đồng giữa bên C và người lao động."
