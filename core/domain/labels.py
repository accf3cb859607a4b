"""How a provision's label marks its sub-units, read the same way by the answerer and the benchmarks."""
from __future__ import annotations

import re

# Paragraph and point marks closing a label: "Article 33(1)(b)", "45 CFR 164.404(a)(1)".
_TRAILING_MARKS = re.compile(r"(?:\s*\([^()]{1,8}\))+$")
# A Korean sub-unit runs on from its article's label without a space or a bracket: 제56조 → 제56조제2항 (항, ①),
# 제56조제2항제6호 (호), … 제6호가목 (목). A branch article (제56조의2) is another article, not a sub-unit.
KOREAN_SUB_UNIT = r"제\d+(?:의\d+)?[항호]|[가-하]목"


def without_marks(label: str) -> str:
    """The label without its closing paragraph and point marks: "…, Article 33(1)(b)" → "…, Article 33"."""
    return _TRAILING_MARKS.sub("", label).strip()
