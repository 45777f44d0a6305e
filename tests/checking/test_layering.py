"""Inside the checker library too, a name one module shares with another is public (that checking imports no app is
import-linter's contract in pyproject.toml)."""

import ast
from pathlib import Path

import checking

ROOT = Path(checking.__file__).parent


def _imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    # ast.walk: an import inside a function counts as much as one at the top.
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Import | ast.ImportFrom)]


def test_no_module_of_checking_imports_another_ones_private_name():
    crossing = {
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in ROOT.rglob("*.py") for node in _imports(path)
        if isinstance(node, ast.ImportFrom) and any(a.name.startswith("_") and not a.name.startswith("__")
                                                    for a in node.names)
    }
    assert crossing == set()
