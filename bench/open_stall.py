"""Concurrent chats on a warm corpus while another corpus opens cold: question latency with and without the
opening, and the event loop's worst stall.

    python -m bench.open_stall [--corpus hipaa] [--chats 20] [--seconds 20] [--rounds 3] [--child-only | --burner-s S]
        [--unsaved] [--control] [--null] [--out bench/results/open_stall.json]
    python -m bench.open_stall --pool RUN.json [RUN.json ...] --out POOLED.json

One process, one event loop, as one chat worker serves: the warm corpus is opened by the app's own warm-up, so its
questions are answered in this process, and the cold corpus, which it has not opened, in a process of its own, as
the app does (core.chat.corpus_hosts; `CITEWALK_ANSWER_PROCESSES=false`: in this one too). `--chats` users each
loop ask → think (uniform 0.5–1.5 s) → ask on the warm corpus, through the chat's own path
(core.chat.answering.chat_envelope, extractive). Phase 1
runs them alone; in phase 2 a further user asks on a cold corpus a quarter into the phase. Each user starts within
one think time, so neither phase opens on 20 questions asked at the same instant, a burst that would otherwise
fall inside the opening's short window and be diluted over the phase alone. The cold corpus is the same
corpus under a copy of the data dir (its Chroma and BM25 files; the same Neo4j), so opening it costs what the
first question on another corpus costs: Chroma load, a fresh Neo4j connection, the graph overlay, the BM25 index.
Every question the users ask is asked once before the phases start, so each phase measures a warm corpus.
Questions of phase 2 are split into those asked while the cold corpus opened and those after. With `--rounds N`
the two phases alternate N times (each opening on a fresh copy, so each is cold): on a machine others share, its
load drifts over minutes, and alternating puts both phases under the same drift. The claim read from the pooled
rows: p95 of warm-corpus questions while a corpus opens against p95 alone in the same window of the alone phase
(the questions that overlapped, at the same offset, a window as long as the opening: with nothing happening a short
window already holds slower questions than the phase as a whole, as a longer question overlaps it more often), and
against the whole alone phase (the figure of earlier stops); and the loop's worst stall;
each answer step's p50 / p95 on both sides says which step the opening slows. The same-window ratio is given per
round and with its 95 % interval over rounds drawn with replacement: a window holds a few dozen questions, so a
round's p95 is one or two of them. `--child-only` runs only the cold
corpus's reading child (output thrown away), `--burner-s` only a spinning process at the child's niceness: what the
child's work, or a process's CPU alone, costs the chats. The copy holds the read a child saved when the warm
corpus was opened (core.retrieval.saved_read), as every opening after the first under one ingest finds it;
`--unsaved` removes it: the first opening after an ingest.

`--control` adds a third phase to every round: the further user asks a new question on the warm corpus instead of
opening one. The opening's window is the cold question's whole answer, and a new question's answer costs its reads
(the provisions' token vectors, the graph around them, the question's scores) whatever corpus it is asked on; the
two ratios side by side tell the opening's own cost from the cost of one more new question. The cold and the
control question are two different questions no user asks (`NEW_QUESTIONS`, a new pair every round, swapped
every other round): the model's reads of provisions are kept per process, so a question asked twice would be
cheaper the second time.

`--null` adds a phase of the users alone right after each opening phase, read in the window the opening took,
against the alone phase in that window: the same-window ratio when nothing opens. On a machine whose two virtual
cores others share, that ratio wanders too; an opening costs the others nothing measurable when its ratio and
interval sit where the null's do.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load import QUESTIONS
from bench.stats import percentile
from core.answer.events import AnswerEvent
from core.chat import corpus_hosts
from core.chat.answering import chat_envelope
from core.chat.controls import RunOptions
from core.chat.warmup import warm_up
from core.retrieval.child_open import CHILD_NICENESS, child_output, run_child
from core.retrieval.config import RetrievalConfig
from core.retrieval.reload import open_stores
from core.retrieval.saved_read import SAVED_PREFIX
from core.settings import REPO_ROOT, Settings, get_settings, read_neo4j_password
from core.stores import chroma_store, heap
from core.stores.graph_reader import reader_for

RESULTS = REPO_ROOT / "bench" / "results"


@dataclass
class Phase:
    name: str
    asked: list[tuple[float, float]] = field(default_factory=list)  # (start, seconds), start relative to the phase
    steps: list[dict[str, float]] = field(default_factory=list)  # each asked question's step timings (ms), in order
    worst_stall_s: float = 0.0
    opening: tuple[float, float] | None = None  # the cold question's (start, end)
    cold_pending: bool = False  # the users go on until the cold corpus has opened


async def _quiet(_event: AnswerEvent) -> None:
    return None


async def _ask(question: str, corpus: str, settings: Settings) -> tuple[float, dict[str, float]]:
    """Seconds the answer took, and its own step timings (ms)."""
    started = time.perf_counter()
    envelope = await chat_envelope(question, RunOptions(corpus=corpus), settings, _quiet)
    if envelope is None or envelope.error:
        raise RuntimeError(f"no answer on {corpus}: {envelope.error if envelope else 'nothing'}")
    return time.perf_counter() - started, dict(envelope.timings_ms)


GENERIC_QUESTION = "What does this regulation require?"
# Questions none of the users ask, two a round with --control (a corpus without its own list asks the generic
# question, numbered so that each is new to the answer's caches).
NEW_QUESTIONS = {
    "adgm": [
        "What must an Authorised Person notify the Regulator of?",
        "When may the Regulator withdraw a Financial Services Permission?",
        "What systems and controls must a firm maintain for outsourcing?",
        "What are the requirements for a Key Individual?",
        "How must a firm handle complaints from clients?",
        "What disclosures must be made to a Professional Client?",
        "When is a person fit and proper?",
        "What must a Fund Manager disclose to investors?",
        "What are the capital requirements for an Authorised Person?",
        "How long must a firm keep records of transactions?",
        "What must a Recognised Investment Exchange do to maintain orderly markets?",
        "When must a firm appoint a Compliance Officer?",
    ],
    "hipaa": [
        "What are the rights of an individual to access their records?",
        "When may a covered entity disclose information to law enforcement?",
        "What must a notice of privacy practices contain?",
        "What safeguards must protect electronic health information?",
        "When may a covered entity disclose information about a decedent?",
        "What is a limited data set?",
        "How must a covered entity respond to a request for amendment?",
        "What civil money penalties apply to violations?",
        "When may psychotherapy notes be disclosed?",
        "What is required for a valid waiver of authorization by an IRB?",
        "What must a group health plan's documents provide?",
        "When must a covered entity account for disclosures?",
    ],
}


def new_questions(corpus: str, rounds: int) -> list[tuple[str, str]]:
    """Per round, (the cold question, the control question): new to the process, a new pair each round, the two
    roles swapped every other round so neither side always gets the harder list."""
    pool = NEW_QUESTIONS.get(corpus) or [f"{GENERIC_QUESTION} ({n})" for n in range(2 * rounds)]
    pairs = [(pool[(2 * r) % len(pool)], pool[(2 * r + 1) % len(pool)]) for r in range(rounds)]
    return [(b, a) if r % 2 else (a, b) for r, (a, b) in enumerate(pairs)]


def _questions(corpus: str) -> list[str]:
    """What the users ask on the corpus: the load bench's questions, or a generic one for a corpus it has none for."""
    return QUESTIONS.get(corpus) or [GENERIC_QUESTION]


