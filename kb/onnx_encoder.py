"""The BERT encoder both embedding graphs share, written with the `onnx` helper API.

all-MiniLM-L6-v2 (kb/onnx_model.py) and multilingual-e5-small (kb/onnx_e5.py) are the same network: word +
position + token-type-0 embeddings and a layer norm, then post-norm layers of multi-head attention and an exact-GELU
feed-forward, then a mean over the attended tokens. They differ only in how a weight is stored, so each model passes
its own `linear` and `layer_norm`, which look a weight up by its part's name (`PARTS`, `NORMS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

# The linear layers of encoder layer i are named f"l{i}.{part}", its layer norms f"l{i}.{norm}"; the embeddings'
# layer norm is "embeddings". Node outputs are f"l{i}_{...}" (the int8 builds exclude nodes by these names).
PARTS = ("query", "key", "value", "attention_output", "intermediate", "output")
NORMS = ("attention", "output")

Linear = Callable[[str, str, str], str]  # (input, weight name, output) → output
LayerNorm = Callable[[str, str, str], str]


@dataclass
class GraphBuilder:
    nodes: list = field(default_factory=list)
    initializers: list = field(default_factory=list)

    def const(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(self, op: str, inputs: list[str], output: str, **attrs) -> str:
        from onnx import helper

        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def model(self, *, name: str, producer: str, batch: str, output: str, width: int):
        """input_ids, attention_mask (int64, batch × tokens) → output (batch × width)."""
        from onnx import TensorProto, helper

        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [batch, "tokens"]),
             helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [batch, "tokens"])],
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, [batch, width])],
            self.initializers,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name=producer)
        model.ir_version = 8  # what opset 18 came with: newer onnx writes versions an older onnxruntime refuses
        return model


@dataclass(frozen=True)
class EncoderShape:
    hidden: int
    heads: int
    layers: int


def weight_names(*, linears: dict[str, str], norms: dict[str, str], embeddings_norm: str,
                 layers: int) -> tuple[dict[str, str], dict[str, str]]:
    """(linear, layer norm) weight name → the model's own tensor prefix, from templates with {i} for the layer."""
    if set(linears) != set(PARTS) or set(norms) != set(NORMS):
        raise ValueError("every encoder part needs its tensor name")
    linear = {f"l{i}.{part}": linears[part].format(i=i) for i in range(layers) for part in PARTS}
    norm = {f"l{i}.{part}": norms[part].format(i=i) for i in range(layers) for part in NORMS}
    return linear, {"embeddings": embeddings_norm, **norm}


def encoder(b: GraphBuilder, *, words: str, position_table: np.ndarray, token_type: np.ndarray,
            shape: EncoderShape, linear: Linear, layer_norm: LayerNorm) -> tuple[str, str]:
    """(final hidden states, the attention mask as float) for `words` (batch × tokens × hidden)."""
    from onnx import TensorProto

    hidden, heads = shape.hidden, shape.heads
    head_dim = hidden // heads
    # Embeddings: words + positions + token type 0 (single sentences only), then LayerNorm.
    seq_len = b.node("Slice", [b.node("Shape", ["input_ids"], "ids_shape"), b.const("one_i", np.array([1])),
                               b.const("two_i", np.array([2]))], "seq_len")
    positions = b.node("Slice", [b.const("position_table", position_table), b.const("zero_i", np.array([0])),
                                 seq_len, b.const("zero_axis", np.array([0]))], "positions")
    summed = b.node("Add", [b.node("Add", [words, positions], "words_pos"), b.const("token_type_0", token_type)],
                    "emb_sum")
    x = layer_norm(summed, "embeddings", "emb")

    # Additive attention mask: 0 where attended, -10000 on padding; batch × 1 × 1 × tokens.
    mask_f = b.node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    mask_add = b.node("Mul", [b.node("Sub", [b.const("one_f", np.array(1.0, np.float32)), mask_f], "mask_inv"),
                              b.const("neg_big", np.array(-10000.0, np.float32))], "mask_add")
    mask_4d = b.node("Unsqueeze", [mask_add, b.const("axes_1_2", np.array([1, 2]))], "mask_4d")
    split_heads = b.const("split_heads", np.array([0, 0, heads, head_dim]))
    merge_heads = b.const("merge_heads", np.array([0, 0, hidden]))
    scale = b.const("scale", np.array(1.0 / np.sqrt(head_dim), np.float32))
    sqrt2 = b.const("sqrt2", np.array(np.sqrt(2.0), np.float32))
    half = b.const("half", np.array(0.5, np.float32))

    for i in range(shape.layers):
        n = f"l{i}"

        def heads_of(kind: str, perm: list[int]) -> str:
            projected = linear(x, f"{n}.{kind}", f"{n}_{kind}")
            return b.node("Transpose", [b.node("Reshape", [projected, split_heads], f"{n}_{kind}_4d")],
                          f"{n}_{kind}_t", perm=perm)

        q, k, v = heads_of("query", [0, 2, 1, 3]), heads_of("key", [0, 2, 3, 1]), heads_of("value", [0, 2, 1, 3])
        scores = b.node("Add", [b.node("Mul", [b.node("MatMul", [q, k], f"{n}_qk"), scale], f"{n}_scaled"),
                                mask_4d], f"{n}_scores")
        context = b.node("MatMul", [b.node("Softmax", [scores], f"{n}_probs", axis=-1), v], f"{n}_ctx")
        context = b.node("Reshape", [b.node("Transpose", [context], f"{n}_ctx_t", perm=[0, 2, 1, 3]), merge_heads],
                         f"{n}_ctx_2d")
        attended = linear(context, f"{n}.attention_output", f"{n}_attn_out")
        x = layer_norm(b.node("Add", [attended, x], f"{n}_attn_res"), f"{n}.attention", f"{n}_attn")
        inner = linear(x, f"{n}.intermediate", f"{n}_inner")
        gelu_erf = b.node("Erf", [b.node("Div", [inner, sqrt2], f"{n}_gelu_div")], f"{n}_gelu_erf")
        gelu = b.node("Mul", [b.node("Mul", [inner, b.node("Add", [gelu_erf, "one_f"], f"{n}_gelu_add")],
                                     f"{n}_gelu_mul"), half], f"{n}_gelu")  # exact GELU, x * (1 + erf(x/√2)) / 2
        out = linear(gelu, f"{n}.output", f"{n}_out")
        x = layer_norm(b.node("Add", [out, x], f"{n}_out_res"), f"{n}.output", f"{n}_hidden")
    return x, mask_f


def token_mean(b: GraphBuilder, *, hidden_states: str, mask_f: str, min_count: float, output: str) -> str:
    """The mean of the hidden states over the attended tokens (sentence-transformers' Pooling)."""
    mask_3d = b.node("Unsqueeze", [mask_f, b.const("axis_last", np.array([-1]))], "mask_3d")
    axis_tokens = b.const("axis_tokens", np.array([1]))
    total = b.node("ReduceSum", [b.node("Mul", [hidden_states, mask_3d], "masked"), axis_tokens], "total",
                   keepdims=0)
    count = b.node("Max", [b.node("ReduceSum", [mask_3d, axis_tokens], "count_raw", keepdims=0),
                           b.const("min_count", np.array(min_count, np.float32))], "count")
    return b.node("Div", [total, count], output)
