"""The in-context match of a question to provision texts, read by the packaged embedding model."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from core.answer.soft_match import SoftMatch, TokenCache, TokenReader, TokenVectors, content_mask, reader_for, soft_match
from core.embeddings import get_embedder
from core.settings import Settings


@pytest.fixture(scope="module")
def reader() -> TokenReader:
    return TokenReader(get_embedder(Settings()).token_model)


def test_question_words_and_punctuation_weigh_nothing_but_content_words_do():
    pieces = ("what", "must", "the", "regulator", "notify", "##ing", "?")
    assert content_mask(pieces).tolist() == [False, False, False, True, True, True, False]
    assert content_mask(("what", "the")).all()  # nothing left to match: every piece counts rather than none


def test_vectors_are_unit_length_and_leave_out_special_tokens(reader: TokenReader):
    read = reader.read(["A covered entity may disclose.", "x"])
    assert [len(r.pieces) for r in read] == [len(r.vectors) for r in read]
    assert not {"[CLS]", "[SEP]", "[PAD]", "."} & set(read[0].pieces)
    assert np.allclose(np.linalg.norm(read[0].vectors, axis=1), 1.0, atol=1e-4)
    assert read[1].pieces == ("x",)  # padding to the longer text in the batch is dropped


def test_a_paraphrase_matches_better_than_an_unrelated_rule(reader: TokenReader):
    match = soft_match(reader, "When can someone ask for a full review of a decision?", {
        "appeal": "A decision of the Regulator may be referred by that person to the Appeals Panel for a full "
                  "merits review.",
        "fees": "An applicant must pay the annual fee of $2,000 to the Regulator before 1 January.",
    })
    assert match.cover("appeal") > match.cover("fees") + 0.1


def test_a_pair_covers_what_either_member_covers_and_gains_what_only_the_other_has():
    match = SoftMatch({"a": np.array([0.9, 0.1, 0.2]), "b": np.array([0.2, 0.8, 0.3])})
    assert match.cover("a", "b") == pytest.approx((0.9 + 0.8 + 0.3) / 3)
    assert match.cover("a", "b") >= max(match.cover("a"), match.cover("b"))
    assert match.cover("unknown") == 0.0


def test_two_units_split_two_clauses_by_the_best_assignment():
    match = SoftMatch({"a": np.array([0.5]), "b": np.array([0.5])}, {"a": [0.9, 0.2], "b": [0.3, 0.7]})
    assert match.split("a", "b") == pytest.approx((0.9 + 0.7) / 2)
    assert match.split("a") == pytest.approx((0.9 + 0.2) / 2)
    one_clause = SoftMatch({"a": np.array([0.6, 0.4])})
    assert one_clause.split("a") == pytest.approx(0.5)


def test_each_clause_of_a_two_part_question_is_read_on_its_own(reader: TokenReader):
    match = soft_match(reader, "What fee is payable, and when may a decision be referred to the Appeals Panel?", {
        "fee": "An applicant must pay the annual fee of $2,000.",
        "appeal": "A decision may be referred to the Appeals Panel for a full merits review.",
    }, ["What fee is payable", "when may a decision be referred to the Appeals Panel"])
    assert match.clause_cover["fee"][0] > match.clause_cover["fee"][1]
    assert match.clause_cover["appeal"][1] > match.clause_cover["appeal"][0]
    assert match.split("fee", "appeal") > match.split("appeal", "appeal")


def test_a_failed_reading_is_logged_and_gives_no_match(caplog):
    from core.answer.signals import Signals

    class Unreadable:
        def use_query_threads(self) -> None:
            pass

        @property
        def embedder(self):
            raise OSError("model files missing")

    signals = Signals(Unreadable(), np.zeros(3), None, np.zeros(1), np.zeros(1))
    with caplog.at_level("WARNING", logger="citewalk.signals"):
        assert signals.soft_match("What must a firm do?", {"u": "A firm must notify."}) is None
    assert "in-context reading failed" in caplog.text and "model files missing" in caplog.text


class _CountingModel:
    """The packaged model, counting the texts it is asked to read (the cache is what is under test)."""

    def __init__(self, model) -> None:
        self.model, self.tokenizer, self.texts_read = model, model.tokenizer, 0

    def encode(self, texts, **kwargs):
        self.texts_read += len(texts)
        return self.model.encode(texts, **kwargs)


def test_a_text_read_once_is_not_read_again_and_matches_the_same(reader: TokenReader):
    counting = _CountingModel(reader.model)
    cached = TokenReader(counting, TokenCache())
    texts = {"a": "A covered entity may disclose protected health information for research.",
             "b": "An applicant must pay the annual fee to the Regulator."}
    first = soft_match(cached, "When may an entity disclose information for research?", texts)
    assert counting.texts_read == 1 + 2  # the question, then both texts
    again = soft_match(cached, "Who must pay the annual fee?", {"b": texts["b"], "c": "A new rule."})
    assert counting.texts_read == 3 + 1 + 1  # the new question and only the text not read before
    assert np.allclose(first.best["b"], soft_match(reader, "When may an entity disclose information for research?",
                                                   texts).best["b"], atol=1e-5)
    assert again.cover("b") > 0


def test_the_cache_stays_within_its_bytes_dropping_the_least_recently_used():
    def vectors(rows: int) -> TokenVectors:
        return TokenVectors(tuple("w" for _ in range(rows)), np.ones((rows, 384), dtype=np.float32))

    cache = TokenCache(max_bytes=10 * (384 * 4 * 10 + 57 * 10))
    for i in range(10):
        cache.put(f"text {i}", vectors(10))
    assert cache.get("text 0") is not None  # used again: kept over text 1
    cache.put("text 10", vectors(10))
    assert cache.get("text 1") is None and cache.get("text 0") is not None
    for i in range(11, 40):
        cache.put(f"text {i}", vectors(10))
    assert len(cache) == 10 and cache.nbytes <= cache.max_bytes
    cache.put("huge", vectors(10_000))  # larger than the whole cache: not kept, nothing pushed out
    assert cache.get("huge") is None and len(cache) == 10


def test_one_cache_per_model_shared_by_every_reader():
    embedder = get_embedder(Settings())
    first, second = reader_for(embedder), reader_for(embedder)
    assert isinstance(first, TokenReader) and first.cache is not None and first.cache is second.cache


def test_a_question_the_signals_embedded_is_not_passed_through_the_model_again(reader: TokenReader):
    embedder = get_embedder(Settings())
    asks = ["When must a firm notify the Regulator, and what must the notice state?", "When must a firm notify the "
            "Regulator", "what must the notice state"]
    embedder.embed_queries(asks)
    counting = _CountingModel(reader.model)
    kept = TokenReader(counting, TokenCache(), embedder.question_tokens)
    read = kept.read_asks(asks)
    assert counting.texts_read == 0
    assert all(np.array_equal(a, b) for a, b in zip(read, reader.read_asks(asks)))  # what a pass would give
    kept.read_asks(asks[:2])  # a batch never embedded as such is read
    assert counting.texts_read == 2


class _SlowCountingModel(_CountingModel):
    """Reads slowly, so that a second answer asks for the same texts while the first is still reading them."""

    def __init__(self, model) -> None:
        super().__init__(model)
        self.reading = threading.Event()

    def encode(self, texts, **kwargs):
        self.reading.set()
        time.sleep(0.5)
        return super().encode(texts, **kwargs)


def test_answers_asking_for_the_same_new_text_at_once_read_it_once(reader: TokenReader):
    slow = _SlowCountingModel(reader.model)
    cache = TokenCache()
    texts = ["A covered entity may disclose protected health information for research.",
             "An applicant must pay the annual fee to the Regulator."]
    got: dict[str, list[TokenVectors]] = {}

    def first() -> None:
        got["first"] = TokenReader(slow, cache).read(texts)

    thread = threading.Thread(target=first)
    thread.start()
    assert slow.reading.wait(10)
    got["second"] = TokenReader(slow, cache).read([*texts, "A new rule."])
    thread.join(10)
    assert slow.texts_read == 3  # each text once: the second answer waited for the first one's reading
    for one, other in zip(got["first"], got["second"]):
        assert one is other
    assert not cache._reading


def test_a_failed_reading_lets_the_waiting_answer_read_the_text_itself(reader: TokenReader):
    cache = TokenCache()
    text = "An applicant must pay the annual fee to the Regulator."
    mine, theirs = cache.claim([text])
    assert mine == [text] and not theirs
    cache.release(mine)  # the reader that claimed it failed: nothing was kept
    assert TokenReader(reader.model, cache).read([text])[0].vectors.shape[1] == 384 and not cache._reading
