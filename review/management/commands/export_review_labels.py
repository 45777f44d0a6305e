"""Write reviewers' labels in the shared external format, one JSON object per line.

    python manage.py export_review_labels --output labels.jsonl [--clearance internal] [--source audit_sample]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand

from console.models import SecurityLevel
from review.learning.review_labels import labels_exported
from review.learning.models import LabelSource, ReviewLabel


class Command(BaseCommand):
    help = 'Export review labels as JSON lines: {"id", "source", "evidence", "question", "answer", "label", ...}.'

    def add_arguments(self, parser) -> None:
        parser.add_argument("--output", help="file to write (default: standard output)")
        parser.add_argument("--clearance", default=SecurityLevel.RESTRICTED, choices=SecurityLevel.values,
                            help="only labels of answers whose evidence this clearance may read")
        parser.add_argument("--source", choices=LabelSource.values, help="only labels from this source")

    def handle(self, *args, output: str | None, clearance: str, source: str | None, **options) -> None:
        labels = ReviewLabel.objects.filter(answer__evidence_level__in=SecurityLevel.up_to(clearance))
        if source:
            labels = labels.filter(source=source)
        handle = Path(output).open("w", encoding="utf-8") if output else sys.stdout
        count = 0
        try:
            for row in labels_exported(labels):
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                count += 1
        finally:
            if output:
                handle.close()
        self.stderr.write(f"{count} labels written{f' to {output}' if output else ''}")
