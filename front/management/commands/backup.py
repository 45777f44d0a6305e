"""`manage.py backup DIR` (and `make backup`): the database in one snapshot and the secret key (front/backup.py)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from front.backup import BackupError, backup_create


class Command(BaseCommand):
    # The checks ask for a running Redis and workers; neither matters to a dump, and an operator runs this with
    # the console stopped.
    requires_system_checks: list[str] = []
    help = "Back up the database (pg_dump, one consistent snapshot) and the secret key into DIR (new or empty)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory", type=Path, help="where to write the backup; must be new or empty")

    def handle(self, *args, directory: Path, **options) -> None:
        try:
            manifest = backup_create(directory=directory, connection=connection, secret_key=settings.SECRET_KEY,
                                     progress=self.stdout.write)
        except BackupError as error:
            raise CommandError(str(error)) from None
        rows = sum(manifest["row_counts"].values())
        self.stdout.write(self.style.SUCCESS(
            f"Backed up {len(manifest['row_counts'])} tables ({rows} rows) and the secret key to {directory}. "
            "The secret key is in it: keep the backup where only administrators can read it."))
