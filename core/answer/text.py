"""The readable, plain-text form of an answer (CLI); the chat renders the same envelope its own way."""
from __future__ import annotations

from core.answer.models import AnswerEnvelope


def chain_line(envelope: AnswerEnvelope) -> str:
    """'A —references→ B —defines→ C' with lawyer-style labels where the answer carries them."""
    labels = {r.unit_id: r.label for r in envelope.answer.rules}
    parts: list[str] = []
    for edge in envelope.answer.chain:
        source, target = labels.get(edge.source, edge.source), labels.get(edge.target, edge.target)
        if not parts or parts[-1] != source:
            parts += ([" · "] if parts else []) + [source]
        parts += [f" —{edge.type.lower()}→ ", target]
    return "".join(parts)


def render_text(envelope: AnswerEnvelope) -> str:
    answer = envelope.answer
    by = "extractive answerer (verbatim sentences)" if envelope.mode == "extractive" else f"model {envelope.model}"
    dated = f" · law as in force on {envelope.as_of}" if envelope.as_of else ""
    lines = [answer.answer, "", f"[{envelope.corpus} · {envelope.method or 'search'} · {by}{dated}]"]
    for rule in answer.rules:
        title = f" — {rule.document_title}" if rule.document_title else ""
        lines += ["", f"■ {rule.label}{title}  ({rule.unit_id})"]
        for claim in rule.claims:
            mark = f"{claim.paragraph} " if claim.paragraph else ""
            lines.append(f"  • {mark}{claim.text}")
    if answer.chain:
        lines += ["", f"Chain: {chain_line(envelope)}"]
    for caveat in answer.caveats:
        lines.append(f"Caveat: {caveat}")
    if envelope.notices:
        lines += [""] + [f"Notice: {n}" for n in envelope.notices]
    return "\n".join(lines)
