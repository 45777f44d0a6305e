"""The private-names contract (tests/import_contracts.py) finds each way one app can use another's private names,
and leaves alone what an app shares inside itself."""

from tests.import_contracts import private_uses

APPS = {"ask", "review", "kb"}


def _uses(source: str, *, module: str = "ask.gate") -> list[str]:
    return [use.what for use in private_uses(module=module, source=source, apps=APPS)]


def test_a_private_name_imported_from_another_app_is_found_even_inside_a_function():
    source = "def f():\n    from review.pipeline import _CachedEmbedder, answer_check\n    return _CachedEmbedder\n"

    assert _uses(source) == ["review.pipeline._CachedEmbedder"]


def test_a_private_name_reached_through_another_apps_module_is_found():
    assert _uses("from review import pipeline\npipeline._TEXT_VECTORS.clear()\n") == ["review.pipeline._TEXT_VECTORS"]
    assert _uses("import kb.search as search\nsearch._ranked_ids()\n") == ["kb.search._ranked_ids"]


def test_a_private_module_of_another_app_is_found():
    assert _uses("from kb._internal import helper\n") == ["kb._internal"]


def test_what_an_app_shares_inside_itself_and_dunder_names_are_allowed():
    assert _uses("from ask.compose import _stems\n") == []
    assert _uses("from review import pipeline\nprint(pipeline.__name__)\n") == []
    assert _uses("from django.db import models\nmodels._meta\n") == []  # not one of the apps
