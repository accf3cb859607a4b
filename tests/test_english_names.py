"""An act cited by the English name a text states for it ("the Medical Service Act (의료법)") is that act.

의료법's lines are the real act's (제1조, 제23조①, as law.go.kr publishes them); the English guidance note is written
for the test, in the way foreign-clinic guidance cites Korean acts."""
from __future__ import annotations

from pathlib import Path

from ingest.graph import build_graph

MEDICAL_SERVICE_ACT = """---
제목: 의료법
법령구분: 법률
공포일자: 2026-04-07
시행일자: 2026-04-07
---

# 의료법

## 제1장 총칙

##### 제1조 (목적)

이 법은 모든 국민이 수준 높은 의료 혜택을 받을 수 있도록 국민의료에 필요한 사항을 규정함으로써 국민의 건강을 보호하고 증진하는 데에 목적이 있다.

##### 제23조 (전자의무기록)

① 의료인이나 의료기관 개설자는 제22조의 규정에도 불구하고 진료기록부등을 「전자서명법」에 따른 전자서명이 기재된 전자문서로 작성ㆍ보관할 수 있다.
"""

NOTE = """Guidance on electronic records

1. Scope
This note applies the {stated} to clinics that keep records electronically.

2. Records
A clinic may keep its records as electronic documents under Article 23(1) of the Medical Service Act.
"""


def _targets(tmp_path: Path, stated: str) -> set[str]:
    (tmp_path / "law.md").write_text(MEDICAL_SERVICE_ACT, encoding="utf-8")
    (tmp_path / "note.txt").write_text(NOTE.format(stated=stated), encoding="utf-8")
    graph = build_graph(sorted(tmp_path.iterdir()), "t", "generic")
    labels = {u.id: u.label for d in graph.documents for u in d.units}
    labels.update({x.id: x.raw for x in graph.externals})
    return {labels.get(e.target, e.target) for e in graph.edges if e.source == "t/note/cl-2"}


def test_the_stated_english_name_reaches_the_korean_act(tmp_path: Path) -> None:
    assert _targets(tmp_path, "Medical Service Act (의료법)") == {"의료법 제23조제1항"}


def test_the_korean_name_first_works_too(tmp_path: Path) -> None:
    assert _targets(tmp_path, "「의료법」(Medical Service Act)") == {"의료법 제23조제1항"}


def test_an_english_name_never_stated_stays_outside(tmp_path: Path) -> None:
    assert "의료법 제23조제1항" not in _targets(tmp_path, "Korean medical rules")
