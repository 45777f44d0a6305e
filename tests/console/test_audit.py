import pytest

from console.audit import audit_record
from console.models import AuditEvent


@pytest.mark.django_db
def test_audit_events_are_append_only(reviewer):
    event = audit_record(verb="user.touched", obj=reviewer, actor=reviewer, after={"x": 1})

    event.note = "rewritten"
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        AuditEvent.objects.filter(pk=event.pk).update(note="rewritten")
    with pytest.raises(TypeError):
        AuditEvent.objects.all().delete()

    stored = AuditEvent.objects.get(pk=event.pk)
    assert stored.note == ""
    assert stored.object_type == "console.user"
    assert stored.object_id == str(reviewer.pk)
    assert stored.actor_display == reviewer.username
