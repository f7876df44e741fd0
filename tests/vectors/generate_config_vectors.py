#!/usr/bin/python3
"""Writes tests/vectors/config/config_vectors.json: for each config.json
fragment in tests/vectors/configs (and each of its layer types), the RoPE
that transformers builds from it: head dim, rotary dim, base, inverse
frequencies, attention factor and cos/sin caches, M-RoPE included.

Run with Debian's interpreter (numpy from python3-numpy):
    /usr/bin/python3 tests/vectors/generate_config_vectors.py

Sources followed, written here as float64 NumPy ports:
- huggingface/transformers src/transformers/modeling_rope_utils.py of v5:
  _compute_default/linear/dynamic/yarn/longrope/llama3_parameters, with
  dim = int(head_dim * partial_rotary_factor); yarn's factor as given and
  its original length from the standardized dict; longrope's factor as
  given, else max_position_embeddings / original length, and its factor
  list chosen by sequence length (long when seq_len exceeds the original
  length), its factors kept in float64 (the source makes them a float32
  tensor); llama3's smooth band, whose division by zero for equal factors
  np.where drops as torch.where does.
- v5's RotaryEmbeddingConfigMixin: convert_rope_params_to_dict (rope_scaling,
  else rope_parameters; the dict's rope_theta, else the config's, else the
  class default) and standardize_rope_params ("type" names rope_type; a
  top-level partial_rotary_factor overwrites the dict's; for llama3, yarn
  and longrope a top-level original_max_position_embeddings overwrites a
  flat dict's, which otherwise defaults to max_position_embeddings, as a
  per-layer dict always does).
- the model config classes: Qwen2-VL's "mrope" type is "default"; Phi-3's
  "su" is longrope; GPT-NeoX's rotary_pct and rotary_emb_base; GPT-J's and
  CodeGen's n_embd, n_head, n_positions and rotary_dim (base 10000,
  rotate_every_two: pairing "interleaved"); Falcon's default rope_theta
  10000; DeepSeek-V3's head dim is qk_rope_head_dim; Gemma 3's sliding
  layers use rope_local_base_freq and the default rope.
- transformers v5's "proportional" type (Gemma 4): rope_angles =
  int(partial_rotary_factor * head_dim // 2) frequencies base^(-2i/head_dim),
  zeros up to head_dim / 2, all divided by factor (default 1); Gemma 4's
  full-attention layers use global_head_dim.
- M-RoPE: Qwen2-VL's apply_multimodal_rotary_pos_emb (the duplicated cos
  split by mrope_section * 2, chunk k from stream k % 3) and Qwen3-VL's
  apply_interleaved_mrope (t everywhere, then slice(1, 3 s1, 3) from h and
  slice(2, 3 s2, 3) from w, before cat(freqs, freqs)), which Qwen3-VL uses
  whatever mrope_interleaved says.
- dynamic_rope_update: a dynamic or longrope cache is computed at
  seq_len = max(position_ids) + 1 (cacheSeqLen, cacheInverseFrequencies).

The v4 fragments hold the rope-relevant fields of the published config.json
files; the v5 fragments are the same values in the rope_parameters layout.
A few fragments are made for one rule each: yarn-top-level-fields (top-level
fields first), yarn-per-layer (the default for per-layer dicts),
llama3-empty-band (equal frequency factors), dynamic-ntk (a cache past
max_position_embeddings), yarn-llama4-scaling-beta (an unknown key, in the
shape of Ministral 3's), qwen2-vl-7b-both-types ("type" and "rope_type") and
qwen3-vl-8b-no-interleave-flag (Qwen3-VL without mrope_interleaved).
cos and sin are of the exact product position * inv_freq (the rounded
product plus its error, Dekker's two-product), to about an ulp, times the
attention factor, and stored as the first half of the duplicated layout
after checking both halves agree.
"""

import json
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "configs")
OUT = os.path.join(HERE, "config", "config_vectors.json")

POSITIONS = [0, 1, 2, 5, 100, 255, 4095, 8192, 32767, 131071]
LONGROPE_SEQ_LENS = [None, 8192]  # short factors, then long ones


# ---- the config, as the v4 classes or v5's rope_parameters give it ----------


def text_config(config):
    return config.get("text_config", config)