async def _user(n: int, corpus: str, settings: Settings, phase: Phase, t0: float, until: float) -> None:
    rng = random.Random(n)
    questions = _questions(corpus)
    # Users do not all press enter at once: each starts within one think time, so the phase opens on its steady
    # rate, not on a burst of 20 questions queued together.
    await asyncio.sleep(rng.uniform(0.0, 1.5))
    while time.perf_counter() < until or phase.cold_pending:
        start = time.perf_counter() - t0
        seconds, steps = await _ask(rng.choice(questions), corpus, settings)
        phase.asked.append((start, seconds))
        phase.steps.append(steps)
        await asyncio.sleep(rng.uniform(0.5, 1.5))


async def _watch_loop(phase: Phase, stop: asyncio.Event) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        phase.worst_stall_s = max(phase.worst_stall_s, time.perf_counter() - started - 0.01)


async def _cold(corpus: str, settings: Settings, phase: Phase, t0: float, after_s: float,
                question: str = GENERIC_QUESTION) -> None:
    """The further user's question: on the cold corpus (its opening included), or with --control a new question on
    the warm one."""
    await asyncio.sleep(after_s)
    start = time.perf_counter() - t0
    await _ask(question, corpus, settings)
    phase.opening = (start, time.perf_counter() - t0)
    phase.cold_pending = False


