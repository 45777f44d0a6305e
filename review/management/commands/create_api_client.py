from django.core.management.base import BaseCommand, CommandError

from console.models import SecurityLevel
from review.models import ApiClient
from review.services import api_client_create


class Command(BaseCommand):
    help = "Create an API client and print its bearer token (shown once; only a hash is stored)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        parser.add_argument("--clearance", default=SecurityLevel.INTERNAL, choices=SecurityLevel.values)

    def handle(self, *args, name: str, clearance: str, **options) -> None:
        if ApiClient.objects.filter(name=name).exists():
            raise CommandError(f"an API client named {name!r} already exists")
        client, token = api_client_create(name=name, clearance=clearance)
        self.stdout.write(f"API client {client.name} (clearance {client.clearance})")
        self.stdout.write(f"token: {token}")
        self.stdout.write(f"webhook secret: {client.webhook_secret}")
        self.stdout.write("Store the token now: it cannot be shown again.")
