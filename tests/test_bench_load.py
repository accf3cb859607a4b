"""bench.load's accounting: figures per worker, and the restart window split into the survivor's requests while
the other was out and the restarted worker's requests after it came back."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

from bench.fleet import Fleet, Restart
from bench.load import Sample, _restart_report, cpu_report, cpu_s, summarise


def test_restart_window_and_per_worker_figures() -> None:
    run_started = 100.0
    samples = [
        Sample(110.0, 1.0, 200, 0), Sample(112.0, 2.0, 200, 1),      # before the restart
        Sample(139.0, 2.0, 200, 1), Sample(150.0, 9.0, 200, 1),      # survivor, overlapping / inside the window
        Sample(160.0, 0.5, 0, 1, "ReadError: x"),                    # a failure on the survivor is counted there
        Sample(175.0, 0.3, 200, 0),                                  # restarted worker, back in service
    ]
    restart = Restart(worker=0, began_s=40.0, drained_s=42.0, back_s=70.0, stopped_cleanly=True)
    report = _restart_report(samples, restart, run_started)
    assert report["out_of_service_s"] == 30.0
    assert report["other_workers_during"]["requests"] == 3 and report["other_workers_during"]["errors"] == 1
    assert report["other_workers_during"]["latency_s"]["max"] == 9.0
    assert report["restarted_worker_after"]["requests"] == 1
    args = argparse.Namespace(users=2, minutes=1, corpus="hipaa", method=None, think_s=5.0)
    result = summarise(samples, [], 60.0, args, {}, report)
    assert [w["requests"] for w in result["per_worker"]] == [2, 4] and result["errors"] == 1


def test_users_fail_over_while_their_worker_is_out() -> None:
    fleet = Fleet.running(["http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"])
    assert [fleet.pick(h) for h in range(3)] == [0, 1, 2]
    fleet.up[1] = False
    assert [fleet.pick(h) for h in range(3)] == [0, 2, 2]


def test_cpu_per_request_reads_a_process_and_its_children() -> None:
    busy = subprocess.Popen([sys.executable, "-c", "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\ntime.sleep(30)"])
    try:
        deadline = 0
        while cpu_s(busy.pid) < 0.5 and deadline < 100:  # its busy loop, read from /proc as the bench reads workers
            subprocess.run(["sleep", "0.1"], check=True)
            deadline += 1
        assert 0.5 <= cpu_s(busy.pid) < 5
    finally:
        busy.kill()
        busy.wait()
    assert cpu_s(busy.pid) == 0.0  # gone: nothing to read, no error
    report = cpu_report({"app": 3.0, "neo4j": 1.0, "load_generator": 0.5}, 10, 2.0, os.getloadavg()[0])
    assert report["app_ms_per_request"] == 300.0 and report["neo4j_ms_per_request"] == 100.0
    assert report["cores_busy"] == 2.25


def test_the_first_ask_of_a_question_is_told_apart_per_worker() -> None:
    from bench.load import first_asks

    samples = [
        Sample(1.0, 4.0, 200, 0, question="a"), Sample(2.0, 3.0, 200, 1, question="a"),  # new to each worker
        Sample(9.0, 0.2, 200, 0, question="a"), Sample(3.0, 5.0, 200, 0, question="b"),
        Sample(12.0, 0.1, 200, 1, question="a"), Sample(13.0, 0.3, 0, 0, "ReadError: x", question="b"),
    ]
    split = first_asks(samples)
    first, again = split["first_ask_on_its_worker"], split["asked_again_on_its_worker"]
    assert (first["requests"], again["requests"], again["errors"]) == (3, 3, 1)
    assert first["latency_s"]["max"] == 5.0 and again["latency_s"]["max"] == 0.3