# What a process at the corpus-reading child's niceness costs the chats by its CPU alone, with no corpus opened: it
# spins for the seconds given.
BURNER = "import sys, time\nend = time.time() + float(sys.argv[1])\nwhile time.time() < end:\n    pass\n"


async def _burner(phase: Phase, t0: float, after_s: float, seconds: float) -> None:
    await asyncio.sleep(after_s)
    start = time.perf_counter() - t0
    spinning = await asyncio.create_subprocess_exec("nice", "-n", str(CHILD_NICENESS), sys.executable, "-c", BURNER,
                                                    str(seconds))
    await spinning.wait()
    phase.opening = (start, time.perf_counter() - t0)
    phase.cold_pending = False


async def _reader(corpus: str, cold: Settings, phase: Phase, t0: float, after_s: float) -> None:
    """The reading child alone on the cold corpus, its output read and thrown away: what the child's work costs the
    chats, without the serving process's side of an opening (unpickling, attaching handles, the first answer)."""
    await asyncio.sleep(after_s)
    start = time.perf_counter() - t0
    with child_output(cold, corpus) as out:
        await asyncio.to_thread(run_child, cold, corpus, RetrievalConfig(), out)
    phase.opening = (start, time.perf_counter() - t0)
    phase.cold_pending = False


async def _phase(name: str, args: argparse.Namespace, warm: Settings, cold: Settings | None,
                 question: str = GENERIC_QUESTION) -> Phase:
    """`cold` None: the users alone, or (`name` "control") with a further user asking `question` on the warm
    corpus; else a further user asking `question` on the cold corpus."""
    control = name == "control"
    phase, stop = Phase(name, cold_pending=cold is not None or control), asyncio.Event()
    t0 = time.perf_counter()
    until = t0 + args.seconds
    watcher = asyncio.create_task(_watch_loop(phase, stop))
    work = [_user(n, args.corpus, warm, phase, t0, until) for n in range(args.chats)]
    if cold is not None:
        # A quarter into the phase, when the users' questions run at their steady rate, as in the phase alone.
        work.append(_burner(phase, t0, args.seconds / 4, args.burner_s) if args.burner_s
                    else _reader(args.corpus, cold, phase, t0, args.seconds / 4) if args.child_only
                    else _cold(args.corpus, cold, phase, t0, args.seconds / 4, question))
    elif control:
        work.append(_cold(args.corpus, warm, phase, t0, args.seconds / 4, question))
    await asyncio.gather(*work)
    stop.set()
    await watcher
    return phase


def _summary(seconds: list[float]) -> dict[str, float]:
    return {"questions": len(seconds), "p50_s": round(percentile(seconds, 50), 3),
            "p95_s": round(percentile(seconds, 95), 3), "max_s": round(max(seconds, default=0.0), 3)}


