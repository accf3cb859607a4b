"""bench.patterns takes each alternative of an asked.py pattern out in turn: which reads would change without it."""
from __future__ import annotations

from bench.patterns import Slot, touched
from core.answer import asked
from core.answer.asked import Kind


def test_a_pattern_keeps_the_alternatives_it_was_built_from():
    alternatives = asked.parts(asked.ASKS[Kind.DEADLINE])
    assert r"\bby when\b" in alternatives and "bao lâu" in alternatives


def test_an_alternative_touches_only_the_texts_it_alone_decides():
    slot = Slot("ASKS.deadline", asked.parts(asked.ASKS[Kind.DEADLINE]), asked.ASKS[Kind.DEADLINE])
    assert slot.without(r"\bby when\b").search("By when must we reply?") is None
    assert slot.search("By when must we reply?") is not None
    assert touched(slot, r"\bby when\b", {"By when must we reply?", "Who decides?"})
    assert not touched(slot, r"\bby when\b", {"How soon must we reply?", "Who decides?"})
    # Every text it read is noted under the question being answered.
    assert slot.reads[""] == {"By when must we reply?"}


def test_changes_are_summed_per_set_and_unmoved_sets_left_out():
    from bench.patterns import per_set
    assert per_set({("gdpr_user", "a"): -2.0, ("gdpr_user", "b"): 0.5, ("ko_dev", "c"): 1.0, ("vi_user", "d"): 0.0}) \
        == {"gdpr_user": -1.5, "ko_dev": 1.0}