# Class defaults of the model configs, for fields a config.json leaves out.
DEFAULT_THETA = {"falcon": 10000.0, "gptj": 10000.0, "codegen": 10000.0}
ROTARY_DIM_DEFAULT = {"gptj": 64, "codegen": 64}
# rotate_every_two (GPT-J, CodeGen) pairs neighbouring columns, and so does
# DeepSeek-V3's apply_rotary_pos_emb_interleave while the config's
# rope_interleave (default true) holds.
INTERLEAVED_PAIRS = {"gptj", "codegen"}
INTERLEAVE_FLAG = {"deepseek_v3": ("rope_interleave", True)}


def rope_setup(config, layer_type):
    """What the model's rotary embedding reads, after transformers v5's
    convert_rope_params_to_dict and standardize_rope_params: (rope dict with
    rope_type and rope_theta, head_dim, partial factor or None, rotary dim
    override or None, max_position_embeddings, pairing)."""
    c = text_config(config)
    model = c.get("model_type")
    if model == "deepseek_v3":
        head_dim = c["qk_rope_head_dim"]
    elif layer_type == "full_attention" and c.get("global_head_dim"):
        head_dim = c["global_head_dim"]
    elif c.get("head_dim"):
        head_dim = c["head_dim"]
    else:
        hidden = c.get("hidden_size", c.get("n_embd"))
        heads = c.get("num_attention_heads", c.get("n_head"))
        head_dim = hidden // heads
    max_pos = c.get("max_position_embeddings", c.get("n_positions"))
    pairing = "interleaved" if model in INTERLEAVED_PAIRS else "halves"
    if model in INTERLEAVE_FLAG:
        key, default = INTERLEAVE_FLAG[model]
        pairing = "interleaved" if c.get(key, default) else "halves"
    rotary_dim = None
    if model in ROTARY_DIM_DEFAULT:
        rotary_dim = c.get("rotary_dim", ROTARY_DIM_DEFAULT[model])

    # convert_rope_params_to_dict: rope_scaling, else rope_parameters; the
    # dict's rope_theta wins over the config's, which wins over the default.
    rope = dict(c.get("rope_scaling") or c.get("rope_parameters") or {})
    layered = layer_type is not None and layer_type in rope
    if layered:
        rope = dict(rope[layer_type])
    if model == "gemma3_text" and layer_type == "sliding_attention" and not layered:
        rope, top_theta = {}, c["rope_local_base_freq"]
    elif model == "gpt_neox" and "rotary_emb_base" in c:
        top_theta = c["rotary_emb_base"]
    else:
        top_theta = c.get("rope_theta", DEFAULT_THETA.get(model))
    rope.setdefault("rope_theta", top_theta)
    # standardize_rope_params: "type" names rope_type; a top-level
    # partial_rotary_factor (GPT-NeoX: rotary_pct) overwrites the dict's.
    rope.setdefault("rope_type", rope.get("type", "default"))
    if rope["rope_type"] == "mrope":
        rope["rope_type"] = "default"
    if rope["rope_type"] == "su" or (rope["rope_type"] == "yarn" and model == "phi3"):
        rope["rope_type"] = "longrope"
    top_partial = c.get("partial_rotary_factor", c.get("rotary_pct"))
    if top_partial is not None:
        rope["partial_rotary_factor"] = top_partial
    partial = rope.get("partial_rotary_factor")
    # llama3, yarn and longrope: a top-level original length overwrites a
    # flat dict's; otherwise it defaults to max_position_embeddings.
    if rope["rope_type"] in ("llama3", "yarn", "longrope"):
        if not layered and "original_max_position_embeddings" in c:
            rope["original_max_position_embeddings"] = c["original_max_position_embeddings"]
        else:
            rope.setdefault("original_max_position_embeddings", max_pos)
    return rope, head_dim, partial, rotary_dim, max_pos, pairing


# ---- modeling_rope_utils ports ------------------------------------------------


def default_inv_freq(base, dim):
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))


