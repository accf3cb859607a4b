"""Korean act → 시행령 → 시행규칙 citations: which instrument 법 / 영 / 「…」 / 같은 법 name, lists, delegation pairs."""
from __future__ import annotations

import json
from pathlib import Path

from core.domain import EdgeType
from tests.test_generic_citations import graph_for

ACT = """# 보건법

##### 제4조 (의무)

**①** 의료인은 환자를 보호하여야 한다.

**⑤** 의료인은 명찰을 달아야 한다. 다만, 대통령령으로 정하는 경우에는 그러하지 아니하다. <개정 2010.1.18, 2024.9.20>

##### 제5조 (신고)

**①** 신고는 보건복지부령으로 정하는 바에 따른다.

**②** 둘째

**③** 셋째

  1\\. 첫째 호
  2\\. 둘째 호
    가\\. 가목
    나\\. 나목
"""

DECREE = """---
제목: 보건법 시행령
법령구분: 대통령령
---

# 보건법 시행령

##### 제1조 (목적)

이 영은 「보건법」에서 위임된 사항을 규정함을 목적으로 한다.

##### 제2조 (명찰)

**①** 법 제4조제5항 단서에서 "대통령령으로 정하는 경우"란 격리병실에 있는 경우를 말한다. <개정 2025.6.20>

**②** 의료기관이 법 제5조제3항제2호나목에 따라 신고한다. 「간호법」 제2조제3호에 따른 간호조무사와 「보건의료기본법」 제6조ㆍ제12조 및 제13조에 따른다.

**③** 「약사법」에 따른 약국개설자는 같은 법 제50조제1항에도 불구하고 법 제5조제1항, 제2항 및 제3항에 따른다.

**④** 법 제5조제1항부터 제3항까지의 규정과 이 영 제1조 및 제2항에 따른다. 법률 제10609호 보건법 일부개정법률 부칙 제2조제1항에 따른다.
"""

RULES = """# 보건법 시행규칙

##### 제1조 (목적)

**①** 「보건법」(이하 "법"이라 한다) 제5조제1항에서 "보건복지부령으로 정하는 바"란 별표 1과 같다.

**②** 영 제2조제1항 및 법 제4조제1항에 따른다. 제목과 항목은 다목적이다.
"""


def _edges(graph, source: str) -> set[tuple[str, str, str]]:
    return {(e.target, e.type.value, e.resolution) for e in graph.edges if e.source == source and e.type is not EdgeType.CONTAINS}


def _korean(tmp_path: Path, files: dict[str, str] | None = None):
    return graph_for(tmp_path, files or {"act.md": ACT, "decree.md": DECREE, "rules.md": RULES})


