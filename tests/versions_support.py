"""A small corpus of dated versions for the chat's "law as of" tests: two real versions of 응급의료에 관한 법률 from
../shared/corpora/real/ko-versions, each cut down to a few articles (its own front matter and dates kept), so an
ingest takes seconds rather than the whole act's minutes."""
from __future__ import annotations

import re
from pathlib import Path

# 법률 제20887호 (promulgated 2025-04-01, in force 2026-04-02) and 제21237호 (2025-12-23, in force 2026-06-24):
# the second rewrites 제12조제1항 and 제60조제1항.
VERSIONS = ("2025-04-01", "2025-12-23")
ARTICLES = ("제1조", "제12조", "제60조")
_SECTION = re.compile(r"(?m)^(?=#{1,5} )")


def ko_version_file(folder: Path, promulgated: str) -> Path:
    return folder / f"emergency-medical-service-act_law_{promulgated}.md"


def cut_version(source: Path, out: Path, articles: tuple[str, ...] = ARTICLES) -> Path:
    """The file's front matter and title, then only the articles named (each whole, down to the next heading)."""
    text = source.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    sections = _SECTION.split(body)
    kept = [s for s in sections if s.startswith("# ")]
    kept += [s for s in sections if any(s.startswith(f"##### {a} ") for a in articles)]
    out.write_text(f"---\n{front}---\n\n" + "".join(kept), encoding="utf-8")
    return out


def small_versions(folder: Path, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    return [cut_version(ko_version_file(folder, d), out_dir / ko_version_file(folder, d).name) for d in VERSIONS]
