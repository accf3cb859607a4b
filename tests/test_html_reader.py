"""Saved web pages → units and link edges: the `html` format, on pages written here and on real ones."""
from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path

import pytest

from core.domain import EdgeType, UnitType
from ingest.formats import pick_format
from ingest.graph import build_graph
from ingest.html.format import HtmlParser
from ingest.html.page import PageError, read_page

PART = """<div class="part" id="part-9"><h1>PART 9—LENDING LIMITS</h1>
<div class="authority"><h4>Authority:</h4><p>12 U.S.C. 84</p></div>
<div class="section" id="9.1"><h4>§ 9.1 Scope.</h4>
<div id="p-9.1(a)"><p>(a) <em>General.</em> This part applies as set out in <a href="/title-1/section-9.2#p-9.2(b)(1)">§ 9.2(b)(1)</a> and in
<a href="https://example.gov/other-act">the Other Act 12</a>.<sup>[<a href="#fn-1">1</a>]</sup></p>
<div id="p-9.1(a)(1)"><p>(1) A bank must comply.</p>
<div id="p-9.1(a)(1)(i)"><p>(i) Each bank, see <a href="#p-9.1(b)">paragraph (b) of this section</a>.</p></div></div></div>
<div id="p-9.1(b)"><p>(b) <em>Terms.</em> <a href="#term-bank">Bank</a> is defined below.</p>
<div class="table-wrapper"><table><tr><th>Tier</th><th>Limit</th></tr><tr><td>1</td><td>15 percent</td></tr></table></div></div>
<p class="citation">[57 FR 100, Dec. 1, 1992, as amended at 60 FR 200, Jan. 2, 1995]</p>
<div class="footnote"><p id="fn-1">1 See the note on lending.</p></div>
</div>
<div class="section" id="9.2"><h4>§ 9.2 Definitions.</h4>
<div id="p-9.2(b)"><p>(b) Limits.</p><div id="p-9.2(b)(1)"><p>(1) The limit is 15 percent.</p></div></div>
</div></div>"""

SHELL = "<html><head><title>App</title></head><body><div id='root'></div><script>load()</script></body></html>"
ERROR = "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The page was not found.</p></body></html>"
NAVIGATED = """<!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Rulebook</title>
<link rel="canonical" href="https://regulator.example/rules/conduct"><style>body{color:red}</style></head>
<body><header><nav><a href="/">Home</a> <a href="/search">Search</a></nav></header>
<div class="cookie-banner">We use cookies. <button>Accept</button></div>
<main><h1>Conduct Rules 2024</h1><p>Effective date: 01/07/2024</p><h2>Article 1 Scope</h2><p>1. These rules apply to firms in the café sector.</p>
<p><a href="#top">Back to top</a></p><p>2. A firm shall keep records of every sale, every complaint and every refund it makes.</p><h2>Article 2 Records</h2><p>Records shall be kept for five years under Article 1(2).</p></main>
<footer>© Regulator <a href="/print">Print</a></footer></body></html>"""


def _write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_bytes(text.encode(encoding))
    return path


def test_html_folder_picks_the_html_format(tmp_path: Path) -> None:
    _write(tmp_path, "part9.html", PART)
    assert pick_format([tmp_path]).name == "html"


def test_links_become_edges_to_the_paragraph_they_name(tmp_path: Path) -> None:
    _write(tmp_path, "part9.html", PART)
    graph = build_graph([tmp_path], "t")
    units = {u.id: u for d in graph.documents for u in d.units}
    by_label = {u.label: u for u in units.values()}
    assert "9 CFR" not in " ".join(by_label)  # no CFR citation metadata: labels come from the page title
    source = next(u for u in units.values() if u.text.startswith("(a) General."))
    target = next(u for u in units.values() if u.text.startswith("(1) The limit"))
    refs = [e for e in graph.edges if e.source == source.id and e.type is EdgeType.REFERENCES]
    assert [(e.target, e.citation) for e in refs if e.target == target.id] == [(target.id, "§ 9.2(b)(1)")]
    # One edge where the link and the text grammar both find "§ 9.2(b)(1)".
    assert len([e for e in refs if e.start == refs[0].start]) == 1
    external = [e for e in graph.edges if e.source == source.id and e.resolution == "external"]
    assert [x.raw for x in graph.externals if x.id in {e.target for e in external}] == ["the Other Act 12"]
    same_page = next(u for u in units.values() if u.text.startswith("(i) Each bank"))
    paragraph_b = next(u for u in units.values() if u.text.startswith("(b) Terms."))
    assert any(e.source == same_page.id and e.target == paragraph_b.id for e in graph.edges)


