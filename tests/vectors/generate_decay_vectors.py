#!/usr/bin/python3
"""Reference vectors for Ci, Si and the decay integral
f(x) = int_0^1 cos(x theta(t)) dt, computed with mpmath at high precision
(never with the code under test). Run with Debian's /usr/bin/python3 from
the repository root; writes tests/vectors/decay/*.txt.

Every family is computed by one formula and cross-checked against a second,
independent one where both are practical:
  ci_si  : mpmath ci/si;                      checked against quad of cos t/t
  exp    : (Ci(x) - Ci(x/b)) / ln b;           checked against quad in t
  power  : 1F2(s/2; 1/2, 1+s/2; -x^2/4) (x <= 200), else the incomplete
           gamma form s x^-s Re(e^{i pi s/2}(Gamma(s) - Gamma(s, -ix)));
           the two are checked against each other on 1 <= x <= 200
  linear : sin(x) / x
x values and parameters are exact doubles, printed with repr so that they
round-trip; results are printed with 17 significant digits.
"""
import math
import os
import random

import mpmath as mp

mp.mp.dps = 50
OUT = os.path.join('tests', 'vectors', 'decay')


def num(v):
    return repr(float(v))


def r17(v):
    return '%.17g' % float(v)


def nextafter_n(x, k):
    for _ in range(abs(k)):
        x = math.nextafter(x, math.inf if k > 0 else -math.inf)
    return x


def write(name, header, rows):
    path = os.path.join(OUT, name)
    with open(path, 'w') as fh:
        fh.write('# ' + header + '\n')
        for r in rows:
            fh.write(' '.join(r) + '\n')
    print(path, len(rows), 'rows', os.path.getsize(path), 'bytes')


def log_uniform(rng, lo, hi, n):
    return [math.exp(rng.uniform(math.log(lo), math.log(hi))) for _ in range(n)]


# ---- Ci and Si -------------------------------------------------------------
def ci_si_rows():
    rng = random.Random(6)
    xs = set()
    for k in range(-80, 61):  # 1e-8 .. 1e6 in steps of 10^(1/10)
        xs.add(float(10 ** (k / 10)))
    xs.update(log_uniform(rng, 1e-8, 1e6, 150))
    xs.update(float(k) for k in range(1, 33))
    xs.update([0.5, 1.5, 2.5, 3.5, 7.5, 12.25, 123456.789, 999999.0, 1e6])
    # Region boundaries of the implementation and of Cephes (4, 8).
    for b in (2.0, 4.0, 8.0):
        for k in (-3, -1, 0, 1, 3):
            xs.add(nextafter_n(b, k))
        xs.update([b * (1 - 1e-9), b * (1 + 1e-9), b - 1e-3, b + 1e-3])
    # Zeros of Ci: where only absolute accuracy is meaningful.
    zeros = [mp.findroot(mp.ci, z) for z in (0.6165, 3.3842, 6.4270, 9.5228,
                                             12.6622, 15.8034, 18.9459)]
    for n in (100, 1000, 10000, 100000):
        zeros.append(mp.findroot(mp.ci, mp.pi * n))  # Ci ~ sin x / x
    for z in zeros:
        zf = float(z)
        for k in (-2, -1, 0, 1, 2):
            xs.add(nextafter_n(zf, k))
        for d in (1e-10, 1e-6, 1e-3):
            xs.update([zf * (1 - d), zf * (1 + d)])
    rows = []
    for x in sorted(xs):
        if not (1e-8 <= x <= 1e6):
            continue
        X = mp.mpf(x)
        rows.append((num(x), r17(mp.ci(X)), r17(mp.si(X))))
    # Independent check of a sample.
    for x in (1e-3, 0.6, 2.0, 3.7, 9.0, 40.0):
        X = mp.mpf(x)
        ci_q = mp.euler + mp.log(X) + mp.quad(lambda t: (mp.cos(t) - 1) / t, [0, X])
        si_q = mp.quad(lambda t: mp.sin(t) / t, [0, X])
        assert abs(ci_q - mp.ci(X)) < 1e-30 and abs(si_q - mp.si(X)) < 1e-30, x
    return rows


# ---- exp family -----------------------------------------------------------
EXP_BASES = [1.0001, 1.001, 1.01, 1.1, 1.5, 2.0, math.e, 3.7, 10.0, 100.0,
             1000.0, 10000.0, 31622.7766, 1e5, 1e6, 1e7, 1e8]


def exp_ref(b, x):
    if x == 0:
        return mp.mpf(1)
    B, X = mp.mpf(b), abs(mp.mpf(x))
    return (mp.ci(X) - mp.ci(X / B)) / mp.log(B)


def exp_quad(b, x):
    B, X = mp.mpf(b), mp.mpf(x)
    n = int(abs(x) / 3) + 1
    return mp.quad(lambda t: mp.cos(X * B ** (-t)),
                   [mp.mpf(k) / n for k in range(n + 1)])


