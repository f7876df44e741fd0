#!/usr/bin/python3
"""Writes tests/vectors/models/*.json: queries and keys rotated by each RoPE
model family's own transformers code, one file per distinct rotation rule.

Usage (Debian's interpreter and torch, from python3-torch):
    /usr/bin/python3 tests/vectors/generate_model_vectors.py \\
        --source rope_utils=DIR/modeling_rope_utils.py@COMMIT \\
        --source llama=DIR/modeling_llama.py@COMMIT ...

Every family's --source is required: llama, gptj, gpt_neox, phi, stablelm,
cohere, cohere2, glm, glm4, helium, llama4, deepseek_v2, deepseek_v3,
qwen2_vl, qwen3_vl, glm4v, nanochat, and
rope_utils (src/transformers/modeling_rope_utils.py). Each names a local copy
of the file of that name in huggingface/transformers
(src/transformers/models/DIR/modeling_DIR.py) and the commit it was taken
at, which each vector file records with the functions it ran; the copies are
not part of this repository. A copy may be the whole file or only the
definitions this script reads (the functions below, and the rotary and
attention classes with the methods it names), their code as written:
docstrings and comments may be left out.

What runs, as written, with torch:
- each family's rotate_half / rotate_every_two and apply function, on
  seeded standard-normal float32 q and k, passed as float64;
- its inverse frequencies: the code the rotary embedding calls (the class's
  compute_default_rope_parameters, modeling_rope_utils'
  _compute_default_rope_parameters, GPT-J's create_sinusoidal_positions and
  GPT-NeoX's RotaryEmbedding.__init__ assignment to inv_freq), with a
  SimpleNamespace for the config carrying the fields that code reads (for
  GLM, the rope_scaling_dict it looks for first; modeling_rope_utils' version
  reads the head as hidden_size // num_attention_heads, so its stand-in gives
  the rotary head that way, DeepSeek-V3's qk_rope_head_dim included). It
  runs twice: as is, in float32 (recorded as inverseFrequencies), and in
  float64 (inverseFrequencies64): torch's default dtype set to float64 and a
  torch whose `float` is float64 and whose arange's `.float()` keeps double;
- the cos/sin layout: the right-hand side of the rotary embedding's
  assignment to `emb` (or `freqs_cis`, GPT-NeoX's `self.cos_cached`, GPT-J's
  create_sinusoidal_positions return value), evaluated on float64 angles
  position * inv_freq64 (the forward's float32 product would round them);
- where the attention's forward splits off the rotary part itself (GPT-J,
  GPT-NeoX, StableLM), those statements of the forward, with `self`
  standing in for the attention's fields. Phi's split of the rotary part,
  at PhiAttention's rotary_ndims = int(head_dim * partial_rotary_factor), is
  written out here (split_rotary), as StableLM's forward does it. Qwen3-VL's
  apply_interleaved_mrope, which its forward calls on the three streams'
  freqs before emb, runs on the float64 ones. GLM-4V's text model takes
  the M-RoPE sections of Qwen2-VL and rotates adjacent pairs of the
  rotated part (rotate_half_llm); its rotary embedding calls
  modeling_rope_utils' function for rope type "default". NanoChat's apply
  function checks for a DTensor: a class that no tensor here is stands in
  for it (the torch this runs with may lack torch.distributed.tensor).

Families whose apply function casts to float32 (Cohere's q.float(), Llama 4
and DeepSeek-V2's xq.float()) get exact float32 q and k, so the cast keeps
them; their products are float64. Outputs are stored rounded to float32.
DeepSeek-V2 and V3 rotate only the rope part of each head (the attention
splits q into qk_nope_head_dim and qk_rope_head_dim columns): q and k here
are that part. DeepSeek-V3's apply_rotary_pos_emb_interleave (config
rope_interleave, default true) reorders q and k's columns to halves before
rotate_half: its output's column j is column outputPermutation[j] of the
same rows rotated in place with adjacent pairs.

NanoChat's rotate_half returns (x2, -x1), the negation of Llama's, so
each pair turns by -θ: its file says "reversed": true, and the same
rotation is rope's at the negated positions.

Numbers are float32 values written in their shortest form (Math.fround of
each is the value), except inverseFrequencies64 (doubles).
"""

