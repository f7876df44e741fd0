#!/usr/bin/python3
"""Generate the constants of src/core/special_functions.c and the quadrature
rules of src/core/decay_integral.c.  Run with Debian's /usr/bin/python3
(python3-mpmath).  Prints C initialisers; paste them into the C files.

  fit_sici.py [all | taylor | aux | quad]   constants (all: everything)
  fit_sici.py try A B|inf M N F|G           errors of one trial fit

Ci/Si method (A&S 5.2, DLMF 6.2, 6.6, 6.12):
  x <= 2 : Taylor series  Cin(x) = sum_{k>=1} (-1)^(k+1) x^(2k) / (2k (2k)!),
                          Si(x)  = sum_{k>=0} (-1)^k x^(2k+1) / ((2k+1)(2k+1)!),
           Ci(x) = gamma + ln x - Cin(x).
  x > 2  : auxiliary functions f, g (DLMF 6.2.17-18),
           Ci = f sin x - g cos x,  Si = pi/2 - f cos x - g sin x,
           with x f(x) and x^2 g(x) approximated on [a, b) by rationals
           P(v)/Q(v) in v = (a/x)^2, fitted here (Lawson-weighted
           Sanathanan-Koerner iteration for minimax relative error).
Quadrature rules: Gauss-Legendre by Newton on P_n, Kronrod extension by the
Stieltjes-polynomial orthogonality conditions (Kronrod 1964).
"""
import sys
import mpmath as mp

mp.mp.dps = 60


def c_double(v):
    s = repr(float(v))
    if 'e' not in s and '.' not in s:
        s += '.0'
    return s


def print_array(name, vals):
    print(f"static const double {name}[{len(vals)}] = {{")
    for v in vals:
        print(f"    {c_double(v)},")
    print("};")


# ---- Taylor coefficients, small argument -------------------------------
def taylor_cin(nterms):
    return [mp.mpf((-1) ** (k + 1)) / (2 * k * mp.factorial(2 * k))
            for k in range(1, nterms + 1)]


def taylor_si(nterms):
    return [mp.mpf((-1) ** k) / ((2 * k + 1) * mp.factorial(2 * k + 1))
            for k in range(0, nterms)]


# ---- auxiliary functions ------------------------------------------------
def aux_fg(x):
    x = mp.mpf(x)
    s, c = mp.sin(x), mp.cos(x)
    ci, si = mp.ci(x), mp.si(x) - mp.pi / 2
    f = ci * s - si * c
    g = -ci * c - si * s
    return f, g


def targets(a, v):
    """F = x f(x), G = x^2 g(x) at x = a / sqrt(v); the limit 1 at v = 0."""
    if v == 0:
        return mp.mpf(1), mp.mpf(1)
    x = a / mp.sqrt(v)
    f, g = aux_fg(x)
    return x * f, x * x * g


def polyval(c, v):
    r = mp.mpf(0)
    for ck in reversed(c):
        r = r * v + ck
    return r


def fit_rational(vs, fs, m, n, iters=40):
    """Minimax relative-error fit P/Q, deg P = m, deg Q = n, Q(0) = 1."""
    N = len(vs)
    w = [mp.mpf(1)] * N
    qprev = [mp.mpf(1)] * N
    best = None
    for it in range(iters):
        rows = []
        rhs = []
        for i in range(N):
            sc = mp.sqrt(w[i]) / (abs(fs[i]) * abs(qprev[i]))
            row = [sc * vs[i] ** j for j in range(m + 1)]
            row += [-sc * fs[i] * vs[i] ** j for j in range(1, n + 1)]
            rows.append(row)
            rhs.append(sc * fs[i])
        A = mp.matrix(rows)
        b = mp.matrix(rhs)
        At = A.T
        sol = mp.lu_solve(At * A, At * b)
        p = [sol[j] for j in range(m + 1)]
        q = [mp.mpf(1)] + [sol[m + j] for j in range(1, n + 1)]
        qv = [polyval(q, v) for v in vs]
        err = [(polyval(p, vs[i]) / qv[i] - fs[i]) / fs[i] for i in range(N)]
        emax = max(abs(e) for e in err)
        if best is None or emax < best[0]:
            best = (emax, p, q)
        qprev = qv
        tot = mp.mpf(0)
        for i in range(N):
            w[i] = w[i] * abs(err[i])
            tot += w[i]
        w = [wi / tot for wi in w]
    return best


def check_double(a, v0, p, q, which, npts=3000):
    """Max relative error of the double-rounded rational on a dense grid."""
    pd = [mp.mpf(float(c)) for c in p]
    qd = [mp.mpf(float(c)) for c in q]
    worst = mp.mpf(0)
    for i in range(npts + 1):
        v = v0 + (1 - v0) * mp.mpf(i) / npts
        F, G = targets(a, v)
        t = F if which == 'F' else G
        e = abs((polyval(pd, v) / polyval(qd, v) - t) / t)
        worst = max(worst, e)
    return worst


def fit_interval(a, b, m, n, which, N=160):
    v0 = (mp.mpf(a) / b) ** 2 if b is not None else mp.mpf(0)
    vs = [v0 + (1 - v0) * (1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / N)) / 2
          for i in range(N)]
    vs = [v0] + vs + [mp.mpf(1)]
    fs = [targets(a, v)[0 if which == 'F' else 1] for v in vs]
    emax, p, q = fit_rational(vs, fs, m, n)
    ed = check_double(a, v0, p, q, which)
    return emax, ed, p, q