def report(alone: Phase, opening: Phase) -> dict[str, object]:
    assert opening.opening is not None
    begin, end = opening.opening
    during = [opening.asked[i][1] for i in _while_opening(opening)]
    after = [s for start, s in opening.asked if start >= end]
    return {
        "warm corpus alone": {**_summary([s for _, s in alone.asked]), "worst_loop_stall_s": round(alone.worst_stall_s, 3)},
        "while the cold corpus opens": {**_summary(during), "worst_loop_stall_s": round(opening.worst_stall_s, 3)},
        "after it opened": _summary(after),
        "cold corpus: first answer (opening included) s": round(end - begin, 2),
    }


def _while_opening(phase: Phase) -> list[int]:
    """Which of the phase's questions ran, at least in part, while the cold corpus opened."""
    assert phase.opening is not None
    return _overlapping(phase, *phase.opening)


def _overlapping(phase: Phase, begin: float, end: float) -> list[int]:
    return [i for i, (start, seconds) in enumerate(phase.asked) if start < end and start + seconds > begin]


def _same_window(pairs: list[tuple[Phase, Phase]]) -> list[float]:
    """The alone phase's questions that overlapped the window the paired phase's opening (or new question) took,
    at the same offset: what a window of that length holds with nothing happening. A question overlaps a window
    with odds that grow with its own length, so a short window holds the slower questions more often than the
    phase does (bench/results/OPEN_STALL.md, stop 46); the fair baseline is this one."""
    out: list[float] = []
    for alone, other in pairs:
        if other.opening is not None:
            out += [alone.asked[i][1] for i in _overlapping(alone, *other.opening)]
    return out


def _ratio(numerator: list[float], denominator: list[float], q: float = 95) -> float | None:
    below = percentile(denominator, q)
    return round(percentile(numerator, q) / below, 2) if below else None


STEPS = ("search", "expand", "headings", "fit", "compose")