import __future__
import argparse
import ast
import json
import math
import os
import types

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "models")

POSITIONS = [0, 1, 5, 100, 1234, 4095]
# M-RoPE's three streams (temporal, height, width), made to differ.
STREAMS = {
    "t": POSITIONS,
    "h": [0, 3, 7, 50, 2000, 4095],
    "w": [0, 2, 9, 75, 1500, 4000],
}
HEADS = 2
SEED = 20261127
REPOSITORY = "huggingface/transformers"


def model_path(name):
    if name == "rope_utils":
        return "src/transformers/modeling_rope_utils.py"
    return f"src/transformers/models/{name}/modeling_{name}.py"


# ---- reading the model code -------------------------------------------------


class Source:
    def __init__(self, name, spec):
        path, _, commit = spec.rpartition("@")
        if not path or len(commit) != 40:
            raise SystemExit(f"--source {name}=PATH@COMMIT (40 hex digits)")
        self.name, self.path, self.commit = name, path, commit
        with open(path, encoding="utf-8") as f:
            self.tree = ast.parse(f.read(), filename=path)
        self.used = []

    def function(self, name):
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                self.used.append(name)
                return node
        raise SystemExit(f"{self.path}: no top-level function {name}")

    def method(self, cls, name):
        for node in self.tree.body:
            if isinstance(node, ast.ClassDef) and node.name == cls:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == name:
                        self.used.append(f"{cls}.{name}")
                        return item
        raise SystemExit(f"{self.path}: no method {cls}.{name}")

    def record(self):
        return {
            "repository": REPOSITORY,
            "path": model_path(self.name),
            "commit": self.commit,
            "functions": self.used,
        }


def define(source, node, namespace):
    """The function of `node`, decorators dropped, annotations unevaluated."""
    node = ast.FunctionDef(
        name=node.name,
        args=node.args,
        body=node.body,
        decorator_list=[],
        returns=node.returns,
        type_comment=None,
    )
    module = ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[]))
    flags = __future__.annotations.compiler_flag
    code = compile(module, source.path, "exec", flags=flags, dont_inherit=True)
    exec(code, namespace)
    return namespace[node.name]


def assigned(source, function, target, namespace):
    """The value of the first assignment to `target` in `function`."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and any(
            ast.unparse(t) == target for t in node.targets
        ):
            expression = ast.fix_missing_locations(ast.Expression(body=node.value))
            return eval(compile(expression, source.path, "eval"), namespace)
    raise SystemExit(f"{source.path}: {function.name} assigns no {target}")


def returned(source, function, namespace):
    for node in ast.walk(function):
        if isinstance(node, ast.Return):
            expression = ast.fix_missing_locations(ast.Expression(body=node.value))
            return eval(compile(expression, source.path, "eval"), namespace)
    raise SystemExit(f"{source.path}: {function.name} returns nothing")


def run_statements(source, function, first, last, namespace):
    """Runs the statements of `function` from the one that begins with
    `first` through the one that begins with `last` (in ast.unparse form)."""
    body = function.body
    starts = [i for i, s in enumerate(body) if ast.unparse(s).startswith(first)]
    if not starts:
        raise SystemExit(f"{source.path}: {function.name} has no `{first}`")
    ends = [
        i
        for i, s in enumerate(body)
        if i >= starts[0] and ast.unparse(s).startswith(last)
    ]
    if not ends:
        raise SystemExit(f"{source.path}: {function.name} has no `{last}`")
    module = ast.Module(body=body[starts[0] : ends[0] + 1], type_ignores=[])
    exec(compile(module, source.path, "exec"), namespace)
    return namespace


# ---- float64 inverse frequencies --------------------------------------------


class DoubleTensor(torch.Tensor):
    """A tensor whose .float() keeps double precision."""

    def float(self, *args, **kwargs):
        return self.double(*args, **kwargs)


class Torch64:
    """torch, except that torch.float is float64 and arange's tensors keep
    double through .float()."""

    float = torch.float64

    def __getattr__(self, name):
        return getattr(torch, name)

    @staticmethod
    def arange(*args, **kwargs):
        return torch.arange(*args, **kwargs).as_subclass(DoubleTensor)


def both_precisions(compute):
    """compute(torch_module) run as written (float32), then in float64."""
    single = compute(torch)
    default = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        double = compute(Torch64())
    finally:
        torch.set_default_dtype(default)
    single = torch.as_tensor(single).as_subclass(torch.Tensor)
    double = torch.as_tensor(double).as_subclass(torch.Tensor)
    assert single.dtype == torch.float32, single.dtype
    assert double.dtype == torch.float64, double.dtype
    assert torch.allclose(single.double(), double, rtol=1e-5, atol=0)
    return single, double


def namespace(torch_module):
    return {"torch": torch_module, "nn": torch.nn, "math": math}


def default_rope_parameters(source, config):
    """modeling_rope_utils' _compute_default_rope_parameters(config)."""
    node = source.function("_compute_default_rope_parameters")

    def compute(t):
        return define(source, node, namespace(t))(config)[0]

    return both_precisions(compute)


