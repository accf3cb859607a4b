"""The words of a question a user would check a provision for: content words, not pronouns or everyday verbs.

"The cited text does not mention: “We”, “give”" tells the user nothing: no provision says "we", and "give" is
how the question is phrased, not what it is about. Only the remaining words are named in a caveat, each once.
"""
from __future__ import annotations

import re

from core.analyzers.korean import nouns_as_written
from core.analyzers.script import detect_language
from core.analyzers.vietnamese import STOPWORDS as VIETNAMESE_FUNCTION_WORDS
from core.analyzers.vietnamese import words as vietnamese_words
from core.lexical import tokenize

# Pronouns, determiners, auxiliaries and everyday verbs of a typed question, in the languages the chat
# answers in; compared lower-cased (and, for English, by stem, so "gives" and "giving" go too).
_ENGLISH = (
    "i me my mine myself we us our ours ourselves you your yours he him his she her it its they them their theirs "
    "this that these those there here someone somebody anyone anybody everyone something anything everything "
    "what which who whom whose when where why how whether if yes no not really actually exactly still just also "
    "can could may might must shall should will would do does did done doing is are was were be been being am "
    "has have had having get gets got getting give gives gave given giving take takes took taken make makes made "
    "go goes went gone going come came put say says said tell told ask asked asking want wants need needs let "
    "know knows think thinks see use uses used keep kept find found try tried help allowed ok okay "
    "thing things stuff lot lots way ways kind sort one ones two some any all each every other another own "
    "very much many more most less least enough only even well about over after before under without within "
    "soon quickly fast long late early"
)
_ENGLISH_STEMS = frozenset(tokenize(_ENGLISH)) | frozenset(_ENGLISH.split())
# Vietnamese is matched by syllable: the index's function words ("của", "về", "tại") are never content, and a
# question's "bao lâu", "năm nay", "sắp hết", "muốn mở" would put "bao", "nay", "sắp", "muốn" in the caveat. The
# interrogatives, time and aspect particles and wanting/going verbs a typed question is phrased with go, as in
# English. Not kinship words ("con", "cháu", "anh"): statutes use them as content.
_VIETNAMESE = (
    "tôi chúng ta mình tớ bạn họ nó ấy ai gì nào đâu sao bao nhiêu mấy lâu chưa không vậy thế nhỉ nhé ạ à hả chứ "
    "phải kia hay cũng vẫn lại nữa thôi rất lắm "
    "đã đang sẽ sắp vừa mới rồi còn lúc nay hôm bây giờ muốn cần biết hỏi nói bảo đi")
_OTHER = frozenset(
    _VIETNAMESE.split() + list(VIETNAMESE_FUNCTION_WORDS) +
    "저 저희 우리 제가 우리가 당신 그 이 저것 이것 무엇 어떤 어떻게 언제 누가 왜 있나요 되나요 하나요 해야 합니까 "
    # Korean nouns a typed question is phrased with: when, how much, what, and the time of asking.
    "뭐 얼마 어디 누구 정도 때문 이번 요즘 지금 오늘 어제 내일 동안 다음 전 후 좀".split())
_CONTRACTION = re.compile(r"['’](?:ve|re|m|ll|d)$|n['’]t$", re.I)  # "we've", "I'm", "don't": never content
_WORD = re.compile(r"[^\W_][\w'’-]*", re.U)


def is_checkable(word: str) -> bool:
    if " " in word:  # a Vietnamese word of several syllables: content when any of them is
        return any(is_checkable(s) for s in word.split())
    lowered = word.lower().strip("'’-")
    if not lowered or lowered in _OTHER or lowered.isdigit():
        return False
    if lowered.isascii():
        stems = tokenize(lowered)
        return bool(stems) and lowered not in _ENGLISH_STEMS and not all(s in _ENGLISH_STEMS for s in stems)
    return True


def checkable_words(question: str) -> list[str]:
    """The question's content words as written, each once (case-insensitively), in question order."""
    seen: set[str] = set()
    out: list[str] = []
    # Vietnamese words run over several syllables: cut as the index cuts them, a caveat names "Công ty", not "ty".
    # A Korean word carries its particles and endings ("어머니가", "떼려고"): a caveat names its nouns as written.
    language = detect_language([question])
    written = vietnamese_words(question) if language == "vi" else \
        nouns_as_written(question) if language == "ko" else _WORD.findall(question)
    for word in written:
        word = re.sub(r"['’]s$", "", word).strip("'’-")
        if _CONTRACTION.search(word):
            continue
        key = word.lower()
        if key in seen or not is_checkable(word):
            continue
        seen.add(key)
        out.append(word)
    return out
