"""How many hand-set constants and regex literals the answer logic holds: `python -m bench.rules`.

    python -m bench.rules [--root core/answer] [--out bench/results/rules.json] [--before]

Counted by reading each module's syntax tree (nothing is imported or run), per file:

- **constants**: hand-set numbers the answer's behaviour turns on:
  - a module-level or class-level assignment whose value is a number or an arithmetic expression of numbers
    (`MIN_COVER = 0.3`, `TOKEN_CACHE_BYTES = 96 * 2**20`; not a bool, nor a record's annotated field starting at 0,
    1 or -1: `score: float = 0.0`);
  - a function parameter's numeric default other than 0, 1 and -1 (`item_limit: int = 4`: a threshold set where it
    is used; 0, 1 and -1 are neutral starts, not thresholds);
  - a number other than 0, 1 and -1 compared with inside a function (`len(term) >= 4`): a threshold written inline.
- **fitted**: numbers in a module- or class-level dict or tuple made only of numbers (the selection's weights,
  fitted by `bench.select_fit`): learned, listed apart, not in the total.
- **regexes**: each string literal (a plain string or an f-string, counted once) that is written as a regular
  expression:
  - inside the pattern argument of an `re` call (`re.compile`, `re.search`, … the first argument);
  - an argument of a module function that builds a pattern (its body calls `re.compile`: `_any(r"…", r"…")`; the
    builder's own joining strings are not counted);
  - inside a module-level assignment whose value calls `re` or such a builder (a tuple of patterns compiled in a
    comprehension);
  - inside a module-level assignment or function whose name such a regex-bearing expression reads (a pattern
    fragment: `_NUMBER_WORDS`, `_POINTER`, `_vi(tag)`), followed transitively.

The table prints per file; the JSON keeps per file and in total each count and what it counted (name and line),
with the `before` figures committed once (today's main, `--before` writes them) for the comparison.
"""
from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.settings import REPO_ROOT

ROOT = REPO_ROOT / "core" / "answer"
OUT = REPO_ROOT / "bench" / "results" / "rules.json"
NEUTRAL = {0, 1, -1}
RE_CALLS = frozenset({"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"})


