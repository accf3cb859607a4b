"""Vietnamese Laws that amend other Laws, as the shared real files hold them: the ALQAC laws' closing articles
("Điều 67. Sửa đổi, bổ sung một số điều của Luật Thuế thu nhập doanh nghiệp và Luật Thuế tài nguyên", "Điều 55. Sửa
đổi, bổ sung Điều 135 của Bộ luật Tố tụng dân sự" — the amended act named by title in the heading, by number in the
items), ingested with the Pháp điển topic that codifies Luật Bảo hiểm y tế (so Luật Cư trú's instruction on
"khoản 7 Điều 2 của Luật Bảo hiểm y tế số 25/2008/QH12" lands in the codified article).

The gold is read from the raw lines by plain patterns, apart from the grammar: in an article whose heading amends a
Law, every numbered item (or the first body line) that starts with an amending verb is one instruction on the act
it names by number, else on the act the heading names (numbered where the file writes that title with a number).
- recall: instructions with an AMENDS/REPLACES edge from their item to that act (an External named by its number, a
  document with that number, or a codified article taken from it);
- precision: those articles' AMENDS/REPLACES edges that reach the act of their item;
- amending edges that land in the amending Law itself (a title shared by the old and the new Law): none.
"""
from __future__ import annotations

import re
from pathlib import Path

from bench.real.checks import Check
from core.domain import LegalUnit
from core.retrieval.expansion import AMENDMENT_TYPES
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph
from ingest.parsers.generic.keys import path_of_key

AREA = "vi"
LAWS = "corpora/real/vi/alqac2023"
CODIFICATION = "corpora/real/vi/phapdien_bao-hiem-y-te.md"

_HEADING = re.compile(r"^Điều (\d+)\.\s+(.*)$")
_AMENDS_A_LAW = re.compile(r"^(?:Sửa đổi|Bổ sung|Bãi bỏ|Thay thế)[^“”]*(?:Luật|luật)")
_ITEM = re.compile(r"^(?:(\d+)\.\s+)?(?:Sửa đổi|Bổ sung|Bãi bỏ|Thay thế)\b")
_NUMBERED = re.compile(r"(?:Bộ luật|Luật)\s(?P<title>[^\d“”]{0,80}?)\s?số\s(?P<num>\d{1,3}/\d{4}/QH\d{1,2})")
_TITLED = re.compile(r"(?:Bộ luật|Luật)\s(?P<title>[A-ZĐÂ-Ỹ][^,;:.\d]*?)(?=\sđã|\s(?:và|số)\s|$)")


def run(settings: Settings) -> list[Check]:
    folder = settings.shared / LAWS
    codification = settings.shared / CODIFICATION
    if not folder.exists() or not codification.exists():
        return [Check(area=AREA, name="alqac laws / phapdien material", value="missing", target=str(folder), ok=False)]
    files = sorted(folder.glob("*.txt"))
    graph = build_graph([*files, codification], "vi-laws", "generic")
    return law_checks(files, graph)


def gold_instructions(path: Path) -> list[tuple[str, str | None, str]]:
    """(article, item or None, number of the act acted on) for every instruction of the Law's amending articles."""
    text = path.read_text(encoding="utf-8")
    numbers = {" ".join(m["title"].lower().split()): m["num"] for m in _NUMBERED.finditer(text)}
    out: list[tuple[str, str | None, str]] = []
    article: str | None = None
    heading_act: str | None = None
    first_line = False
    for line in text.splitlines():
        line = line.strip()
        heading = _HEADING.match(line)
        if heading:
            article, heading_act, first_line = None, None, True
            if _AMENDS_A_LAW.match(heading.group(2)):
                article = heading.group(1)
                numbered = _NUMBERED.search(heading.group(2))
                titled = _TITLED.search(heading.group(2))
                heading_act = numbered["num"] if numbered else numbers.get(titled["title"].lower()) if titled else None
            continue
        item = _ITEM.match(line) if article and line else None
        if item and (item.group(1) or first_line):
            numbered = _NUMBERED.search(line)
            act = numbered["num"] if numbered else heading_act
            if act:
                out.append((article, item.group(1), act))  # type: ignore[arg-type]
        first_line = first_line and not line
    return out


def law_checks(files: list[Path], graph: CorpusGraph) -> list[Check]:
    units: dict[str, LegalUnit] = {u.id: u for d in graph.documents for u in d.units}
    stem = {u.id: u.document_id.rsplit("/", 1)[-1] for u in units.values()}
    path = {uid: dict(path_of_key(next((k for k in u.keys if k.startswith("gen:")), "gen:x"))) for uid, u in units.items()}
    externals = {x.id: x.raw for x in graph.externals}
    by_doc = {d.id: d.units[0] for d in graph.documents if d.units}

    def act_of(target: str) -> str:
        """The number of the act an edge reaches: an External's name, a document's number, a codified source."""
        if target in externals:
            return externals[target]
        node: LegalUnit | None = units.get(target)
        while node is not None and "source_document" not in node.metadata:
            node = units.get(node.parent_id or "")
        if node is not None:
            return node.metadata["source_document"]
        unit = units.get(target)
        return by_doc[unit.document_id].metadata.get("number", "") if unit else ""

    edges = [e for e in graph.edges if e.type in AMENDMENT_TYPES and e.source in units]
    total = matched = 0
    misses: list[str] = []
    scored: dict[tuple[str, str], bool] = {}
    for file in files:
        doc = re.sub(r"[^\w]+", "-", file.stem.lower()).strip("-")
        gold = gold_instructions(file)
        for article, item, act in gold:
            total += 1
            mine = [e for e in edges if stem[e.source] == doc and path[e.source].get("art") == article
                    and (item is None or path[e.source].get("cl") == item)]
            hit = any(act in act_of(e.target) for e in mine)
            matched += hit
            if not hit and len(misses) < 12:
                misses.append(f"{file.stem} Điều {article} khoản {item}: {act}")
        acts = {(a, i): act for a, i, act in gold}
        for e in edges:
            art = path[e.source].get("art")
            if stem[e.source] != doc or not any(a == art for a, _ in acts):
                continue
            act = acts.get((art, path[e.source].get("cl"))) or acts.get((art, None)) or ""  # type: ignore[arg-type]
            scored[(e.source, e.target)] = bool(act) and act in act_of(e.target)
    into_itself = [f"{units[e.source].label} → {units[e.target].label}" for e in edges
                   if e.target in units and units[e.target].document_id == units[e.source].document_id
                   and by_doc[units[e.source].document_id].metadata.get("doc_type") != "codification"]
    recall = round(matched / total, 4) if total else 0.0
    precision = round(sum(scored.values()) / len(scored), 4) if scored else 0.0
    return [
        Check(area=AREA, name="Laws amending Laws (ALQAC): instructions → edges into the act named", value=recall,
              target=">= 0.95", ok=total > 0 and recall >= 0.95, detail={"instructions": total, "misses": misses}),
        Check(area=AREA, name="Laws amending Laws (ALQAC): amending edges reaching the act of their item", value=precision,
              target=">= 0.95", ok=bool(scored) and precision >= 0.95,
              detail={"edges": len(scored), "wrong": [f"{units[s].label} → {t}" for (s, t), ok in scored.items() if not ok][:10]}),
        Check(area=AREA, name="Laws: amending edges into the amending Law itself", value=len(into_itself), target="= 0",
              ok=not into_itself, detail={"examples": into_itself[:10]}),
    ]
