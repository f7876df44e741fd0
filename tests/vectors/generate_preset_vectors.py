#!/usr/bin/python3
"""Writes tests/vectors/presets/<preset>.json: the sinusoidal embedding each
library computes, re-implemented in float64 numpy from the library's source.

Run with Debian's interpreter (numpy from python3-numpy):
    /usr/bin/python3 tests/vectors/generate_preset_vectors.py

Each reference below follows its source line by line (same operations, same
order, same division-by-zero behaviour) but in float64, so the vectors are
the exact-arithmetic intent of the code, not its float32 rounding.

A case is either
  {name, options, rows, cols, zeroRows, zeroColumns, rowMaxAngle, values}
where `options` is what a caller passes to table(), `values` is rows x cols
row-major, `rowMaxAngle[r]` is max_i |angle| of row r (the tests scale their
float64 tolerance by it), or
  {name, options, error, reason}
when the source raises, or returns NaN or a table of another width.
"""

import json
import math
import os
import sys

import numpy as np

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "presets")

SOURCES = {
    "paper": {
        "repository": "keras-team/keras-hub",
        "file": "keras_hub/src/layers/modeling/sine_position_encoding.py",
        "function": "SinePositionEncoding.call",
        "also": [
            "harvardnlp/annotated-transformer the_annotated_transformer.py "
            "PositionalEncoding (even d only)",
            "huggingface/transformers "
            "src/transformers/models/distilbert/modeling_distilbert.py "
            "create_sinusoidal_embeddings",
        ],
    },
    "tensor2tensor": {
        "repository": "tensorflow/tensor2tensor",
        "file": "tensor2tensor/layers/common_attention.py",
        "function": "get_timing_signal_1d",
    },
    "fairseq": {
        "repository": "facebookresearch/fairseq",
        "file": "fairseq/modules/sinusoidal_positional_embedding.py",
        "function": "SinusoidalPositionalEmbedding.get_embedding",
    },
    "whisper": {
        "repository": "openai/whisper",
        "file": "whisper/model.py",
        "function": "sinusoids",
    },
    "diffusers": {
        "repository": "huggingface/diffusers",
        "file": "src/diffusers/models/embeddings.py",
        "function": "get_timestep_embedding",
    },
    "guided-diffusion": {
        "repository": "openai/guided-diffusion",
        "file": "guided_diffusion/nn.py",
        "function": "timestep_embedding",
    },
    "marian": {
        "repository": "huggingface/transformers",
        "file": "src/transformers/models/marian/modeling_marian.py",
        "function": "MarianSinusoidalPositionalEmbedding",
    },
    "mlx": {
        "repository": "ml-explore/mlx",
        "file": "python/mlx/nn/layers/positional_encoding.py",
        "function": "SinusoidalPositionalEncoding",
    },
}


class SourceError(Exception):
    """The source raises, or yields something that is not a d-column table."""

    def __init__(self, kind, reason):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def as_positions(positions, start=0.0):
    """A count means start, start + 1, ...; otherwise explicit positions."""
    if isinstance(positions, int):
        return np.arange(positions, dtype=np.float64) + float(start)
    return np.asarray(positions, dtype=np.float64)


def finite_or_raise(table, reason):
    if not np.all(np.isfinite(table)):
        raise SourceError("RangeError", reason)
    return table


# --- paper: keras-hub SinePositionEncoding / DistilBERT / annotated-transformer


