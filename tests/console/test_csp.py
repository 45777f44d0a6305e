"""Every response carries the strict Content-Security-Policy (the browser test checks the pages obey it)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("path", "status"), [("/login/", 302), ("/", 200), ("/api/docs", 200),
                                              ("/no-such-page/", 404), ("/audit/", 403)])
def test_every_response_carries_the_policy(client, reviewer, path, status):
    client.force_login(reviewer)

    response = client.get(path)

    assert response.status_code == status  # the 404 page rendered, not a 500 from base.html
    policy = response["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