def class_rope_parameters(source, cls, config, bound):
    """The rotary class's own compute_default_rope_parameters(config)."""
    node = source.method(cls, "compute_default_rope_parameters")

    def compute(t):
        function = define(source, node, namespace(t))
        return (function(None, config) if bound else function(config))[0]

    return both_precisions(compute)


# ---- inputs and the cos/sin the rotary embedding builds --------------------


def inputs(order, dim, generator):
    shape = (
        (1, HEADS, len(POSITIONS), dim)
        if order == "bhsd"
        else (1, len(POSITIONS), HEADS, dim)
    )
    q = torch.randn(shape, generator=generator, dtype=torch.float32)
    k = torch.randn(shape, generator=generator, dtype=torch.float32)
    return q, k


def angles(inv_freq64):
    """freqs of the forward, [1, seq, rotary/2], from exact products."""
    positions = torch.tensor(POSITIONS, dtype=torch.float64)
    return (positions[:, None] * inv_freq64[None, :])[None]


def stream_angles(inv_freq64):
    """M-RoPE's freqs, [3, 1, seq, rotary/2], from exact products."""
    positions = torch.tensor([STREAMS[s] for s in "thw"], dtype=torch.float64)
    return (positions[:, :, None] * inv_freq64[None, None, :])[:, None]


def cos_sin(source, cls, inv_freq64, target="emb"):
    forward = source.method(cls, "forward")
    values = {"torch": torch, "freqs": angles(inv_freq64)}
    emb = assigned(source, forward, target, values)
    return emb.cos(), emb.sin()


def split_rotary(apply, q, k, cos, sin, rotary_dim):
    """PhiAttention.forward's split at rotary_ndims, around apply."""
    q_rot, k_rot = apply(q[..., :rotary_dim], k[..., :rotary_dim], cos, sin)
    return (
        torch.cat((q_rot, q[..., rotary_dim:]), dim=-1),
        torch.cat((k_rot, k[..., rotary_dim:]), dim=-1),
    )


def config_of(**fields):
    return types.SimpleNamespace(**fields)


# ---- the families -----------------------------------------------------------


def llama(sources, generator):
    config = {
        "model_type": "llama",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "max_position_embeddings": 8192,
        "rope_theta": 500000.0,
    }
    model, utils = sources["llama"], sources["rope_utils"]
    inv32, inv64 = default_rope_parameters(
        utils, config_of(rope_theta=500000.0, hidden_size=4096, num_attention_heads=32)
    )
    cos, sin = cos_sin(model, "LlamaRotaryEmbedding", inv64)
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    out = apply(q.double(), k.double(), cos, sin)
    return dict(
        name="llama",
        note="Meta-Llama-3-8B's config.json: head 4096 / 32, rope_theta 500000.",
        config=config,
        order="bhsd",
        sources=[model, utils],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=out,
    )


