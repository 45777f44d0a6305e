"""The side-by-side version diff: changed lines paired, changed words marked, long unchanged runs folded."""

import pytest

from kb import services

pytestmark = pytest.mark.django_db

DOC = ("# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n\n<script>alert(1)</script>\n\n"
       + "".join(f"Unchanged paragraph {n}.\n\n" for n in range(12)) + "## Contact\n\nWrite to us.\n")


@pytest.fixture
def versions(curator):
    document = services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                        created_by=curator)
    first = services.version_upload(document=document, raw=DOC.encode(), filename="guide.md", uploaded_by=curator)
    changed = DOC.replace("14 days", "30 days").replace("Write to us.", "Write to us.\n\nOr call us.")
    second = services.version_upload(document=document, raw=changed.encode(), filename="guide.md",
                                     uploaded_by=curator)
    return first, second


def test_diff_marks_the_changed_words_side_by_side(client, reviewer, versions):
    client.force_login(reviewer)

    page = client.get("/kb/guide/diff/?from=1&to=2").content.decode()

    assert '<td class="del">Refunds are paid within <del>14</del> days.</td>' in page
    assert '<td class="add">Refunds are paid within <ins>30</ins> days.</td>' in page
    assert '<td class="add">Or call us.</td>' in page
    assert 'id="diff-summary"' in page and "<strong>3</strong> lines added or changed in v2" in page


def test_diff_folds_long_unchanged_runs_and_escapes_the_markdown(client, reviewer, versions):
    client.force_login(reviewer)

    page = client.get("/kb/guide/diff/?from=1&to=2").content.decode()

    assert "unchanged lines …" in page
    assert "Unchanged paragraph 5." not in page  # in the middle of the folded run
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # within three lines of the change: shown, escaped


def test_identical_versions_say_so(client, reviewer, versions):
    client.force_login(reviewer)

    page = client.get("/kb/guide/diff/?from=2&to=2").content.decode()

    assert "v2 and v2 have the same text." in page


def test_approve_box_links_to_the_changes_since_the_previous_version(client, approver, versions):
    client.force_login(approver)

    page = client.get("/kb/guide/v2/").content.decode()

    assert 'id="approve-diff" href="/kb/guide/diff/?from=1&amp;to=2"' in page
    assert "See what changed since v1" in page