def _steps(rows: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    return {step: {"p50_ms": round(percentile([r.get(step, 0.0) for r in rows], 50), 1),
                   "p95_ms": round(percentile([r.get(step, 0.0) for r in rows], 95), 1)} for step in STEPS}


def pooled_control(rounds: list[tuple[Phase, Phase]], controls: list[Phase]) -> dict[str, object]:
    """The control phases pooled like the openings: p95 while a new question is answered on the warm corpus."""
    alone = [s for a, _ in rounds for _, s in a.asked]
    during = [control.asked[i][1] for control in controls for i in _while_opening(control)]
    same = _same_window([(a, control) for (a, _), control in zip(rounds, controls)])
    return {"while a new question is answered on the warm corpus": _summary(during),
            "p95 while a new question is answered / p95 alone": _ratio(during, alone),
            "alone, in the new question's window": _summary(same),
            "p95 while a new question is answered / p95 alone in the same window": _ratio(during, same),
            "its answer s": [round(c.opening[1] - c.opening[0], 2) for c in controls if c.opening],
            "steps while a new question is answered": _steps([c.steps[i] for c in controls for i in _while_opening(c)])}


BOOTSTRAP_DRAWS = 2000
Samples = list[tuple[list[float], list[float]]]  # per round: (seconds while opening, alone in the same window)
NULL_SAMPLES = "nothing opening: same-window samples"
NOTHING = "with nothing opening"


def window_samples(rounds: list[tuple[Phase, Phase]]) -> Samples:
    return [([opening.asked[i][1] for i in _while_opening(opening)], _same_window([(alone, opening)]))
            for alone, opening in rounds]


def null_samples(rounds: list[tuple[Phase, Phase]], nulls: list[Phase]) -> Samples:
    """Per round, a second phase of the users alone read in the window the opening took, against the first alone
    phase in that window: what the same-window ratio gives when nothing opens, its noise on this machine."""
    return [(_same_window([(null, opening)]), _same_window([(alone, opening)]))
            for (alone, opening), null in zip(rounds, nulls)]


def bootstrap_interval(samples: Samples, draws: int = BOOTSTRAP_DRAWS) -> list[float] | None:
    """The 95 % interval of the same-window ratio over rounds drawn with replacement. One round's window holds a
    few dozen questions, so its p95 is one or two of them, and runs of one code gave 0.96 to 1.66 (stop 48): whether
    an opening costs the others anything is read from this interval, not from the point alone."""
    if len(samples) < 2:
        return None
    rng = random.Random(0)  # the same rounds always give the same interval
    ratios = []
    for _ in range(draws):
        drawn = [samples[rng.randrange(len(samples))] for _ in samples]
        ratio = _ratio(*_flat(drawn))
        if ratio is not None:
            ratios.append(ratio)
    return [round(percentile(ratios, 2.5), 2), round(percentile(ratios, 97.5), 2)]


def _flat(samples: Samples) -> tuple[list[float], list[float]]:
    """Every round's questions together: those asked while opening, and those alone in the same window."""
    return [s for d, _ in samples for s in d], [s for _, w in samples for s in w]


def same_window_figures(samples: Samples, during_name: str = "while opening", baseline_name: str = "alone"
                        ) -> dict[str, object]:
    """The same-window ratios of rounds from one run or several (`--pool`): pooled, per round, and the interval."""
    during, same = _flat(samples)
    return {f"p95 {during_name} / p95 {baseline_name} in the same window": _ratio(during, same),
            f"p50 {during_name} / p50 {baseline_name} in the same window": _ratio(during, same, q=50),
            "same-window ratio, 95 % interval over rounds": bootstrap_interval(samples),
            "same-window ratio per round": [_ratio(d, w) for d, w in samples],
            # Round 1's window (a process started from nothing, ~10 s) holds more questions than the nine after it
            # (a spare, ~1.5 s) together, so the pooled figures are mostly round 1's: each round's median ratio
            # says what the later, shorter openings cost.
            "same-window median ratio per round": [_ratio(d, w, q=50) for d, w in samples]}


def null_figures(samples: Samples, null: Samples) -> dict[str, object]:
    """With --null: the users alone against the users alone (the noise), and the opening against the phase right
    after it. The alone phase runs right after the cold copy is written and was the slower of the two quiet phases
    over 40 rounds (OPEN_STALL.md, stop 49), so read against it alone an opening looks cheaper than it is."""
    return {"nothing opening": same_window_figures(null, NOTHING),
            "while opening against nothing opening": same_window_figures(against_null(samples, null), baseline_name=NOTHING)}


def against_null(samples: Samples, null: Samples) -> Samples:
    """Per round, the questions while opening paired with the null phase's in the same window."""
    return [(during, quiet) for (during, _), (quiet, _) in zip(samples, null)]


def by_round(runs: list[Samples], figures: Callable[[Samples], dict[str, object]]) -> dict[str, object]:
    """`figures` of every run's first round (a corpus process started from nothing, ~10 s) and of the rounds after
    it (a spare bound to the corpus, ~1.2 s) apart: pooled, the first rounds' long windows outweigh the others."""
    return {"round 1 of each run": figures([run[0] for run in runs if run]),
            "rounds 2 on": figures([r for run in runs for r in run[1:]])}


def pooled(rounds: list[tuple[Phase, Phase]]) -> dict[str, object]:
    """Every round's questions together: alone, while a corpus opened, and the ratio of their p95; and each answer
    step's p50 / p95 on both sides, which says where the time added while opening goes."""
    alone = [s for a, _ in rounds for _, s in a.asked]
    samples = window_samples(rounds)
    during, same = _flat(samples)
    steps_during = [opening.steps[i] for _, opening in rounds for i in _while_opening(opening)]
    return {"warm corpus alone": {**_summary(alone), "worst_loop_stall_s": round(max(a.worst_stall_s for a, _ in rounds), 3)},
            "while the cold corpus opens": {**_summary(during),
                                            "worst_loop_stall_s": round(max(o.worst_stall_s for _, o in rounds), 3)},
            "p95 while opening / p95 alone": _ratio(during, alone),
            "alone, in the opening's window": _summary(same),
            **same_window_figures(samples),
            "steps alone": _steps([s for a, _ in rounds for s in a.steps]), "steps while opening": _steps(steps_during)}


async def run(args: argparse.Namespace) -> dict[str, object]:
    warm = get_settings()
    # Each of the users' questions asked once first: phase 1 of round 1 then measures a warm corpus, not the
    # process's first reads of each question.
    await warm_up(warm, corpora=[args.corpus])  # as the app starts: the warm corpus is opened in this process
    for question in _questions(args.corpus):
        await _ask(question, args.corpus, warm)
    await asyncio.to_thread(heap.settle)  # as the app does once its warm-up is done (core.chat.warmup)
    rounds: list[tuple[Phase, Phase]] = []
    controls: list[Phase] = []
    nulls: list[Phase] = []
    asked_new = new_questions(args.corpus, args.rounds) if args.control else [(GENERIC_QUESTION, "")] * args.rounds
    read_apart: list[bool] = []
    opened_from_saved: list[bool] = []  # whether the cold copy held the read a child saved (saved_read.py)
    for cold_question, control_question in asked_new:
        with tempfile.TemporaryDirectory(prefix="citewalk-cold-") as folder:
            # Same Neo4j server: its password travels with the settings instead of the data dir's password file.
            cold = warm.model_copy(update={"data_dir": Path(folder), "neo4j_password": read_neo4j_password(warm)})
            await asyncio.to_thread(shutil.copytree, warm.chroma_path, cold.chroma_path)
            await asyncio.to_thread(shutil.copytree, warm.lexical_path, cold.lexical_path)
            saved = sorted((cold.lexical_path / args.corpus).glob(f"{SAVED_PREFIX}*.pickle"))
            if args.unsaved:  # the first opening after an ingest: nothing saved yet
                for path in saved:
                    path.unlink()
            opened_from_saved.append(bool(saved) and not args.unsaved)
            # The copy's Chroma client and Neo4j reader (both per data dir) are made here, not in the phase: in the
            # app a cold corpus lives in the data dir whose client and reader the warm ones already opened. Making a
            # client for a new folder holds the interpreter ~35 ms in one call, and a new reader connects: costs of
            # the bench's copy, not of an opening.
            await asyncio.to_thread(chroma_store.client, cold)
            await asyncio.to_thread(reader_for(cold).notice)
            # The copy's ~400 MB of dirty pages are written back by the kernel over the next seconds, a core's worth
            # of system time on this disk: flushed here, so that the phases do not measure the bench's own copy.
            await asyncio.to_thread(os.sync)
            await asyncio.sleep(args.settle_s)
            rounds.append((await _phase("alone", args, warm, None),
                           await _phase("opening", args, warm, cold, cold_question)))
            if args.null:  # right after the opening, as every alone phase but the first follows one
                nulls.append(await _phase("null", args, warm, None))
            if args.control:
                controls.append(await _phase("control", args, warm, None, control_question))
            # Whether the cold corpus was read by another process (its own answering process, or the reading child
            # of core.retrieval.child_open) or by this one.
            if cold.answer_processes:
                corpus_hosts.stop_for(cold, args.corpus)
                read_apart.append(True)
            elif not (args.burner_s or args.child_only):
                read_apart.append(open_stores(cold, args.corpus).read_by_pid != os.getpid())
    def rounded(samples: Samples) -> list[list[list[float]]]:
        return [[[round(x, 4) for x in during], [round(x, 4) for x in same]] for during, same in samples]

    samples, null = window_samples(rounds), null_samples(rounds, nulls)
    return {**report(*rounds[0]), "rounds": [report(*r) for r in rounds], "pooled": pooled(rounds),
            "same-window samples": rounded(samples),
            **({**null_figures(samples, null), NULL_SAMPLES: rounded(null)} if args.null else {}),
            **({"control": pooled_control(rounds, controls), "questions asked new": asked_new} if args.control else {}),
            "cold corpus read by another process": read_apart, "cold corpus had a saved read": opened_from_saved}


def _read_run(path: Path) -> dict[str, Any]:
    try:
        run = json.loads(path.read_text())
    except FileNotFoundError:
        raise SystemExit(f"{path}: no such file; give the JSON files bench.open_stall wrote (--out)") from None
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{path}: not a bench.open_stall result ({exc})") from None
    if not isinstance(run, dict) or run.get("same-window samples") is None:
        raise SystemExit(f"{path}: no \"same-window samples\" (written by bench.open_stall since stop 48); "
                         "run it again to pool it")
    return run


def _as_samples(rows: list[list[list[float]]]) -> Samples:
    """A run file's rounds, (while opening, baseline) per round, as `window_samples` gives them."""
    return [(list(during), list(same)) for during, same in rows]


def pool(files: list[Path]) -> dict[str, object]:
    """The rounds of several runs (their "same-window samples") as one: a run's interval is wide at ten rounds.
    The rounds with nothing opening (--null) are pooled too when every run has them."""
    runs = [_read_run(path) for path in files]
    per_run = [_as_samples(run["same-window samples"]) for run in runs]
    samples = [r for run in per_run for r in run]
    during, same = _flat(samples)
    out: dict[str, object] = {"pooled files": [str(f) for f in files], "rounds": len(samples),
                              "while the cold corpus opens": _summary(during),
                              "alone, in the opening's window": _summary(same), **same_window_figures(samples),
                              "by round": by_round(per_run, _headline)}
    if all(NULL_SAMPLES in run for run in runs):
        null_per_run = [_as_samples(run[NULL_SAMPLES]) for run in runs]
        out.update(null_figures(samples, [r for run in null_per_run for r in run]))
        out["while opening against nothing opening, by round"] = by_round(
            [against_null(s, n) for s, n in zip(per_run, null_per_run)],
            lambda rounds: _headline(rounds, baseline_name=NOTHING))
    return out


def _headline(samples: Samples, baseline_name: str = "alone") -> dict[str, object]:
    """The pooled ratios and their interval, without the per-round lists; with the questions counted."""
    figures = same_window_figures(samples, baseline_name=baseline_name)
    return {"questions while opening": len(_flat(samples)[0]),
            **{k: v for k, v in figures.items() if "per round" not in k}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.open_stall", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="hipaa")
    parser.add_argument("--chats", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=1, help="alone/opening phases, alternated this many times")
    parser.add_argument("--burner-s", type=float, default=0.0, help=(
        "instead of opening a corpus, spin a process at the reading child's niceness this long: what its CPU alone costs"))
    parser.add_argument("--child-only", action="store_true", help=(
        "instead of opening the cold corpus, run only its reading child and throw its output away: what the child's "
        "work costs the chats without the serving process's side of an opening"))
    parser.add_argument("--unsaved", action="store_true", help=(
        "remove the saved read from each cold copy: the first opening after an ingest, read by a child"))
    parser.add_argument("--control", action="store_true", help=(
        "a third phase each round: a new question on the warm corpus instead of an opening (the cold question is "
        "then a new one too)"))
    parser.add_argument("--null", action="store_true", help=(
        "a third phase each round, the users alone again, read in the window the opening took: the same-window "
        "ratio when nothing opens, the noise the opening's ratio is read against"))
    parser.add_argument("--settle-s", type=float, default=0.0, help=(
        "seconds to wait after the cold copy is written, before the round's alone phase"))
    parser.add_argument("--pool", type=Path, nargs="+", help=(
        "measure nothing: pool the rounds of these earlier runs' JSON files into one same-window figure"))
    parser.add_argument("--out", type=Path, default=RESULTS / "open_stall.json")
    args = parser.parse_args(argv)
    if args.pool:
        pooled_runs = pool(args.pool)
        print(json.dumps(pooled_runs, indent=2))
        args.out.write_text(json.dumps(pooled_runs, indent=2) + "\n")
        return 0
    result = {"corpus": args.corpus, "chats": args.chats, "burner_s": args.burner_s, "child_only": args.child_only, "unsaved": args.unsaved, "control": args.control, "null": args.null, "settle_s": args.settle_s, "seconds_per_phase": args.seconds, "rounds_run": args.rounds,
              **asyncio.run(run(args))}
    print(f"{'round':<6} {'phase':<30} {'questions':>9} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'loop stall s':>12}")
    for label, rows in [*((str(i + 1), r) for i, r in enumerate(result["rounds"])), ("all", result["pooled"])]:
        for name, row in rows.items():
            if isinstance(row, dict) and "questions" in row:
                print(f"{label:<6} {name:<30} {row['questions']:>9} {row['p50_s']:>7} {row['p95_s']:>7} "
                      f"{row['max_s']:>7} {row.get('worst_loop_stall_s', ''):>12}")
        if "cold corpus: first answer (opening included) s" in rows:
            print(f"{label:<6} cold corpus, first answer with its opening: "
                  f"{rows['cold corpus: first answer (opening included) s']} s")
    print(f"p95 while a corpus opens / p95 alone in the same window: "
          f"{result['pooled']['p95 while opening / p95 alone in the same window']} (95 % interval over rounds: "
          f"{result['pooled']['same-window ratio, 95 % interval over rounds']}; per round: "
          f"{result['pooled']['same-window ratio per round']}; median ratio per round: "
          f"{result['pooled']['same-window median ratio per round']})")
    if args.null:
        null = result["nothing opening"]
        print(f"with nothing opening, p95 / p95 alone in the same window: "
              f"{null[f'p95 {NOTHING} / p95 alone in the same window']} (95 % interval over rounds: "
              f"{null['same-window ratio, 95 % interval over rounds']}; per round: {null['same-window ratio per round']})")
        against = result["while opening against nothing opening"]
        print(f"p95 while a corpus opens / p95 {NOTHING} in the same window: "
              f"{against[f'p95 while opening / p95 {NOTHING} in the same window']} (95 % interval over rounds: "
              f"{against['same-window ratio, 95 % interval over rounds']})")
    print(f"p95 while a corpus opens / p95 alone: {result['pooled']['p95 while opening / p95 alone']}; "
          f"cold corpus read by another process: {result['cold corpus read by another process']}; "
          f"from a saved read: {result['cold corpus had a saved read']}")
    if args.control:
        control = result["control"]
        row = control["while a new question is answered on the warm corpus"]
        print(f"all    {'new question, warm corpus':<30} {row['questions']:>9} {row['p50_s']:>7} {row['p95_s']:>7} "
              f"{row['max_s']:>7}")
        print(f"p95 while a new question is answered on the warm corpus / p95 alone: "
              f"{control['p95 while a new question is answered / p95 alone']} (in the same window: "
              f"{control['p95 while a new question is answered / p95 alone in the same window']}); "
              f"its answer s: {control['its answer s']}")
    alone, opening = result["pooled"]["steps alone"], result["pooled"]["steps while opening"]
    print("step      alone p50 / p95 ms    while opening p50 / p95 ms")
    for step in STEPS:
        print(f"{step:<9} {alone[step]['p50_ms']:>8} / {alone[step]['p95_ms']:<8}  "
              f"{opening[step]['p50_ms']:>8} / {opening[step]['p95_ms']:<8}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
