from datetime import timedelta
from pathlib import Path

from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone

from console import roles
from console.models import SecurityLevel, User

DEMO_PASSWORD = "demo-password"
DEMO_DOCUMENTS_DIR = Path(__file__).resolve().parents[3] / "kb" / "demo"
DEMO_QUESTIONS = Path(__file__).resolve().parents[3] / "eval" / "questions-demo.jsonl"
DEMO_QUESTION_SET = "Demo questions"
# file stem -> (security level, days until expiry or None)
DEMO_DOCUMENTS: dict[str, tuple[str, int | None]] = {
    "product-faq": (SecurityLevel.PUBLIC, None),
    "travel-policy": (SecurityLevel.INTERNAL, 21),  # shows up in "expiring in 30 days"
    "security-handbook": (SecurityLevel.CONFIDENTIAL, 365),
}
# username -> (roles, clearance)
DEMO_USERS: dict[str, tuple[tuple[str, ...], str]] = {
    "curator": ((roles.CURATOR,), SecurityLevel.CONFIDENTIAL),  # imports the confidential handbook
    "approver": ((roles.APPROVER,), SecurityLevel.CONFIDENTIAL),
    "reviewer": ((roles.REVIEWER,), SecurityLevel.INTERNAL),
    "reviewer2": ((roles.REVIEWER,), SecurityLevel.INTERNAL),
    "admin": ((roles.ADMIN,), SecurityLevel.RESTRICTED),
    "viewer": ((roles.VIEWER,), SecurityLevel.PUBLIC),
}


class Command(BaseCommand):
    help = "Create the role groups and demo users (idempotent). Existing users keep their passwords."

    def handle(self, *args, **options) -> None:
        for name in roles.ALL_ROLES:
            Group.objects.get_or_create(name=name)
        for username, (user_roles, clearance) in DEMO_USERS.items():
            user, created = User.objects.get_or_create(username=username, defaults={"clearance": clearance})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.is_staff = roles.ADMIN in user_roles
                user.save()
                user.groups.set(Group.objects.filter(name__in=user_roles))
        self._import_demo_documents()
        self._save_demo_question_set()
        self.stdout.write("Demo users: " + ", ".join(DEMO_USERS) + f" (password: {DEMO_PASSWORD})")

    def _import_demo_documents(self) -> None:
        from kb.models import Document

        for stem, (level, expires_in_days) in DEMO_DOCUMENTS.items():
            if Document.objects.filter(key=stem).exists():
                continue
            options = ["--owner", "curator", "--approve-as", "approver", "--security-level", level]
            if expires_in_days is not None:
                options += ["--expires-at", (timezone.now() + timedelta(days=expires_in_days)).date().isoformat()]
            call_command("kb_import", str(DEMO_DOCUMENTS_DIR / f"{stem}.md"), *options, stdout=self.stdout)

    def _save_demo_question_set(self) -> None:
        """The demo question set, saved and run once (a worker runs it once the demo documents are indexed), so
        the dashboard shows a run; it then re-runs on every change. Its conflict questions name fixture documents
        the demo knowledge base does not hold: not applicable."""
        from ask.models import QuestionSet, RunTrigger
        from ask.regression import question_set_save

        if QuestionSet.objects.filter(name=DEMO_QUESTION_SET).exists():
            return
        # The demo's highest document level: the demo curator and approver (cleared for it) see the runs.
        clearance = max((level for level, _ in DEMO_DOCUMENTS.values()), key=SecurityLevel.rank)
        question_set_save(name=DEMO_QUESTION_SET, text=DEMO_QUESTIONS.read_text(encoding="utf-8"),
                          source_filename=DEMO_QUESTIONS.name, clearance=clearance,
                          user=None, trigger=RunTrigger.SEED)
        self.stdout.write(f"Saved the question set “{DEMO_QUESTION_SET}”; a worker runs it once the demo is indexed.")
