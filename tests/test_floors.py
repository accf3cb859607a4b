"""The floor rule, read from the imports (ARCHITECTURE.md draws it): a module imports only from its own area or
from lower floors, never from a higher one; areas that share a floor keep apart; the Neo4j launcher (ops) is
reached only by commands, benches and tests. Inside ingest the folders stand on floors of their own (records,
parsers, citation finders, the HTML format, the format registry that pairs parsers with finders, the pipeline,
the commands), with the same rule. Nothing imports a `__main__` module: a command others run lives in a module
of its own. An import inside a function (or under `if TYPE_CHECKING`) hides an
arrow: it needs a comment on its line, or the line above, saying why it cannot be at the top.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from core.settings import REPO_ROOT

PROJECT_ROOTS = ("app.py", "core", "ingest", "bench", "tests")
PACKAGES = frozenset({"app", "core", "ingest", "bench", "tests"})
BESIDE = 0  # ops: beside the stores, below every floor that may not import it
TOP = 99  # benches and tests: import anything, imported by nothing but themselves


@dataclass(frozen=True)
class Area:
    name: str
    floor: int
    prefixes: tuple[str, ...]


AREAS = (
    Area("domain", 1, ("core.domain", "core.current_law", "core.as_of", "core.quoted_words")),
    Area("stores", 2, ("core.settings", "core.stores", "core.embeddings",
                       "core.lexical", "core.analyzers", "core.app_db", "core.kept_secrets", "core.accounts")),
    Area("ingest", 3, ("ingest",)),
    Area("retrieval", 3, ("core.retrieval",)),
    Area("answer", 4, ("core.answer", "core.ask", "core.law")),
    Area("render", 5, ("core.render", "core.sharing")),
    Area("chat", 6, ("core.chat", "core.serve", "app")),
    Area("ops", BESIDE, ("core.neo4j_local",)),
    Area("bench", TOP, ("bench",)),
    Area("tests", TOP, ("tests",)),
)
# The floors inside an area: parsers know nothing of the finders that read their documents (finders may use
# the parsers' helpers: keys, markers); ingest/formats.py pairs the two.
INNER_AREAS = {
    "ingest": (
        Area("records", 1, ("ingest.models", "ingest.stages", "ingest.progress")),
        Area("parsers", 2, ("ingest.parsers",)),
        Area("citations", 3, ("ingest.citations",)),
        Area("html", 4, ("ingest.html",)),
        Area("formats", 5, ("ingest.formats",)),
        Area("pipeline", 6, ("ingest.resolve", "ingest.graph", "ingest.reading", "ingest.vectors", "ingest.pipeline",
                                  "ingest.versions", "ingest.staged")),
        Area("commands", 7, ("ingest.cli", "ingest.demo", "ingest.__main__")),
    ),
}
# What ops itself may import: the domain and the settings that say where the server lives.
OPS_MAY_IMPORT = frozenset({"domain", "stores"})
# Library areas whose imports must all be at the top of the module, or say why not.
DEFER_CHECKED = frozenset({"domain", "stores", "ingest", "retrieval", "answer", "render", "chat", "ops", "bench"})


@dataclass(frozen=True)
class Import:
    path: str  # file, relative to the repository
    line: int
    source: str  # importing module
    target: str  # imported project module
    deferred: bool  # inside a function or an `if TYPE_CHECKING:` block
    why: str  # the comment on the import's line or the line above ("" when none)


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for name in PROJECT_ROOTS:
        path = root / name
        files += [path] if path.is_file() else sorted(path.rglob("*.py")) if path.is_dir() else []
    return files


def area_of(module: str, areas: tuple[Area, ...] = AREAS) -> Area | None:
    best: Area | None = None
    best_len = -1
    for area in areas:
        for prefix in area.prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = area, len(prefix)
    return best


def is_command(tree: ast.Module, module: str) -> bool:
    """Run as `python -m`: a `__main__` module, or one with the `if __name__ == "__main__":` guard."""
    if module.endswith(".__main__"):
        return True
    return any(isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and isinstance(n.test.left, ast.Name)
               and n.test.left.id == "__name__" for n in tree.body)


def _comment(lines: list[str], lineno: int) -> str:
    """The comment on the import's line, or on the line right above it."""
    for text in (lines[lineno - 1], lines[lineno - 2] if lineno >= 2 else ""):
        if "#" in text:
            return text.split("#", 1)[1].strip()
    return ""


def _resolve(name: str, known: set[str]) -> str:
    """`from core.stores import queries` names the module core.stores.queries; `from core.x import f` names core.x."""
    return name if name in known else name.rsplit(".", 1)[0] if name.rsplit(".", 1)[0] in known else name


