import numpy as np

from bench.off_topic_signals import SCOPE_HEADING, SIGNALS, _top, spread


def test_the_neighbourhood_is_at_most_a_twentieth_of_the_corpus_best_first():
    scores = np.array([0.1, 0.9, 0.3, 0.8] + [0.0] * 36, dtype=np.float32)
    assert _top(scores, 10).tolist() == [1, 3]  # 40 units: a twentieth is 2
    assert _top(scores[:4], 10).tolist() == [1]  # never fewer than one


def test_an_unanswerable_set_shows_every_value_and_an_answerable_one_its_low_end():
    rows = [{name: value / 10 for name in SIGNALS} for value in (7, 1, 5, 3, 9, 2, 8)]
    off = spread(rows, unanswerable=True)
    assert off["closeness"] == [0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9]
    on = spread(rows, unanswerable=False)
    assert on["gap"] == {"lowest": [0.1, 0.2, 0.3, 0.5, 0.7], "median": 0.5}


def test_the_purpose_signal_reads_the_provisions_that_say_what_an_instrument_governs_in_three_languages():
    for heading in ("Subject-matter and objectives", "Material scope", "Statutory basis and purpose", "Applicability",
                    "목적", "적용 범위", "Phạm vi điều chỉnh", "Đối tượng áp dụng"):
        assert SCOPE_HEADING.search(heading), heading
    for heading in ("Definitions", "Right to erasure ('right to be forgotten')", "정의", "Giải thích từ ngữ"):
        assert not SCOPE_HEADING.search(heading), heading