def test_law_in_a_decree_is_the_parent_act(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    second = _edges(graph, "t/decree/art-2/cl-2")
    assert ("t/act/art-5/cl-3/pt-2/sp-나", "REFERENCES", "exact") in second
    # Never the decree's own 제5조 (it has none), never External when the act is ingested.
    assert not any(target.startswith("t/decree/") for target, _, _ in second)


def test_decree_in_rules_and_explicit_alias(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    second = _edges(graph, "t/rules/art-1/cl-2")
    assert ("t/decree/art-2/cl-1", "REFERENCES", "exact") in second  # 영 제2조제1항
    assert ("t/act/art-4/cl-1", "REFERENCES", "exact") in second  # 법 제4조제1항
    first = _edges(graph, "t/rules/art-1/cl-1")
    assert ("t/act/art-5/cl-1", "SPECIFIES", "exact") in first  # 「보건법」(이하 "법"이라 한다) 제5조제1항


def test_other_acts_become_named_externals_and_lists_keep_their_act(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    raws = {x.raw for x in graph.externals}
    assert {"간호법 제2조제3호", "보건의료기본법 제6조", "보건의료기본법 제12조", "보건의료기본법 제13조"} <= raws
    assert "약사법 제50조제1항" in raws  # 같은 법 = the act named just before
    assert "법률 제10609호 보건법 일부개정법률 부칙 제2조제1항" in raws
    # 「보건의료기본법」 … 및 제13조 is not the decree's own 제13조, and 부칙 제2조 is not its 제2조.
    assert not any(e.target in ("t/decree/art-2",) for e in graph.edges if e.source.startswith("t/decree/art-2/cl-4"))


def test_lists_and_ranges_inherit_article(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    third = _edges(graph, "t/decree/art-2/cl-3")
    assert {("t/act/art-5/cl-1", "REFERENCES", "exact"), ("t/act/art-5/cl-2", "REFERENCES", "exact"),
            ("t/act/art-5/cl-3", "REFERENCES", "exact")} <= third
    fourth = _edges(graph, "t/decree/art-2/cl-4")
    assert {("t/act/art-5/cl-1", "REFERENCES", "exact"), ("t/act/art-5/cl-2", "REFERENCES", "exact"),
            ("t/act/art-5/cl-3", "REFERENCES", "exact")} <= fourth  # 제1항부터 제3항까지
    # "이 영 제1조 및 제2항": the decree's own article, and its 제2항 is of that 제1조 (none → ancestor).
    assert ("t/decree/art-1", "REFERENCES", "exact") in fourth


def test_own_document_and_not_a_particle(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    # "의료기관이 법 …": "이" ends a word there, it is not "이 법".
    assert not any(e.target.startswith("t/decree/art-5") for e in graph.edges)
    # 제목, 항목, 다목적 are words, not sub-items.
    assert _edges(graph, "t/rules/art-1/cl-2") == {("t/decree/art-2/cl-1", "REFERENCES", "exact"),
                                                   ("t/act/art-4/cl-1", "REFERENCES", "exact")}


def test_delegation_answer_is_paired(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    edges = {(e.source, e.target, e.type.value) for e in graph.edges}
    assert ("t/decree/art-2/cl-1", "t/act/art-4/cl-5", "SPECIFIES") in edges
    assert ("t/act/art-4/cl-5", "t/decree/art-2/cl-1", "DELEGATES_TO") in edges
    assert ("t/act/art-5/cl-1", "t/rules/art-1/cl-1", "DELEGATES_TO") in edges
    specifies = [e for e in graph.edges if e.type is EdgeType.SPECIFIES]
    delegates = [e for e in graph.edges if e.type is EdgeType.DELEGATES_TO]
    assert len(specifies) == len(delegates) == 2


def test_amendment_tags_make_no_amends_edges(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    assert not [e for e in graph.edges if e.type in (EdgeType.AMENDS, EdgeType.REPLACES)]


def test_parent_act_not_ingested_is_external_by_name(tmp_path: Path) -> None:
    graph = _korean(tmp_path, {"decree.md": DECREE})
    raws = {x.raw for x in graph.externals}
    assert {"보건법 제4조제5항", "보건법 제5조제3항제2호나목", "보건법 제5조제2항"} <= raws
    assert not [e for e in graph.edges if e.source.startswith("t/decree/art-2") and e.target.startswith("t/decree/art-")
                and e.type is not EdgeType.CONTAINS and e.target != "t/decree/art-1"]
    # An answer to an act that is not here pairs with nothing: no half pair.
    assert not [e for e in graph.edges if e.type is EdgeType.DELEGATES_TO]


def test_markdown_items_and_front_matter(tmp_path: Path) -> None:
    graph = _korean(tmp_path)
    units = {u.label: u for d in graph.documents for u in d.units}
    assert units["보건법 제5조제3항제1호"].text == "1. 첫째 호"
    assert units["보건법 제5조제3항제2호나목"].text == "나. 나목"
    decree_root = next(d for d in graph.documents if d.id == "t/decree").units[0]
    assert "법령구분" not in decree_root.text and decree_root.label == "보건법 시행령"


def test_history_repeal_tier_and_delegation_metadata(tmp_path: Path) -> None:
    act = ACT + "\n##### 제6조\n\n삭제 <2025.6.20>\n\n##### 제7조 (특례)\n\n**①** 특례를 둔다. <신설 2009.1.30>\n\n**②** 삭제 <2023.9.22>\n"
    graph = _korean(tmp_path, {"act.md": act, "decree.md": DECREE, "rules.md": RULES})
    units = {u.label: u for d in graph.documents for u in d.units}

    def history(label: str) -> list[tuple[str, str]]:
        return [(h["action"], h["date"]) for h in json.loads(units[label].metadata["amendment_history"])]

    assert history("보건법 제4조제5항") == [("amended", "2010-01-18"), ("amended", "2024-09-20")]
    assert units["보건법 제4조제5항"].metadata["delegates_to"] == "대통령령"
    assert history("보건법 제7조제1항") == [("inserted", "2009-01-30")]
    for label, date in (("보건법 제6조", "2025-06-20"), ("보건법 제7조제2항", "2023-09-22")):
        assert units[label].metadata["status"] == "repealed" and history(label) == [("deleted", date)]
    assert "status" not in units["보건법 제7조제1항"].metadata
    assert {(u.document_id, u.tier) for u in units.values()} == {("t/act", 1), ("t/decree", 2), ("t/rules", 3)}


def test_amending_instructions_are_not_article_headings(tmp_path: Path) -> None:
    act = ACT + "\n## 부칙\n\n**②** 다른법 일부를 다음과 같이 개정한다.\n\n제40조 및 제41조를 각각 삭제한다.\n\n제66조의2 중 \"의료인이\"를 \"의사가\"로 한다.\n"
    graph = _korean(tmp_path, {"act.md": act})
    labels = [u.label for d in graph.documents for u in d.units]
    assert "보건법 제40조" not in labels and "보건법 제66조의2" not in labels


ADDENDA = """
## 부칙

부칙 <제9932호,2010.1.18>

##### 제1조 (시행일)

이 법은 공포한 날부터 시행한다. 다만, 제4조의 개정규정은 부칙 제2조에 따른다.

##### 제2조 (다른 법률의 개정)

**①** 「약사법」 일부를 다음과 같이 개정한다.

제40조제1항ㆍ제3항 중 "보건복지가족부"를 "보건복지부"로 한다.

**②** 보건법 일부를 다음과 같이 개정한다.

제5조제2항을 삭제한다.
"""


def test_addenda_are_addressed_apart_and_instructions_amend(tmp_path: Path) -> None:
    graph = _korean(tmp_path, {"act.md": ACT + ADDENDA})
    units = {u.id: u for d in graph.documents for u in d.units}
    first = units["t/act/addenda-부칙~2/art-1"]
    assert first.label == "보건법 부칙 <제9932호,2010.1.18> 제1조"
    assert first.keys == ["gen:act:addenda:2:art:1"]
    edges = {(e.source, e.target, e.type.value) for e in graph.edges if e.type is not EdgeType.CONTAINS}
    # 제4조 of the 개정규정 is the main body's; 부칙 제2조 is this 부칙's own; its heading cites nothing.
    assert ("t/act/addenda-부칙~2/art-1", "t/act/art-4", "REFERENCES") in edges
    assert ("t/act/addenda-부칙~2/art-1", "t/act/addenda-부칙~2/art-2", "REFERENCES") in edges
    assert not any(s == "t/act/addenda-부칙~2/art-1" and t == "t/act/art-1" for s, t, _ in edges)
    # 「약사법」 일부를 … 개정한다: 제40조제1항ㆍ제3항 are 약사법's, and amended; 보건법 제5조제2항 is this act's.
    raws = {x.raw for x in graph.externals}
    assert {"약사법 제40조제1항", "약사법 제40조제3항"} <= raws
    assert ("t/act/addenda-부칙~2/art-2/cl-2", "t/act/art-5/cl-2", "AMENDS") in edges
    amended = [e for e in graph.edges if e.type is EdgeType.AMENDS]
    assert len(amended) == 4 and all("/addenda" in e.source for e in amended)
    # Each instruction's verb is its action; the intro amends the act itself (a whole-act edge, no provision).
    actions = {(e.target, e.action) for e in amended}
    assert actions == {("t/external/약사법", "amended"), ("t/external/약사법-제40조제1항", "amended"),
                       ("t/external/약사법-제40조제3항", "amended"), ("t/act/art-5/cl-2", "deleted")}


def test_hostile_korean_text_stays_linear() -> None:
    import time

    from tests.test_generic_citations import _finder_on

    for hostile in ("가" * 100_000, "「" * 50_000 + "제1조", ('법 제1조에서 "' + "가" * 399) * 200, "같은 " * 30_000 + "제1조",
                    "제1조ㆍ" * 20_000, "일부를 다음과 같이 개정한다 " * 5_000 + "제1조 중 " * 5_000):
        finder, unit, document = _finder_on(hostile)
        # CPU time of this process: the bound is on the work, not on what else the machine runs.
        started = time.process_time()
        finder.find(unit, document)
        assert time.process_time() - started < 4, hostile[:20]


def test_implicit_answer_opens_the_provision(tmp_path: Path) -> None:
    decree = ("# 보건법 시행령\n\n##### 제3조 (절차)\n\n법 제4조제5항에 따라 명찰을 단다.\n\n"
              "##### 제4조 (신고)\n\n**①** 법 제5조제1항에 따라 신고한다.\n\n**②** 의료인은 법 제4조제5항에 따라 명찰을 단다.\n\n"
              "**③** 법 제4조제5항에 따른 명찰은 흰색이다.\n")
    rules = "# 보건법 시행규칙\n\n##### 제2조 (신고서)\n\n**①** 법 제5조제1항에 따라 신고서는 별지 서식과 같다.\n"
    graph = _korean(tmp_path, {"act.md": ACT, "decree.md": decree, "rules.md": rules})
    pairs = {(e.source, e.target) for e in graph.edges if e.type is EdgeType.SPECIFIES}
    # Opening "법 제4조제5항에 따라" answers 제4조제5항's 대통령령; the rules answer 제5조제1항's 보건복지부령.
    assert pairs == {("t/decree/art-3", "t/act/art-4/cl-5"), ("t/rules/art-2/cl-1", "t/act/art-5/cl-1")}
    assert {(e.target, e.source) for e in graph.edges if e.type is EdgeType.DELEGATES_TO} == pairs
