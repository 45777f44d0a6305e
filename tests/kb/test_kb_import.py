import pytest
from django.core.management import CommandError, call_command

from console.models import AuditEvent
from kb.models import Document, VersionStatus

pytestmark = pytest.mark.django_db


def test_import_and_approve_is_audited_as_kb_import(tmp_path, curator, approver):
    source = tmp_path / "refund-policy.md"
    source.write_text("# Refund policy\n\nRefunds within 14 days.\n")

    call_command("kb_import", str(source), "--owner", curator.username, "--approve-as", approver.username,
                 "--security-level", "public", "--expires-at", "2099-01-01")

    document = Document.objects.get(key="refund-policy")
    version = document.versions.get()
    assert document.title == "Refund policy"
    assert document.security_level == "public"
    assert version.status == VersionStatus.APPROVED
    assert version.expires_at.year == 2099
    event = AuditEvent.objects.get(verb="version.approve")
    assert (event.actor, event.actor_label) == (approver, "kb_import")


def test_approve_as_a_user_below_the_documents_level_is_refused_before_anything_is_imported(
    tmp_path, make_user, approver,
):
    senior = make_user("sena", "curator", clearance="restricted")
    plain = tmp_path / "plain.md"
    plain.write_text("# Plain\n\ntext\n")
    merger = tmp_path / "merger.md"
    merger.write_text("# Merger\n\ntext\n")

    refusal = (r"--approve-as april: .*plain.md is a restricted document \(plain\), "
               r"above their clearance \(confidential\); nothing was imported")
    with pytest.raises(CommandError, match=refusal):
        call_command("kb_import", str(plain), str(merger), "--owner", senior.username,
                     "--approve-as", approver.username, "--security-level", "restricted")

    assert not Document.objects.exists()


def test_approve_as_is_checked_against_an_existing_documents_level(tmp_path, make_user, approver):
    senior = make_user("sena", "curator", clearance="restricted")
    source = tmp_path / "merger.md"
    source.write_text("# Merger\n\none\n")
    call_command("kb_import", str(source), "--owner", senior.username, "--security-level", "restricted")
    source.write_text("# Merger\n\ntwo\n")

    with pytest.raises(CommandError, match="restricted document"):  # --security-level public does not lower it
        call_command("kb_import", str(source), "--owner", senior.username, "--approve-as", approver.username,
                     "--security-level", "public")

    assert Document.objects.get(key="merger").versions.count() == 1


def test_import_refuses_bad_files_and_reports_each(tmp_path, curator):
    good = tmp_path / "good.md"
    good.write_text("# Good\n\ntext\n")
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\xff\xfe bad")

    with pytest.raises(CommandError, match="1 of 2 files were not imported"):
        call_command("kb_import", str(good), str(bad), "--owner", curator.username)

    assert list(Document.objects.values_list("key", flat=True)) == ["good"]


def test_import_of_a_known_key_adds_a_version(tmp_path, curator):
    source = tmp_path / "guide.md"
    source.write_text("# Guide\n\none\n")
    call_command("kb_import", str(source), "--owner", curator.username)
    source.write_text("# Guide\n\ntwo\n")

    call_command("kb_import", str(source), "--owner", curator.username)

    assert list(Document.objects.get(key="guide").versions.values_list("number", flat=True)) == [2, 1]


def test_unknown_owner_is_a_clear_error(tmp_path):
    source = tmp_path / "x.md"
    source.write_text("# X\n")

    with pytest.raises(CommandError, match="no user named 'ghost'"):
        call_command("kb_import", str(source), "--owner", "ghost")


def test_import_detects_each_files_language_unless_told(tmp_path, curator):
    chinese = tmp_path / "leave-policy.md"
    chinese.write_text("# 休假制度\n\n员工入职满一年后享有五天带薪年假。\n", encoding="utf-8")
    english = tmp_path / "guide.md"
    english.write_text("# Guide\n\nRefunds within 14 days.\n")
    told = tmp_path / "mixed.md"
    told.write_text("# 休假制度\n\n员工入职满一年后享有五天带薪年假。\n", encoding="utf-8")

    call_command("kb_import", str(chinese), str(english), "--owner", curator.username)
    call_command("kb_import", str(told), "--owner", curator.username, "--language", "en")

    languages = dict(Document.objects.values_list("key", "versions__language"))
    assert languages == {"leave-policy": "zh", "guide": "en", "mixed": "en"}
