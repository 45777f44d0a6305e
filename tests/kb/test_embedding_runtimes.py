"""The int8 ONNX runtime (the default) against the torch reference: the same model within cosine 0.99, built from
the packaged weights into the configured cache directory."""

import numpy as np
import pytest

from kb import onnx_model
from kb.embeddings import OnnxProvider, TorchProvider, length_batches

TEXTS = [
    "Refunds for annual plans are prorated to the day.",
    "Economy class is booked for flights under 6 hours; business class is allowed on longer flights.",
    "| Berlin | 140 euros |",
    "laptop",
    "The dinner allowance is 40 euros per day, and receipts are required for every expense above 25 euros "
    "submitted through the travel portal within 30 days of the trip's end. " * 4,
]


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("models")


def test_onnx_runtime_matches_torch_within_cosine_099(settings, onnx_cache):
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    onnx_vectors = np.array(OnnxProvider().embed(TEXTS))
    torch_vectors = np.array(TorchProvider().embed(TEXTS))

    assert onnx_vectors.shape == torch_vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(onnx_vectors, axis=1), 1.0, atol=1e-4)
    assert (onnx_vectors * torch_vectors).sum(axis=1).min() >= 0.99
    assert OnnxProvider.model_id != TorchProvider.model_id  # their stored vectors are never mixed


def test_onnx_graph_is_built_once_into_the_cache_directory(settings, onnx_cache):
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    path = onnx_model.quantized_model_path(onnx_cache)
    built_at = path.stat().st_mtime_ns

    assert path.parent == onnx_cache and f"-v{onnx_model.BUILD_VERSION}.onnx" in path.name
    assert onnx_model.quantized_model_path(onnx_cache).stat().st_mtime_ns == built_at


def test_onnx_vectors_do_not_depend_on_the_other_texts_in_the_call(settings, onnx_cache):
    """Padding is masked out: a text embedded alone or beside a long one gets the same vector."""
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    provider = OnnxProvider()
    alone = np.array(provider.embed([TEXTS[0]]))[0]
    together = np.array(provider.embed(TEXTS))[0]

    assert float(alone @ together) > 0.9999


def test_length_batches_keep_similar_lengths_together():
    lengths = [3, 250, 30, 4, 240, 32, 3] + [5] * 40

    batches = length_batches(lengths)

    assert sorted(k for batch in batches for k in batch) == list(range(len(lengths)))
    assert all(len(batch) <= 32 for batch in batches)
    assert all(max(lengths[k] for k in batch) <= 1.3 * max(min(lengths[k] for k in batch), 8) for batch in batches)
    assert {1, 4} in [set(batch) for batch in batches]  # the two long chunks share a pass, without the units
