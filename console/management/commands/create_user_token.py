from django.core.management.base import BaseCommand, CommandError

from console import roles
from console.models import User
from console.personal_tokens import PersonalTokenInvalid, personal_token_create


class Command(BaseCommand):
    help = ("Create a personal token for a person and print it (shown once; only a hash is stored). The token acts "
            "as the person on the review API, with their roles and clearance (README \"Review API\").")

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="what the token is for (shown in their list)")

    def handle(self, *args, username: str, name: str, **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if not user.is_active:
            raise CommandError(f"{username} is deactivated: a token of theirs would not work")
        try:
            personal_token, token = personal_token_create(user=user, name=name,
                                                          actor_label=f"manage.py create_user_token {username}"[:150])
        except PersonalTokenInvalid as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"personal token {personal_token.name!r} for {user.username} (clearance {user.clearance})")
        self.stdout.write(f"token: {token}")
        if not user.has_role(roles.REVIEWER):
            self.stdout.write(f"note: {user.username} holds no reviewer role: the review API will answer 403 "
                              "until they do")
        self.stdout.write("Store the token now: it cannot be shown again.")