def gptj(sources, generator):
    config = {
        "model_type": "gptj",
        "n_embd": 4096,
        "n_head": 16,
        "rotary_dim": 64,
        "n_positions": 2048,
    }
    model = sources["gptj"]
    create = model.function("create_sinusoidal_positions")
    inv32, inv64 = both_precisions(
        lambda t: assigned(model, create, "inv_freq", {"torch": t, "dim": 64})
    )
    # embed_positions' rows at the positions: the function's return value on
    # float64 angles.
    sincos = returned(model, create, {"torch": torch, "sinusoid_inp": angles(inv64)[0]})
    ns = namespace(torch)
    define(model, model.function("rotate_every_two"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bshd", 256, generator)
    ns.update(
        query=q.double(),
        key=k.double(),
        sincos=sincos[None],
        self=types.SimpleNamespace(rotary_dim=64),
        apply_rotary_pos_emb=apply,
    )
    forward = model.method("GPTJAttention", "forward")
    run_statements(
        model, forward, "sin, cos = torch.split", "if self.rotary_dim is not None", ns
    )
    return dict(
        name="gptj",
        note="GPT-J-6B's config.json: head 4096 / 16 = 256, rotary_dim 64.",
        config=config,
        order="bshd",
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=(ns["query"], ns["key"]),
    )


def gpt_neox(sources, generator):
    config = {
        "model_type": "gpt_neox",
        "hidden_size": 6144,
        "num_attention_heads": 64,
        "rotary_pct": 0.25,
        "rotary_emb_base": 10000,
        "max_position_embeddings": 2048,
    }
    model = sources["gpt_neox"]
    rotary_ndims = int(96 * 0.25)  # GPTNeoXAttention: int(head_size * rotary_pct)
    init = model.method("RotaryEmbedding", "__init__")
    inv32, inv64 = both_precisions(
        lambda t: assigned(
            model,
            init,
            "inv_freq",
            {"torch": t, "base": 10000, "dim": rotary_ndims, "device": None},
        )
    )
    emb = assigned(model, init, "emb", {"torch": torch, "freqs": angles(inv64)[0]})
    cos = assigned(model, init, "self.cos_cached", {"emb": emb})
    sin = assigned(model, init, "self.sin_cached", {"emb": emb})
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 96, generator)
    ns.update(
        query=q.double(),
        key=k.double(),
        value=None,
        has_layer_past=False,
        layer_past=None,
        self=types.SimpleNamespace(
            rotary_ndims=rotary_ndims, rotary_emb=lambda value, seq_len: (cos, sin)
        ),
        apply_rotary_pos_emb=apply,
    )
    forward = model.method("GPTNeoXAttention", "forward")
    run_statements(
        model, forward, "query_rot = query[", "key = torch.cat((key, key_pass)", ns
    )
    return dict(
        name="gpt_neox",
        note="GPT-NeoX-20B's config.json: head 6144 / 64 = 96, rotary_pct 0.25.",
        config=config,
        order="bhsd",
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=(ns["query"], ns["key"]),
    )


def halves_with_split(name, cls, config, head, partial, note, sources, generator):
    """Phi and StableLM: rope_utils' frequencies on int(head * partial)."""
    model, utils = sources[name], sources["rope_utils"]
    rotary = int(head * partial)
    inv32, inv64 = default_rope_parameters(
        utils,
        config_of(
            rope_theta=config["rope_theta"],
            hidden_size=config["hidden_size"],
            num_attention_heads=config["num_attention_heads"],
            partial_rotary_factor=partial,
        ),
    )
    cos, sin = cos_sin(model, cls, inv64)
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", head, generator)
    if name == "stablelm":
        ns.update(
            query_states=q.double(),
            key_states=k.double(),
            position_embeddings=(cos, sin),
            self=types.SimpleNamespace(rotary_ndims=rotary),
            apply_rotary_pos_emb=apply,
        )
        forward = model.method("StableLmAttention", "forward")
        run_statements(
            model,
            forward,
            "cos, sin = position_embeddings",
            "key_states = torch.cat((key_rot, key_pass)",
            ns,
        )
        out = (ns["query_states"], ns["key_states"])
    else:
        out = split_rotary(apply, q.double(), k.double(), cos, sin, rotary)
    return dict(
        name=name,
        note=note,
        config=config,
        order="bhsd",
        sources=[model, utils],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=out,
    )


def phi(sources, generator):
    config = {
        "model_type": "phi",
        "hidden_size": 2560,
        "num_attention_heads": 32,
        "partial_rotary_factor": 0.4,
        "rope_theta": 10000.0,
        "max_position_embeddings": 2048,
    }
    note = "Phi-2's config.json: head 2560 / 32 = 80, partial_rotary_factor 0.4."
    return halves_with_split(
        "phi", "PhiRotaryEmbedding", config, 80, 0.4, note, sources, generator
    )


def stablelm(sources, generator):
    config = {
        "model_type": "stablelm",
        "hidden_size": 2560,
        "num_attention_heads": 32,
        "partial_rotary_factor": 0.25,
        "rope_theta": 10000,
        "max_position_embeddings": 4096,
    }
    note = (
        "StableLM-3B-4E1T's config.json: head 2560 / 32 = 80,"
        " partial_rotary_factor 0.25."
    )
    cls = "StableLmRotaryEmbedding"
    return halves_with_split(
        "stablelm", cls, config, 80, 0.25, note, sources, generator
    )


def rope_utils_family(name, cls, config, head, note, sources, generator):
    """Cohere, Cohere2, GLM-4, Helium, DeepSeek-V3: rope_utils' frequencies,
    the family's emb, rotate_half and apply_rotary_pos_emb."""
    model, utils = sources[name], sources["rope_utils"]
    partial = config.get("partial_rotary_factor", 1.0)
    # That version of the function reads the head as hidden_size //
    # num_attention_heads: the stand-in gives it the rotary head that way.
    fields = dict(
        rope_theta=config["rope_theta"], hidden_size=head, num_attention_heads=1
    )
    if "partial_rotary_factor" in config:
        fields["partial_rotary_factor"] = partial
    inv32, inv64 = default_rope_parameters(utils, config_of(**fields))
    cos, sin = cos_sin(model, cls, inv64)
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", head, generator)
    out = apply(q.double(), k.double(), cos, sin)
    vector = dict(
        name=name,
        note=note,
        config=config,
        order="bhsd",
        sources=[model, utils],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=out,
    )
    return vector, (model, ns, q, k, cos, sin)


def cohere(sources, generator):
    config = {
        "model_type": "cohere",
        "hidden_size": 8192,
        "num_attention_heads": 64,
        "rope_theta": 8000000.0,
        "max_position_embeddings": 131072,
    }
    note = "c4ai-command-r-v01's config.json: head 8192 / 64 = 128, rope_theta 8e6."
    return rope_utils_family(
        "cohere", "CohereRotaryEmbedding", config, 128, note, sources, generator
    )[0]


def cohere2(sources, generator):
    config = {
        "model_type": "cohere2",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "rope_theta": 50000.0,
        "max_position_embeddings": 8192,
        "sliding_window_pattern": 4,
    }
    note = (
        "A Command R7B-shaped config (head 4096 / 32 = 128, rope_theta 50000);"
        " Cohere2 rotates on its sliding-window layers only."
    )
    return rope_utils_family(
        "cohere2", "Cohere2RotaryEmbedding", config, 128, note, sources, generator
    )[0]


def glm4(sources, generator):
    config = {
        "model_type": "glm4",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "head_dim": 128,
        "partial_rotary_factor": 0.5,
        "rope_theta": 10000.0,
        "max_position_embeddings": 32768,
    }
    note = "A GLM-4-9B-0414-shaped config: head 128, partial_rotary_factor 0.5."
    return rope_utils_family(
        "glm4", "Glm4RotaryEmbedding", config, 128, note, sources, generator
    )[0]


def helium(sources, generator):
    config = {
        "model_type": "helium",
        "hidden_size": 2560,
        "num_attention_heads": 20,
        "head_dim": 128,
        "rope_theta": 100000.0,
        "max_position_embeddings": 4096,
    }
    note = "A Helium-1-shaped config: head 2560 / 20 = 128, rope_theta 100000."
    return rope_utils_family(
        "helium", "HeliumRotaryEmbedding", config, 128, note, sources, generator
    )[0]


def deepseek_v3(sources, generator):
    vectors = []
    for interleave in (True, False):
        for source in sources.values():
            source.used = []
        config = {
            "model_type": "deepseek_v3",
            "hidden_size": 7168,
            "num_attention_heads": 128,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "v_head_dim": 128,
            "rope_theta": 10000,
            "max_position_embeddings": 163840,
        }
        if not interleave:
            config["rope_interleave"] = False
        note = (
            "DeepSeek-V3's config.json (qk_rope_head_dim 64, rope_theta 10000)"
            " without its yarn rope_scaling; "
            + (
                "rope_interleave left out (default true):"
                " apply_rotary_pos_emb_interleave."
                if interleave
                else "rope_interleave false: apply_rotary_pos_emb."
            )
        )
        cls = "DeepseekV3RotaryEmbedding"
        vector, (model, ns, q, k, cos, sin) = rope_utils_family(
            "deepseek_v3", cls, config, 64, note, sources, generator
        )
        vector["sources"] = [s.record() for s in vector["sources"]]
        if interleave:
            model.used.remove("apply_rotary_pos_emb")
            apply = define(model, model.function("apply_rotary_pos_emb_interleave"), ns)
            vector["out"] = apply(q.double(), k.double(), cos, sin)
            vector["name"] = "deepseek_v3"
            # view(d // 2, 2).transpose: column j < d/2 takes 2j, the rest 2j + 1.
            vector["outputPermutation"] = list(range(0, 64, 2)) + list(range(1, 64, 2))
        else:
            vector["name"] = "deepseek_v3-no-interleave"
        vectors.append(vector)
    return vectors


def glm(sources, generator):
    config = {
        "model_type": "glm",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "head_dim": 128,
        "partial_rotary_factor": 0.5,
        "rope_theta": 10000.0,
        "max_position_embeddings": 131072,
    }
    model = sources["glm"]
    inv32, inv64 = class_rope_parameters(
        model,
        "GlmRotaryEmbedding",
        config_of(
            rope_scaling_dict={"rope_type": "default", "rope_theta": 10000.0},
            partial_rotary_factor=0.5,
            head_dim=128,
            hidden_size=4096,
            num_attention_heads=32,
        ),
        bound=True,
    )
    cos, sin = cos_sin(model, "GlmRotaryEmbedding", inv64)
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    return dict(
        name="glm",
        note="glm-4-9b-chat-hf's config.json: head_dim 128, partial_rotary_factor 0.5.",
        config=config,
        order="bhsd",
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), cos, sin),
    )


