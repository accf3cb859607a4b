"""Candidate off-topic signals beside the answerer's closeness, per question, for answerable and unanswerable sets.

    python -m bench.off_topic_signals --set bench/abstain/gdpr_unanswerable.jsonl:gdpr \\
        --set ../shared/bench/gdpr_user_dev.jsonl:gdpr [--set FILE:CORPUS[:LIMIT] ...] [--out FILE.json]

Reads only the corpus stores (vectors, BM25 index, unit tree), no answers. Each signal is read for the part of the
question (whole, sentence or clause) that the answerer's closeness picks (`core/answer/off_topic.py`):

- `closeness`: the answerer's own (mean cosine of the NEIGHBOURS nearest units, best over the parts);
- `near10`: the same over the 10 nearest units;
- `unknown`: the idf-weighted share of the question's content terms (`checkable_words`, cut by the corpus's
  analyzer) that no unit of the corpus holds;
- `cover`: the idf-weighted share of all its content terms that some unit of the neighbourhood holds;
- `gap`: how much closer the 10 nearest units are to each other than to the question (mean pairwise cosine of
  their vectors minus their mean cosine to the question);
- `centred`: `near10` after the corpus's mean vector is taken off every vector (the register all its units share);
- `articles`: the largest share of the 20 nearest units that sit in one article;
- `agree`: the share of the 20 nearest units' articles that BM25's 20 best units also reach;
- `purpose`: the best cosine of the question or any of its parts to the provisions that say what the corpus's
  instruments govern (an article or section headed purpose, scope, subject-matter, applicability, 목적, 적용범위,
  phạm vi điều chỉnh, đối tượng áp dụng, and the units under it): whether the question is about what the law is
  about, not only about its field's words.

Per set, the figures give each signal's spread (unanswerable sets: every value; answerable: the lowest values and
the median), so one can see whether a line on a signal, or on two together, would split the sides.
"""
from __future__ import annotations

import argparse
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np

from bench import retrieval
from bench.report import print_and_save
from core.answer.checkable import checkable_words
from core.answer.off_topic import NEIGHBOURS, parts
from core.retrieval.articles import up_to_article
from core.retrieval.stores import CorpusStores
from core.settings import get_settings

SIGNALS = ("closeness", "near10", "unknown", "cover", "gap", "centred", "articles", "agree", "purpose")
# Headings of the provisions that state what an instrument governs, in the three languages ingest reads.
SCOPE_HEADING = re.compile(r"purpose|scope|subject[- ]matter|objective|applicab|목적|적용\s?범위|phạm vi điều chỉnh|"
                           r"đối tượng áp dụng|mục đích", re.I)


