"""An answer for the audit file, as Markdown and as DOCX: the question, the short answer, each rule's claims
with the words quoted, the reasoning chain, the corpus and each cited document's ingest date, the answer's id
and time, and the date whose law the answer applies (each rule as in force that day, with its pending changes). The chat, the permalink page and the API all export through `answer_export`.

Markdown escapes everything a document or model wrote (a Markdown viewer shows `<script>` as text); DOCX
text runs are plain text already, so only characters XML cannot carry are dropped.
"""
from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import PurePath

from pydantic import BaseModel, Field

from core.render.chain import chain_line
from core.render.markdown import escape_markdown
from core.render.view import AnswerView

MEDIA_TYPES = {"md": "text/markdown; charset=utf-8",
               "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_FILE_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class ExportClaim(BaseModel):
    text: str
    paragraph: str | None = None


class ExportRule(BaseModel):
    unit_id: str
    label: str
    document_title: str = ""
    status: str = ""
    dated: list[str] = Field(default_factory=list, description="as in force on the date, then each pending change")
    claims: list[ExportClaim] = Field(default_factory=list)
    provision_text: str = ""


class ExportDocument(BaseModel):
    title: str
    ingested_at: str = ""
    source_file: str = ""


class AnswerExport(BaseModel):
    answer_id: str
    answered_at: str = ""
    as_of: str | None = None
    exported_at: str
    question: str
    corpus: str
    answer: str
    mode_line: str
    notices: list[str] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    rules: list[ExportRule] = Field(default_factory=list)
    chain: str = ""
    documents: list[ExportDocument] = Field(default_factory=list)


def answer_export(view: AnswerView, answer_id: str) -> AnswerExport:
    return AnswerExport(
        answer_id=answer_id, answered_at=view.answered_at, as_of=view.as_of,
        exported_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        question=view.question, corpus=view.corpus, answer=view.answer, mode_line=view.mode_line,
        notices=list(view.notices), caveats=list(view.caveats),
        rules=[ExportRule(unit_id=c.unit_id, label=c.label, document_title=c.document_title,
                          status=c.history.headline if c.history else "", provision_text=c.text,
                          dated=[c.dated.line, *(p.line for p in c.dated.pending)] if c.dated else [],
                          claims=[ExportClaim(text=x.text, paragraph=x.paragraph) for x in c.claims]) for c in view.cards],
        chain=chain_line(view.chain, view.labels),
        documents=[ExportDocument(title=d.title or d.id, ingested_at=d.ingested_at,
                                  source_file=PurePath(d.source_path).name if d.source_path else "") for d in view.documents],
    )


def file_stem(export: AnswerExport) -> str:
    return "citewalk-answer-" + (_FILE_UNSAFE.sub("-", export.answer_id).strip("-")[:60] or "export")


def _provenance(export: AnswerExport) -> list[tuple[str, str]]:
    return [("Corpus", export.corpus), ("Law as of", export.as_of or "not recorded"), ("Answer id", export.answer_id),
            ("Answered", export.answered_at or "not recorded"), ("Exported", export.exported_at)]


def _document_line(doc: ExportDocument) -> str:
    ingested = f"ingested {doc.ingested_at}" if doc.ingested_at else "ingest date not recorded"
    return f"{doc.title} ({doc.source_file}; {ingested})" if doc.source_file else f"{doc.title} ({ingested})"


def export_markdown(export: AnswerExport) -> str:
    e = escape_markdown
    lines = ["# Citewalk answer", "", f"**Question:** {e(export.question)}", ""]
    if export.as_of:
        lines += [f"**Law as of:** {e(export.as_of)}", ""]
    lines += ["## Short answer", "", e(export.answer), "", f"*{e(export.mode_line)}*"]
    lines += [item for notice in export.notices for item in ("", f"> **Note:** {e(notice)}")]
    if export.caveats:
        lines += ["", "**Caveats**", *(f"- {e(c)}" for c in export.caveats)]
    lines += ["", "## Rules cited"]
    for rule in export.rules:
        lines += ["", f"### {e(rule.label)}", ""]
        if rule.document_title:
            lines += [f"Document: {e(rule.document_title)}", ""]
        if rule.status:
            lines += [f"**Status:** {e(rule.status)}", ""]
        lines += [item for line in rule.dated for item in (e(line), "")]
        for claim in rule.claims:
            lines.append(f"> {e(claim.text)}" + (f" — {e(claim.paragraph)}" if claim.paragraph else ""))
            lines.append(">")
        if rule.claims:
            lines.pop()
    if export.chain:
        lines += ["", "## Reasoning chain", "", e(export.chain)]
    lines += ["", "## Provenance", ""] + [f"- {k}: {e(v)}" for k, v in _provenance(export)]
    lines += [f"- Document: {e(_document_line(doc))}" for doc in export.documents]
    return "\n".join(lines) + "\n"


def _xml_safe(text: str) -> str:
    return _NOT_XML.sub("", text)


def export_docx(export: AnswerExport) -> bytes:
    from docx import Document  # late: heavy, and only exports need it

    document = Document()
    s = _xml_safe
    document.core_properties.title = s(f"Citewalk answer {export.answer_id}")[:250]
    document.add_heading("Citewalk answer", level=0)
    question = document.add_paragraph()
    question.add_run("Question: ").bold = True
    question.add_run(s(export.question))
    if export.as_of:
        dated = document.add_paragraph()
        dated.add_run("Law as of: ").bold = True
        dated.add_run(s(export.as_of))
    document.add_heading("Short answer", level=1)
    document.add_paragraph(s(export.answer))
    document.add_paragraph().add_run(s(export.mode_line)).italic = True
    for notice in export.notices:
        document.add_paragraph(s(f"Note: {notice}"))
    for caveat in export.caveats:
        document.add_paragraph(s(caveat), style="List Bullet")
    document.add_heading("Rules cited", level=1)
    for rule in export.rules:
        document.add_heading(s(rule.label), level=2)
        if rule.document_title:
            document.add_paragraph(s(f"Document: {rule.document_title}"))
        if rule.status:
            document.add_paragraph().add_run(s(f"Status: {rule.status}")).bold = True
        for line in rule.dated:
            document.add_paragraph(s(line))
        for claim in rule.claims:
            quote = document.add_paragraph(style="Intense Quote")
            quote.add_run(s(claim.text))
            if claim.paragraph:
                quote.add_run(s(f" — {claim.paragraph}"))
    if export.chain:
        document.add_heading("Reasoning chain", level=1)
        document.add_paragraph(s(export.chain))
    document.add_heading("Provenance", level=1)
    for key, value in _provenance(export):
        document.add_paragraph(s(f"{key}: {value}"), style="List Bullet")
    for doc in export.documents:
        document.add_paragraph(s(f"Document: {_document_line(doc)}"), style="List Bullet")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def render_export(view: AnswerView, answer_id: str, fmt: str) -> tuple[bytes, str, str]:
    """(body, media type, file name) for `fmt` "md" or "docx"; ValueError names the formats otherwise."""
    export = answer_export(view, answer_id)
    if fmt == "md":
        return export_markdown(export).encode("utf-8"), MEDIA_TYPES["md"], f"{file_stem(export)}.md"
    if fmt == "docx":
        return export_docx(export), MEDIA_TYPES["docx"], f"{file_stem(export)}.docx"
    raise ValueError(f"unknown export format {fmt[:20]!r}; choose md or docx")
