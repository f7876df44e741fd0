#!/usr/bin/python3
"""Writes tests/vectors/rounding/rounding_vectors.json: the correctly rounded
float32 values of amplitude * sin(p * w) and amplitude * cos(p * w), p * w
the exact product of the position and the double frequency w, computed by
mpmath at 50 digits and rounded once to float32 (nearest, ties to even).

Run with Debian's interpreter (python3-mpmath, python3-numpy):
    /usr/bin/python3 tests/vectors/generate_rounding_vectors.py

The frequencies are doubles, written in the file, and the exact values are
those of these doubles: the paper and RoPE default schedules as the
correctly rounded base^(-2i/d) (mpmath); timescale as tensor2tensor's
formula evaluates in float64; llama3 and yarn as Hugging Face's
modeling_rope_utils.py adjusts that correctly rounded base schedule, each
operation in float64: each schedule given by its double inputs.

A value whose exact result lies within BAND float32 ulps of a rounding
midpoint is listed in its case's `band` as [row, pair, 0 for sin or 1 for
cos]: no double computation decides its rounding, and the tests skip it.

A case is {name, kind ("table" or "ropeCache"), options (what the package
takes besides positions), omega, amplitude, and either start and count
(rows at start + j) or positions; sin and cos: one string per row, eight hex
digits of float32 bits per pair}.
"""

import json
import math
import os
import random
import struct

import mpmath
import numpy as np

mpmath.mp.dps = 50
BAND = 1e-6
OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "rounding", "rounding_vectors.json"
)


def paper_omega(base, dim, pairs):
    """Correctly rounded base^(-2i/dim) for i < pairs."""
    return [float(mpmath.power(base, mpmath.mpf(-2 * i) / dim)) for i in range(pairs)]


def timescale_omega(dim, min_timescale, max_timescale):
    """tensor2tensor's get_timing_signal_1d inverse timescales in float64."""
    h = dim // 2
    increment = np.log(max_timescale / min_timescale) / max(h - 1, 1)
    return [float(min_timescale * np.exp(-float(i) * increment)) for i in range(h)]


def llama3(omega, factor, low, high, original):
    """_compute_llama3_parameters on the base frequencies omega."""
    low_wavelength, high_wavelength = original / low, original / high
    out = []
    for w in omega:
        wavelength = 2 * math.pi / w
        if wavelength > low_wavelength:
            w = w / factor
        elif not wavelength < high_wavelength:
            smooth = (original / wavelength - low) / (high - low)
            w = (1 - smooth) * w / factor + smooth * w
        out.append(w)
    return out, 1.0


def yarn(omega, dim, base, factor, original, beta_fast=32, beta_slow=1):
    """_compute_yarn_parameters (truncated ramp, default mscale) on the base
    frequencies omega: interpolation omega / factor blended with omega."""
    def correction_dim(rotations):
        return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    out = []
    for i, w in enumerate(omega):
        ramp = min(max((i - low) / (high - low), 0), 1)
        extrapolation = 1 - ramp
        out.append(w / factor * (1 - extrapolation) + w * extrapolation)
    return out, 0.1 * math.log(factor) + 1.0


def round_f32(x):
    """(float32 value, distance of x to the nearest rounding midpoint in
    float32 ulps) for a real x in the normal float32 range, or zero."""
    if x == 0:
        return 0.0, 0.5
    mant, exp = mpmath.frexp(abs(x))  # abs(x) = mant * 2^exp, mant in [1/2, 1)
    scaled = mpmath.ldexp(mant, 24)  # in [2^23, 2^24): one unit is one ulp
    assert exp - 1 >= -126, "below the normal float32 range"
    low = int(mpmath.floor(scaled))
    frac = scaled - low
    if frac > 0.5 or (frac == 0.5 and low % 2 == 1):
        low += 1
    value = float(mpmath.ldexp(low, exp - 24))
    return (value if x > 0 else -value), float(abs(frac - 0.5))


def hex32(v):
    return struct.pack(">f", v).hex()


