"""The knowledge base's own terms in this process's segmenter.

Indexing adds a version's terms (bold text, quoted names, short table cells) to the segmenter of the process that
indexes it; every other process — another worker, one restarted, the web process asking — would cut the same text
into other words ("国际出差" as one word in the passages, two in the question) and search, the Ask gate and the
checker would compare words cut differently. So search reads the terms of every indexed version it has not read
yet before it segments a query.
"""

from __future__ import annotations

from checking.languages import document_terms, language_for
from kb.models import DocumentVersion, IndexState

_TERMS_READ: set[int] = set()  # versions whose own terms this process's segmenter has


def knowledge_terms_load() -> None:
    """Give the segmenter the terms of every indexed version written without spaces."""
    waiting = (DocumentVersion.objects.filter(index_state=IndexState.READY).exclude(language="en")
               .exclude(pk__in=_TERMS_READ).only("pk", "text", "language"))
    for version in waiting:
        language_for(version.language).terms_add(document_terms(version.text, language=version.language))
        _TERMS_READ.add(version.pk)