def complex_family(name, cls, config, head, order, note, sources, generator):
    """Llama 4 and DeepSeek-V2: view_as_complex times freqs_cis."""
    model = sources[name]
    inv32, inv64 = class_rope_parameters(
        model,
        cls,
        config_of(
            rope_parameters={
                "rope_type": "default",
                "rope_theta": config["rope_theta"],
            },
            head_dim=head,
            hidden_size=config["hidden_size"],
            num_attention_heads=config["num_attention_heads"],
        ),
        bound=False,
    )
    freqs_cis = assigned(
        model,
        model.method(cls, "forward"),
        "freqs_cis",
        {"torch": torch, "freqs": angles(inv64)},
    )
    apply = define(model, model.function("apply_rotary_emb"), namespace(torch))
    q, k = inputs(order, head, generator)
    return dict(
        name=name,
        note=note,
        config=config,
        order=order,
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), freqs_cis),
    )


def llama4(sources, generator):
    config = {
        "model_type": "llama4_text",
        "hidden_size": 5120,
        "num_attention_heads": 40,
        "head_dim": 128,
        "rope_theta": 500000.0,
        "max_position_embeddings": 10485760,
    }
    note = (
        "Llama-4-Scout's text_config (head_dim 128, rope_theta 500000) without"
        " its llama3 rope_scaling; q and k as the attention passes them, before"
        " the transpose to heads first."
    )
    cls = "Llama4TextRotaryEmbedding"
    return complex_family(
        "llama4", cls, config, 128, "bshd", note, sources, generator
    )


