"""Regulations read from their publishers' web pages (../shared/corpora/html): eCFR, EUR-Lex, vbpl.vn.

Every figure comes from the dry-run graph of the `html` format (the path `python -m ingest` takes) and is
measured against what this module reads from the raw markup itself, with its own plain lxml queries
(site class names are fine here: they are the answer key, not the reader):
- eCFR: each link from one section's paragraph to another section or paragraph of the set must be an
  edge carrying the link's words to the unit a lawyer's label names ("§ 217.20(c)" → "12 CFR 217.20(c)");
  no unit may hold a source/history note, an "Authority:"/"Source:" box or an editorial note; every
  table row must survive as one "cell | cell" line;
- EUR-Lex: the GDPR's OJ page and the shared OJ text must give the same units with equal text, the EU
  checks of bench.real.eu must hold on the page as on the text, and each amendment marker of the two
  consolidated texts must become history naming the amending act;
- vbpl.vn: each "Điều N" paragraph the site marks as an article must be an article unit labelled Điều N,
  and no unit may hold the page's CSS.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import html as lxml_html

from bench.real import eu
from bench.real.amendments import eu_checks
from bench.real.checks import Check
from core.domain import EdgeType, UnitType
from core.settings import Settings
from ingest.graph import CorpusGraph, build_graph
from ingest.html.format import collect_pages
from ingest.html.page import read_page

AREA = "html"
_ROOT = ("corpora", "html")
_SECTION_LINK = re.compile(r"/title-(?P<title>\d+)/(?:part-\d+/)?section-(?P<section>(?P<part>\d+)\.[\w.\-]+)$")
_PARAGRAPH_ID = re.compile(r"p-(?P<section>\d+\.[\w\-]+)(?P<path>(?:\([0-9a-zA-Z]{1,5}\))+)")
_HISTORY = re.compile(r"\[[^\]]{0,400}\b\d{1,3} FR \d{1,6}|Editorial Note|^Authority:|^Source:", re.M)
_CSS = re.compile(r"[.#][\w\-]{1,40}\s?\{[^}]{0,200}:[^}]{0,200}\}")


def run(settings: Settings) -> list[Check]:
    root = settings.shared.joinpath(*_ROOT)
    if not root.is_dir():
        return [Check(area=AREA, name="material", value="absent", target="present", ok=False, detail={"folder": str(root)})]
    return [*_ecfr(root / "ecfr_12cfr_ch2_fed"), *_eurlex(root / "eurlex_en", settings), *_vbpl(root / "vbpl_vn" / "new_site")]


def _graph(paths: list[Path], corpus: str) -> CorpusGraph:
    return build_graph(paths, corpus, "html")


# eCFR ---------------------------------------------------------------------------------------------


def _ecfr(folder: Path) -> list[Check]:
    pages = collect_pages([folder])
    graph = _graph(pages, "ecfr")
    units = {u.id: u for d in graph.documents for u in d.units}
    doc_of_path = {d.source_path: d.id for d in graph.documents}
    targets: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for edge in graph.edges:
        if edge.type is not EdgeType.CONTAINS and edge.citation and edge.source in units and edge.target in units:
            targets.setdefault((units[edge.source].document_id, edge.citation), []).append((edge.source, edge.target))
    raws = {path: _raw(path) for path in pages}
    ids: dict[str, str] = {}
    for root in raws.values():
        for element in root.iter():
            if isinstance(element.tag, str) and element.get("id"):
                ids.setdefault(element.get("id"), _first_words(element))
    titles = {m["title"] for m in (re.search(r"(?P<title>\d+) CFR Part", p.read_text(encoding="utf-8")[:600]) for p in pages) if m}
    total = hit = dead = own = labelled = label_total = 0
    misses: list[str] = []
    rows = rows_kept = 0
    for path, root in raws.items():
        document = doc_of_path[str(path)]
        # Compared without spaces: a <br> inside a cell is a space to the reader, nothing to text_content().
        texts = "".join("\n".join(u.text for u in units.values() if u.document_id == document).split(" "))
        for link in root.iter("a"):
            target = _target_id(link.get("href") or "", titles)
            if target is None or _inside_note(link):
                continue
            element_id, label = target
            if element_id not in ids:
                dead += 1  # the page links to a paragraph or section it does not have
                continue
            if next((a.get("id") for a in link.iterancestors() if a.get("id")), None) == element_id:
                own += 1  # "this paragraph (d)(13)" inside (d)(13): no edge from a unit to itself
                continue
            words = " ".join(link.text_content().split())
            total += 1
            holder = next((a for a in link.iterancestors() if a.get("id")), None)
            source_words = _first_words(holder) if holder is not None else ""
            # The edge must leave the unit that holds the link's paragraph and carry the link's words.
            found = [units[t] for s, t in targets.get((document, words), []) if source_words in units[s].text]
            if any(ids[element_id] in u.text for u in found):
                hit += 1
            else:
                misses.append(f"{path.name[:12]}: {words} → {label} (got {[u.label for u in found][:2]})")
            if label is not None:
                label_total += 1
                labelled += any(u.label == label and ids[element_id] in u.text for u in found)
        for row in root.iter("tr"):
            cells = ["".join(c.text_content().split()) for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
            cells = [c for c in cells if c]
            if len(cells) < 2:
                continue
            rows += 1
            # A numbered row ("(c) | The types …") reads as the point it lays out: "(c) The types …".
            rows_kept += "|".join(cells) in texts or "".join(cells) in texts
    notes = sum(len(root.xpath("//p[@class='citation']")) for root in raws.values())
    furniture = [u.label for u in units.values() if _HISTORY.search(u.text)]
    share = round(hit / total, 4) if total else 0.0
    label_share = round(labelled / label_total, 4) if label_total else 0.0
    return [
        Check(area=AREA, name="eCFR: links between sections/paragraphs → edge to the linked unit", value=share,
              target=">= 0.95", ok=total > 0 and share >= 0.95,
              detail={"links": total, "hit": hit, "dead_links_left_out": dead, "links_to_their_own_unit_left_out": own, "misses": misses[:15]}),
        Check(area=AREA, name="eCFR: paragraph links whose target is labelled as cited ('12 CFR 217.10(a)(1)(i)')",
              value=label_share, target="reported", detail={"links": label_total, "labelled": labelled}),
        Check(area=AREA, name="eCFR: units holding a history/source/editorial note", value=len(furniture), target="== 0",
              ok=not furniture, detail={"examples": furniture[:10], "source_notes_in_pages": notes,
                                        "units_with_history_metadata": sum("history" in u.metadata for u in units.values())}),
        Check(area=AREA, name="eCFR: table rows kept as 'cell | cell' lines", value=round(rows_kept / rows, 4) if rows else 0,
              target=">= 0.99", ok=rows > 0 and rows_kept / rows >= 0.99, detail={"rows": rows, "kept": rows_kept}),
        Check(area=AREA, name="eCFR: graph", value=sum(len(d.units) for d in graph.documents),
              detail={"documents": len(graph.documents), "edges": dict(Counter(EdgeType(e.type).value for e in graph.edges)),
                      "resolution": dict(Counter(e.resolution for e in graph.edges)), "failures": len(graph.failures)}),
    ]


def _first_words(element) -> str:
    """The start of the element's first block (a section's heading, a paragraph's own line)."""
    first = next((e for e in element.iter("p", "h1", "h2", "h3", "h4", "h5", "h6", "td")), element)
    return " ".join(first.text_content().split())[:40]


