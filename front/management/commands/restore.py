"""`manage.py restore DIR`: a backup (front/backup.py) into an empty database, or over one with --overwrite."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from front.backup import BackupError, backup_restore, secret_key_restore


class Command(BaseCommand):
    # The checks ask for a running Redis and workers; neither matters to a dump, and an operator runs this with
    # the console stopped.
    requires_system_checks: list[str] = []
    help = ("Restore a backup written by `backup` into this install's database, which must be empty "
            "(stop the console's web, worker and beat processes first).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory", type=Path, help="a directory written by `manage.py backup`")
        parser.add_argument("--overwrite", action="store_true",
                            help="replace everything in a database that already holds users, documents, answers "
                                 "or audit events")

    def handle(self, *args, directory: Path, overwrite: bool, **options) -> None:
        try:
            manifest = backup_restore(directory=directory, connection=connection, overwrite=overwrite,
                                      progress=self.stdout.write)
            still_to_do = secret_key_restore(directory=directory, current_key=settings.SECRET_KEY)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(
            f"Restored the backup of {manifest['created_at']} ({len(manifest['row_counts'])} tables, every row count "
            "checked) and its secret key."))
        if still_to_do:
            self.stdout.write(self.style.WARNING(still_to_do))
        self.stdout.write("Start the console again; `manage.py migrate` brings a backup of older code up to date.")
