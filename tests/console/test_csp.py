"""Every response carries the strict Content-Security-Policy (the browser test checks the pages obey it)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/login/", "/", "/api/docs", "/no-such-page/"])
def test_every_response_carries_the_policy(client, reviewer, path):
    client.force_login(reviewer)

    policy = client.get(path)["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
