"""Opening a corpus's stores: a cold corpus opening (~10 s for a large one) must not stall questions on a warm
corpus, a corpus is opened once however many questions arrive while it opens, a question waits for it a bounded
time, and no corpus name grows the registry beyond the ingested corpora and MAX_OPEN sets."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.domain import StoreError
from core.retrieval import reload, saved_read
from core.retrieval.citewalk import CitewalkRetriever
from core.retrieval.config import RetrievalConfig
from core.retrieval.rerank_api import rerank
from core.retrieval.stores import CorpusStores
from core.settings import Settings, get_settings
from tests.support.corpus_stores import built_stores


class Opener:
    """Stands in for reload.open_corpus (Chroma, BM25 and Neo4j reads): a cold corpus opens when released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[str] = []
        self.configs: list[RetrievalConfig | None] = []

    def __call__(self, settings: Settings, corpus: str, config: RetrievalConfig | None = None,
                 stamp: int | None = None) -> CorpusStores:
        self.calls.append(corpus)
        self.configs.append(config)
        if corpus.startswith("cold"):
            assert self.release.wait(20), "the cold corpus was never released"
        return built_stores(settings, corpus, config, searchable=corpus == "configured")


@pytest.fixture
def opener(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Opener]:
    fake = Opener()
    monkeypatch.setattr(reload, "open_corpus", fake)
    monkeypatch.setattr(reload, "ingest_stamp", lambda settings, corpus: 1)  # every name here counts as ingested
    yield fake
    fake.release.set()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return get_settings().model_copy(update={"data_dir": tmp_path})  # keys of its own in the process registry


def test_warm_corpus_answers_while_a_cold_one_opens(opener: Opener, settings: Settings) -> None:
    warm = reload.open_stores(settings, "warm")
    cold = threading.Thread(target=reload.open_stores, args=(settings, "cold"), daemon=True)
    cold.start()
    while "cold" not in opener.calls:
        time.sleep(0.01)
    started = time.monotonic()
    assert reload.open_stores(settings, "warm") is warm
    assert time.monotonic() - started < 1.0, "the warm corpus waited for the cold one to open"
    opener.release.set()
    cold.join(10)
    assert not cold.is_alive()


def test_a_cold_corpus_is_opened_once(opener: Opener, settings: Settings) -> None:
    got: list[CorpusStores] = []
    askers = [threading.Thread(target=lambda: got.append(reload.open_stores(settings, "cold-once"))) for _ in range(5)]
    for asker in askers:
        asker.start()
    time.sleep(0.3)
    opener.release.set()
    for asker in askers:
        asker.join(10)
    assert opener.calls.count("cold-once") == 1
    assert len(got) == 5 and all(s is got[0] for s in got)


def test_a_failed_open_is_retried_by_the_next_question(opener: Opener, settings: Settings,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(settings: Settings, corpus: str, config: RetrievalConfig | None = None,
               stamp: int | None = None) -> CorpusStores:
        raise OSError("chroma folder unreadable")

    monkeypatch.setattr(reload, "open_corpus", broken)
    with pytest.raises(OSError):
        reload.open_stores(settings, "flaky")
    monkeypatch.setattr(reload, "open_corpus", opener)
    assert reload.open_stores(settings, "flaky").corpus == "flaky"


def test_stores_open_with_the_retrievers_configuration(opener: Opener, settings: Settings) -> None:
    plain = RetrievalConfig(context_depth=0, stem_share=0.2)
    retriever = CitewalkRetriever(settings, plain)
    assert retriever.corpus_stores("configured").config == plain
    default = CitewalkRetriever(settings).corpus_stores("configured")
    assert default.config == RetrievalConfig()  # another configuration, other stores: never the first one's
    assert rerank("records", "configured", [], settings=settings, config=plain).method == "rerank"
    assert opener.calls.count("configured") == 2  # rerank found the stores the plain retriever opened
    assert opener.configs == [plain, RetrievalConfig()]


def test_a_question_waits_a_bounded_time_for_an_opening_then_is_told(opener: Opener, settings: Settings,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reload, "OPEN_WAIT_S", 0.3)
    started = time.monotonic()
    with pytest.raises(reload.CorpusStillOpening, match="still opening; ask again"):
        reload.open_stores(settings, "cold-slow")
    assert time.monotonic() - started < 5
    with pytest.raises(reload.CorpusStillOpening):  # the same opening, not a second one
        reload.open_stores(settings, "cold-slow")
    opener.release.set()
    monkeypatch.setattr(reload, "OPEN_WAIT_S", 10.0)
    assert reload.open_stores(settings, "cold-slow").corpus == "cold-slow"
    assert opener.calls.count("cold-slow") == 1


def test_a_corpus_never_ingested_is_refused_and_adds_no_entry(opener: Opener, settings: Settings,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reload, "ingest_stamp", saved_read.ingest_stamp)  # the data dir's own: nothing ingested
    before = reload.held()
    for n in range(200):
        with pytest.raises(StoreError, match="not ingested"):
            reload.open_stores(settings, f"made-up-{n}")
    assert reload.held() == before and opener.calls == []


def test_the_registry_holds_at_most_max_open_sets(opener: Opener, settings: Settings,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reload, "MAX_OPEN", 3)
    monkeypatch.setattr(reload, "_OPEN", type(reload._OPEN)())
    first = reload.open_stores(settings, "kept")
    for n in range(10):
        reload.open_stores(settings, f"many-{n}")
        assert reload.open_stores(settings, "kept") is first  # the one in use stays: least recently used go
        assert reload.held() <= 3
    assert opener.calls.count("kept") == 1 and opener.calls.count("many-0") == 1
    reload.open_stores(settings, "many-0")  # pushed out: opened again
    assert opener.calls.count("many-0") == 2


def test_the_warm_up_waits_for_an_opening_a_question_gave_up_on(opener: Opener, settings: Settings,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reload, "OPEN_WAIT_S", 0.2)
    assert not reload.wait_opened(settings, "cold-warm-up")  # nothing opening: no wait
    with pytest.raises(reload.CorpusStillOpening):
        reload.open_stores(settings, "cold-warm-up")
    threading.Timer(0.5, opener.release.set).start()
    started = time.monotonic()
    assert reload.wait_opened(settings, "cold-warm-up")
    assert time.monotonic() - started >= 0.3
    assert reload.open_stores(settings, "cold-warm-up").corpus == "cold-warm-up"
