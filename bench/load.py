"""Concurrent users against the app's JSON API: throughput, latency percentiles, errors, memory, store behaviour.

    python -m bench.load --users 50 --minutes 2 [--corpus adgm] [--workers 1] [--url http://127.0.0.1:8000 ...]
    python -m bench.load --workers 2 --restart-after 40 ...   # a rolling restart of worker 0 during the run

Without --url it starts `--workers` app processes with the project's launcher (`python -m core.serve`, as
`make app` does) on loopback against the default stores (the demo's data dir, Neo4j and Chroma), each with its
own port, and the users spread over them round-robin with sticky sessions (standing in for a load balancer).
Each user signs in once, then loops: ask, think, ask … until the time is up. With --restart-after, worker 0 is
taken out of service (its users fail over to the next worker with the same session cookie), drained, stopped
with SIGTERM, started again on its port and put back; figures are reported per worker and for the restart
window. Extractive mode only (no LLM endpoint is reachable here).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bench.api_client import ask, same_session, signed_in
from bench.fleet import Fleet, Restart
from bench.stats import percentile
from core.neo4j_local import running_pid
from core.settings import REPO_ROOT, get_settings

RESULTS = REPO_ROOT / "bench" / "results"
LOAD_EMAIL = "load@citewalk.local"
QUESTIONS = {
    "adgm": [
        "When must a Relevant Person undertake enhanced customer due diligence?",
        "What records must a Relevant Person keep of customer due diligence, and for how long?",
        "How must an Authorised Person hold client money?",
        "What must a firm do when it suspects money laundering?",
        "Who must be approved as the Money Laundering Reporting Officer?",
        "What are the conduct of business obligations towards Retail Clients?",
        "When can a Recognised Body be suspended?",
        "What must a prospectus contain?",
    ],
    "hipaa": [
        "When may a covered entity disclose protected health information for research?",
        "What must a business associate contract contain?",
        "What are the breach notification requirements?",
        "What does the minimum necessary standard require?",
    ],
}


@dataclass
class Sample:
    started: float
    seconds: float
    status: int
    worker: int = 0
    error: str | None = None
    notices: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    question: str = ""


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (chainlit may fork helpers). Pages several of them share
    (libraries, mapped corpus reads) count once per process."""
    return _summed(pid, "status", "VmRSS:")


def pss_mib(pid: int) -> float:
    """The same processes' proportional share: a page shared by n of them counts 1/n in each, so the sum is what
    they take from the machine."""
    return _summed(pid, "smaps_rollup", "Pss:")


