"""Vietnamese checks: the Pháp điển topic's labels, amendment notes, repeals and cross-links (parse +
resolve output measured against plain patterns over the raw file), and the ALQAC retrieval figures
(read from the result of `python -m bench.retrieval` on alqac2023_train.jsonl).

Each raw-text pattern here is deliberately simpler than the grammar it checks, and written apart from
it, so a grammar that misses or misreads a form makes its check fail.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from bench.real.amendments import vi_checks
from bench.real.checks import Check
from core.domain import EdgeType
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph

AREA = "vi"
CODIFICATION = "corpora/real/vi/phapdien_bao-hiem-y-te.md"
RETRIEVAL_RESULT = Path("bench/results/retrieval_alqac2023_train.json")

_RAW_HEADING = re.compile(r"^Điều (\d+\.\d+\.\w+\.[\w.]*\w)\.?(?:\s|$)")
_RAW_AMENDING_NOTE = re.compile(r"^\(.*\sbởi\s")
_RAW_AMENDING_ACT = re.compile(r"bởi (?:Điều|Khoản|Điểm)[^()]*? số (\S+?)[\s,)]")
_RAW_REPEALED = re.compile(r"^(?:[a-zđ]\)|\d+\.)\s*[*(]*\s*(?:đã\s)?(?:được|bị) bãi bỏ\s*[*)]*\.?\s*$", re.I)
_RAW_RELATED = re.compile(r"^\(Điều này có nội dung liên quan đến (.*)\)\s*$")
_RAW_CODIFIED = re.compile(r"Điều (\d+\.\d+\.\w+\.[\w.]*\w)")
# A heading anywhere on a line: at its start, or stuck to the paragraph before it ("… hiện hành.Điều 2.2.LQ.13. …").
_RAW_ANY_HEADING = re.compile(r"(?:^|(?<=\S))Điều (\d+\.\d+\.[A-ZĐ]+\.[0-9a-zđ.]*[0-9a-zđ])\.(?:\s|$)")
_RAW_MARK = re.compile(r"(?:(?P<label>[a-zđ]\)|\d+\.)\s*)?\(?\s*(?:đã\s)?(?:được|bị) bãi bỏ\s*\)?\.?", re.I)
_RAW_REPEALED_BY = re.compile(r"bị bãi bỏ bởi (?:Điều|Khoản|Điểm)[^()]*? số (\S+?)[\s,)]")


def run(settings: Settings) -> list[Check]:
    path = settings.shared / CODIFICATION
    if not path.exists():
        return [Check(area=AREA, name="phapdien material", value="missing", target=str(path), ok=False)]
    body = _body(path.read_text(encoding="utf-8").splitlines())
    graph = build_graph([path], "vi-check", "generic")
    return [*codification_checks(body, graph), *vi_checks(graph), *retrieval_checks()]


def _body(lines: list[str]) -> list[str]:
    """The raw lines before the export's article index (its first '##' heading after the text)."""
    for n, line in enumerate(lines):
        if line.startswith("## "):
            return lines[:n]
    return lines


def codification_checks(body: list[str], graph: CorpusGraph) -> list[Check]:
    units = [u for d in graph.documents for u in d.units]
    articles = [u for u in units if u.type == "article"]
    by_label = {u.label: u for u in articles}
    headings = [code for line in body for code in _RAW_ANY_HEADING.findall(line)]
    distinct = len({u.label for u in articles})
    # Each amending note belongs to the last article heading above it.
    notes, current = [], None
    for line in body:
        heads = _RAW_ANY_HEADING.findall(line)
        if heads:
            current = heads[-1]
        elif _RAW_AMENDING_NOTE.match(line) and current:
            notes.append((current, _RAW_AMENDING_ACT.findall(line)))
    notes = [(num, acts) for num, acts in notes if acts]
    recorded = 0
    missing = []
    for num, acts in notes:
        unit = next((u for label, u in by_label.items() if label.endswith(f"Điều {num}")), None)
        history = unit.metadata.get("amendment_history", "") if unit else ""
        if unit and all(act.rstrip(".") in history for act in acts):
            recorded += 1
        else:
            missing.append(num)
    repealed_raw = [_norm(line) for line in body if _RAW_REPEALED.match(line.strip())]
    repealed_units = [_norm(u.text.splitlines()[0]) for u in units if u.metadata.get("status") == "repealed" and u.text]
    marked = sum(1 for line in repealed_raw if line in repealed_units)
    cited = [num for line in body if (m := _RAW_RELATED.match(line)) for num in _RAW_CODIFIED.findall(m.group(1))]
    edges = [e for e in graph.edges if e.type is EdgeType.REFERENCES and e.citation and _RAW_CODIFIED.fullmatch(e.citation)]
    art_ids = {u.id for u in articles}
    from_articles = [e for e in edges if e.source in art_ids]
    resolved = sum(1 for e in from_articles if e.resolution != "external")
    return [
        _articles_found(body, units), _repeal_marks(body, units, articles),
        Check(area=AREA, name="phapdien articles parsed / codified headings", value=f"{len(articles)}/{len(headings)}",
              target="all", ok=len(articles) == len(headings)),
        Check(area=AREA, name="phapdien distinct article labels", value=round(distinct / max(1, len(headings)), 4),
              target=">= 0.99", ok=distinct >= 0.99 * len(headings), detail={"distinct": distinct, "headings": len(headings)}),
        Check(area=AREA, name="phapdien amending notes recorded", value=round(recorded / max(1, len(notes)), 4),
              target="1.0", ok=bool(notes) and recorded == len(notes),
              detail={"notes": len(notes), "recorded": recorded, "missing": missing[:20]}),
        Check(area=AREA, name="phapdien '(được bãi bỏ)' units repealed", value=f"{marked}/{len(repealed_raw)}",
              target="all", ok=bool(repealed_raw) and marked == len(repealed_raw)),
        Check(area=AREA, name="phapdien cross-links as REFERENCES", value=f"{len(from_articles)}/{len(cited)}",
              target="all", ok=bool(cited) and len(from_articles) >= len(cited),
              detail={"inside_topic_resolved": resolved}),
    ]


