"""How far a float32 evaluation of a preset's formula lands from the exact
(float64) formula: the gap between what a framework computes in float32 and
what the presets return. Both sides follow the source's order of operations;
only the precision differs. Run by `make bench`; the README quotes it."""
import numpy as np


def whisper(length, channels, dtype):
    increment = np.log(10000) / (channels // 2 - 1)
    inv = np.exp(-increment * np.arange(channels // 2, dtype=dtype)).astype(dtype)
    angle = np.arange(length, dtype=dtype)[:, None] * inv[None, :]
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def diffusers(timesteps, dim, scale, dtype):
    half = dim // 2
    exponent = (-np.log(10000) * np.arange(half, dtype=dtype)).astype(dtype)
    inv = np.exp(exponent / dtype(half)).astype(dtype)  # downscale_freq_shift 0
    angle = (dtype(scale) * (timesteps.astype(dtype)[:, None] * inv[None, :])).astype(dtype)
    emb = np.concatenate([np.cos(angle), np.sin(angle)], axis=1)  # flipped
    return emb


def gap(build):
    exact = build(np.float64)
    single = build(np.float32).astype(np.float64)
    return np.max(np.abs(single - exact))


cases = [
    ("whisper, 1500 positions, dim 512", lambda t: whisper(1500, 512, t)),
    ("whisper, 1500 positions, dim 1280", lambda t: whisper(1500, 1280, t)),
    (
        "diffusers, timesteps 0…999, dim 320, flip, shift 0",
        lambda t: diffusers(np.arange(1000), 320, 1, t),
    ),
    (
        "diffusers, timesteps 0…999, dim 320, flip, shift 0, scale 1000",
        lambda t: diffusers(np.arange(1000), 320, 1000, t),
    ),
]
print("float32 evaluation (NumPy) against the exact formula, max abs difference:")
for name, build in cases:
    print(f"  {name}: {gap(build):.2g}")