def _target_id(href: str, titles: set[str]) -> tuple[str, str | None] | None:
    """'/on/…/title-12/section-217.20#p-217.20(c)' → ('p-217.20(c)', '12 CFR 217.20(c)'): the linked element's id and
    the label a lawyer writes for it (None for a defined term's paragraph, which has no such label)."""
    split = urlsplit(href)
    match = _SECTION_LINK.search(unquote(split.path))
    if match is None or match["title"] not in titles:
        return None
    if not split.fragment:
        return match["section"], f"{match['title']} CFR {match['section']}"
    fragment = unquote(split.fragment)
    paragraph = _PARAGRAPH_ID.fullmatch(fragment)
    return fragment, (f"{match['title']} CFR {paragraph['section']}{paragraph['path']}" if paragraph else None)


def _raw(path: Path):
    """The page as the publisher wrote it (UTF-8), parsed independently of the reader."""
    return lxml_html.document_fromstring(path.read_bytes(), parser=lxml_html.HTMLParser(encoding="utf-8"))


def _inside_note(element) -> bool:
    """Links inside source notes, authority boxes and footnotes are metadata, not unit citations."""
    for ancestor in element.iterancestors():
        names = ancestor.get("class") or ""
        if any(n in names.split() for n in ("citation", "authority", "source", "editorial-note", "footnote",
                                              "section-authority", "note")):
            return True
    return False


# EUR-Lex ------------------------------------------------------------------------------------------