def exp_rows():
    rng = random.Random(10000)
    base_x = [0.0, 1e-8, 1e-4, 0.01, 0.1, 0.3, 0.5, 1.0, 1.5, 1.99999, 2.0,
              2.5, 3.3842, 4.0, 5.0, 7.9999, 8.0, 10.0, 16.5, 31.4, 50.0,
              100.0, 127.9, 200.0, 512.0, 1000.0, 2048.0, 4096.5, 1e4, 3e4,
              65536.0, 1e5, 314159.0, 5e5, 999999.5, 1e6]
    rows = []
    for b in EXP_BASES:
        L = math.log(b)
        xs = set(base_x)
        xs.update(log_uniform(rng, 1e-3, 1e6, 30))
        # Region boundaries: x L = 1/2, x = 2, x / b = 2, 4, 8.
        for edge in (0.5 / L, 2.0 * b, 4.0 * b, 8.0 * b):
            for f in (1 - 1e-9, 1.0, 1 + 1e-9):
                xs.add(edge * f)
        for x in sorted(xs):
            if x <= 1e6:
                rows.append((num(b), num(x), r17(exp_ref(b, x))))
    for b in (1.0001, 1.01, 2.0, 10000.0, 1e8):
        for x in (0.3, 3.0, 11.0, 45.0):
            d = abs(exp_quad(b, x) - exp_ref(b, x))
            assert d < 1e-25, (b, x, d)
    return rows


# ---- power family ---------------------------------------------------------
ALPHAS = [0.25, 0.3, 1 / 3, 0.4, 0.5, 0.7, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5,
          2.0, 2.5, 3.0, 3.7, 4.0]
# Outside the guaranteed range, for the record (tests use looser bounds).
ALPHAS_EXTRA = [1 / 1024, 0.01, 1 / 24, 0.1, 10.0, 100.0]


def power_hyp(alpha, x):
    s = 1 / mp.mpf(alpha)
    return mp.hyp1f2(s / 2, mp.mpf(1) / 2, 1 + s / 2, -mp.mpf(x) ** 2 / 4)


def power_gamma(alpha, x):
    s, X = 1 / mp.mpf(alpha), mp.mpf(x)
    # Gamma(s) x^-s may be huge while f is O(1): add the digits that cancel.
    lost = max(0, int(mp.log10(mp.gamma(s)) - s * mp.log10(X)))
    with mp.workdps(mp.mp.dps + lost + 10):
        j = mp.exp(1j * mp.pi * s / 2) * (mp.gamma(s) - mp.gammainc(s, -1j * X))
        return +(s * X ** (-s) * mp.re(j))


def power_ref(alpha, x):
    x = abs(x)
    if x == 0:
        return mp.mpf(1)
    return power_hyp(alpha, x) if x <= 200 else power_gamma(alpha, x)


def power_rows():
    rng = random.Random(4)
    base_x = [0.0, 1e-6, 0.01, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 6.99, 7.0, 7.01,
              8.0, 10.0, 12.0, 15.0, 20.0, 30.0, 50.0, 100.0, 128.0, 200.0,
              200.5, 300.0, 1000.0, 3000.0, 1e4, 3e4, 99999.5, 1e5]
    rows = []
    for a in ALPHAS + ALPHAS_EXTRA:
        xs = set(base_x)
        xs.update(log_uniform(rng, 1e-2, 1e5, 24))
        for x in sorted(xs):
            rows.append((num(a), num(x), r17(power_ref(a, x))))
    for a in (1 / 1024, 0.01, 0.25, 1 / 3, 1.0, 2.0, 3.7, 4.0):
        for x in (1.0, 7.5, 33.0, 150.0):
            d = abs(power_hyp(a, x) - power_gamma(a, x))
            assert d < 1e-30, (a, x, d)
    return rows


def linear_rows():
    xs = [0.0, 1e-300, 1e-8, 1e-3, 0.5, 1.0, 3.0, math.pi, 10.0, 100.5,
          1e4, 123456.5, 1e6]
    return [(num(x), r17(mp.mpf(1) if x == 0 else mp.sin(mp.mpf(x)) / x))
            for x in xs]


def main():
    os.makedirs(OUT, exist_ok=True)
    write('ci_si.txt', 'x ci(x) si(x)', ci_si_rows())
    write('exp.txt', 'base x f(x) = (Ci(x) - Ci(x/base)) / ln(base)',
          exp_rows())
    write('power.txt', 'alpha x f(x) = 1F2(s/2; 1/2, 1+s/2; -x^2/4), s = 1/alpha',
          power_rows())
    write('linear.txt', 'x f(x) = sin(x)/x', linear_rows())


if __name__ == '__main__':
    main()
