"""The steps a run reports: progress events, the chat's step list and the envelope's timing keys.

The values are persisted (timings_ms keys in stored answers and bench outputs), so a rename is a data change.
"""
from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    PREPARE = "prepare"  # the chat's own step while the stores open, before the run emits anything
    SEARCH = "search"
    EXPAND = "expand"
    READ = "read"
    CURRENT_VERSION = "current_version"
    COMPOSE = "compose"


# The agent's tool steps: the time composing took is reported net of these.
TOOL_STEPS: tuple[Step, ...] = (Step.SEARCH, Step.EXPAND, Step.READ, Step.CURRENT_VERSION)