def deepseek_v2(sources, generator):
    config = {
        "model_type": "deepseek_v2",
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64,
        "v_head_dim": 128,
        "rope_theta": 10000,
        "max_position_embeddings": 163840,
    }
    note = (
        "DeepSeek-V2-Lite's config.json (qk_rope_head_dim 64, rope_theta 10000)"
        " without its yarn rope_scaling; the config's head_dim is"
        " qk_rope_head_dim, as DeepseekV2Config sets it."
    )
    cls = "DeepseekV2RotaryEmbedding"
    return complex_family(
        "deepseek_v2", cls, config, 64, "bhsd", note, sources, generator
    )


def qwen2_vl(sources, generator):
    config = {
        "model_type": "qwen2_vl",
        "hidden_size": 3584,
        "num_attention_heads": 28,
        "max_position_embeddings": 32768,
        "rope_theta": 1000000.0,
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
    }
    model, utils = sources["qwen2_vl"], sources["rope_utils"]
    inv32, inv64 = default_rope_parameters(
        utils,
        config_of(rope_theta=1000000.0, hidden_size=3584, num_attention_heads=28),
    )
    forward = model.method("Qwen2VLRotaryEmbedding", "forward")
    values = {"torch": torch, "freqs": stream_angles(inv64)}
    emb = assigned(model, forward, "emb", values)
    ns = namespace(torch)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_multimodal_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    return dict(
        name="qwen2_vl",
        note="Qwen2-VL-7B-Instruct's config.json: head 3584 / 28 = 128, mrope_section"
        " [16, 24, 24]; positions are the t, h and w streams.",
        config=config,
        order="bhsd",
        positions=STREAMS,
        sources=[model, utils],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), emb.cos(), emb.sin(), [16, 24, 24]),
    )


