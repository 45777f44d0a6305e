"""manage.py checker_models: the versions listed, current first; a rollback with nothing before it refused."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from review.learning.adopted import adopted_checker
from review.learning.models import CheckerModel

pytestmark = pytest.mark.django_db


def test_a_new_database_lists_the_shipped_model_as_current_with_its_release_threshold():
    stdout = StringIO()
    call_command("checker_models", stdout=stdout)

    shipped = CheckerModel.objects.get()
    assert shipped.is_current and shipped.origin == "shipped" and shipped.adopted_label == "the console on first start"
    row = stdout.getvalue().splitlines()[1]
    assert row.split()[:2] == [str(shipped.pk), "current"] and f"{shipped.release_threshold:.3f}" in row


def test_a_rollback_with_no_earlier_model_is_refused_and_changes_nothing():
    current = adopted_checker().model_id

    with pytest.raises(CommandError, match="there is no earlier model to roll back to"):
        call_command("checker_models", "--rollback")

    assert adopted_checker().model_id == current