def test_structure_nests_cfr_paragraphs_and_keeps_tables_history_and_footnotes(tmp_path: Path) -> None:
    _write(tmp_path, "part9.html", PART)
    parsed = HtmlParser().parse([tmp_path], "t")
    units = parsed.documents[0].units
    deep = next(u for u in units if u.text.startswith("(i) Each bank"))
    assert deep.label.endswith("9.1(a)(1)(i)")
    b = next(u for u in units if u.text.startswith("(b) Terms."))
    assert "Tier | Limit" in b.text and "1 | 15 percent" in b.text
    texts = "\n".join(u.text for u in units)
    assert "57 FR 100" not in texts and "Authority" not in texts and "See the note" not in texts
    history = [json.loads(u.metadata["history"]) for u in units if "history" in u.metadata]
    assert any("as amended at 60 FR 200" in n["note"] for notes in history for n in notes)
    a = next(u for u in units if u.text.startswith("(a) General."))
    assert json.loads(a.metadata["footnotes"]) == ["1 See the note on lending."]


def test_furniture_never_becomes_text_and_identity_comes_from_the_page(tmp_path: Path) -> None:
    # Declared iso-8859-1, saved as UTF-8: the bytes win ("café" must not become "cafÃ©").
    _write(tmp_path, "saved-page-1.htm", NAVIGATED)
    parsed = HtmlParser().parse([tmp_path], "t")
    document = parsed.documents[0]
    text = "\n".join(u.text for u in document.units)
    for furniture in ("Home", "Search", "cookies", "Accept", "Print", "Regulator", "color:red", "Back to top"):
        assert furniture not in text
    assert "café" in text
    assert document.units[0].metadata["url"] == "https://regulator.example/rules/conduct"
    assert document.units[0].metadata["effective_date"] == "2024-07-01" and "01/07/2024" not in text
    assert "saved-page" not in document.id and "saved-page" not in " ".join(u.label for u in document.units)
    articles = [u for u in document.units if u.type is UnitType.ARTICLE]
    assert [a.title for a in articles] == ["Scope", "Records"]


def test_latin1_page_reads_by_its_declaration(tmp_path: Path) -> None:
    _write(tmp_path, "latin.html", NAVIGATED, encoding="latin-1")
    parsed = HtmlParser().parse([tmp_path], "t")
    assert "café" in "\n".join(u.text for u in parsed.documents[0].units)


def test_bad_pages_are_skipped_with_their_name_and_the_rest_ingest(tmp_path: Path) -> None:
    _write(tmp_path, "shell.html", SHELL)
    _write(tmp_path, "error.html", ERROR)
    _write(tmp_path, "broken.html", "<html><body><p>Article 1 Scope<p>1. Unclosed <b>bold text runs on and on "
           + "and the page ends without closing anything at all, yet the words are there to read " * 3)
    _write(tmp_path, "plain.html", "<p>" + "</p><p>".join(f"Block {n} of a page with no numbering at all." for n in range(12)))
    parsed = HtmlParser().parse([tmp_path], "t")
    failed = {Path(f.path).name: f.problem for f in parsed.failures}
    assert set(failed) == {"shell.html", "error.html"}
    assert "script shell" in failed["shell.html"] and "error page" in failed["error.html"]
    names = {Path(d.source_path).name for d in parsed.documents}
    assert names == {"broken.html", "plain.html"}
    plain = next(d for d in parsed.documents if d.source_path.endswith("plain.html"))
    assert len(plain.units) == 13 and any("one unit per paragraph" in n for n in parsed.notes)
    with pytest.raises(PageError, match="script shell"):
        read_page(tmp_path / "shell.html")


def test_a_ten_megabyte_page_reads_in_bounded_time_and_memory(tmp_path: Path) -> None:
    body = "".join(f"<h2>Article {n} Duty {n}</h2><p>1. A firm shall do thing {n} as set out in "
                   f"<a href='#a{n - 1}'>Article {n - 1}</a>, {'and more words ' * 220}</p>" for n in range(1, 3000))
    page = _write(tmp_path, "big.html", f"<html><body><main>{body}</main></body></html>")
    size = page.stat().st_size
    assert size > 5_000_000
    tracemalloc.start()
    started = time.perf_counter()
    read = read_page(page)
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(read.lines) > 5000
    assert elapsed < 60
    assert peak < 6 * size  # Python-side allocations; lxml's tree is outside tracemalloc and freed on return


CONSOLIDATED = """<html><head><title>Consolidated text</title></head><body>
<table><tr><td><p class="arrow"><a title="32009L0136" href="./?uri=celex:32009L0136">►M1</a></p></td>
<td><p><a title="32009L0136" href="./?uri=celex:32009L0136">DIRECTIVE 2009/136/EC OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL of 25 November 2009</a></p></td>
<td><p>L 337</p></td></tr></table>
<p>DIRECTIVE 2002/58/EC OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL concerning privacy</p>
<p>Article 1</p><p>Scope</p>
<p class="modref"><a href="./?uri=celex:32009L0136" title="32009L0136: REPLACED">▼M1</a></p>
<p>1. This Directive harmonises the national provisions on privacy in electronic communications.</p>
<p class="modref"><a href="./?uri=celex:32002L0058" title="32002L0058">▼B</a></p>
<p>2. The provisions of this Directive particularise and complement the general rules on data.</p>
</body></html>"""
AMENDING = """<html><head><title>Directive 2009/136/EC</title></head><body><main>
<p>DIRECTIVE 2009/136/EC OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL of 25 November 2009 amending Directive 2002/58/EC</p>
<p>Article 2</p><p>Amendments to Directive 2002/58/EC</p><p>1. Article 1(1) is replaced by new words on privacy.</p>
</main></body></html>"""


