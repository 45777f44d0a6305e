"""`seed_demo` (run by `make run`): demo users, documents and a question set the demo's own staff can open."""

from io import StringIO

import pytest
from django.core.management import call_command

from ask.selectors import question_sets_visible_to
from console.models import User
from kb.models import Document

pytestmark = pytest.mark.django_db


def test_the_demo_question_set_is_visible_to_the_demo_curator_and_approver_not_the_reviewer():
    call_command("seed_demo", stdout=StringIO())

    assert Document.objects.count() == 3
    visible = {name: list(question_sets_visible_to(User.objects.get(username=name)).values_list("name", flat=True))
               for name in ("curator", "approver", "admin", "reviewer")}
    assert visible == {"curator": ["Demo questions"], "approver": ["Demo questions"], "admin": ["Demo questions"],
                       "reviewer": []}  # internal clearance; the set reads the confidential handbook


def test_seeding_twice_changes_nothing():
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())

    assert Document.objects.count() == 3 and User.objects.filter(username="curator").count() == 1
    assert question_sets_visible_to(User.objects.get(username="admin")).count() == 1