def values(positions, omega, amplitude):
    amp = mpmath.mpf(amplitude)
    sin_rows, cos_rows, band = [], [], []
    for row, p in enumerate(positions):
        s_hex, c_hex = [], []
        for i, w in enumerate(omega):
            x = mpmath.mpf(p) * mpmath.mpf(w)  # exact at 50 digits
            for k, exact in enumerate((amp * mpmath.sin(x), amp * mpmath.cos(x))):
                v, distance = round_f32(exact)
                if distance < BAND:
                    band.append([row, i, k])
                (s_hex if k == 0 else c_hex).append(hex32(v))
        sin_rows.append("".join(s_hex))
        cos_rows.append("".join(c_hex))
    return sin_rows, cos_rows, band


def case(name, kind, options, omega, amplitude, start=None, count=None, positions=None):
    rows = positions if positions is not None else [start + j for j in range(count)]
    sin_rows, cos_rows, band = values(rows, omega, amplitude)
    out = {"name": name, "kind": kind, "options": options, "omega": omega,
           "amplitude": amplitude}
    if positions is not None:
        out["positions"] = positions
    else:
        out["start"], out["count"] = start, count
    out.update(sin=sin_rows, cos=cos_rows, band=band)
    return out


def main():
    rng = random.Random(27)
    cases = []
    cases.append(case("paper d64 from 0", "table", {"dim": 64, "base": 10000},
                      paper_omega(10000, 64, 32), 1.0, start=0, count=260))
    cases.append(case("paper d127 extra-sin to 2^24", "table",
                      {"dim": 127, "base": 10000, "oddDim": "extra-sin"},
                      paper_omega(10000, 127, 64), 1.0, start=2**24 - 200, count=201))
    cases.append(case("paper base 5e5 d128 from 2^20 + 0.5", "table",
                      {"dim": 128, "base": 500000},
                      paper_omega(500000, 128, 64), 1.0, start=2**20 + 0.5, count=140))
    ts = timescale_omega(96, 1.0, 10000.0)
    cases.append(case("timescale d96 (frequencies)", "table", {"dim": 96, "frequencies": ts},
                      ts, 1.0, start=123456, count=150))
    cases.append(case("rope base 1e6 d128 to 2^24", "ropeCache", {"dim": 128, "base": 1000000},
                      paper_omega(1000000, 128, 64), 1.0, start=2**24 - 299, count=300))
    l3_options = {"dim": 128, "base": 500000,
                  "scaling": {"type": "llama3", "factor": 8, "lowFreqFactor": 1,
                              "highFreqFactor": 4, "originalMaxPositionEmbeddings": 8192}}
    l3, l3_attention = llama3(paper_omega(500000, 128, 64), 8.0, 1.0, 4.0, 8192.0)
    cases.append(case("llama3 d128 from 8000", "ropeCache", l3_options,
                      [float(w) for w in l3], float(l3_attention), start=8000, count=260))
    yarn_options = {"dim": 64, "base": 10000,
                    "scaling": {"type": "yarn", "factor": 4,
                                "originalMaxPositionEmbeddings": 4096}}
    y, y_attention = yarn(paper_omega(10000, 64, 32), 64, 10000.0, 4.0, 4096.0)
    cases.append(case("yarn d64 from 0", "ropeCache", yarn_options,
                      [float(w) for w in y], float(y_attention), start=0, count=200))
    listed = sorted({rng.randrange(0, 2**24 + 1) for _ in range(120)})
    listed += [0.25, 3.5, 1e6 + 0.125, 2**24, 2**24 - 0.5, 7, 8, 9, 10]
    rng.shuffle(listed)
    cases.append(case("paper d64 listed", "table", {"dim": 64, "base": 10000},
                      paper_omega(10000, 64, 32), 1.0, positions=listed))
    cases.append(case("llama3 d128 listed", "ropeCache", l3_options,
                      [float(w) for w in l3], float(l3_attention), positions=listed[:60]))
    total = sum(2 * len(c["omega"]) * len(c["sin"]) for c in cases)
    banded = sum(len(c["band"]) for c in cases)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"band": BAND, "values": total, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"{OUT}: {total} float32 values in {len(cases)} cases, {banded} within the band")


if __name__ == "__main__":
    main()