def imports_of(source: str, path: str, module: str, known: set[str]) -> list[Import]:
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[Import] = []

    def visit(node: ast.AST, deferred: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            names: list[str] = []
            line = 0
            if isinstance(child, ast.Import):
                names, line = [a.name for a in child.names], child.lineno
            elif isinstance(child, ast.ImportFrom):
                line = child.lineno
                base = child.module or ""
                if child.level:  # relative: from the module's package, one level up per extra dot
                    package = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
                    package = package[: len(package) - child.level + 1]
                    base = ".".join([*package, *([base] if base else [])])
                names = [_resolve(f"{base}.{a.name}", known) for a in child.names]
            for name in dict.fromkeys(names):
                if name.split(".")[0] in PACKAGES:
                    found.append(Import(path, line, module, name, deferred, _comment(lines, line) if deferred else ""))
            visit(child, inner)

    visit(tree, False)
    return found


def check_imports(imports: list[Import], commands: set[str]) -> list[Violation]:
    problems: list[Violation] = []
    for imp in imports:
        source, target = area_of(imp.source), area_of(imp.target)
        if source is None:
            problems.append(Violation(imp.path, imp.line, f"{imp.source} is on no floor: add it to AREAS "
                                      "(tests/test_floors.py) and ARCHITECTURE.md"))
            continue
        if target is None:
            problems.append(Violation(imp.path, imp.line, f"imports {imp.target}, which is on no floor"))
            continue
        if imp.deferred and source.name in DEFER_CHECKED and not imp.why:
            problems.append(Violation(imp.path, imp.line, f"imports {imp.target} inside a function (or under "
                                      "TYPE_CHECKING) with no comment saying why: move it to the top"))
        if imp.target.endswith(".__main__") and source.floor != TOP:
            problems.append(Violation(imp.path, imp.line, f"imports {imp.target}, a command's entry point: import "
                                      "the module the command runs instead"))
        if source is target and source.name in INNER_AREAS:
            problems += _inner_problems(imp, INNER_AREAS[source.name])
        if source is target or source.floor == target.floor == TOP:
            continue
        if target.name == "ops":
            if source.floor != TOP and imp.source not in commands:
                problems.append(Violation(imp.path, imp.line, f"{source.name} imports the Neo4j launcher "
                                          f"({imp.target}); only commands, benches and tests start the server"))
        elif source.name == "ops":
            if target.name not in OPS_MAY_IMPORT:
                problems.append(Violation(imp.path, imp.line, f"ops imports {imp.target} ({target.name}); the "
                                          "launcher stands beside the stores and reads only settings"))
        elif target.floor > source.floor:
            problems.append(Violation(imp.path, imp.line, f"{source.name} (floor {source.floor}) imports "
                                      f"{imp.target} ({target.name}, floor {target.floor}): an arrow upwards"))
        elif target.floor == source.floor:
            problems.append(Violation(imp.path, imp.line, f"{source.name} imports {imp.target} ({target.name}): "
                                      f"areas on floor {source.floor} keep apart; move what both need lower"))
    return problems


def _inner_problems(imp: Import, areas: tuple[Area, ...]) -> list[Violation]:
    source, target = area_of(imp.source, areas), area_of(imp.target, areas)
    if source is None or target is None:
        unplaced = imp.source if source is None else imp.target
        return [] if "." not in unplaced else [Violation(imp.path, imp.line, f"{unplaced} is on no floor inside its "
                                                         "area: add it to INNER_AREAS (tests/test_floors.py)")]
    if target.floor > source.floor:
        return [Violation(imp.path, imp.line, f"{imp.source} ({source.name}, inner floor {source.floor}) imports "
                          f"{imp.target} ({target.name}, inner floor {target.floor}): an arrow upwards")]
    if target.floor == source.floor and target is not source:
        return [Violation(imp.path, imp.line, f"{source.name} imports {imp.target} ({target.name}): areas on inner "
                          f"floor {source.floor} keep apart")]
    return []


def check_tree(root: Path) -> list[Violation]:
    files = project_files(root)
    known = {module_name(f, root) for f in files}
    imports: list[Import] = []
    commands: set[str] = set()
    for f in files:
        source = f.read_text(encoding="utf-8")
        module = module_name(f, root)
        if is_command(ast.parse(source), module):
            commands.add(module)
        imports += imports_of(source, str(f.relative_to(root)), module, known)
    return check_imports(imports, commands)


def test_the_import_graph_keeps_the_floors() -> None:
    problems = check_tree(REPO_ROOT)
    assert not problems, "\n".join(map(str, problems))


def test_every_library_module_is_on_a_floor() -> None:
    files = [f for f in project_files(REPO_ROOT) if f.parts[len(REPO_ROOT.parts)] in ("core", "ingest", "app.py")]
    unplaced = [module_name(f, REPO_ROOT) for f in files if area_of(module_name(f, REPO_ROOT)) is None]
    assert unplaced in ([], ["core"]), unplaced


def _planted(tmp_path: Path, files: dict[str, str]) -> list[str]:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [str(v) for v in check_tree(tmp_path)]


def test_a_planted_upward_arrow_fails(tmp_path: Path) -> None:
    problems = _planted(tmp_path, {
        "core/stores/graph.py": "from core.answer.service import answer_question\n",
        "core/answer/service.py": "from core.stores.graph import x\n",
    })
    assert problems == ["core/stores/graph.py:1: stores (floor 2) imports core.answer.service (answer, floor 4): "
                        "an arrow upwards"]


def test_siblings_on_one_floor_keep_apart_and_ops_stays_beside(tmp_path: Path) -> None:
    problems = _planted(tmp_path, {
        "core/retrieval/dense.py": "from ingest.models import Mention\n",
        "ingest/models.py": "",
        "core/answer/deps.py": "from core.neo4j_local import start\n",
        "core/neo4j_local/__init__.py": "def start(): ...\n",
        "core/neo4j_local/cli.py": "from core.retrieval import dense\n",
        "ingest/__main__.py": "from core.neo4j_local import start\n",
    })
    assert problems == [
        "core/answer/deps.py:1: answer imports the Neo4j launcher (core.neo4j_local); only commands, benches "
        "and tests start the server",
        "core/neo4j_local/cli.py:1: ops imports core.retrieval.dense (retrieval); the launcher stands beside the "
        "stores and reads only settings",
        "core/retrieval/dense.py:1: retrieval imports ingest.models (ingest): areas on floor 3 keep apart; move "
        "what both need lower",
    ]


def test_a_function_level_import_needs_a_comment_saying_why(tmp_path: Path) -> None:
    problems = _planted(tmp_path, {
        "core/domain/__init__.py": "",
        "core/analyzers/__init__.py": (
            "def korean():\n"
            "    # kiwipiepy loads a 100 MB model on import: only for Korean corpora\n"
            "    from core.analyzers.korean import KoreanAnalyzer\n"
            "    return KoreanAnalyzer\n"
            "def english():\n"
            "    from core.domain import Edge\n"
            "    return Edge\n"
        ),
        "core/analyzers/korean.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                    "    from core.stores import chroma_store\n",
        "core/stores/chroma_store.py": "",
    })
    assert problems == [
        "core/analyzers/__init__.py:6: imports core.domain inside a function (or under TYPE_CHECKING) with no "
        "comment saying why: move it to the top",
        "core/analyzers/korean.py:3: imports core.stores.chroma_store inside a function (or under TYPE_CHECKING) "
        "with no comment saying why: move it to the top",
    ]


def test_a_module_on_no_floor_is_named(tmp_path: Path) -> None:
    problems = _planted(tmp_path, {"core/misc.py": "from core.domain import Edge\n", "core/domain/__init__.py": ""})
    assert problems == ["core/misc.py:1: core.misc is on no floor: add it to AREAS (tests/test_floors.py) and "
                        "ARCHITECTURE.md"]


def test_every_ingest_module_is_on_an_inner_floor() -> None:
    modules = [module_name(f, REPO_ROOT) for f in project_files(REPO_ROOT) if f.parts[len(REPO_ROOT.parts)] == "ingest"]
    unplaced = [m for m in modules if m != "ingest" and area_of(m, INNER_AREAS["ingest"]) is None]
    assert not unplaced, unplaced


def test_a_parser_that_imports_a_finder_and_a_library_that_imports_a_command_fail(tmp_path: Path) -> None:
    problems = _planted(tmp_path, {
        "ingest/parsers/hipaa.py": "from ingest.citations.cfr import CfrCitationFinder\n",
        "ingest/citations/cfr.py": "from ingest.parsers.markers import LEVELS\n",
        "ingest/parsers/markers.py": "",
        "ingest/formats.py": "from ingest.citations.cfr import CfrCitationFinder\nfrom ingest.parsers.hipaa import X\n",
        "ingest/__main__.py": "def main(): ...\n",
        "ingest/html/links.py": "from ingest.formats import CorpusFormat\n",
        "core/chat/demo.py": "from ingest.__main__ import main\n",
    })
    assert problems == [
        "core/chat/demo.py:1: imports ingest.__main__, a command's entry point: import the module the command runs "
        "instead",
        "ingest/html/links.py:1: ingest.html.links (html, inner floor 4) imports ingest.formats (formats, inner "
        "floor 5): an arrow upwards",
        "ingest/parsers/hipaa.py:1: ingest.parsers.hipaa (parsers, inner floor 2) imports ingest.citations.cfr "
        "(citations, inner floor 3): an arrow upwards",
    ]
