"""The Korean analyzer: Kiwi morphemes, so "의료기관을" and "의료기관의" both index "의료"+"기관".

Particles (J*), endings (E*) and punctuation are dropped; nouns, verb/adjective stems, roots,
numbers and foreign words are kept. Verb stems are marked ("정하/V") so they never collide with a noun.

Kiwi keeps a compound noun that its dictionary knows whole ("세탁소", "세탁물", "입원실"), so a question's "세탁소" and a
statute's "세탁물" share no term, nor a question's "자격정지" and a statute's "자격 정지". The "ko-kiwi+parts" analyzer
(opt-in: CITEWALK_LEXICAL_ANALYZER at ingest) also indexes such a noun's parts (Kiwi's own reading of it with the
whole word barred: "세탁물" → "세탁"), as Lucene's nori does in its mixed mode; the lexical index keeps them apart
from the words as written and reads them only where a unit does not write a question's word
(`LexicalIndex.group_scores`). It is not the default: on ko_dev its answers cite less precisely
(bench/results/TRIED.md, s38-a).
"""
from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from core.domain import normalize_text

_KEEP = ("NNG", "NNP", "NNB", "NR", "NP", "XR", "SL", "SH", "SN", "MAG")
# What a reader checks a provision for: common and proper nouns, roots, foreign words and hanja; not pronouns (NP),
# dependent nouns (NNB: 것, 수, 거), numerals, adverbs or verbs.
_NAMED = ("NNG", "NNP", "XR", "SL", "SH")
_STEMS = ("VV", "VA")
_DROP_NOUNS = frozenset({"것", "수", "등", "때", "중", "바"})
_COMPOUND_TAGS = ("NNG", "NNP")
# A two-syllable noun read without its dictionary entry falls into single syllables ("병원" → "병" + "원"), which name
# nothing; from three syllables a part of two or more is a word of its own ("입원실" → "입원").
MIN_COMPOUND = 3
MIN_PART = 2
# What a compound may be read as: nouns and noun suffixes ("헌혈자" → "헌혈" + "자"). A reading with a particle, a verb
# or an ending ("전문의" → "전문" + "의", "신고서" → "신" + "고서") is a misreading, not the word's parts.
_PART_TAGS = ("NNG", "NNP", "XSN")
PARTS = "+parts"
# A compound's part is a term of its own ("세탁물" → "세탁물", "세탁/p"), which the lexical index keeps apart from the
# words as written: "간호" written alone keeps its weight beside the thousands of "간호사" that hold it.
_PART_MARK = "/p"


def part_term(part: str) -> str:
    return part + _PART_MARK


def is_part_term(term: str) -> bool:
    return term.endswith(_PART_MARK)

_kiwi = None
_lock = threading.Lock()


def _tokenizer():
    global _kiwi
    with _lock:
        if _kiwi is None:
            from kiwipiepy import Kiwi

            _kiwi = Kiwi()
        return _kiwi


@lru_cache(maxsize=65536)
def compound_parts(form: str, tag: str) -> tuple[str, ...]:
    """The parts of a compound noun Kiwi keeps whole, as Kiwi reads it with that word barred ("세탁물" → ("세탁",)):
    parts of MIN_PART syllables or more; none for a short noun or a reading that is not nouns and suffixes."""
    if tag not in _COMPOUND_TAGS or len(form) < MIN_COMPOUND:
        return ()
    from kiwipiepy import MorphemeSet  # with the model, only for Korean corpora

    kiwi = _tokenizer()
    cut = kiwi.tokenize(form, blocklist=MorphemeSet(kiwi, [(form, tag)]))
    if len(cut) < 2 or not all(t.tag.startswith(_PART_TAGS) for t in cut):
        return ()
    # A loanword has no parts: read without its entry it falls into a syllable and a remainder ("시스템" → "시" +
    # "스템"), where a compound opens with a word ("입원" of "입원실").
    if cut[0].tag not in _COMPOUND_TAGS or len(cut[0].form) < MIN_PART:
        return ()
    return tuple(t.form.lower() for t in cut if t.tag in _COMPOUND_TAGS and len(t.form) >= MIN_PART)


class KoreanAnalyzer:
    def __init__(self, parts: bool = False) -> None:
        self.parts = parts
        self.name = "ko-kiwi" + (PARTS if parts else "")
        if parts:  # read by LexicalIndex: how this analyzer indexes a compound's part
            self.part_term = part_term
            self.is_part_term = is_part_term

    def groups(self, text: str) -> list[tuple[str, ...]]:
        """Each kept word's term, followed by its compound parts when the analyzer indexes them."""
        text = unicodedata.normalize("NFC", normalize_text(text))
        if not text.strip():
            return []
        out: list[tuple[str, ...]] = []
        for token in _tokenizer().tokenize(text):
            tag = token.tag.split("-")[0]  # Kiwi marks irregular stems "VV-R"
            if tag in _STEMS:
                out.append((f"{token.form}/V",))
            elif tag.startswith(_KEEP) and token.form not in _DROP_NOUNS:
                parts = compound_parts(token.form, tag) if self.parts else ()
                out.append((token.form.lower(), *parts))
        return out

    def tokenize(self, text: str) -> list[str]:
        """The terms a unit is indexed by: each word's term, then its compound parts as part terms (`part_term`)."""
        return [term for whole, *parts in self.groups(text) for term in (whole, *map(part_term, parts))]


def nouns_as_written(text: str) -> list[str]:
    """The text's nouns as written, without their particles or endings: "진료기록을 떼려고" → ["진료기록"] (morphemes
    written together are one word: a reader looks for "진료기록", not "진료" and "기록")."""
    text = unicodedata.normalize("NFC", normalize_text(text))
    if not text.strip():
        return []
    out: list[str] = []
    end = -1
    for token in _tokenizer().tokenize(text):
        if not token.tag.startswith(_NAMED):
            end = -1
            continue
        if token.start == end and out:
            out[-1] += text[token.start:token.start + token.len]
        else:
            out.append(text[token.start:token.start + token.len])
        end = token.start + token.len
    return out
