#!/usr/bin/python3
"""Writes tests/vectors/rope/rope_vectors.json: inverse frequencies,
attention factors and cos/sin caches of published RoPE configurations,
re-implemented in float64 numpy from Hugging Face transformers'
src/transformers/modeling_rope_utils.py.

Run with Debian's interpreter (numpy from python3-numpy):
    /usr/bin/python3 tests/vectors/generate_rope_vectors.py

Source read: huggingface/transformers, modeling_rope_utils.py at commit
ef46806472a64b0013ed413781e3afed82bfa047 (the v4.46 series: default,
linear, dynamic, yarn, longrope, llama3), and the later releases' yarn
(v4.5x), which adds mscale, mscale_all_dim, truncate and reads
original_max_position_embeddings from rope_scaling. Each function follows
its source's operations in order, in float64 where the source computes in
float32 (torch's .float()), so the vectors are the exact-arithmetic intent
of the code, not its float32 rounding.

A case is {name, dim, base, scaling, inverseFrequencies, attentionFactor,
positions, cos, sin}; `scaling` is what a caller passes to ropeFrequencies
(camelCase), cos and sin are the "duplicated" cache [positions, dim]
(cat(freqs, freqs)) times the attention factor, in float64.
"""

import json
import math
import os

import numpy as np

OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "rope", "rope_vectors.json"
)


def default(dim, base):
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
    return inv_freq, 1.0


def linear(dim, base, factor):
    inv_freq, attention_factor = default(dim, base)
    inv_freq = inv_freq / factor
    return inv_freq, attention_factor


def dynamic(dim, base, factor, max_position_embeddings, seq_len=None):
    attention_factor = 1.0
    seq_len = (
        seq_len
        if seq_len is not None and seq_len > max_position_embeddings
        else max_position_embeddings
    )
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
    return inv_freq, attention_factor


def yarn(dim, base, factor, original_max_position_embeddings, beta_fast=None,
         beta_slow=None, attention_factor=None, mscale=None,
         mscale_all_dim=None, truncate=True):
    def get_mscale(scale, mscale=1):
        if scale <= 1:
            return 1.0
        return 0.1 * mscale * math.log(scale) + 1.0

    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast = beta_fast or 32
    beta_slow = beta_slow or 1

    def find_correction_dim(num_rotations):
        return (dim * math.log(original_max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low = find_correction_dim(beta_fast)
    high = find_correction_dim(beta_slow)
    if truncate:
        low = math.floor(low)
        high = math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)

    pos_freqs = base ** (np.arange(0, dim, 2).astype(np.float64) / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ramp
    inv_freq = (
        inv_freq_interpolation * (1 - extrapolation_factor)
        + inv_freq_extrapolation * extrapolation_factor
    )
    return inv_freq, attention_factor


def longrope(dim, base, short_factor, long_factor, max_position_embeddings,
             original_max_position_embeddings=None, factor=None,
             attention_factor=None, seq_len=None):
    # Phi-3 sets original_max_position_embeddings beside max_position_embeddings
    # and the factor is their ratio.
    if original_max_position_embeddings is not None:
        factor = max_position_embeddings / original_max_position_embeddings
    else:
        original_max_position_embeddings = max_position_embeddings
    if attention_factor is None:
        if factor <= 1.0:
            attention_factor = 1.0
        else:
            attention_factor = math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))
    if seq_len and seq_len > original_max_position_embeddings:
        ext_factors = np.array(long_factor, dtype=np.float64)
    else:
        ext_factors = np.array(short_factor, dtype=np.float64)
    inv_freq_shape = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    inv_freq = 1.0 / (ext_factors * base**inv_freq_shape)
    return inv_freq, attention_factor


def llama3(dim, base, factor, low_freq_factor, high_freq_factor,
           original_max_position_embeddings):
    inv_freq, attention_factor = default(dim, base)
    old_context_len = original_max_position_embeddings
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    inv_freq_llama = np.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)
    return inv_freq_llama, attention_factor


# The factor lists of microsoft/Phi-3-mini-128k-instruct's config.json (the
# June 2024 revision, rope_scaling type "longrope"; head dim 3072 / 32 = 96,
# so 48 entries each), as published.
PHI3_SHORT = (
    [1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003,
     1.3500000000000003, 1.4000000000000004, 1.5500000000000005]
    + [2.000000000000001] * 17 + [2.0500000000000007] * 6
    + [2.1000000000000005] * 2 + [2.1500000000000004] + [2.25] * 5
    + [2.3999999999999995, 2.4499999999999993, 2.499999999999999,
       2.6999999999999984, 2.6999999999999984, 2.7499999999999982,
       2.799999999999998, 2.8999999999999977, 3.049999999999997])
