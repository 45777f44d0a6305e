"""An import-linter contract type (pyproject.toml, `[tool.importlinter]`): no app uses another app's private names.

A name starting with one underscore is its module's own. Across apps (the top-level packages listed in `apps`)
nothing may import one (`from review.pipeline import _Cached`), import a private module (`kb._internal`), or reach
one through an imported module (`pipeline._TEXT_VECTORS`); inside an app, modules may share them. Imports inside
functions count too. import-linter's own contract types see which modules import which, not the names imported,
so this one reads each module's source.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


@dataclass(frozen=True)
class PrivateUse:
    module: str
    line: int
    what: str  # "review.pipeline._CachedEmbedder"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _source(module: str) -> str | None:
    """The module's source, found from its top-level package's folder: finding a submodule's spec would import its
    parent packages, and a package such as `review.models` imports Django models, which need the apps loaded."""
    top, *parts = module.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations))).joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def private_uses(*, module: str, source: str, apps: set[str]) -> list[PrivateUse]:
    """Where `module` (of the app `module.split('.')[0]`) uses a private name of another of `apps`."""
    own = module.split(".")[0]

    def foreign(dotted: str) -> bool:
        return dotted.split(".")[0] in apps and dotted.split(".")[0] != own

    found: list[PrivateUse] = []
    aliases: dict[str, str] = {}  # a local name bound to another app's module -> that module
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if foreign(alias.name):
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                        alias.name.split(".")[0]
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(PrivateUse(module, node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and foreign(node.module):
            if any(_private(part) for part in node.module.split(".")):
                found.append(PrivateUse(module, node.lineno, node.module))
            for alias in node.names:
                if _private(alias.name):
                    found.append(PrivateUse(module, node.lineno, f"{node.module}.{alias.name}"))
                else:
                    # `from review import pipeline`: a module, whose private names stay its own.
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in aliases):
            found.append(PrivateUse(module, node.lineno, f"{aliases[node.value.id]}.{node.attr}"))
    return sorted(set(found), key=lambda use: (use.module, use.line, use.what))


class PrivateNamesContract(Contract):
    """Options: `apps`, the top-level packages whose private names stay inside them."""

    type_name = "private_names"

    apps = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        apps = set(self.apps)  # type: ignore[arg-type]
        uses: list[PrivateUse] = []
        for module in sorted(graph.modules):
            if module.split(".")[0] not in apps:
                continue
            source = _source(module)
            if source is not None:
                uses += private_uses(module=module, source=source, apps=apps)
        return ContractCheck(kept=not uses, metadata={"uses": uses})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for use in check.metadata["uses"]:
            output.print_error(f"- {use.module} (l.{use.line}) uses {use.what}", bold=False)
            output.new_line()