def _number(node: ast.AST) -> bool:
    """A number, or arithmetic of numbers (`96 * 2**20`, `-0.5`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _number(node.operand)
    if isinstance(node, ast.BinOp):
        return _number(node.left) and _number(node.right)
    return False


def _value(node: ast.AST) -> float:
    return float(ast.literal_eval(node)) if not isinstance(node, ast.BinOp) else float("nan")


def _numbers_only(node: ast.AST) -> list[ast.AST]:
    """The numbers of a dict or tuple made only of numbers (empty when anything else is in it)."""
    if isinstance(node, ast.Dict):
        values = node.values
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        values = node.elts
    else:
        return []
    return list(values) if values and all(_number(v) for v in values) else []


def _targets(node: ast.Assign | ast.AnnAssign) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [t.id for t in targets if isinstance(t, ast.Name)]


def _is_re_call(node: ast.AST, calls: frozenset[str] = RE_CALLS) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in calls \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"


def _strings(node: ast.AST) -> list[ast.expr]:
    """String literals under a node, an f-string counted once (not its pieces)."""
    out: list[ast.expr] = []

    def walk(n: ast.AST) -> None:
        if isinstance(n, ast.JoinedStr):
            out.append(n)
            return
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append(n)
            return
        for child in ast.iter_child_nodes(n):
            walk(child)

    walk(node)
    return out


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


@dataclass
class Count:
    constants: list[str] = field(default_factory=list)
    fitted: list[str] = field(default_factory=list)
    regexes: list[str] = field(default_factory=list)


class _Module:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.assigns: dict[str, ast.AST] = {}  # module-level name → its assigned value
        self.functions: dict[str, ast.FunctionDef] = {}
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                for name in _targets(node):
                    self.assigns[name] = node.value
            elif isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node
        self.builders = {name for name, fn in self.functions.items()
                         if any(_is_re_call(n, frozenset({"compile"})) for n in ast.walk(fn))}

    def _regex_roots(self) -> list[ast.AST]:
        """Expressions written as patterns: re calls' pattern arguments, builder calls' arguments, and module-level
        assignments whose value holds either."""
        roots: list[ast.AST] = []
        inside_builders = {id(n) for name in self.builders for n in ast.walk(self.functions[name])}
        for node in ast.walk(self.tree):
            if id(node) in inside_builders:
                continue  # a builder's own joining strings are no pattern
            if _is_re_call(node) and isinstance(node, ast.Call) and node.args:
                roots.append(node.args[0])
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.builders:
                roots += list(node.args)
        for value in self.assigns.values():
            if any(_is_re_call(n) or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                      and n.func.id in self.builders) for n in ast.walk(value)):
                roots.append(value)
        return roots

    def regexes(self) -> list[ast.expr]:
        roots = self._regex_roots()
        seen_names: set[str] = set()
        pending = [n for r in roots for n in _names(r)]
        while pending:
            name = pending.pop()
            if name in seen_names:
                continue
            seen_names.add(name)
            if name in self.assigns:
                roots.append(self.assigns[name])
                pending += list(_names(self.assigns[name]))
            elif name in self.functions and name not in self.builders:
                fn = self.functions[name]
                body = fn.body[1:] if ast.get_docstring(fn) else fn.body
                roots += body
                pending += [n for b in body for n in _names(b)]
        found: dict[int, ast.expr] = {}
        for root in roots:
            for s in _strings(root):
                found[id(s)] = s
        return sorted(found.values(), key=lambda n: (n.lineno, n.col_offset))

    def count(self) -> Count:
        out = Count()
        scopes: list[tuple[str, list[ast.stmt]]] = [("", self.tree.body)]
        scopes += [(f"{n.name}.", n.body) for n in self.tree.body if isinstance(n, ast.ClassDef)]
        for prefix, body in scopes:
            for node in body:
                if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                    continue
                field_default = prefix and isinstance(node, ast.AnnAssign) and _number(node.value) \
                    and _value(node.value) in NEUTRAL  # a record's field starting at 0: no threshold
                for name in _targets(node):
                    if _number(node.value) and not field_default:
                        out.constants.append(f"{prefix}{name} (line {node.lineno})")
                    elif numbers := _numbers_only(node.value):
                        out.fitted += [f"{prefix}{name} (line {node.lineno})"] * len(numbers)
        for fn in ast.walk(self.tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):  # fn: a function anywhere, methods too
                defaults = fn.args.defaults + [d for d in fn.args.kw_defaults if d is not None]
                out.constants += [f"{fn.name}() default {ast.unparse(d)} (line {d.lineno})" for d in defaults
                                  if _number(d) and _value(d) not in NEUTRAL]
                for inner in ast.walk(fn):
                    if isinstance(inner, ast.Compare):
                        operands = [inner.left, *inner.comparators]
                        out.constants += [f"{fn.name}() compares with {ast.unparse(o)} (line {o.lineno})"
                                          for o in operands if _number(o) and _value(o) not in NEUTRAL]
        out.regexes = [f"line {s.lineno}" for s in self.regexes()]
        return out


def count_file(path: Path) -> Count:
    return _Module(ast.parse(path.read_text(), filename=str(path))).count()


def count_tree(root: Path) -> dict[str, Count]:
    return {str(p.relative_to(REPO_ROOT)): count_file(p) for p in sorted(root.rglob("*.py"))}


def _totals(counts: dict[str, Count]) -> dict[str, int]:
    return {k: sum(len(getattr(c, k)) for c in counts.values()) for k in ("constants", "fitted", "regexes")}


def _commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def table(counts: dict[str, Count]) -> str:
    rows = [f"{'file':<34} {'constants':>9} {'regexes':>8} {'fitted':>7}"]
    for path, c in counts.items():
        if c.constants or c.regexes or c.fitted:
            rows.append(f"{path:<34} {len(c.constants):>9} {len(c.regexes):>8} {len(c.fitted):>7}")
    t = _totals(counts)
    rows.append(f"{'total':<34} {t['constants']:>9} {t['regexes']:>8} {t['fitted']:>7}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rules", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--before", action="store_true", help="record this count as the committed `before`")
    args = parser.parse_args(argv)
    counts = count_tree(args.root.resolve())
    print(table(counts))
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    now: dict[str, Any] = {"commit": _commit(), "totals": _totals(counts),
           "files": {p: {"constants": c.constants, "regexes": len(c.regexes), "fitted": len(c.fitted)}
                     for p, c in counts.items() if c.constants or c.regexes or c.fitted}}
    before: dict[str, Any] | None = now if args.before else old.get("before")
    if before:
        b, t = before["totals"], now["totals"]
        print(f"before ({before['commit']}): constants {b['constants']}, regexes {b['regexes']}, "
              f"together {b['constants'] + b['regexes']}; now {t['constants'] + t['regexes']} "
              f"({(t['constants'] + t['regexes']) / max(1, b['constants'] + b['regexes']):.0%})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"before": before, "now": now}, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
