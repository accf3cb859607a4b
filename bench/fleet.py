"""The load benchmark's app workers: started with the project's launcher, routed to like a load balancer with
sticky users, and restartable one at a time (drain → SIGTERM → start on the same port → healthy → back in)."""
from __future__ import annotations

import asyncio
import os
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel

from tests.app_process import running_app, worker_folder


class Restart(BaseModel):
    worker: int
    began_s: float     # into the run: the worker stops getting new requests
    drained_s: float   # its last in-flight request has finished; SIGTERM follows
    back_s: float      # started again, healthy, and getting requests again
    stopped_cleanly: bool  # Chainlit's own shutdown ran (it deletes the worker's session-files folder)


class Fleet:
    def __init__(self, env: dict[str, str], log_dir: Path, timeout_s: float = 300) -> None:
        self.env, self.log_dir, self.timeout_s = env, log_dir, timeout_s
        self.urls: list[str] = []
        self.pids: list[int] = []   # updated in place on a restart, so a memory sampler follows the new process
        self.up: list[bool] = []
        self.in_flight: list[int] = []
        self._stacks: list[ExitStack] = []
        self._starts = 0

    def start(self, port: int | None = None, index: int | None = None) -> str:
        stack = ExitStack()
        self._starts += 1
        log = self.log_dir / f"worker-{len(self.urls) if index is None else index}-start{self._starts}.log"
        url = stack.enter_context(running_app(self.env, log, timeout_s=self.timeout_s, port=port))
        if index is None:
            self.urls.append(url)
            self.pids.append(pid_on_port(url))
            self.in_flight.append(0)
            self.up.append(True)
            self._stacks.append(stack)
        else:
            self.pids[index] = pid_on_port(url)
            self._stacks[index] = stack
            self.up[index] = True
        return url

    @classmethod
    def running(cls, urls: list[str]) -> Fleet:
        """Apps someone else started (`--url`): routed to, never stopped."""
        fleet = cls({}, Path("."))
        fleet.urls, fleet.up, fleet.in_flight = list(urls), [True] * len(urls), [0] * len(urls)
        return fleet

    def close(self) -> None:
        for stack in self._stacks:
            stack.close()

    def pick(self, home: int) -> int:
        """The user's own worker while it is in service, else the next one that is (sticky, with fail-over)."""
        for step in range(len(self.urls)):
            candidate = (home + step) % len(self.urls)
            if self.up[candidate]:
                return candidate
        raise RuntimeError("no worker is in service")

    async def restart(self, index: int, run_started: float, drain_timeout_s: float = 120) -> Restart:
        self.up[index] = False
        began = time.monotonic()
        while self.in_flight[index] and time.monotonic() - began < drain_timeout_s:
            await asyncio.sleep(0.1)
        drained = time.monotonic()
        port = urlsplit(self.urls[index]).port
        assert port is not None, "a worker's URL always names its port (start() writes it)"
        files = worker_folder(self.env, port) / ".files"
        await asyncio.to_thread(self._stacks[index].close)  # SIGTERM to its process group, then waits
        stopped_cleanly = not files.exists()
        await asyncio.to_thread(self.start, port, index)
        back = time.monotonic()
        return Restart(worker=index, began_s=round(began - run_started, 1), drained_s=round(drained - run_started, 1),
                       back_s=round(back - run_started, 1), stopped_cleanly=stopped_cleanly)


def pid_on_port(url: str) -> int:
    """The app process listening on this URL's port (found via /proc, so no extra tools are needed)."""
    port = urlsplit(url).port
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if parts[3] == "0A" and int(parts[1].split(":")[1], 16) == port:
            inodes.add(parts[9])
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if any(os.readlink(fd).removeprefix("socket:[").rstrip("]") in inodes for fd in (proc / "fd").iterdir()):
                return int(proc.name)
        except (PermissionError, FileNotFoundError, OSError):
            continue
    raise RuntimeError(f"no process listens on {url}")