def _articles_found(body: list[str], units: list) -> Check:
    """Every distinct codified article of the text is an article unit carrying its body (its own lines under the
    heading, or clauses), not only a heading. The export gives two articles one code once (2.2.TT.15.3): both count."""
    codes = {code for line in body for code in _RAW_ANY_HEADING.findall(line)}
    parents = {u.parent_id for u in units}
    by_code: dict[str, list] = {}
    for unit in units:
        if unit.type == "article":
            by_code.setdefault(unit.label.rsplit("Điều ", 1)[-1], []).append(unit)
    found = [c for c in codes if by_code.get(c) and all(len(u.text.splitlines()) > 1 or u.id in parents for u in by_code[c])]
    missing = sorted(codes - set(found))
    return Check(area=AREA, name="phapdien articles found / distinct article codes", value=round(len(found) / max(1, len(codes)), 4),
                 target=">= 0.99", ok=len(found) >= 0.99 * len(codes),
                 detail={"found": len(found), "codes": len(codes), "missing": missing[:20]})


def _repeal_marks(body: list[str], units: list, articles: list) -> Check:
    """A "(được bãi bỏ)" mark repeals its unit (a clause, or the article whose whole body it is); a note's
    "bị bãi bỏ bởi …" is a repeal event of its article by that act."""
    by_code = {u.label.rsplit("Điều ", 1)[-1]: u for u in articles}
    children: dict[str, list] = {}
    by_id = {u.id: u for u in units}
    for unit in units:
        node = unit
        while node is not None and node.type != "article":
            node = by_id.get(node.parent_id or "")
        if node is not None and node is not unit:
            children.setdefault(node.id, []).append(unit)
    total = good = 0
    misses: list[str] = []
    article = None
    for line in body:
        heads = _RAW_ANY_HEADING.findall(line)
        if heads:
            article = by_code.get(heads[-1])
            continue
        plain = line.replace("*", "").strip()
        mark = _RAW_MARK.fullmatch(plain)
        acts = _RAW_REPEALED_BY.findall(line)
        if article is None or not (mark or acts):
            continue
        total += 1
        if mark and mark.group("label"):
            hit = any(u.metadata.get("status") == "repealed" and _norm(u.text.splitlines()[0]) == _norm(plain)
                      for u in children.get(article.id, []))
        elif mark:
            hit = article.metadata.get("status") == "repealed"
        else:
            history = json.loads(article.metadata.get("amendment_history", "[]"))
            hit = all(any("repealed" in h.get("kinds", []) and act.rstrip(".") in h.get("act", "") for h in history) for act in acts)
        good += hit
        if not hit and len(misses) < 10:
            misses.append(f"{article.label}: {plain[:60]}")
    return Check(area=AREA, name="phapdien repeal marks ((được bãi bỏ) / bị bãi bỏ bởi) → repealed status or event",
                 value=round(good / max(1, total), 4), target=">= 0.95", ok=total > 0 and good >= 0.95 * total,
                 detail={"marks": total, "set": good, "misses": misses})


def retrieval_checks() -> list[Check]:
    if not RETRIEVAL_RESULT.exists():
        return [Check(area=AREA, name="alqac retrieval result", value="missing", target=str(RETRIEVAL_RESULT), ok=False)]
    report = json.loads(RETRIEVAL_RESULT.read_text())
    default = report["methods"].get("citewalk", {})
    # The figure counts from one run that also holds the two baselines.
    same_run = {"bm25", "dense"} <= set(report["methods"])
    baselines = {m: {"Recall@10": v.get("Recall@10"), "Hit@1": v.get("Hit@1")}
                 for m, v in report["methods"].items() if m != "citewalk"}
    return [
        Check(area=AREA, name="alqac gold in top 10 (citewalk)", value=default.get("Recall@10", 0.0), target=">= 0.97",
              ok=same_run and default.get("Recall@10", 0.0) >= 0.97,
              detail={"methods": sorted(report["methods"]), "same_run": baselines}),
        Check(area=AREA, name="alqac gold first (citewalk)", value=default.get("Hit@1", 0.0), target=">= 0.85",
              ok=same_run and default.get("Hit@1", 0.0) >= 0.85),
    ]


def _norm(line: str) -> str:
    return " ".join(line.replace("*", " ").replace("(", " ").replace(")", " ").split()).lower()