def paper(positions, dim, max_wavelength=10000.0):
    # keras-hub: timescales = (1/max_wavelength) ** (2 * (j // 2) / d),
    # angle = position * timescale; even j -> sin, odd j -> cos. For odd d
    # the last column is the sin of frequency index d // 2 (DistilBERT's
    # position_enc[:, 0::2] has the same ceil(d/2) columns).
    j = np.arange(dim)
    min_freq = 1.0 / max_wavelength
    timescales = np.power(min_freq, (2 * (j // 2)).astype(np.float64) / dim)
    angles = positions[:, None] * timescales[None, :]
    cos_mask = (j % 2).astype(np.float64)
    table = np.where(cos_mask == 1, np.cos(angles), np.sin(angles))
    return table, angles


# --- tensor2tensor: common_attention.get_timing_signal_1d


def tensor2tensor(positions, channels, min_timescale=1.0, max_timescale=1.0e4):
    num_timescales = channels // 2
    log_timescale_increment = math.log(
        float(max_timescale) / float(min_timescale)
    ) / max(float(num_timescales) - 1, 1)
    inv_timescales = min_timescale * np.exp(
        np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment
    )
    scaled_time = positions[:, None] * inv_timescales[None, :]
    signal = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    signal = np.pad(signal, [[0, 0], [0, channels % 2]])
    return signal, scaled_time


# --- fairseq: SinusoidalPositionalEmbedding.get_embedding, indexed by rows


def fairseq(rows, embedding_dim, padding_idx=None):
    # get_embedding(num_embeddings, ...) is this with rows = 0..num-1; forward
    # indexes that table with utils.make_positions (padding_idx + 1, ...), so
    # rows holds table indices.
    half_dim = embedding_dim // 2
    if half_dim - 1 == 0:
        raise SourceError(
            "RangeError",
            "math.log(10000) / (half_dim - 1) raises ZeroDivisionError "
            "when embedding_dim // 2 == 1",
        )
    emb = math.log(10000) / (half_dim - 1)
    emb = np.exp(np.arange(half_dim, dtype=np.float64) * -emb)
    emb = rows[:, None] * emb[None, :]
    angles = emb
    emb = np.concatenate([np.sin(emb), np.cos(emb)], axis=1)
    if embedding_dim % 2 == 1:
        emb = np.concatenate([emb, np.zeros((len(rows), 1))], axis=1)
    if padding_idx is not None:
        emb[rows == padding_idx, :] = 0
    return emb, angles


# --- whisper: model.sinusoids


def whisper(positions, channels, max_timescale=10000):
    if channels % 2 != 0:
        raise SourceError("RangeError", "assert channels % 2 == 0")
    with np.errstate(divide="ignore", invalid="ignore"):
        log_timescale_increment = np.float64(np.log(max_timescale)) / (
            channels // 2 - 1
        )
        inv_timescales = np.exp(
            -log_timescale_increment * np.arange(channels // 2)
        )
        scaled_time = positions[:, np.newaxis] * inv_timescales[np.newaxis, :]
        table = np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)
    finite_or_raise(
        table, "np.log(max_timescale) / (channels // 2 - 1) divides by zero: NaN"
    )
    return table, scaled_time


# --- diffusers: embeddings.get_timestep_embedding


def diffusers(
    timesteps,
    embedding_dim,
    flip_sin_to_cos=False,
    downscale_freq_shift=1,
    scale=1,
    max_period=10000,
):
    half_dim = embedding_dim // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = -math.log(max_period) * np.arange(0, half_dim, dtype=np.float64)
        exponent = exponent / (half_dim - downscale_freq_shift)
        emb = np.exp(exponent)
        emb = timesteps[:, None] * emb[None, :]
        emb = scale * emb
        angles = emb
        emb = np.concatenate([np.sin(emb), np.cos(emb)], axis=-1)
    if flip_sin_to_cos:
        emb = np.concatenate([emb[:, half_dim:], emb[:, :half_dim]], axis=-1)
    if embedding_dim % 2 == 1:
        emb = np.pad(emb, [(0, 0), (0, 1)])
    finite_or_raise(
        emb, "exponent / (half_dim - downscale_freq_shift) divides by zero: NaN"
    )
    return emb, angles


# --- guided-diffusion: nn.timestep_embedding


def guided_diffusion(timesteps, dim, max_period=10000):
    half = dim // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        freqs = np.exp(
            -math.log(max_period) * np.arange(0, half, dtype=np.float64) / half
        )
    args = timesteps[:, None] * freqs[None]
    embedding = np.concatenate([np.cos(args), np.sin(args)], axis=-1)
    # For dim 1, embedding[:, :1] has no column: nothing is appended.
    if dim % 2:
        embedding = np.concatenate([embedding, np.zeros_like(embedding[:, :1])], -1)
    return embedding, args


# --- marian: MarianSinusoidalPositionalEmbedding._init_weight / forward


def marian(position_ids, dim):
    position_enc = position_ids[:, None] / np.power(
        10000.0, 2 * (np.arange(dim) // 2) / dim
    )[None, :]
    out = np.empty((len(position_ids), dim))
    sentinel = dim // 2 if dim % 2 == 0 else (dim // 2) + 1
    out[:, 0:sentinel] = np.sin(position_enc[:, 0::2])
    out[:, sentinel:] = np.cos(position_enc[:, 1::2])
    return out, position_enc


# --- mlx: nn.SinusoidalPositionalEncoding, as of release v0.32.1 (commit
# 3a6219917e45): odd and non-positive dims raise, dims 2 has the one
# frequency max_freq (since 8f0e8b14e, v0.32.0), and an explicit scale is
# kept even when 0 (since bcfced932, v0.32.1).


def mlx(x, dims, min_freq=0.0001, max_freq=1, scale=None, cos_first=False,
        full_turns=False):
    if dims <= 0 or dims % 2 != 0:
        raise SourceError("RangeError", "dims must be positive and even (ValueError)")
    if dims == 2:
        one_zero = np.array([1.0])
    else:
        one_zero = 1 - np.arange(0, dims // 2, dtype=np.float64) / (dims // 2 - 1)
    if not (min_freq > 0 and max_freq > 0):
        raise SourceError("RangeError", "math.log raises ValueError for <= 0")
    min_freq = math.log(min_freq)
    max_freq = math.log(max_freq)
    sigmas = np.exp(one_zero * (max_freq - min_freq) + min_freq)
    if full_turns:
        sigmas = sigmas * (2 * math.pi)
    scale = scale if scale is not None else (2 / dims) ** 0.5
    y = x[..., None] * sigmas
    angles = y
    cosy = np.cos(y)
    siny = np.sin(y)
    if cos_first:
        y = np.concatenate([cosy, siny], axis=-1)
    else:
        y = np.concatenate([siny, cosy], axis=-1)
    if scale != 1:
        y = y * scale
    return y, angles


# --- cases

BIG = [0, 1, 2, 3, 10, 100, 1000, 50000]
SHORT = [0, 1, 17, 1000, 50000]
WIDE = [0, 5, 1000, 50000]
TIMESTEPS = [0, 0.5, 1, 2.25, 17.75, 250.125, 999, 999.5]


def positions_for(dim):
    """Small dims get more rows; wide tables few."""
    if dim <= 64:
        return BIG
    if dim <= 127:
        return SHORT
    return WIDE


def case(name, options, compute, rows_for_zero=None, zero_cols=()):
    try:
        table, angles = compute()
    except SourceError as e:
        return {"name": name, "options": options, "error": e.kind, "reason": e.reason}
    table = np.asarray(table, dtype=np.float64)
    if table.shape[1] != options["dim"]:
        return {
            "name": name,
            "options": options,
            "error": "RangeError",
            "reason": "the source returns %d columns, not %d"
            % (table.shape[1], options["dim"]),
        }
    zero_rows = [] if rows_for_zero is None else rows_for_zero
    max_angle = (
        np.max(np.abs(angles), axis=1) if angles.size else np.zeros(table.shape[0])
    )
    return {
        "name": name,
        "options": options,
        "rows": table.shape[0],
        "cols": table.shape[1],
        "zeroRows": list(zero_rows),
        "zeroColumns": list(zero_cols),
        "rowMaxAngle": [float(a) for a in max_angle],
        "values": [float(v) for v in table.reshape(-1)],
    }


DIMS = [1, 2, 3, 4, 5, 63, 64, 127, 512, 768]


def paper_cases():
    out = []
    for d in DIMS:
        pos = positions_for(d)
        opts = {"preset": "paper", "dim": d, "positions": pos}
        out.append(case("d=%d" % d, opts, lambda: paper(as_positions(pos), d)))
    out.append(
        case(
            "count with startIndex",
            {"preset": "paper", "dim": 16, "positions": 6, "startIndex": 7},
            lambda: paper(as_positions(6, 7), 16),
        )
    )
    out.append(
        case(
            "maxWavelength 1000, odd d",
            {"preset": "paper", "dim": 9, "positions": [0, 1, 2.5, 400],
             "maxWavelength": 1000},
            lambda: paper(as_positions([0, 1, 2.5, 400]), 9, 1000.0),
        )
    )
    out.append(
        case(
            "count, default start",
            {"preset": "paper", "dim": 8, "positions": 5},
            lambda: paper(as_positions(5), 8),
        )
    )
    return out


def t2t_cases():
    out = []
    for d in DIMS:
        pos = positions_for(d)
        zc = [d - 1] if d % 2 else []
        out.append(
            case(
                "d=%d" % d,
                {"preset": "tensor2tensor", "dim": d, "positions": pos},
                lambda: tensor2tensor(as_positions(pos), d),
                zero_cols=zc,
            )
        )
    out.append(
        case(
            "count with startIndex",
            {"preset": "tensor2tensor", "dim": 12, "positions": 5, "startIndex": 3},
            lambda: tensor2tensor(as_positions(5, 3), 12),
        )
    )
    # min_timescale multiplies the inverse timescales in the source.
    out.append(
        case(
            "minTimescale 2, maxTimescale 500",
            {"preset": "tensor2tensor", "dim": 10, "positions": [0, 1, 3, 77],
             "minTimescale": 2, "maxTimescale": 500},
            lambda: tensor2tensor(as_positions([0, 1, 3, 77]), 10, 2.0, 500.0),
        )
    )
    out.append(
        case(
            "minTimescale 0.5, odd d",
            {"preset": "tensor2tensor", "dim": 7, "positions": [0, 2, 9],
             "minTimescale": 0.5},
            lambda: tensor2tensor(as_positions([0, 2, 9]), 7, 0.5),
            zero_cols=[6],
        )
    )
    return out


def fairseq_cases():
    out = []
    for d in DIMS:
        pos = positions_for(d)
        zc = [d - 1] if d % 2 else []
        out.append(
            case(
                "d=%d, no padding_idx" % d,
                {"preset": "fairseq", "dim": d, "positions": pos},
                lambda: fairseq(as_positions(pos), d),
                zero_cols=zc,
            )
        )
    # get_embedding(num_embeddings=6, 16, padding_idx=1): row 1 is zero.
    out.append(
        case(
            "get_embedding table, paddingIdx 1",
            {"preset": "fairseq", "dim": 16, "positions": 6, "paddingIdx": 1},
            lambda: fairseq(as_positions(6), 16, 1),
            rows_for_zero=[1],
        )
    )
    # forward() of a padded batch row: make_positions gives padding_idx for
    # pads and padding_idx + 1, ... for tokens.
    rows = [2, 3, 4, 5, 1, 1]
    out.append(
        case(
            "forward rows, paddingIdx 1, odd d",
            {"preset": "fairseq", "dim": 9, "positions": rows, "paddingIdx": 1},
            lambda: fairseq(as_positions(rows), 9, 1),
            rows_for_zero=[4, 5],
            zero_cols=[8],
        )
    )
    out.append(
        case(
            "paddingIdx 0",
            {"preset": "fairseq", "dim": 64, "positions": [0, 1, 2, 1000],
             "paddingIdx": 0},
            lambda: fairseq(as_positions([0, 1, 2, 1000]), 64, 0),
            rows_for_zero=[0],
        )
    )
    return out


def whisper_cases():
    out = []
    for d in DIMS:
        pos = positions_for(d)
        out.append(
            case(
                "d=%d" % d,
                {"preset": "whisper", "dim": d, "positions": pos},
                lambda: whisper(as_positions(pos), d),
            )
        )
    out.append(
        case(
            "audio encoder, base: 1500 x 512 (first rows)",
            {"preset": "whisper", "dim": 512, "positions": 3},
            lambda: whisper(as_positions(3), 512),
        )
    )
    out.append(
        case(
            "maxTimescale 1000",
            {"preset": "whisper", "dim": 16, "positions": [0, 1, 5, 1499],
             "maxTimescale": 1000},
            lambda: whisper(as_positions([0, 1, 5, 1499]), 16, 1000),
        )
    )
    return out


def diffusers_cases():
    out = []
    for d in DIMS:
        pos = TIMESTEPS if d <= 64 else WIDE + [0.5]
        zc = [d - 1] if d % 2 else []
        out.append(
            case(
                "d=%d" % d,
                {"preset": "diffusers", "dim": d, "positions": pos},
                lambda: diffusers(as_positions(pos), d),
                zero_cols=zc,
            )
        )
    # Stable Diffusion's UNet: Timesteps(320, flip_sin_to_cos=True, 0).
    out.append(
        case(
            "flipSinToCos, downscaleFreqShift 0, d=320",
            {"preset": "diffusers", "dim": 320, "positions": [0, 1, 499.5, 999],
             "flipSinToCos": True, "downscaleFreqShift": 0},
            lambda: diffusers(as_positions([0, 1, 499.5, 999]), 320, True, 0),
        )
    )
    out.append(
        case(
            "flipSinToCos, odd d: zero column after the flip",
            {"preset": "diffusers", "dim": 7, "positions": [0, 0.25, 3, 999],
             "flipSinToCos": True},
            lambda: diffusers(as_positions([0, 0.25, 3, 999]), 7, True),
            zero_cols=[6],
        )
    )
    out.append(
        case(
            "scale 1000, maxPeriod 100, fractional shift",
            {"preset": "diffusers", "dim": 16, "positions": [0, 0.001, 0.5, 1],
             "scale": 1000, "maxPeriod": 100, "downscaleFreqShift": 0.5},
            lambda: diffusers(as_positions([0, 0.001, 0.5, 1]), 16, False, 0.5,
                              1000, 100),
        )
    )
    out.append(
        case(
            "d=3, shift 0 is finite",
            {"preset": "diffusers", "dim": 3, "positions": [0, 1, 2.5],
             "downscaleFreqShift": 0},
            lambda: diffusers(as_positions([0, 1, 2.5]), 3, False, 0),
            zero_cols=[2],
        )
    )
    out.append(
        case(
            "count of integer timesteps",
            {"preset": "diffusers", "dim": 8, "positions": 4},
            lambda: diffusers(as_positions(4), 8),
        )
    )
    return out


def guided_cases():
    out = []
    for d in DIMS:
        pos = TIMESTEPS if d <= 64 else WIDE + [0.5]
        zc = [d - 1] if d % 2 else []
        out.append(
            case(
                "d=%d" % d,
                {"preset": "guided-diffusion", "dim": d, "positions": pos},
                lambda: guided_diffusion(as_positions(pos), d),
                zero_cols=zc,
            )
        )
    out.append(
        case(
            "maxPeriod 1000",
            {"preset": "guided-diffusion", "dim": 12, "positions": [0, 0.5, 40.25],
             "maxPeriod": 1000},
            lambda: guided_diffusion(as_positions([0, 0.5, 40.25]), 12, 1000),
        )
    )
    return out


def marian_cases():
    out = []
    for d in DIMS:
        pos = positions_for(d)
        out.append(
            case(
                "d=%d" % d,
                {"preset": "marian", "dim": d, "positions": pos},
                lambda: marian(as_positions(pos), d),
            )
        )
    out.append(
        case(
            "pastKeyValuesLength 5",
            {"preset": "marian", "dim": 10, "positions": 3, "pastKeyValuesLength": 5},
            lambda: marian(as_positions(3, 5), 10),
        )
    )
    out.append(
        case(
            "pastKeyValuesLength 2, odd d",
            {"preset": "marian", "dim": 7, "positions": 4, "pastKeyValuesLength": 2},
            lambda: marian(as_positions(4, 2), 7),
        )
    )
    return out


def mlx_cases():
    out = []
    for d in DIMS + [62, 126]:
        pos = positions_for(d)
        out.append(
            case(
                "d=%d" % d,
                {"preset": "mlx", "dim": d, "positions": pos},
                lambda: mlx(as_positions(pos), d),
            )
        )
    out.append(
        case(
            "scale 1, cosFirst",
            {"preset": "mlx", "dim": 8, "positions": [0, 1, 2.5, 300],
             "scale": 1, "cosFirst": True},
            lambda: mlx(as_positions([0, 1, 2.5, 300]), 8, scale=1, cos_first=True),
        )
    )
    out.append(
        case(
            "minFreq, maxFreq, fullTurns, scale 2",
            {"preset": "mlx", "dim": 10, "positions": [0, 0.125, 1, 7],
             "minFreq": 0.01, "maxFreq": 2, "fullTurns": True, "scale": 2},
            lambda: mlx(as_positions([0, 0.125, 1, 7]), 10, 0.01, 2, 2, False, True),
        )
    )
    # `scale if scale is not None else sqrt(2 / dims)`: 0 gives zeros.
    out.append(
        case(
            "scale 0 gives zeros",
            {"preset": "mlx", "dim": 6, "positions": [0, 1, 2], "scale": 0},
            lambda: mlx(as_positions([0, 1, 2]), 6, scale=0),
        )
    )
    out.append(
        case(
            "scale null means the default",
            {"preset": "mlx", "dim": 6, "positions": [0, 1, 2], "scale": None},
            lambda: mlx(as_positions([0, 1, 2]), 6, scale=None),
        )
    )
    out.append(
        case(
            "minFreq 0",
            {"preset": "mlx", "dim": 8, "positions": [0, 1], "minFreq": 0},
            lambda: mlx(as_positions([0, 1]), 8, min_freq=0),
        )
    )
    out.append(
        case(
            "dim 2: the one frequency maxFreq",
            {"preset": "mlx", "dim": 2, "positions": [0, 1, 2.5, 300],
             "maxFreq": 0.5, "fullTurns": True},
            lambda: mlx(as_positions([0, 1, 2.5, 300]), 2, max_freq=0.5,
                        full_turns=True),
        )
    )
    out.append(
        case(
            "scale -1.5",
            {"preset": "mlx", "dim": 6, "positions": [0, 1, 2], "scale": -1.5},
            lambda: mlx(as_positions([0, 1, 2]), 6, scale=-1.5),
        )
    )
    return out


BUILDERS = {
    "paper": paper_cases,
    "tensor2tensor": t2t_cases,
    "fairseq": fairseq_cases,
    "whisper": whisper_cases,
    "diffusers": diffusers_cases,
    "guided-diffusion": guided_cases,
    "marian": marian_cases,
    "mlx": mlx_cases,
}


# --- JSON with every float at 17 significant digits


def encode(value, indent=0):
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("non-finite value in a vector")
        if value == int(value) and abs(value) < 2**53:
            return str(int(value)) if value != 0 or math.copysign(1, value) > 0 else "-0"
        return "%.17g" % value
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        items = ["%s%s: %s" % (inner, encode(k), encode(v, indent + 1))
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return "[" + ", ".join(encode(v) for v in value) + "]"
        items = [inner + encode(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    raise TypeError(type(value))


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    total = 0
    for name, build in BUILDERS.items():
        doc = {
            "preset": name,
            "source": SOURCES[name],
            "generator": "tests/vectors/generate_preset_vectors.py",
            "cases": build(),
        }
        text = encode(doc) + "\n"
        path = os.path.join(OUT_DIR, name + ".json")
        with open(path, "w") as f:
            f.write(text)
        total += len(text)
        print("%-18s %3d cases %8d bytes" % (name, len(doc["cases"]), len(text)))
    print("total %d bytes" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
