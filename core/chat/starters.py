"""Demo questions per corpus, chosen because answering them walks citations (multihop), not one section."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StarterQuestion:
    label: str
    question: str


STARTERS: dict[str, tuple[StarterQuestion, ...]] = {
    "hipaa": (
        StarterQuestion(
            "Research without authorization",
            "When may a covered entity use or disclose protected health information for research without an individual's authorization?",
        ),
        StarterQuestion(
            "Business associate contracts",
            "What must a contract between a covered entity and a business associate require of the business associate?",
        ),
        StarterQuestion(
            "Breach notification deadline",
            "How soon must a covered entity notify individuals after discovering a breach of unsecured protected health information?",
        ),
        StarterQuestion(
            "Valid authorization",
            "What elements must an authorization contain to be valid under the Privacy Rule?",
        ),
    ),
    "adgm": (
        StarterQuestion(
            "Customer due diligence",
            "When must a Relevant Person undertake enhanced customer due diligence?",
        ),
        StarterQuestion(
            "Client money",
            "What must an Authorised Person do to hold Client Money?",
        ),
    ),
    # The bundled sample regulation (examples/sample-corpus) that `make demo` uses without ../shared.
    "sample": (
        StarterQuestion(
            "Disclosing client records",
            "When may a Records Holder disclose Client Records, and what must it log?",
        ),
        StarterQuestion(
            "How long to keep records",
            "How long must Client Records be kept, and has that period been amended?",
        ),
    ),
}


def starters_for(corpus: str) -> tuple[StarterQuestion, ...]:
    return STARTERS.get(corpus, ())