def qwen3_vl(sources, generator):
    config = {
        "model_type": "qwen3_vl",
        "text_config": {
            "model_type": "qwen3_vl_text",
            "head_dim": 128,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "max_position_embeddings": 262144,
            "rope_parameters": {
                "rope_type": "default",
                "rope_theta": 5000000,
                "mrope_interleaved": True,
                "mrope_section": [24, 20, 20],
            },
        },
    }
    model = sources["qwen3_vl"]
    cls = "Qwen3VLTextRotaryEmbedding"
    inv32, inv64 = class_rope_parameters(
        model,
        cls,
        config_of(
            rope_parameters={"rope_type": "default", "rope_theta": 5000000},
            head_dim=128,
            hidden_size=4096,
            num_attention_heads=32,
        ),
        bound=False,
    )
    ns = namespace(torch)
    interleave = define(model, model.method(cls, "apply_interleaved_mrope"), ns)
    # The forward's freqs = self.apply_interleaved_mrope(freqs, self.mrope_section)
    freqs = interleave(None, stream_angles(inv64), [24, 20, 20])
    forward = model.method(cls, "forward")
    emb = assigned(model, forward, "emb", {"torch": torch, "freqs": freqs})
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    return dict(
        name="qwen3_vl",
        note="Qwen3-VL-8B's text_config: head_dim 128, mrope_section [24, 20, 20],"
        " interleaved; positions are the t, h and w streams.",
        config=config,
        order="bhsd",
        positions=STREAMS,
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), emb.cos(), emb.sin()),
    )


def glm4v(sources, generator):
    text_config = {
        "model_type": "glm4v_text",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 2,
        "partial_rotary_factor": 0.5,
        "rope_theta": 10000,
        "max_position_embeddings": 65536,
        "rope_scaling": {"type": "default", "mrope_section": [8, 12, 12]},
    }
    config = {"model_type": "glm4v", "text_config": text_config}
    model, utils = sources["glm4v"], sources["rope_utils"]
    # Glm4vTextRotaryEmbedding's rope_init_fn for rope type "default".
    inv32, inv64 = default_rope_parameters(
        utils,
        config_of(
            rope_theta=10000,
            hidden_size=4096,
            num_attention_heads=32,
            partial_rotary_factor=0.5,
        ),
    )
    forward = model.method("Glm4vTextRotaryEmbedding", "forward")
    values = {"torch": torch, "freqs": stream_angles(inv64)}
    emb = assigned(model, forward, "emb", values)
    ns = namespace(torch)
    define(model, model.function("rotate_half_llm"), ns)
    apply = define(model, model.function("apply_multimodal_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    return dict(
        name="glm4v",
        note="A GLM-4.1V-9B-Thinking-shaped text_config: head 4096 / 32 = 128,"
        " partial_rotary_factor 0.5, mrope_section [8, 12, 12]; positions are"
        " the t, h and w streams.",
        config=config,
        order="bhsd",
        positions=STREAMS,
        sources=[model, utils],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), emb.cos(), emb.sin(), [8, 12, 12]),
    )