def test_amendment_markers_become_history_and_amends_edges(tmp_path: Path) -> None:
    _write(tmp_path, "consolidated.html", CONSOLIDATED)
    _write(tmp_path, "amending.html", AMENDING)
    graph = build_graph([tmp_path], "t")
    consolidated = next(d for d in graph.documents if d.source_path.endswith("consolidated.html"))
    paragraph = next(u for u in consolidated.units if u.text.startswith("1. This Directive"))
    history = json.loads(paragraph.metadata["amendment_history"])
    assert [(h["marker"], h["by"]) for h in history] == [("M1", "Directive 2009/136/EC")]
    assert "amendment_history" not in next(u for u in consolidated.units if u.text.startswith("2. The")).metadata
    assert not any(mark in u.text for u in consolidated.units for mark in "▼►◄")
    amending = next(d for d in graph.documents if d.source_path.endswith("amending.html"))
    assert any(e.type is EdgeType.AMENDS and e.source == amending.id and e.target == paragraph.id for e in graph.edges)


def _shared_page(shared_root: Path, folder: str, name: str) -> Path:
    path = shared_root / "corpora" / "html" / folder / name
    if not path.is_file():
        pytest.skip(f"shared material not found: {path}")
    return path


def test_real_ecfr_part_links_and_labels(shared_root: Path) -> None:
    page = _shared_page(shared_root, "ecfr_12cfr_ch2_fed", "Reg_F_LIMITATIONS_ON_INTERBANK_LIABILITIES_12CFR206.html")
    graph = build_graph([page], "t", "html")
    units = {u.id: u for u in graph.documents[0].units}
    by_label = {u.label: u for u in units.values()}
    source, target = by_label["12 CFR 206.4(a)(1)"], by_label["12 CFR 206.5(a)"]
    # "as defined in § 206.5(a)": the link's edge, typed by its words like a written citation.
    assert any(e.source == source.id and e.target == target.id and e.type is EdgeType.DEFINES for e in graph.edges)
    assert by_label["12 CFR 206.2(e)(5)"].text.startswith("(5) Has the power to accept demand deposits")
    assert not any("FR" in u.text and u.text.startswith("[") for u in units.values())


def test_real_vbpl_page_reads_articles_not_css(shared_root: Path) -> None:
    page = _shared_page(shared_root, "vbpl_vn/new_site", "doc_000301.html")
    document = HtmlParser().parse([page], "t").documents[0]
    assert document.units[0].label == "Thông tư 139/2025/TT-BTC"
    assert [u.label for u in document.units if u.type is UnitType.ARTICLE] == [
        "Thông tư 139/2025/TT-BTC Điều 1", "Thông tư 139/2025/TT-BTC Điều 2"]
    assert not any("{" in u.text for u in document.units)


def test_a_page_declared_utf8_but_saved_as_windows_1252_still_reads(tmp_path: Path) -> None:
    page = NAVIGATED.replace('charset="iso-8859-1"', 'charset="utf-8"').replace("café", "café “quoted” déjà")
    _write(tmp_path, "cp1252.html", page, encoding="cp1252")
    parsed = HtmlParser().parse([tmp_path], "t")
    assert not parsed.failures
    assert "café “quoted” déjà" in "\n".join(u.text for u in parsed.documents[0].units)


HEADED = """<html><head><title>Conduct of Business Rulebook</title></head><body><main>
<h1>Conduct of Business Rulebook</h1><p>This rulebook applies to authorised firms.</p>
<h2>Client classification</h2><p>A firm must classify each client before doing business.</p>
<h3>Professional clients</h3><p>A professional client is a client that meets the criteria in
<a href="#retail">Retail clients</a>.</p>
<h2 id="retail">Retail clients</h2><p>Every client that is not a professional client is a retail client.</p>
</main></body></html>"""


def test_unnumbered_headings_give_the_structure(tmp_path: Path) -> None:
    _write(tmp_path, "cob.html", HEADED)
    graph = build_graph([tmp_path], "t")
    units = graph.documents[0].units
    titles = {u.title: u for u in units[1:]}
    assert list(titles) == ["Client classification", "Professional clients", "Retail clients"]
    assert titles["Professional clients"].parent_id == titles["Client classification"].id
    assert titles["Retail clients"].parent_id == units[0].id
    assert any(e.source == titles["Professional clients"].id and e.target == titles["Retail clients"].id
               for e in graph.edges)
