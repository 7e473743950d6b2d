#!/usr/bin/env python3
"""Fits the polynomials of tfc's float32 exp, tanh, erf and erfc.

The generated code (lib/Transforms/Codegen/MathApproximations.cpp) and the
runtime's kernels (runtime/kernels/cpu/VectorMath.h) evaluate these
polynomials; their coefficients live in include/tfc/Support/MathPolynomials.h,
which this script prints. Each function is written as

    f(x) = base(x) + scale(x) * p(u(x) - center)

with p a polynomial evaluated by Horner's rule. The fit minimises the
largest relative error of f on its interval (Lawson's iteration over a
weighted least-squares fit on a dense Chebyshev grid) in double precision;
the script then rounds the coefficients to float32, evaluates p in float32
as the programs do and prints the relative error that remains. The
accuracy of the programs themselves (in ulps, against the C library) is
measured by test/e2e/math-accuracy.test.

Needs numpy (a development tool only, like the scripts that make test data):
    python3 scripts/fit_math_polynomials.py
"""

import math

import numpy as np

erf = np.vectorize(math.erf)
erfc = np.vectorize(math.erfc)


def grid(lo, hi, n=20000):
    k = np.arange(n)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)


def horner32(coefficients, v):
    acc = np.full_like(v, coefficients[-1], dtype=np.float32)
    for c in coefficients[-2::-1]:
        acc = (acc * v + np.float32(c)).astype(np.float32)
    return acc


def fit(name, f, base, scale, u, lo, hi, terms, center=0.0, iterations=200):
    x = grid(lo, hi)
    v = u(x) - center
    # Relative error of f: (base + scale * p(v)) / f - 1, linear in p's
    # coefficients.
    a = np.stack([scale(x) * v**j for j in range(terms)], axis=1) / f(x)[:, None]
    rhs = 1 - base(x) / f(x)
    weights = np.ones_like(x) / len(x)
    for _ in range(iterations):
        w = np.sqrt(weights)
        c, *_ = np.linalg.lstsq(a * w[:, None], rhs * w, rcond=None)
        error = np.abs(a @ c - rhs)
        weights = weights * error
        weights /= weights.sum()
    exact_error = float(np.max(np.abs(a @ c - rhs)))
    c32 = [np.float32(ci) for ci in c]
    x32 = x.astype(np.float32)
    v32 = (u(x32).astype(np.float32) - np.float32(center)).astype(np.float32)
    value = base(x32).astype(np.float64) + scale(x32).astype(np.float64) * horner32(c32, v32)
    rounded_error = float(np.max(np.abs(value / f(x32.astype(np.float64)) - 1)))
    print(f"// {name}: on [{lo:g}, {hi:g}], relative error {exact_error:.2g} "
          f"(float32 coefficients and arithmetic: {rounded_error:.2g})")
    print(f"inline constexpr float {name}[] = {{")
    for ci in c32:
        print(f"    {float(ci)!r}f,")
    print("};")


zero = lambda x: np.zeros_like(x)
identity = lambda x: x

# exp(r) = 1 + r + r^2 p(r) for |r| <= ln2 / 2: what is left of x after
# removing k ln2, k = round(x / ln2).
half_ln2 = math.log(2) / 2 * 1.001
fit("kExpTail", np.exp, lambda r: 1 + r, lambda r: r * r, identity,
    -half_ln2, half_ln2, terms=5)

# tanh(x) = x + x^3 p(x^2) for |x| < 0.625; beyond it 1 - 2 / (exp(2|x|) + 1)
# has no cancellation.
fit("kTanhOdd", np.tanh, identity, lambda x: x**3, lambda x: x * x,
    1e-4, 0.625, terms=5)

# erf(x) = x p(x^2) for |x| < 0.5.
fit("kErfOdd", erf, zero, identity, lambda x: x * x, 1e-4, 0.5, terms=5)

# erfc(a) = exp(-a^2) t p(t - center), t = 1 / (1 + a / 2), for
# 0.5 <= a <= 10.1 (where erfc underflows float32), in two pieces split at
# a = 2 (t = 0.5).
t_of = lambda a: 1 / (1 + a / 2)
scaled = lambda a: np.exp(-(a.astype(np.float64) ** 2)) * t_of(a.astype(np.float64))
for name, lo, hi in [("kErfcNear", 0.5, 2.0), ("kErfcFar", 2.0, 10.1)]:
    center = (t_of(lo) + t_of(hi)) / 2
    print(f"inline constexpr float {name}Center = {float(np.float32(center))!r}f;")
    fit(name, erfc, zero, scaled, t_of, lo, hi, terms=7,
        center=float(np.float32(center)))
