"""The reasoning chain as one readable line: `A —references→ B —defines→ C`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.domain import Edge


def edge_word(edge_type: str) -> str:
    """REFERENCES → 'references', DELEGATES_TO → 'delegates to'."""
    return edge_type.lower().replace("_", " ")


def chain_segments(chain: Sequence[Edge], labels: Mapping[str, str]) -> list[list[str]]:
    """Consecutive edges that continue each other form one walk; a break starts a new one.
    Returned as alternating [label, word, label, word, label, …] lists so HTML and text renderers share it."""
    segments: list[list[str]] = []
    last_target: str | None = None
    for edge in chain:
        if last_target != edge.source or not segments:
            segments.append([labels.get(edge.source, edge.source)])
        segments[-1] += [edge_word(edge.type), labels.get(edge.target, edge.target)]
        last_target = edge.target
    return segments


def chain_line(chain: Sequence[Edge], labels: Mapping[str, str]) -> str:
    return "; ".join(_join(segment) for segment in chain_segments(chain, labels))


def _join(segment: list[str]) -> str:
    return segment[0] + "".join(f" —{word}→ {label}" for word, label in zip(segment[1::2], segment[2::2]))