PHI3_LONG = [
    1.0700000524520874, 1.1200000047683716, 1.149999976158142,
    1.4199999570846558, 1.5699999332427979, 1.7999999523162842,
    2.129999876022339, 2.129999876022339, 3.009999990463257,
    5.910000324249268, 6.950000286102295, 9.070000648498535,
    9.930000305175781, 10.710000038146973, 11.130000114440918,
    14.609999656677246, 15.409998893737793, 19.809999465942383,
    37.279998779296875, 38.279998779296875, 38.599998474121094,
    40.12000274658203, 46.20000457763672, 50.940006256103516,
    53.66000747680664, 54.9373893737793, 56.89738845825195,
    57.28738784790039, 59.98738479614258, 60.86738586425781,
    60.887386322021484, 61.71739196777344, 62.91739273071289,
    62.957393646240234, 63.41739273071289, 63.8173942565918,
    63.83739471435547, 63.897396087646484, 63.93739700317383,
    64.06739807128906, 64.11434936523438, 64.12435150146484,
    64.15435028076172, 64.19435119628906, 64.24435424804688,
    64.57435607910156, 64.69000244140625, 64.76000213623047]
assert len(PHI3_SHORT) == len(PHI3_LONG) == 48

CONFIGS = [
    ("llama3.1-8b", 128, 500000.0,
     {"type": "llama3", "factor": 8.0, "lowFreqFactor": 1.0,
      "highFreqFactor": 4.0, "originalMaxPositionEmbeddings": 8192},
     lambda: llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192)),
    ("qwen2.5-yarn", 128, 1e6,
     {"type": "yarn", "factor": 4.0, "originalMaxPositionEmbeddings": 32768},
     lambda: yarn(128, 1e6, 4.0, 32768)),
    ("deepseek-yarn-mscale", 64, 10000.0,
     {"type": "yarn", "factor": 40.0, "originalMaxPositionEmbeddings": 4096,
      "betaFast": 32.0, "betaSlow": 1.0, "mscale": 1.0, "mscaleAllDim": 1.0},
     lambda: yarn(64, 10000.0, 40.0, 4096, 32.0, 1.0, None, 1.0, 1.0)),
    ("yarn-untruncated", 64, 10000.0,
     {"type": "yarn", "factor": 16.0, "maxPositionEmbeddings": 4096,
      "truncate": False, "mscale": 0.707, "mscaleAllDim": 1.0},
     lambda: yarn(64, 10000.0, 16.0, 4096, None, None, None, 0.707, 1.0, False)),
    ("dynamic-below-max", 128, 10000.0,
     {"type": "dynamic", "factor": 2.0, "maxPositionEmbeddings": 4096,
      "seqLen": 2048},
     lambda: dynamic(128, 10000.0, 2.0, 4096, 2048)),
    ("dynamic-above-max", 128, 10000.0,
     {"type": "dynamic", "factor": 2.0, "maxPositionEmbeddings": 4096,
      "seqLen": 16384},
     lambda: dynamic(128, 10000.0, 2.0, 4096, 16384)),
    ("codellama-linear-4", 128, 10000.0,
     {"type": "linear", "factor": 4.0},
     lambda: linear(128, 10000.0, 4.0)),
    ("phi3-longrope-short", 96, 10000.0,
     {"type": "longrope", "shortFactor": PHI3_SHORT, "longFactor": PHI3_LONG,
      "maxPositionEmbeddings": 131072, "originalMaxPositionEmbeddings": 4096,
      "seqLen": 4096},
     lambda: longrope(96, 10000.0, PHI3_SHORT, PHI3_LONG, 131072, 4096,
                      seq_len=4096)),
    ("phi3-longrope-long", 96, 10000.0,
     {"type": "longrope", "shortFactor": PHI3_SHORT, "longFactor": PHI3_LONG,
      "maxPositionEmbeddings": 131072, "originalMaxPositionEmbeddings": 4096,
      "seqLen": 65536},
     lambda: longrope(96, 10000.0, PHI3_SHORT, PHI3_LONG, 131072, 4096,
                      seq_len=65536)),
    ("default-theta-1e6", 128, 1e6, {"type": "default"},
     lambda: default(128, 1e6)),
]

POSITIONS = [0, 1, 2, 7, 100, 4095, 8191, 32767, 131071]


def main():
    cases = []
    for name, dim, base, scaling, compute in CONFIGS:
        inv_freq, attention = compute()
        freqs = np.outer(np.array(POSITIONS, dtype=np.float64), inv_freq)
        emb = np.concatenate([freqs, freqs], axis=-1)
        cases.append({
            "name": name,
            "dim": dim,
            "base": base,
            "scaling": scaling,
            "inverseFrequencies": inv_freq.tolist(),
            "attentionFactor": attention,
            "positions": POSITIONS,
            "cos": (np.cos(emb) * attention).ravel().tolist(),
            "sin": (np.sin(emb) * attention).ravel().tolist(),
        })
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"source": "huggingface/transformers modeling_rope_utils.py",
                   "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
