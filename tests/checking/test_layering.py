"""The checker library stands alone: kb, review, ask, triage and console build on it, and it imports none of them."""

import ast
from pathlib import Path

import checking

ROOT = Path(checking.__file__).parent
APPS_ABOVE = {"kb", "review", "ask", "triage", "console"}


def _imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    # ast.walk: an import inside a function counts as much as one at the top.
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Import | ast.ImportFrom)]


def test_checking_imports_no_other_app_of_the_project():
    importing = set()
    for path in ROOT.rglob("*.py"):
        for node in _imports(path):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(module.split(".")[0] in APPS_ABOVE for module in modules):
                importing.add(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert importing == set()


def test_no_module_of_checking_imports_another_ones_private_name():
    crossing = {
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in ROOT.rglob("*.py") for node in _imports(path)
        if isinstance(node, ast.ImportFrom) and any(a.name.startswith("_") and not a.name.startswith("__")
                                                    for a in node.names)
    }
    assert crossing == set()