class NotADTensor:
    """Stands in for torch.distributed.tensor.DTensor, which this torch may
    lack: no tensor here is one, as none is distributed."""


def nanochat(sources, generator):
    config = {
        "model_type": "nanochat",
        "hidden_size": 2048,
        "num_attention_heads": 16,
        "num_key_value_heads": 16,
        "max_position_embeddings": 2048,
        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0},
    }
    model = sources["nanochat"]
    cls = "NanoChatRotaryEmbedding"
    inv32, inv64 = class_rope_parameters(
        model,
        cls,
        config_of(
            rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
            hidden_size=2048,
            num_attention_heads=16,
        ),
        bound=False,
    )
    cos, sin = cos_sin(model, cls, inv64)
    ns = namespace(torch)
    ns.update(DTensor=NotADTensor, Replicate=None)
    define(model, model.function("rotate_half"), ns)
    apply = define(model, model.function("apply_rotary_pos_emb"), ns)
    q, k = inputs("bhsd", 128, generator)
    return dict(
        name="nanochat",
        note="A nanochat-d32-shaped config: head 2048 / 16 = 128, rope_theta"
        " 10000; its rotate_half gives (x2, -x1), so each pair turns by -θ.",
        config=config,
        order="bhsd",
        sources=[model],
        inv=(inv32, inv64),
        q=q,
        k=k,
        out=apply(q.double(), k.double(), cos, sin),
        reversed=True,
    )


FAMILIES = [
    llama,
    gptj,
    gpt_neox,
    phi,
    stablelm,
    cohere,
    cohere2,
    glm,
    glm4,
    helium,
    llama4,
    deepseek_v2,
    deepseek_v3,
    qwen2_vl,
    qwen3_vl,
    glm4v,
    nanochat,
]
NAMES = ["rope_utils"] + [f.__name__ for f in FAMILIES]


# ---- output -------------------------------------------------------------------


def float32s(tensor):
    """Each value rounded to float32, as the shortest decimal that reads
    back as that float32."""
    values = tensor.detach().to(torch.float32).flatten().numpy()
    return [float(np.format_float_positional(v, unique=True)) for v in values]


def write(vector):
    q_out, k_out = vector["out"]
    record = {
        "family": vector["name"],
        "note": vector["note"],
        "sources": [
            s if isinstance(s, dict) else s.record() for s in vector["sources"]
        ],
        "config": vector["config"],
        "order": vector["order"],
        "heads": HEADS,
        "positions": vector.get("positions", POSITIONS),
        "seed": SEED,
        "inverseFrequencies": float32s(vector["inv"][0]),
        "inverseFrequencies64": [float(v) for v in vector["inv"][1]],
        "q": float32s(vector["q"]),
        "k": float32s(vector["k"]),
        "qRotated": float32s(q_out),
        "kRotated": float32s(k_out),
    }
    if "outputPermutation" in vector:
        record["outputPermutation"] = vector["outputPermutation"]
    if vector.get("reversed"):
        record["reversed"] = True
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f"{vector['name']}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, separators=(",", ":"))
        f.write("\n")
    print(f"{path}: {len(record['q'])} values per tensor")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--source",
        action="append",
        default=[],
        metavar="NAME=PATH@COMMIT",
        help=f"a local copy of a transformers file, for each of {', '.join(NAMES)}",
    )
    args = parser.parse_args()
    given = dict(spec.split("=", 1) for spec in args.source)
    missing = [n for n in NAMES if n not in given]
    if missing:
        parser.error(f"--source missing for {', '.join(missing)}")
    torch.set_grad_enabled(False)
    generator = torch.Generator().manual_seed(SEED)
    for family in FAMILIES:
        sources = {n: Source(n, given[n]) for n in NAMES}
        made = family(sources, generator)
        for vector in made if isinstance(made, list) else [made]:
            write(vector)


if __name__ == "__main__":
    main()
