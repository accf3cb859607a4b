"""Sibling lift: an adjacent clause relevant on its own rises under its seed, never above it."""
from types import SimpleNamespace

import numpy as np

from core.retrieval.pairs import lift_siblings


def test_adjacent_sibling_rises_under_its_seed_only_when_in_pool():
    ids = ["a", "b", "c", "d"]
    adjacent = np.array([[-1, 1], [0, 2], [1, -1], [-1, -1]])  # a-b-c siblings in order, d alone
    stores = SimpleNamespace(unit_ids=ids, index={u: i for i, u in enumerate(ids)}, adjacent=adjacent)
    query = SimpleNamespace(stores=stores)
    pool = {"b": 1.0, "d": 0.9, "c": 0.2}  # a is not relevant on its own
    lifted = lift_siblings(query, pool, dict(pool), ["b"], 0.3)
    assert "a" not in lifted
    assert lifted["c"] == 0.2 + 0.3 * 1.0 and lifted["c"] < lifted["b"]
    assert lifted["d"] == 0.9
    assert lift_siblings(query, pool, dict(pool), ["b"], 0.0) == pool