class _Corpus:
    def __init__(self, corpus: str) -> None:
        self.stores = stores = CorpusStores.open(get_settings(), corpus)
        retriever = stores.lexical.retriever
        self.vocab: dict[str, int] = retriever.vocab_dict
        self.indptr = np.asarray(retriever.scores["indptr"])
        self.documents = len(stores.lexical.unit_ids)
        first = stores.window_matrix[stores.first_rows[stores.first_rows >= 0]]
        self.mean = first.mean(axis=0)
        centred = stores.window_matrix - self.mean
        self.centred = centred / np.linalg.norm(centred, axis=1, keepdims=True)
        self.scope = stores.window_matrix[self._scope_rows()]

    def _scope_rows(self) -> np.ndarray:
        units = self.stores.units
        heads = {u for u in self.stores.unit_ids
                 if units[u].type in ("article", "section") and SCOPE_HEADING.search(units[u].title or "")}
        scope = heads | {u for u in self.stores.unit_ids if units[u].parent_id in heads}
        rows = self.stores.first_rows[[self.stores.index[u] for u in scope]] if scope else np.array([], dtype=int)
        return rows[rows >= 0]

    def df(self, term: str) -> int:
        i = self.vocab.get(term)
        return 0 if i is None else int(self.indptr[i + 1] - self.indptr[i])

    def article(self, index: int) -> str:
        path, found = up_to_article(self.stores.units, self.stores.unit_ids[index])
        return path[-1].id if found else self.stores.unit_ids[index]

    def unit_terms(self, index: int) -> set[str]:
        unit = self.stores.units[self.stores.unit_ids[index]]
        return set(self.stores.lexical.analyzer.tokenize(f"{unit.label} {unit.title} {unit.text}"))


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    k = max(1, min(k, len(scores) // 20))
    top = np.argpartition(scores, len(scores) - k)[-k:]
    return top[np.argsort(-scores[top])]


def signals(corpus: _Corpus, question: str) -> dict[str, float]:
    stores = corpus.stores
    pieces = [question, *parts(question)]
    vectors = stores.embed(pieces)
    dense = [stores.dense_scores(v) for v in vectors]
    best = max(range(len(pieces)), key=lambda i: float(dense[i][_top(dense[i], NEIGHBOURS)].mean()))
    scores, vector = dense[best], vectors[best]
    near = _top(scores, NEIGHBOURS)
    ten = _top(scores, 10)
    rows = stores.first_rows[ten]
    own = stores.window_matrix[rows[rows >= 0]]
    pairs = own @ own.T
    coherence = float((pairs.sum() - np.trace(pairs)) / max(1, len(own) * (len(own) - 1)))
    centred_q = vector - corpus.mean
    centred_q = centred_q / np.linalg.norm(centred_q)
    centred = np.full(len(stores.unit_ids), -1.0, dtype=np.float32)
    np.maximum.at(centred, stores.window_unit, corpus.centred @ centred_q)
    terms = list(dict.fromkeys(t for w in checkable_words(question) for t, *_ in stores.terms(w)))
    idf = {t: math.log(1 + (corpus.documents - corpus.df(t) + 0.5) / (corpus.df(t) + 0.5)) for t in terms}
    total = math.fsum(idf.values()) or 1.0
    held: set[str] = set().union(*(corpus.unit_terms(int(i)) for i in near))
    twenty = [corpus.article(int(i)) for i in _top(scores, 20)]
    lexical = stores.lexical_scores(pieces[best])
    by_bm25 = {corpus.article(int(i)) for i in _top(lexical, 20) if lexical[i] > 0}
    return {"closeness": float(scores[near].mean()), "near10": float(scores[ten].mean()),
            "unknown": math.fsum(idf[t] for t in terms if not corpus.df(t)) / total if terms else 0.0,
            "cover": math.fsum(idf[t] for t in terms if t in held) / total if terms else 0.0,
            "gap": coherence - float(scores[ten].mean()),
            "centred": float(centred[_top(centred, 10)].mean()),
            "articles": Counter(twenty).most_common(1)[0][1] / len(twenty),
            "agree": len(set(twenty) & by_bm25) / len(twenty),
            "purpose": float((vectors @ corpus.scope.T).max()) if len(corpus.scope) else 0.0}


def spread(rows: list[dict], unanswerable: bool) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in SIGNALS:
        values = sorted(round(r[name], 3) for r in rows)
        out[name] = values if unanswerable else {"lowest": values[:5], "median": values[len(values) // 2]}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", required=True, help="FILE:CORPUS[:LIMIT], repeatable")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    opened: dict[str, _Corpus] = {}
    sets = []
    for spec in args.set:
        file, corpus, *limit = spec.split(":")
        if corpus not in opened:
            opened[corpus] = _Corpus(corpus)
        questions, _, _ = retrieval.load_questions(Path(file), None, int(limit[0]) if limit else None)
        rows = [{"id": q.id, **{k: round(v, 4) for k, v in signals(opened[corpus], q.question).items()}}
                for q in questions]
        unanswerable = "unanswerable" in Path(file).name
        sets.append({"questions_file": Path(file).name, "corpus": corpus, "questions": len(rows),
                     "line": opened[corpus].stores.embedder.far_neighbourhood, "unanswerable": unanswerable,
                     "spread": spread(rows, unanswerable), "per_question": rows})
    shown = {"sets": [{k: v for k, v in s.items() if k != "per_question"} for s in sets]}
    print_and_save({"signals": list(SIGNALS), "sets": sets}, args.out, shown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