def _summed(pid: int, file: str, field_name: str) -> float:
    total = 0
    for child in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{child}/{file}").read_text().splitlines():
                if line.startswith(field_name):
                    total += int(line.split()[1])
                    break
        except (FileNotFoundError, ProcessLookupError):
            continue
    return round(total / 1024, 1)


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process and its children have used so far; 0 for one that is gone."""
    total = 0.0
    for child in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    """Every descendant: a child is listed under the thread that started it, so each thread's list is read."""
    found: list[int] = []
    try:
        for thread in Path(f"/proc/{pid}/task").iterdir():
            found += [int(c) for c in (thread / "children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return found
    return found + [g for c in found for g in _children(c)]


async def user_loop(index: int, fleet: Fleet, password: str, corpus: str, method: str | None, deadline: float,
                    think_s: float, samples: list[Sample]) -> None:
    rng = random.Random(index)
    await asyncio.sleep(rng.uniform(0, think_s))  # users arrive spread out, not as one burst
    home = index % len(fleet.urls)
    first = fleet.pick(home)
    clients = {first: await signed_in(fleet.urls[first], LOAD_EMAIL, password)}
    questions = QUESTIONS.get(corpus, QUESTIONS["adgm"])
    try:
        while time.monotonic() < deadline:
            worker = fleet.pick(home)
            if worker not in clients:  # failed over (or back): the same session, on another worker
                clients[worker] = same_session(clients[first], fleet.urls[worker])
            started = time.monotonic()
            fleet.in_flight[worker] += 1
            question = rng.choice(questions)
            try:
                response = await ask(clients[worker], question, corpus, method)
                body = response.json() if response.status_code == 200 else {}
                sample = Sample(started, time.monotonic() - started, response.status_code, worker,
                                body.get("error") or (None if response.status_code == 200 else response.text[:200]),
                                body.get("notices", []), body.get("timings_ms", {}), question)
            except Exception as exc:  # noqa: BLE001 — every failure is a counted error, never a crash of the bench
                sample = Sample(started, time.monotonic() - started, 0, worker, f"{type(exc).__name__}: {exc}"[:200],
                                question=question)
            finally:
                fleet.in_flight[worker] -= 1
            samples.append(sample)
            await asyncio.sleep(rng.uniform(0.5 * think_s, 1.5 * think_s))
    finally:
        for client in clients.values():
            await client.aclose()


async def sample_memory(pids: list[int], neo4j_pid: int | None, stop: asyncio.Event, out: list[dict]) -> None:
    started = time.monotonic()
    while not stop.is_set():
        out.append({"t": round(time.monotonic() - started, 1), "app_mib": round(sum(rss_mib(p) for p in pids), 1),
                    "app_pss_mib": round(sum(pss_mib(p) for p in pids), 1),
                    "neo4j_mib": rss_mib(neo4j_pid) if neo4j_pid else None})
        try:
            await asyncio.wait_for(stop.wait(), timeout=2)
        except TimeoutError:
            pass


def _ok(sample: Sample) -> bool:
    return sample.status == 200 and sample.error is None


def _requests(samples: list[Sample]) -> dict:
    """Requests, errors and latency percentiles of one slice of the run."""
    latencies = [s.seconds for s in samples]
    bad = [s for s in samples if not _ok(s)]
    return {"requests": len(samples), "errors": len(bad),
            "error_examples": sorted({s.error or str(s.status) for s in bad})[:5],
            "latency_s": {f"p{q}": round(percentile(latencies, q), 3) for q in (50, 95, 99)}
            | {"mean": round(statistics.fmean(latencies), 3) if latencies else 0.0,
               "max": round(max(latencies, default=0), 3)}}


def first_asks(samples: list[Sample]) -> dict:
    """The requests that were the first of their question on their worker (it had not read that question's
    provisions in context yet: the model pass an answer to a new question costs) against those asked again."""
    seen: set[tuple[int, str]] = set()
    first: list[Sample] = []
    again: list[Sample] = []
    for sample in sorted(samples, key=lambda s: s.started):
        key = (sample.worker, sample.question)
        (again if key in seen else first).append(sample)
        seen.add(key)
    return {"first_ask_on_its_worker": _requests(first), "asked_again_on_its_worker": _requests(again)}


def _restart_report(samples: list[Sample], restart: Restart, run_started: float) -> dict:
    """What the other workers did while one was out of service, and what the restarted one did after."""
    began, back = run_started + restart.began_s, run_started + restart.back_s
    during = [s for s in samples if s.worker != restart.worker and s.started + s.seconds >= began and s.started <= back]
    after = [s for s in samples if s.worker == restart.worker and s.started > back]
    return restart.model_dump() | {"out_of_service_s": round(restart.back_s - restart.began_s, 1),
                                   "other_workers_during": _requests(during),
                                   "restarted_worker_after": _requests(after)}


def cpu_report(used: dict[str, float], requests: int, run_s: float, load_before: float) -> dict:
    """CPU per request of each part (app workers, Neo4j, this load generator), in ms, and the machine's load average
    before: what a request costs, which a shared or slower machine does not change as much as it changes latency."""
    per = {f"{part}_ms_per_request": round(1000 * seconds / max(1, requests), 1) for part, seconds in used.items()}
    return per | {"cores_busy": round(sum(used.values()) / run_s, 2), "load_average_before": round(load_before, 2)}


def summarise(samples: list[Sample], memory: list[dict], run_s: float, args: argparse.Namespace,
              startup: dict, restart: dict | None = None, cpu: dict | None = None) -> dict:
    ok = [s for s in samples if _ok(s)]
    overall = _requests(samples)
    expand = [s.timings["expand"] for s in ok if "expand" in s.timings]
    search = [s.timings["search"] for s in ok if "search" in s.timings]
    app_mem = [m["app_mib"] for m in memory]
    quarter = max(1, len(app_mem) // 4)
    graph_notices = sum(1 for s in samples if any("graph" in n.lower() for n in s.notices))
    vector_notices = sum(1 for s in samples if any("chroma" in n.lower() or "vector" in n.lower() for n in s.notices))
    return {
        "users": args.users, "minutes": args.minutes, "corpus": args.corpus, "method": args.method or "citewalk",
        "workers": len(startup.get("pids", [])) or None, "think_s_mean": args.think_s, "cpu_cores": os.cpu_count(),
        "mode": "extractive", "startup_s": startup.get("seconds"),
        "requests": len(samples), "ok": len(ok), "errors": overall["errors"], "error_examples": overall["error_examples"],
        "throughput_rps": round(len(samples) / run_s, 2), "latency_s": overall["latency_s"],
        "per_worker": [_requests([s for s in samples if s.worker == w])
                       for w in range(max((s.worker for s in samples), default=-1) + 1)],  # index = worker
        "by_first_ask": first_asks(samples),
        "restart": restart,
        "neo4j": {"expand_ms_p50": round(percentile(expand, 50), 1), "expand_ms_p95": round(percentile(expand, 95), 1),
                  "answers_with_graph_notice": graph_notices,
                  "rss_mib_peak": max((m["neo4j_mib"] or 0 for m in memory), default=None)},
        "retrieval": {"search_ms_p50": round(percentile(search, 50), 1), "search_ms_p95": round(percentile(search, 95), 1),
                      "answers_with_vector_store_notice": vector_notices},
        "app_memory_mib": {"start": app_mem[0] if app_mem else None, "peak": max(app_mem, default=None),
                           "end": app_mem[-1] if app_mem else None,
                           "first_quarter_mean": round(statistics.fmean(app_mem[:quarter]), 1) if app_mem else None,
                           "last_quarter_mean": round(statistics.fmean(app_mem[-quarter:]), 1) if app_mem else None,
                           "pss_peak": max((m.get("app_pss_mib", 0) for m in memory), default=None)},
        "cpu": cpu,
        "memory_samples": memory,
    }


def _app_env(password: str, app_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.update({
        # Its own throwaway app database and secret: the load run leaves the demo's accounts and threads alone.
        "CITEWALK_DATABASE_URL": f"sqlite+aiosqlite:///{app_dir / 'load.db'}",
        # The workers share their reads of provisions, from none: a run measures new questions as new.
        "CITEWALK_SHARED_READS_DIR": str(app_dir / "token_reads"),
        "CHAINLIT_AUTH_SECRET": secrets.token_urlsafe(48),
        "CITEWALK_ADMIN_EMAIL": LOAD_EMAIL, "CITEWALK_ADMIN_PASSWORD": password,
        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
    })
    return env


async def drive(fleet: Fleet, password: str, args: argparse.Namespace, startup: dict) -> dict:
    samples: list[Sample] = []
    memory: list[dict] = []
    stop = asyncio.Event()
    neo4j_pid = running_pid(get_settings())
    sampler = asyncio.create_task(sample_memory(fleet.pids, neo4j_pid, stop, memory))
    load_before = os.getloadavg()[0]
    parts = {"app": lambda: sum(cpu_s(p) for p in fleet.pids), "neo4j": lambda: cpu_s(neo4j_pid) if neo4j_pid else 0.0,
             "load_generator": time.process_time}
    cpu_before = {part: read() for part, read in parts.items()}
    started = time.monotonic()
    deadline = started + args.minutes * 60
    restarting = None
    if args.restart_after is not None:
        restarting = asyncio.create_task(_restart_later(fleet, args.restart_after, started))
    await asyncio.gather(*(user_loop(i, fleet, password, args.corpus, args.method, deadline, args.think_s, samples)
                           for i in range(args.users)))
    run_s = time.monotonic() - started
    cpu = cpu_report({part: read() - cpu_before[part] for part, read in parts.items()}, len(samples), run_s, load_before)
    restart = _restart_report(samples, await restarting, started) if restarting else None
    stop.set()
    await sampler
    return summarise(samples, memory, run_s, args, startup, restart, cpu)


async def _restart_later(fleet: Fleet, after_s: float, run_started: float) -> Restart:
    await asyncio.sleep(after_s)
    return await fleet.restart(0, run_started)


def _loopback(url: str) -> str:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"--url must be on loopback (got {host}); this benchmark never leaves the machine")
    return url.rstrip("/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--corpus", default="adgm")
    parser.add_argument("--method", default=None, help="retrieval method (default: the service's, citewalk)")
    parser.add_argument("--think-s", type=float, default=5.0, help="mean pause between a user's questions")
    parser.add_argument("--workers", type=int, default=1, help="app processes to start (ignored with --url)")
    parser.add_argument("--url", action="append", default=[], help="a running app (repeatable); needs --password")
    parser.add_argument("--password", default=None, help=f"password of {LOAD_EMAIL} on a running app")
    parser.add_argument("--restart-after", type=float, default=None, metavar="S",
                        help="restart worker 0 this many seconds into the run (drain, SIGTERM, start); needs 2+ workers")
    parser.add_argument("--out", type=Path, default=RESULTS / "load.json")
    args = parser.parse_args(argv)
    if args.users < 1 or args.users > 500 or args.minutes <= 0 or args.minutes > 30:
        parser.error("--users must be 1–500 and --minutes 0–30")
    if args.restart_after is not None and (args.url or args.workers < 2 or args.restart_after >= args.minutes * 60):
        parser.error("--restart-after needs --workers 2 or more (not --url) and a time inside the run")
    with ExitStack() as stack:
        if args.url:
            fleet, password, startup = Fleet.running([_loopback(u) for u in args.url]), args.password or "", {}
        else:
            password = secrets.token_urlsafe(16)
            app_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="citewalk-load-")))
            fleet = Fleet(_app_env(password, app_dir), app_dir)
            stack.callback(fleet.close)
            began = time.monotonic()
            # One after the other: each start loads models on the same cores, and account creation must not race.
            for _ in range(args.workers):
                fleet.start()
            startup = {"seconds": round(time.monotonic() - began, 1), "pids": list(fleet.pids)}
        result = asyncio.run(drive(fleet, password, args, startup))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(markdown_table(result))
    return 0 if result["errors"] == 0 else 1


