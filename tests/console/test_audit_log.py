import csv
import io

import pytest

from console.audit import audit_record

pytestmark = pytest.mark.django_db


def test_audit_log_filters_by_actor_and_verb(client, admin_user, reviewer, curator):
    audit_record(verb="answer.approve", obj=reviewer, actor=reviewer, note="by reviewer")
    audit_record(verb="version.upload", obj=curator, actor=curator, note="by curator")
    client.force_login(admin_user)

    page = client.get("/audit/?actor=rita&verb=answer.").content.decode()

    assert "by reviewer" in page
    assert "by curator" not in page


def test_audit_log_exports_csv(client, admin_user, reviewer):
    audit_record(verb="answer.approve", obj=reviewer, actor=reviewer, note="exported, with comma")
    client.force_login(admin_user)

    response = client.get("/audit/?format=csv")

    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:3] == ["time", "actor", "verb"]
    assert rows[1][1:3] == [reviewer.username, "answer.approve"]
    assert rows[1][-1] == "exported, with comma"
