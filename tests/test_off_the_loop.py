"""The chat's async handlers leave blocking work to threads: one event loop serves every chat of a worker, so a
store opening (Neo4j connect, Chroma, BM25), a file write or a graph/page/DOCX rendering run on it would stall
them all. Read from the code: inside an `async def` of the chat floor, these calls appear only as what
`asyncio.to_thread` / `run_in_executor` is handed (a function passed, or a lambda), never called in place.
What this keeps (warm-corpus latency while a cold corpus opens) was measured by `bench.open_stall`, now in git
history; its figures are in bench/results/TRIED.md.
"""
from __future__ import annotations

import ast
from pathlib import Path

from core.settings import REPO_ROOT

# Functions that open stores, touch Neo4j or the disk, or render HTML/DOCX (tens of ms to seconds).
BLOCKING = frozenset({
    "open_stores", "chat_stores", "answer_view", "answer_elements", "graph_html", "share_page_html",
    "source_page_html", "render_export", "export_docx", "answer_export", "export_markdown", "read_source_view",
    "picker_corpora", "answerable_corpora", "driver_or_none", "connect",
    "write_text", "write_bytes", "read_text", "read_bytes", "mkdir", "unlink", "open", "copytree", "rmtree",
})


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def blocking_calls(source: str, path: str) -> list[str]:
    tree = ast.parse(source)
    # What is awaited, or entered with `async with` (an async engine's connect()), is asynchronous already.
    awaited = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Await)}
    awaited |= {id(item.context_expr) for n in ast.walk(tree) if isinstance(n, ast.AsyncWith) for item in n.items}
    # A plain function of the module that makes such a call blocks too (one level: the chat's helpers are flat).
    blocking = BLOCKING | {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and any(
        isinstance(c, ast.Call) and _name(c) in BLOCKING for c in ast.walk(f))}
    found: list[str] = []

    def visit(node: ast.AST, in_async: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.AsyncFunctionDef):
                visit(child, True)
            elif isinstance(child, (ast.FunctionDef, ast.Lambda)):
                visit(child, False)  # a function or lambda body runs where it is handed: a thread
            else:
                if in_async and isinstance(child, ast.Call) and _name(child) in blocking and id(child) not in awaited:
                    found.append(f"{path}:{child.lineno}: {_name(child)}() called on the event loop")
                visit(child, in_async)

    visit(tree, False)
    return found


def chat_files() -> list[Path]:
    return [REPO_ROOT / "app.py", *sorted((REPO_ROOT / "core" / "chat").glob("*.py"))]


def test_async_chat_handlers_hand_blocking_work_to_threads() -> None:
    problems = [p for f in chat_files()
                for p in blocking_calls(f.read_text(encoding="utf-8"), str(f.relative_to(REPO_ROOT)))]
    assert not problems, "\n".join(problems)


def test_a_planted_blocking_call_is_named() -> None:
    source = (
        "import asyncio\n"
        "async def show(view):\n"
        "    html = await asyncio.to_thread(lambda: share_page_html(view))\n"
        "    stores = await asyncio.to_thread(open_stores, 1)\n"
        "    def later():\n"
        "        return graph_html(view)\n"
        "    async with engine.connect() as conn:\n"
        "        await conn.execute(query)\n"
        "    share_page_html(view), path.write_text(html)\n"
        "    return sync_helper(view)\n"
        "def sync_helper(view):\n"
        "    return graph_html(view)\n"
    )
    assert blocking_calls(source, "x.py") == [
        "x.py:9: share_page_html() called on the event loop",
        "x.py:9: write_text() called on the event loop",
        "x.py:10: sync_helper() called on the event loop",
    ]