# ---- quadrature rules ----------------------------------------------------
def legendre_nodes(n):
    xs = []
    for i in range(1, n + 1):
        x = mp.cos(mp.pi * (i - mp.mpf(1) / 4) / (n + mp.mpf(1) / 2))
        for _ in range(100):
            p, dp = mp.legendre(n, x), mp.diff(lambda t: mp.legendre(n, t), x)
            dx = p / dp
            x -= dx
            if abs(dx) < mp.mpf(10) ** (-55):
                break
        xs.append(x)
    return sorted(xs)


def weights_for(nodes, exact_deg):
    k = len(nodes)
    A = mp.matrix([[x ** j for x in nodes] for j in range(k)])
    b = mp.matrix([(1 - (-1) ** (j + 1)) / mp.mpf(j + 1) for j in range(k)])
    w = mp.lu_solve(A, b)
    ws = [w[i] for i in range(k)]
    for j in range(exact_deg + 1):
        s = sum(ws[i] * nodes[i] ** j for i in range(k))
        assert abs(s - (1 - (-1) ** (j + 1)) / mp.mpf(j + 1)) < mp.mpf(10) ** -40, j
    return ws


def kronrod(n):
    """Kronrod extension of the n-point Gauss rule (n odd here)."""
    g = legendre_nodes(n)
    # Stieltjes polynomial E_{n+1}, monic, orthogonal to x^k P_n, k = 0..n.
    deg = n + 1
    unknowns = list(range(deg))  # coefficients c_0..c_n of E = x^deg + sum
    rows, rhs = [], []
    Pn = lambda t: mp.legendre(n, t)
    mom = lambda j: (1 - (-1) ** (j + 1)) / mp.mpf(j + 1)
    # Integrals of x^j P_n(x) on [-1, 1] from P_n's monomial coefficients.
    pc = mp.taylor(Pn, 0, n)

    def ip(j):
        return sum(pc[i] * mom(i + j) for i in range(n + 1))

    for k in range(n + 1):
        rows.append([ip(k + c) for c in unknowns])
        rhs.append(-ip(k + deg))
    # The system is singular by parity; drop the trivially zero equations
    # and unknowns (E has the parity of n + 1).
    keep_c = [c for c in unknowns if (c - deg) % 2 == 0]
    keep_k = [k for k in range(n + 1) if (k + deg + n) % 2 == 0]
    A = mp.matrix([[rows[k][c] for c in keep_c] for k in keep_k])
    bb = mp.matrix([rhs[k] for k in keep_k])
    sol = mp.lu_solve(A, bb)
    coeffs = [mp.mpf(0)] * deg + [mp.mpf(1)]
    for i, c in enumerate(keep_c):
        coeffs[c] = sol[i]
    roots = mp.polyroots(list(reversed(coeffs)), maxsteps=200, extraprec=200)
    roots = sorted(mp.re(r) for r in roots)
    nodes = sorted(g + roots)
    wk = weights_for(nodes, 3 * n + 1)
    wg = weights_for(g, 2 * n - 1)
    return nodes, wk, g, wg


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else 'all'
    if what in ('all', 'taylor'):
        print("/* Taylor coefficients of Cin(x)/x^2 and Si(x)/x in x^2. */")
        print_array("cin_taylor", taylor_cin(12))
        print_array("si_taylor", taylor_si(12))
    if what in ('all', 'aux'):
        specs = [(2, 4, 'F'), (2, 4, 'G'), (4, 8, 'F'), (4, 8, 'G'),
                 (8, 16, 'F'), (8, 16, 'G'), (16, None, 'F'), (16, None, 'G')]
        for a, b, which in specs:
            m, n = DEGREES[(a, which)]
            emax, ed, p, q = fit_interval(a, b, m, n, which)
            tag = f"{which.lower()}{a}"
            print(f"/* x in [{a}, {b if b else 'inf'}): {'x f(x)' if which == 'F' else 'x^2 g(x)'}"
                  f" = P(v)/Q(v), v = ({a}/x)^2, degrees {m}/{n}; fit error"
                  f" {mp.nstr(emax, 3)}, with double coefficients {mp.nstr(ed, 3)} */")
            print_array(f"{tag}_p", p)
            print_array(f"{tag}_q", q)
    if what == 'try':  # try: a b|inf m n F|G
        a = int(sys.argv[2])
        b = None if sys.argv[3] == 'inf' else int(sys.argv[3])
        emax, ed, p, q = fit_interval(a, b, int(sys.argv[4]), int(sys.argv[5]),
                                      sys.argv[6])
        print(mp.nstr(emax, 3), mp.nstr(ed, 3))
    if what in ('all', 'quad'):
        nodes, wk, g, wg = kronrod(7)
        print("/* 15-point Kronrod rule and its 7-point Gauss rule on [-1, 1]"
              " (nodes >= 0; the rules are symmetric). */")
        half = [i for i in range(len(nodes)) if nodes[i] >= 0]
        print_array("gk15_x", [nodes[i] for i in half])
        print_array("gk15_wk", [wk[i] for i in half])
        gi = [i for i in range(len(g)) if g[i] >= 0]
        print_array("gk15_wg", [wg[i] for i in gi])
        x6 = legendre_nodes(6)
        w6 = weights_for(x6, 11)
        print("/* 6-point Gauss-Legendre rule on [-1, 1] (nodes > 0). */")
        print_array("gl6_x", [x for x in x6 if x > 0])
        print_array("gl6_w", [w6[i] for i in range(6) if x6[i] > 0])


DEGREES = {(2, 'F'): (8, 8), (2, 'G'): (8, 8), (4, 'F'): (7, 7),
           (4, 'G'): (7, 7), (8, 'F'): (6, 6), (8, 'G'): (6, 6),
           (16, 'F'): (6, 6), (16, 'G'): (6, 6)}

if __name__ == '__main__':
    main()
