"""The knowledge base does not depend on review: it sits above the checker library (checking) and below review."""

import ast
from pathlib import Path

import kb

# The version page shows the checker's latest self-test and each paragraph's citing answers beside the version:
# page composition, not logic.
PAGES_SHOWING_REVIEW = {"views.py"}


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    return modules


def test_kb_modules_import_nothing_from_review():
    root = Path(kb.__file__).parent
    importing = {
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if path.name not in PAGES_SHOWING_REVIEW
        and any(m == "review" or m.startswith("review.") for m in _imported_modules(path))
    }
    assert importing == set()