def compute(rope, head_dim, partial, rotary_dim, max_pos, seq_len):
    base = float(rope["rope_theta"])
    kind = rope["rope_type"]
    if kind == "proportional":
        rope_angles = int((1.0 if partial is None else partial) * head_dim // 2)
        inv = 1.0 / (
            base
            ** (np.arange(0, 2 * rope_angles, 2, dtype=np.int64).astype(np.float64) / head_dim)
        )
        inv = np.concatenate([inv, np.zeros(head_dim // 2 - rope_angles)])
        return inv / rope.get("factor", 1.0), 1.0, head_dim
    if rotary_dim is not None:
        dim = rotary_dim
    else:
        dim = int(head_dim * (1.0 if partial is None else partial))
    if kind == "default":
        return default_inv_freq(base, dim), 1.0, dim
    if kind == "linear":
        return default_inv_freq(base, dim) / rope["factor"], 1.0, dim
    if kind == "dynamic":
        # _compute_dynamic_ntk_parameters at max(seq_len, max_pos).
        factor = rope["factor"]
        length = max_pos if seq_len is None else max(seq_len, max_pos)
        grown = base * ((factor * length / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        return default_inv_freq(grown, dim), 1.0, dim
    if kind == "yarn":
        factor = rope["factor"]
        original = rope["original_max_position_embeddings"]
        mscale, mscale_all_dim = rope.get("mscale"), rope.get("mscale_all_dim")

        def get_mscale(scale, m=1):
            return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

        attention = rope.get("attention_factor")
        if attention is None:
            if mscale and mscale_all_dim:
                attention = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)
            else:
                attention = get_mscale(factor)
        beta_fast = rope.get("beta_fast") or 32
        beta_slow = rope.get("beta_slow") or 1
        truncate = rope.get("truncate", True)

        def correction_dim(rotations):
            return (dim * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))

        low, high = correction_dim(beta_fast), correction_dim(beta_slow)
        if truncate:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
        pos_freqs = base ** (np.arange(0, dim, 2).astype(np.float64) / dim)
        extrapolation = 1.0 / pos_freqs
        interpolation = 1.0 / (factor * pos_freqs)
        extrapolation_factor = 1 - ramp
        inv = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
        return inv, attention, dim
    if kind == "longrope":
        original = rope["original_max_position_embeddings"]
        factor = rope.get("factor")
        if factor is None:
            factor = max_pos / original
        attention = rope.get("attention_factor")
        if attention is None:
            attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
        long = seq_len is not None and seq_len > original
        ext = np.array(rope["long_factor" if long else "short_factor"], dtype=np.float64)
        inv = 1.0 / (ext * base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
        return inv, attention, dim
    if kind == "llama3":
        inv = default_inv_freq(base, dim)
        factor = rope["factor"]
        low_freq_factor, high_freq_factor = rope["low_freq_factor"], rope["high_freq_factor"]
        old_context_len = rope["original_max_position_embeddings"]
        low_freq_wavelen = old_context_len / low_freq_factor
        high_freq_wavelen = old_context_len / high_freq_factor
        wavelen = 2 * math.pi / inv
        inv_llama = np.where(wavelen > low_freq_wavelen, inv / factor, inv)
        # Equal factors divide by zero here; np.where below drops the band,
        # as torch.where does.
        with np.errstate(divide="ignore", invalid="ignore"):
            smooth = (old_context_len / wavelen - low_freq_factor) / (
                high_freq_factor - low_freq_factor
            )
            smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
        medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
        return np.where(medium, smoothed, inv_llama), 1.0, dim
    raise ValueError(kind)


# ---- caches -------------------------------------------------------------------


def split(x):
    """Dekker's split of float64 x into two 26-bit halves."""
    c = 134217729.0 * x  # 2^27 + 1
    high = c - (c - x)
    return high, x - high


def exact_cos_sin(position, inv, attention):
    """Duplicated-layout row: cos, sin of the exact product, times attention."""
    p = np.float64(position)
    w = np.asarray(inv, dtype=np.float64)
    hi = p * w
    p1, p2 = split(p)
    w1, w2 = split(w)
    lo = ((p1 * w1 - hi) + p1 * w2 + p2 * w1) + p2 * w2
    cos = attention * (np.cos(hi) - np.sin(hi) * lo)
    sin = attention * (np.sin(hi) + np.cos(hi) * lo)
    return np.concatenate([cos, cos]), np.concatenate([sin, sin])


def mrope_rows(streams, inv, attention, section, interleaved):
    """Rows of the duplicated cos/sin for positions (t, h, w) per token."""
    rows_cos, rows_sin = [], []
    half = len(inv)
    for j in range(len(streams[0])):
        per = [exact_cos_sin(streams[k][j], inv, attention) for k in range(3)]
        if interleaved:
            # apply_interleaved_mrope on the frequencies, then cat(f, f).
            pick = [0] * half
            for dim_index, offset in ((1, 1), (2, 2)):
                for i in range(offset, section[dim_index] * 3, 3):
                    if i < half:
                        pick[i] = dim_index
            cos = np.array([per[pick[i % half]][0][i] for i in range(2 * half)])
            sin = np.array([per[pick[i % half]][1][i] for i in range(2 * half)])
        else:
            # apply_multimodal_rotary_pos_emb: split by section * 2.
            chunks = list(section) * 2
            cos_parts, sin_parts, start = [], [], 0
            for k, size in enumerate(chunks):
                cos_parts.append(per[k % 3][0][start : start + size])
                sin_parts.append(per[k % 3][1][start : start + size])
                start += size
            cos, sin = np.concatenate(cos_parts), np.concatenate(sin_parts)
        rows_cos.append(cos)
        rows_sin.append(sin)
    return rows_cos, rows_sin


# A text prefix, a 2 x 3 image grid and more text, as get_rope_index lays
# them out: t = h = w for text; the grid at t = 4, h and w offset by 4.
MROPE_T = [0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 7, 8]
MROPE_H = [0, 1, 2, 3, 4, 4, 4, 5, 5, 5, 7, 8]
MROPE_W = [0, 1, 2, 3, 4, 5, 6, 4, 5, 6, 7, 8]


def half_rows(rows):
    out = []
    for row in rows:
        n = len(row) // 2
        assert np.array_equal(row[:n], row[n:]), "duplicated halves differ"
        out.append(row[:n].tolist())
    return out


def logged(rope):
    out = []
    if rope.get("factor") is not None and rope["rope_type"] != "proportional" and rope["factor"] < 1:
        out.append("factor")
    if rope["rope_type"] == "llama3" and rope["high_freq_factor"] <= rope["low_freq_factor"]:
        out.append("high_freq_factor")
    return out


# Qwen3-VL's text rotary embedding interleaves its sections whatever the
# config says (apply_interleaved_mrope); Qwen2-VL and Qwen2.5-VL never do.
def mrope_interleaved(model, rope):
    if model.startswith("qwen3_vl"):
        return True
    if model.startswith("qwen2_vl") or model.startswith("qwen2_5_vl"):
        return False
    return rope.get("mrope_interleaved", False)


def cases_of(name, config):
    c = text_config(config)
    model = c.get("model_type", config.get("model_type", ""))
    kinds = sorted(set(c.get("layer_types") or []))
    if not kinds and "rope_local_base_freq" in c:
        kinds = ["full_attention", "sliding_attention"]
    for layer_type in kinds or [None]:
        rope, head_dim, partial, rotary_dim, max_pos, pairing = rope_setup(config, layer_type)
        seq_lens = LONGROPE_SEQ_LENS if rope["rope_type"] == "longrope" else [None]
        for seq_len in seq_lens:
            inv, attention, rotary = compute(rope, head_dim, partial, rotary_dim, max_pos, seq_len)
            case = {
                "config": name,
                "layerType": layer_type,
                "seqLen": seq_len,
                "dim": head_dim,
                "rotaryDim": head_dim if rope["rope_type"] == "proportional" else rotary,
                "base": float(rope["rope_theta"]),
                "pairing": pairing,
                "inverseFrequencies": inv.tolist(),
                "attentionFactor": attention,
                # What transformers' validator logs and computes anyway.
                "logged": logged(rope),
            }
            section = rope.get("mrope_section")
            if section is not None:
                streams = [MROPE_T, MROPE_H, MROPE_W]
                cache_seq = max(max(s) for s in streams) + 1
                positions = {"t": MROPE_T, "h": MROPE_H, "w": MROPE_W}
            else:
                cache_seq = max(POSITIONS) + 1
                positions = POSITIONS
            # A cache follows its sequence: dynamic and longrope recompute
            # at max(position_ids) + 1 in forward (dynamic_rope_update).
            if seq_len is None and rope["rope_type"] in ("dynamic", "longrope"):
                cache_inv, _, _ = compute(rope, head_dim, partial, rotary_dim, max_pos, cache_seq)
                case["cacheSeqLen"] = cache_seq
                case["cacheInverseFrequencies"] = cache_inv.tolist()
            else:
                cache_inv = inv
            if section is not None:
                case["mropeInterleaved"] = mrope_interleaved(model, rope)
                cos, sin = mrope_rows(
                    streams, cache_inv, attention, section, case["mropeInterleaved"]
                )
            else:
                rows = [exact_cos_sin(p, cache_inv, attention) for p in POSITIONS]
                cos, sin = [r[0] for r in rows], [r[1] for r in rows]
            case["positions"] = positions
            case["cos"], case["sin"] = half_rows(cos), half_rows(sin)
            yield case


def main():
    cases = []
    for name in sorted(os.listdir(CONFIGS)):
        with open(os.path.join(CONFIGS, name)) as f:
            cases.extend(cases_of(name, json.load(f)))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
