"""The start-up banner points at pages that exist."""

import io
import re

import pytest

from front.management.commands.run_console import Command

pytestmark = pytest.mark.django_db


def test_the_banner_links_to_the_api_docs_that_are_served(client):
    out = io.StringIO()
    Command(stdout=out)._print_banner("127.0.0.1", 8000)

    docs = re.search(r"API docs: (\S+)", out.getvalue()).group(1)

    assert docs == "/api/docs"
    assert client.get(docs).status_code == 200
