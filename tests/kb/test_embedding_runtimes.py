"""The ONNX runtime against the torch reference: float32 (the default) gives torch's vectors, int8 stays within
cosine 0.99; both are built from the packaged weights into the configured cache directory."""

import numpy as np
import pytest

from kb import onnx_model
from kb.embeddings import OnnxProvider, Role, TorchProvider, length_batches

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


@pytest.mark.parametrize(("precision", "min_cosine"), [("float32", 0.9999), ("int8", 0.99)])
def test_onnx_runtime_matches_torch(settings, onnx_cache, precision, min_cosine):
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    onnx = OnnxProvider(precision=precision)
    onnx_vectors = np.array(onnx.embed(TEXTS, role=Role.PASSAGE))
    torch_vectors = np.array(TorchProvider().embed(TEXTS, role=Role.PASSAGE))

    assert onnx_vectors.shape == torch_vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(onnx_vectors, axis=1), 1.0, atol=1e-4)
    assert (onnx_vectors * torch_vectors).sum(axis=1).min() >= min_cosine
    assert onnx.model_id != TorchProvider.model_id  # their stored vectors are never mixed


def test_the_default_runtime_is_float32_onnx_with_an_id_per_precision(settings):
    from kb.embeddings import local_provider

    assert local_provider().model_id == "onnx-float32-v2:all-MiniLM-L6-v2"
    assert OnnxProvider(precision="int8").model_id == "onnx-int8-v2:all-MiniLM-L6-v2"  # vectors stored before


@pytest.mark.parametrize("precision", onnx_model.PRECISIONS)
def test_onnx_graph_is_built_once_into_the_cache_directory(settings, onnx_cache, precision):
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    path = onnx_model.model_path(onnx_cache, precision=precision)
    built_at = path.stat().st_mtime_ns

    assert path.parent == onnx_cache and f"{precision}-" in path.name
    assert f"-v{onnx_model.BUILD_VERSION}.onnx" in path.name
    assert onnx_model.model_path(onnx_cache, precision=precision).stat().st_mtime_ns == built_at


def test_onnx_vectors_do_not_depend_on_the_other_texts_in_the_call(settings, onnx_cache):
    """Padding is masked out: a text embedded alone or beside a long one gets the same vector."""
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    provider = OnnxProvider(precision="int8")  # the quantised graph pads like the float one
    alone = np.array(provider.embed([TEXTS[0]], role=Role.PASSAGE))[0]
    together = np.array(provider.embed(TEXTS, role=Role.PASSAGE))[0]

    assert float(alone @ together) > 0.9999


def test_length_batches_keep_similar_lengths_together():
    lengths = [3, 250, 30, 4, 240, 32, 3] + [5] * 40

    batches = length_batches(lengths)

    assert sorted(k for batch in batches for k in batch) == list(range(len(lengths)))
    assert all(len(batch) <= 32 for batch in batches)
    assert all(max(lengths[k] for k in batch) <= 1.3 * max(min(lengths[k] for k in batch), 8) for batch in batches)
    assert {1, 4} in [set(batch) for batch in batches]  # the two long chunks share a pass, without the units