def _eurlex(folder: Path, settings: Settings) -> list[Check]:
    page = folder / "gdpr.xml"
    text = settings.shared / "corpora" / "real" / "eu" / "gdpr_reg-2016-679_oj.txt"
    if not page.is_file() or not text.is_file():
        return [Check(area=AREA, name="EUR-Lex material", value="absent", target="present", ok=False)]
    from_page = _graph([page], "eu-html")
    from_text = build_graph([text], "eu-text", "generic")
    checks = [_same_units(from_page, from_text)]
    act = eu._Act(page, [line.text for line in read_page(page).lines], from_page)
    short = f"{act.document.units[0].label} (HTML)"
    checks += [eu._points(act, short), eu._other_acts(act, short), eu._recitals(act, short), *eu._definitions(act, short)]
    checks += eu_checks(act.graph, act.document, short)
    for name in ("eprivacy_consolidated.html", "gdpr_consolidated.html.xhtml"):
        if (folder / name).is_file():
            checks.append(_markers(folder / name))
    return [Check(**{**c.model_dump(), "area": AREA}) for c in checks]


def _same_units(from_page: CorpusGraph, from_text: CorpusGraph) -> Check:
    def keyed(graph: CorpusGraph) -> dict[str, tuple[str, str]]:
        out = {}
        for unit in graph.documents[0].units:
            key = unit.keys[0].split(":", 2)[-1] if unit.keys and unit.keys[0].count(":") >= 2 else unit.type.value
            out[key] = (unit.type.value, " ".join(unit.text.split()))
        return out

    page, text = keyed(from_page), keyed(from_text)
    equal = sum(1 for k in page.keys() & text.keys() if page[k] == text[k])
    share = round(equal / max(len(page), len(text)), 4)
    types_page = Counter(t for t, _ in page.values())
    types_text = Counter(t for t, _ in text.values())
    return Check(area=AREA, name="EUR-Lex: GDPR page vs OJ text, units matched with equal text", value=share,
                 target=">= 0.97", ok=share >= 0.97 and types_page == types_text and types_page["definition"] == 26,
                 detail={"page_units": len(page), "text_units": len(text), "equal": equal, "by_type_page": dict(types_page),
                         "by_type_text": dict(types_text), "differ": sorted(k for k in page.keys() & text.keys() if page[k] != text[k])[:10],
                         "only_page": sorted(page.keys() - text.keys())[:10], "only_text": sorted(text.keys() - page.keys())[:10]})


def _markers(path: Path) -> Check:
    raw = path.read_text(encoding="utf-8")
    written = len(re.findall(r">\s*▼\s?(?:M|C|A)\d{1,3}\s*<", raw))
    graph = _graph([path], "consolidated")
    history = [json.loads(u.metadata["amendment_history"]) for d in graph.documents for u in d.units
               if "amendment_history" in u.metadata]
    named = sum(1 for notes in history for n in notes if n.get("by"))
    texts = "\n".join(u.text for d in graph.documents for u in d.units)
    left = len(re.findall(r"[▼►◄]", texts))
    return Check(area=AREA, name=f"EUR-Lex: {path.name} ▼ markers → history naming the amending act", value=named,
                 target=f">= {written} (raw), 0 left in text", ok=named >= written and left == 0,
                 detail={"raw_markers": written, "named": named, "markers_left_in_text": left,
                         "examples": [n for notes in history[:3] for n in notes]})


# vbpl.vn ------------------------------------------------------------------------------------------


def _vbpl(folder: Path) -> list[Check]:
    pages = collect_pages([folder])
    if not pages:
        return [Check(area=AREA, name="vbpl.vn material", value="absent", target="present", ok=False)]
    graph = _graph(pages, "vbpl")
    total = hit = 0
    misses: list[str] = []
    for document in graph.documents:
        root = _raw(Path(document.source_path))
        marked = [" ".join(p.text_content().split()) for p in root.xpath("//p[contains(concat(' ', @class, ' '), ' prov-article ')]")]
        numbers = Counter(m.group(1) for m in (re.match(r"Điều\s+(\d+[a-zđ]?)", t) for t in marked) if m)
        labels = Counter(m.group(1) for m in (re.search(r"Điều (\S+)$", u.label) for u in document.units
                                              if u.type is UnitType.ARTICLE) if m)
        total += sum(numbers.values())
        found = sum(min(n, labels[k]) for k, n in numbers.items())
        hit += found
        if found < sum(numbers.values()):
            misses.append(f"{Path(document.source_path).name}: {found}/{sum(numbers.values())}")
    css = [u.label for d in graph.documents for u in d.units if _CSS.search(u.text)]
    share = round(hit / total, 4) if total else 0.0
    return [
        Check(area=AREA, name="vbpl.vn: marked articles → article units with their Điều label", value=share,
              target=">= 0.98", ok=total > 0 and share >= 0.98, detail={"articles": total, "hit": hit, "misses": misses}),
        Check(area=AREA, name="vbpl.vn: units holding CSS", value=len(css), target="== 0", ok=not css,
              detail={"examples": css[:5], "pages": len(pages), "failures": [f.line() for f in graph.failures]}),
    ]