def markdown_table(r: dict) -> str:
    lat, mem, neo = r["latency_s"], r["app_memory_mib"], r["neo4j"]
    rows = [
        ("users × minutes", f"{r['users']} × {r['minutes']}"), ("app workers", r["workers"]),
        ("mean think time", f"{r['think_s_mean']} s"), ("requests (errors)", f"{r['requests']} ({r['errors']})"),
        ("throughput", f"{r['throughput_rps']} req/s"),
        ("latency p50 / p95 / p99", f"{lat['p50']} / {lat['p95']} / {lat['p99']} s"),
        ("app RSS start / peak / end", f"{mem['start']} / {mem['peak']} / {mem['end']} MiB"),
        ("app RSS first / last quarter", f"{mem['first_quarter_mean']} / {mem['last_quarter_mean']} MiB"),
        ("app PSS peak (shared pages counted once)", f"{mem.get('pss_peak')} MiB"),
        ("Neo4j expand p50 / p95", f"{neo['expand_ms_p50']} / {neo['expand_ms_p95']} ms"),
        ("search p50 / p95", f"{r['retrieval']['search_ms_p50']} / {r['retrieval']['search_ms_p95']} ms"),
        ("graph / vector-store notices", f"{neo['answers_with_graph_notice']} / {r['retrieval']['answers_with_vector_store_notice']}"),
    ]
    if cpu := r.get("cpu"):
        rows += [("CPU per request: app / Neo4j / load generator",
                  f"{cpu['app_ms_per_request']} / {cpu['neo4j_ms_per_request']} / {cpu['load_generator_ms_per_request']} ms"),
                 ("cores busy (of the machine's); load average before", f"{cpu['cores_busy']}; {cpu['load_average_before']}")]
    rows += [(f"worker {i}: requests (errors), p50 / p95", _slice(w)) for i, w in enumerate(r.get("per_worker", []))]
    if by_first := r.get("by_first_ask"):
        rows += [("first ask of a question on its worker: requests (errors), p50 / p95 / p99",
                  _slice(by_first["first_ask_on_its_worker"], 99)),
                 ("asked again on that worker: requests (errors), p50 / p95 / p99",
                  _slice(by_first["asked_again_on_its_worker"], 99))]
    if restart := r.get("restart"):
        rows += [
            (f"restart of worker {restart['worker']}", f"out of service {restart['began_s']}–{restart['back_s']} s "
                                                       f"({restart['out_of_service_s']} s), clean stop: {restart['stopped_cleanly']}"),
            ("other workers while it was out", _slice(restart["other_workers_during"])),
            ("restarted worker afterwards", _slice(restart["restarted_worker_after"])),
        ]
    return "| measure | value |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)


def _slice(part: dict, *more: int) -> str:
    shown = " / ".join(str(part["latency_s"][f"p{q}"]) for q in (50, 95, *more))
    return f"{part['requests']} ({part['errors']}), {shown} s"


if __name__ == "__main__":
    raise SystemExit(main())
