"""List the scoring model's versions (current first, then newest), or roll back to the one the current replaced.

    python manage.py checker_models
    python manage.py checker_models --rollback
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from review.learning.adopted import adopted_checker
from review.learning.services import LearningError, checker_model_rollback
from review.learning.models import CheckerModel


class Command(BaseCommand):
    help = "List the checker's scoring models, or roll back to the previous one (audited)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rollback", action="store_true",
                            help="make the model the current one replaced current again")

    def handle(self, *args, rollback: bool, **options) -> None:
        adopted_checker()  # a new database gets its shipped model row
        if rollback:
            try:
                restored = checker_model_rollback(actor_label="manage.py checker_models --rollback")
            except LearningError as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write(f"rolled back: model {restored.pk} ({restored.get_origin_display()}) is current again")
        self.stdout.write(f"{'id':>4}  {'state':<12}{'origin':<30}{'family':<22}{'labels':>7}  {'release at':>10}  "
                          "held-out balanced (current -> this)  adopted")
        rows = sorted(CheckerModel.objects.select_related("adopted_by"), key=lambda m: (not m.is_current, -m.pk))
        for model in rows:
            refit = model.figures.get("families", {}).get(model.family) if model.family else None
            figures = (f"{model.figures['current']['balanced']:.3f} -> {refit['balanced']:.3f}"
                       if refit and "current" in model.figures else "-")
            adopted = "-"
            if model.adopted_at:
                who = model.adopted_by.username if model.adopted_by else model.adopted_label
                adopted = f"{model.adopted_at:%Y-%m-%d %H:%M} by {who}"
            self.stdout.write(f"{model.pk:>4}  {model.state:<12}{model.get_origin_display():<30}"
                              f"{model.family or '-':<22}{model.labels_used:>7}  {model.release_threshold:>10.3f}  "
                              f"{figures:<36}{adopted}")
            if model.refusal:
                self.stdout.write(f"      refused: {model.refusal}")
