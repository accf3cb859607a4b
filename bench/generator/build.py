"""Walk, cluster, write, verify and keep: the generator loop, independent of the CLI and of the stores' location."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from neo4j import Driver
from pydantic import BaseModel, Field

from bench.generator import llm, templates
from bench.generator.cluster import clustered, distribution, sampling_order
from bench.generator.diversity import DiversityGuard
from bench.generator.models import BenchItem, Draft, GraphPath, ReasoningType, Verification
from bench.generator.paths import CorpusGraph, load_graph, walk_paths
from bench.generator.terms import TermStats
from bench.generator.verify import Pool, structure, verify_template


class BuildOptions(BaseModel):
    corpus: str
    n: int = Field(default=100, ge=1)
    seed: int = 7
    pool_k: int = Field(default=100, ge=1, description="template check: path units must be in this top-k of the pool")
    min_coverage: float = Field(default=1.0, ge=0, le=1, description="share of question terms the evidence must hold")
    max_unit_uses: int = Field(default=3, ge=1)
    max_attempts: int = Field(default=2000, ge=1, description="drafts verified at most, kept or not")


class BuildReport(BaseModel):
    corpus: str
    generator: str
    options: BuildOptions
    paths_found: int
    paths_by_type: dict[str, int]
    attempted: int = 0
    kept: int = 0
    skipped: dict[str, int] = Field(default_factory=dict, description="paths not drafted (repeat evidence, hub units)")
    dropped: dict[str, int] = Field(default_factory=dict, description="drafts that failed a check, by first failure")
    distribution: dict[str, dict[str, int]] = Field(default_factory=dict)
    cross_document_share: float = 0.0


class Generator(BaseModel):
    """How drafts are written and checked: templates + retrieval/coverage, or an LLM writer + ablation checker."""

    model_config = {"arbitrary_types_allowed": True}
    name: str
    write: Callable[[GraphPath, ReasoningType], Draft]
    check: Callable[[GraphPath, str], Verification]


def template_generator(driver: Driver, database: str, graph: CorpusGraph, pool: Pool, options: BuildOptions) -> Generator:
    stats = TermStats(graph)
    return Generator(
        name="template",
        write=lambda path, rtype: templates.write(graph, stats, path, rtype, options.seed),
        check=lambda path, question: verify_template(
            driver, database, graph, path, question, pool, options.pool_k, options.min_coverage),
    )


def llm_generator(driver: Driver, database: str, graph: CorpusGraph, model, model_name: str) -> Generator:
    def check(path: GraphPath, question: str) -> Verification:
        # The graph must hold the path before an LLM is paid to judge it.
        problems = structure(driver, database, graph.corpus, path)
        if problems:
            return Verification(passed=False, method="llm-ablation", reasons=problems)
        return llm.verify(model, graph, path, question)

    return Generator(name=f"llm:{model_name}", write=lambda path, rtype: llm.write(model, graph, path, rtype), check=check)


def build(
    driver: Driver, database: str, options: BuildOptions, make_generator: Callable[[CorpusGraph], Generator],
) -> tuple[list[BenchItem], list[BenchItem], BuildReport]:
    """Kept items, rejected drafts (with their reasons) and the counts."""
    graph = load_graph(driver, database, options.corpus)
    clusters = clustered(walk_paths(graph, options.seed))
    generator = make_generator(graph)
    report = BuildReport(
        corpus=options.corpus, generator=generator.name, options=options,
        paths_found=sum(len(v) for v in clusters.values()),
        paths_by_type={k.value: len(v) for k, v in sorted(clusters.items())},
    )
    guard = DiversityGuard(options.max_unit_uses)
    skipped: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    kept: list[BenchItem] = []
    rejected: list[BenchItem] = []
    for rtype, path in sampling_order(clusters, options.seed):
        if len(kept) >= options.n or report.attempted >= options.max_attempts:
            break
        if reason := guard.path_allowed(path.units):
            skipped[reason.split(":")[0]] += 1
            continue
        draft = generator.write(path, rtype)
        report.attempted += 1
        if guard.near_duplicate(draft.question):
            dropped["duplicate"] += 1
            continue
        verification = generator.check(path, draft.question)
        item = _item(f"{options.corpus}-gen-{len(kept) + 1:03d}", draft, path, rtype, generator.name, verification)
        if verification.passed:
            guard.keep(path.units, draft.question)
            kept.append(item)
        else:
            dropped[verification.reasons[0].split(":")[0]] += 1
            rejected.append(item.model_copy(update={"id": f"{options.corpus}-rejected-{len(rejected) + 1:04d}"}))
    report.kept = len(kept)
    report.skipped = dict(skipped)
    report.dropped = dict(dropped)
    report.distribution = distribution([i.reasoning_type.value for i in kept], [i.hop_count for i in kept])
    report.cross_document_share = round(sum(i.documents > 1 for i in kept) / len(kept), 3) if kept else 0.0
    return kept, rejected, report


def _item(item_id: str, draft: Draft, path: GraphPath, rtype: ReasoningType, generator: str,
          verification: Verification) -> BenchItem:
    return BenchItem(
        id=item_id, question=draft.question, answer=draft.answer, evidence_units=path.units,
        gold_unit_ids=path.units, evidence_path=path.hops, reasoning_type=rtype, hop_count=path.hop_count,
        documents=path.documents, generator=generator, verification=verification,
    )
