#!/usr/bin/env python3
"""Generates tfc's op-level tests: one small graph per op, TensorFlow's outputs.

Run with a Python that has tensorflow-cpu==2.21.0 and numpy installed:

    /path/to/venv/bin/python test/ops/generate.py [--only Add,Cast]

For each case it (re)creates test/ops/cases/<case>/ with

    graph.pbtxt     a GraphDef: Placeholders x0, x1, ... and the op under
                    test, applied to several inputs (broadcast shapes, edge
                    values: NaN, +-Inf, -0, halves, empty tensors), with
                    outputs named out0, out1, ...
    inputs/N.npy    the value fed to xN
    outputs/N.npy   TensorFlow's value of outN

and rewrites cases.json, the list run_cases.py walks: per case its feeds,
fetches and tolerance. TensorFlow runs the graphs exactly as written (one
thread, Grappler off, plain Eigen kernels: TF_ENABLE_ONEDNN_OPTS=0).

TensorFlow is only used to MAKE this data; tfc never depends on it.
"""

import argparse
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "corpus"))
from tfsession import session_config  # noqa: E402

tf1 = tf.compat.v1
raw = tf.raw_ops
HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20251121

# Tolerances by kind of computation (float32; float64 gets 1e-12/1e-14).
EXACT = (0.0, 0.0)
ELEMENTWISE = (1e-5, 1e-6)
TRANSCENDENTAL = (2e-5, 1e-6)
REDUCTION = (1e-4, 1e-5)


def edge_floats(dtype=np.float32):
    """24 values: the edges of IEEE arithmetic and of TensorFlow's kernels
    (halves for rounding, -0, tiny values for log1p/expm1, large values for
    exp overflow), then a few ordinary ones; shape [4, 6]."""
    inf, nan = np.inf, np.nan
    values = [-inf, -88.5, -3.5, -2.5, -1.5, -1.0, -0.5, -1e-7, -0.0, 0.0,
              1e-7, 0.5, 1.0, 1.5, 2.5, 3.5, 10.0, 88.5, inf, nan,
              0.3, -0.7, 2.2, -1.9]
    return np.array(values, dtype=dtype).reshape(4, 6)


def ordinary_floats(shape, rng, dtype=np.float32, low=-3.0, high=3.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


def ints(shape, rng, dtype=np.int32, low=-9, high=10, nonzero=False):
    v = rng.integers(low, high, size=shape).astype(dtype)
    if nonzero:
        v[v == 0] = 3
    return v


class Case:
    """Collects the placeholders (with their values) and outputs of a case."""

    def __init__(self, name):
        self.name = name
        self.feeds = []   # (placeholder tensor, value)
        self.fetches = []
        self.rtol, self.atol = ELEMENTWISE

    def feed(self, value, any_batch=False):
        """A placeholder fed `value`; with any_batch, its first dimension
        unknown (tfc compiles one program for any batch)."""
        value = np.asarray(value)
        dtype = tf.string if value.dtype.kind == "S" else tf.as_dtype(value.dtype)
        shape = (None,) + value.shape[1:] if any_batch else value.shape
        p = tf1.placeholder(dtype, shape, name="x%d" % len(self.feeds))
        self.feeds.append((p, value))
        return p

    def fetch(self, tensor):
        out = tf.identity(tensor, name="out%d" % len(self.fetches))
        self.fetches.append(out)


CASES = {}


def case(name, tol=ELEMENTWISE):
    def register(build):
        CASES[name] = (build, tol)
        return build
    return register


# --------------------------------------------------------------------------
# Elementwise: binary arithmetic with broadcasting
# --------------------------------------------------------------------------

def binary_case(op, int_types=(np.int32,), nonzero_divisor=False,
                tol=ELEMENTWISE, float_types=(np.float32,), names=("x", "y")):
    def build(c, rng):
        op_function = getattr(raw, op)

        def f(x, y):
            return op_function(**{names[0]: x, names[1]: y})
        for ft in float_types:
            x = edge_floats(ft)
            # [4,6] op [6]: every edge value against ordinary and edge ones.
            c.fetch(f(x=c.feed(x), y=c.feed(np.array(
                [2.0, -1.5, 0.5, np.inf, -0.0, 3.0], ft))))
            # [4,1] op [1,6] op: both sides broadcast.
            c.fetch(f(x=c.feed(ordinary_floats((4, 1), rng, ft)),
                      y=c.feed(ordinary_floats((1, 6), rng, ft, 0.5, 3.0))))
            # Scalar with a rank-3 tensor, and the edges against themselves.
            c.fetch(f(x=c.feed(np.array(1.5, ft)),
                      y=c.feed(ordinary_floats((2, 3, 4), rng, ft, 0.5, 3.0))))
            c.fetch(f(x=c.feed(x), y=c.feed(x.T.reshape(4, 6))))
        # Empty tensors.
        c.fetch(f(x=c.feed(np.zeros((0, 3), np.float32)),
                  y=c.feed(np.ones((3,), np.float32))))
        for it in int_types:
            lo = 0 if np.issubdtype(it, np.unsignedinteger) else -9
            c.fetch(f(x=c.feed(ints((3, 5), rng, it, lo)),
                      y=c.feed(ints((5,), rng, it, lo, nonzero=nonzero_divisor))))
    return build


for _op, _ints, _nz, _tol in [
        ("Add", (np.int32, np.int64, np.uint8), False, ELEMENTWISE),
        ("AddV2", (np.int32, np.int64), False, ELEMENTWISE),
        ("Sub", (np.int32, np.int64), False, ELEMENTWISE),
        ("Mul", (np.int32, np.int64), False, ELEMENTWISE),
        ("RealDiv", (), False, ELEMENTWISE),
        ("Div", (np.int32,), True, ELEMENTWISE),
        ("DivNoNan", (), False, ELEMENTWISE),
        ("FloorDiv", (np.int32, np.int64), True, ELEMENTWISE),
        ("FloorMod", (np.int32, np.int64), True, ELEMENTWISE),
        ("TruncateDiv", (np.int32,), True, ELEMENTWISE),
        ("TruncateMod", (np.int32,), True, ELEMENTWISE),
        ("Maximum", (np.int32, np.int64, np.uint8), False, ELEMENTWISE),
        ("Minimum", (np.int32, np.int64, np.uint8), False, ELEMENTWISE),
        ("Pow", (), False, TRANSCENDENTAL),
        ("SquaredDifference", (np.int32,), False, ELEMENTWISE)]:
    case(_op, _tol)(binary_case(_op, _ints, _nz, _tol))


@case("ChannelNormalization")
def _(c, rng):
    # Keras' Rescaling then Normalization of an image's 3 channels, the
    # first layers of EfficientNet and ConvNeXt: one fused loop whose
    # innermost dimension is 3 long (tfc-collapse-loops merges it with the
    # pixels and reads the per-channel constants through a tiled copy).
    mean = tf.constant(np.array([0.485, 0.456, 0.406], np.float32))
    std = tf.constant(np.array([[[[0.229, 0.224, 0.225]]]], np.float32))

    def normalize(x):
        scaled = raw.AddV2(x=raw.Mul(x=x, y=tf.constant(np.float32(1 / 255))),
                           y=tf.constant(np.float32(0.0)))
        return raw.RealDiv(x=raw.Sub(x=scaled, y=mean), y=std)
    c.fetch(normalize(c.feed(ordinary_floats((2, 5, 40, 3), rng, np.float32, 0.0, 255.0))))
    # A row of 1500 pixels: 4500 elements, more than the tiled copy holds.
    c.fetch(normalize(c.feed(ordinary_floats((1, 2, 1500, 3), rng, np.float32, 0.0, 255.0))))
    # 5 channels of a fed vector (not a constant), and a per-pixel scale
    # (broadcast along the channels: left unmerged).
    c.fetch(raw.Mul(x=c.feed(ordinary_floats((3, 7, 5), rng)),
                    y=c.feed(ordinary_floats((5,), rng))))
    c.fetch(raw.Mul(x=c.feed(ordinary_floats((3, 7, 5), rng)),
                    y=c.feed(ordinary_floats((3, 7, 1), rng))))


# --------------------------------------------------------------------------
# Elementwise: unary
# --------------------------------------------------------------------------

def unary_case(op, int_types=(), float_types=(np.float32,), attrs=None):
    def build(c, rng):
        f = getattr(raw, op)
        for ft in float_types:
            c.fetch(f(x=c.feed(edge_floats(ft)), **(attrs or {})))
            c.fetch(f(x=c.feed(ordinary_floats((2, 3, 5), rng, ft)),
                      **(attrs or {})))
        c.fetch(f(x=c.feed(np.zeros((2, 0), np.float32)), **(attrs or {})))
        for it in int_types:
            c.fetch(f(x=c.feed(ints((3, 4), rng, it)), **(attrs or {})))
    return build


def features_case(op, **attrs):
    """Activations name their argument `features`."""
    def build(c, rng):
        f = getattr(raw, op)
        c.fetch(f(features=c.feed(edge_floats()), **attrs))
        c.fetch(f(features=c.feed(ordinary_floats((2, 3, 5), rng, low=-20, high=20)),
                  **attrs))
    return build


for _op, _ints, _floats, _tol in [
        ("Neg", (np.int32, np.int64), (np.float32,), ELEMENTWISE),
        ("Abs", (np.int32, np.int64), (np.float32,), ELEMENTWISE),
        ("Square", (np.int32,), (np.float32,), ELEMENTWISE),
        ("Sign", (np.int32,), (np.float32,), ELEMENTWISE),
        ("Reciprocal", (), (np.float32,), ELEMENTWISE),
        ("Floor", (), (np.float32,), ELEMENTWISE),
        ("Ceil", (), (np.float32,), ELEMENTWISE),
        # Integer Round is left out: TensorFlow 2.21's CPU kernel returns 0
        # for every int32 input, where its documentation (and tfc) return x.
        ("Round", (), (np.float32,), ELEMENTWISE),
        ("Rint", (), (np.float32,), ELEMENTWISE),
        ("Sqrt", (), (np.float32, np.float64), ELEMENTWISE),
        ("Rsqrt", (), (np.float32,), ELEMENTWISE),
        ("Exp", (), (np.float32, np.float64), TRANSCENDENTAL),
        ("Expm1", (), (np.float32,), TRANSCENDENTAL),
        ("Log", (), (np.float32,), TRANSCENDENTAL),
        ("Log1p", (), (np.float32, np.float64), TRANSCENDENTAL),
        ("Tanh", (), (np.float32, np.float64), TRANSCENDENTAL),
        ("Sigmoid", (), (np.float32,), TRANSCENDENTAL),
        ("Erf", (), (np.float32,), TRANSCENDENTAL),
        ("Erfc", (), (np.float32,), TRANSCENDENTAL),
        ("Sin", (), (np.float32,), TRANSCENDENTAL),
        ("Cos", (), (np.float32,), TRANSCENDENTAL),
        # Declared in the op table with their math-dialect op, nothing else
        # (docs/AddingAnOp.md).
        ("Tan", (), (np.float32, np.float64), TRANSCENDENTAL),
        ("Asin", (), (np.float32,), TRANSCENDENTAL),
        ("Acos", (), (np.float32,), TRANSCENDENTAL),
        ("Atan", (), (np.float32,), TRANSCENDENTAL),
        ("Sinh", (), (np.float32,), TRANSCENDENTAL),
        ("Cosh", (), (np.float32,), TRANSCENDENTAL),
        ("Asinh", (), (np.float32,), TRANSCENDENTAL),
        ("Acosh", (), (np.float32,), TRANSCENDENTAL),
        ("Atanh", (), (np.float32,), TRANSCENDENTAL),
        ("IsNan", (), (np.float32,), EXACT),
        ("IsInf", (), (np.float32,), EXACT),
        ("IsFinite", (), (np.float32,), EXACT)]:
    case(_op, _tol)(unary_case(_op, _ints, _floats))

for _op, _attrs in [("Relu", {}), ("Relu6", {}), ("Elu", {}), ("Selu", {}),
                    ("Softplus", {}), ("Softsign", {}),
                    ("LeakyRelu", {"alpha": 0.1})]:
    case(_op, TRANSCENDENTAL)(features_case(_op, **_attrs))


@case("ReluInt")
def _(c, rng):
    c.fetch(raw.Relu(features=c.feed(ints((3, 4), rng))))
    c.fetch(raw.Relu6(features=c.feed(ints((3, 4), rng, low=-9, high=12))))


# --------------------------------------------------------------------------
# Comparisons, logic, selection, casts
# --------------------------------------------------------------------------

def compare_case(op):
    def build(c, rng):
        f = getattr(raw, op)
        x = edge_floats()
        c.fetch(f(x=c.feed(x), y=c.feed(np.array([1.5, -0.0, np.nan, np.inf, 0.5, 88.5],
                                                  np.float32))))
        c.fetch(f(x=c.feed(ints((3, 5), rng, low=-3, high=3)),
                  y=c.feed(ints((5,), rng, low=-3, high=3))))
        c.fetch(f(x=c.feed(ints((2, 4), rng, np.uint8, 0, 4)),
                  y=c.feed(np.array(2, np.uint8))))
    return build


for _op in ["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]:
    case(_op, EXACT)(compare_case(_op))


@case("Logical", EXACT)
def _(c, rng):
    a = c.feed(rng.integers(0, 2, (3, 4)).astype(bool))
    b = c.feed(rng.integers(0, 2, (4,)).astype(bool))
    c.fetch(raw.LogicalAnd(x=a, y=b))
    c.fetch(raw.LogicalOr(x=a, y=b))
    c.fetch(raw.LogicalNot(x=a))
    c.fetch(raw.Equal(x=a, y=b))


@case("Select", EXACT)
def _(c, rng):
    x = ordinary_floats((3, 4), rng)
    y = ordinary_floats((3, 4), rng)
    # v1: same shape, a vector picking rows, a scalar.
    c.fetch(raw.Select(condition=c.feed(rng.integers(0, 2, (3, 4)).astype(bool)),
                       x=c.feed(x), y=c.feed(y)))
    c.fetch(raw.Select(condition=c.feed(np.array([True, False, True])),
                       x=c.feed(x), y=c.feed(y)))
    c.fetch(raw.Select(condition=c.feed(np.array(False)), x=c.feed(x), y=c.feed(y)))
    # v2: numpy broadcasting of all three.
    c.fetch(raw.SelectV2(condition=c.feed(rng.integers(0, 2, (4,)).astype(bool)),
                         t=c.feed(ordinary_floats((3, 1), rng)),
                         e=c.feed(np.array(-1.0, np.float32))))
    c.fetch(raw.SelectV2(condition=c.feed(rng.integers(0, 2, (2, 1)).astype(bool)),
                         t=c.feed(ints((2, 3), rng)), e=c.feed(ints((3,), rng))))


@case("Cast", EXACT)
def _(c, rng):
    finite = np.array([-3.7, -2.5, -1.0, -0.5, -0.0, 0.0, 0.4, 0.5, 1.5, 2.9,
                       100.25, -100.75], np.float32)
    c.fetch(raw.Cast(x=c.feed(finite), DstT=tf.int32))
    c.fetch(raw.Cast(x=c.feed(finite), DstT=tf.int64))
    c.fetch(raw.Cast(x=c.feed(edge_floats()), DstT=tf.bool))
    c.fetch(raw.Cast(x=c.feed(edge_floats()), DstT=tf.float64))
    c.fetch(raw.Cast(x=c.feed(np.array([1e300, -1e-300, 0.1, np.inf], np.float64)),
                     DstT=tf.float32))
    c.fetch(raw.Cast(x=c.feed(ints((3, 4), rng)), DstT=tf.float32))
    c.fetch(raw.Cast(x=c.feed(np.array([2**40 + 7, -(2**35) - 3, 5], np.int64)),
                     DstT=tf.int32))
    c.fetch(raw.Cast(x=c.feed(ints((2, 3), rng, np.int32)), DstT=tf.int64))
    c.fetch(raw.Cast(x=c.feed(np.array([0, 7, 128, 255], np.uint8)), DstT=tf.float32))
    c.fetch(raw.Cast(x=c.feed(np.array([0, 7, 128, 255], np.uint8)), DstT=tf.int32))
    c.fetch(raw.Cast(x=c.feed(np.array([-1, 0, 3], np.int32)), DstT=tf.bool))
    c.fetch(raw.Cast(x=c.feed(np.array([True, False, True])), DstT=tf.float32))


@case("ClipAddNLike")
def _(c, rng):
    x = c.feed(edge_floats())
    c.fetch(raw.ClipByValue(t=x, clip_value_min=c.feed(np.array(-1.0, np.float32)),
                            clip_value_max=c.feed(np.array(2.0, np.float32))))
    c.fetch(raw.AddN(inputs=[x, c.feed(ordinary_floats((4, 6), rng)),
                             c.feed(ordinary_floats((4, 6), rng))]))
    c.fetch(raw.ZerosLike(x=x))
    c.fetch(raw.OnesLike(x=c.feed(ints((2, 3), rng))))


@case("BiasAdd")
def _(c, rng):
    c.fetch(raw.BiasAdd(value=c.feed(ordinary_floats((2, 3, 3, 4), rng)),
                        bias=c.feed(ordinary_floats((4,), rng))))
    c.fetch(raw.BiasAdd(value=c.feed(ordinary_floats((2, 4, 3, 3), rng)),
                        bias=c.feed(ordinary_floats((4,), rng)), data_format="NCHW"))


@case("BiasAddV1Accumulate")
def _(c, rng):
    c.fetch(raw.BiasAddV1(value=c.feed(ordinary_floats((2, 3, 4), rng)),
                          bias=c.feed(ordinary_floats((4,), rng))))
    c.fetch(raw.AccumulateNV2(inputs=[c.feed(ordinary_floats((2, 5), rng))
                                      for _ in range(3)], shape=[2, 5]))


for _op, _names in [("Atan2", ("y", "x")), ("NextAfter", ("x1", "x2")),
                    ("Xdivy", ("x", "y")), ("Xlogy", ("x", "y")),
                    ("Xlog1py", ("x", "y"))]:
    case(_op, TRANSCENDENTAL)(binary_case(_op, int_types=(), names=_names,
                                          float_types=(np.float32, np.float64)))


@case("ApproximateEqual", EXACT)
def _(c, rng):
    x = c.feed(edge_floats())
    y = c.feed(edge_floats() + np.float32(0.3))
    c.fetch(raw.ApproximateEqual(x=x, y=y))
    c.fetch(raw.ApproximateEqual(x=x, y=y, tolerance=0.5))
    c.fetch(raw.ApproximateEqual(x=c.feed(np.array([1.0, 2.0], np.float64)),
                                 y=c.feed(np.array([1.0 + 1e-6, 2.1], np.float64))))


@case("Bitwise", EXACT)
def _(c, rng):
    for dtype in (np.int8, np.int32, np.int64, np.uint8, np.uint16):
        info = np.iinfo(dtype)
        x = c.feed(np.array([info.min, info.max, 0, 1, 5, 100 % info.max, 7, 3],
                            dtype))
        y = c.feed(rng.integers(max(info.min, -100), min(info.max, 100),
                                (2, 8)).astype(dtype))
        for op in (raw.BitwiseAnd, raw.BitwiseOr, raw.BitwiseXor):
            c.fetch(op(x=x, y=y))
        c.fetch(raw.Invert(x=x))
        c.fetch(raw.PopulationCount(x=x))
        # Shifts past the width and negative ones (clamped).
        bits = np.iinfo(dtype).bits
        low = -2 if info.min < 0 else 0
        shifts = c.feed(np.array([0, 1, 3, bits - 1, bits, bits + 5, low, 2],
                                 dtype))
        c.fetch(raw.LeftShift(x=x, y=shifts))
        c.fetch(raw.RightShift(x=x, y=shifts))


def special_case(op, args, float_types=(np.float32, np.float64)):
    """Each argument's values: `args` maps its name to (low, high), or to
    (low, high, True) for whole numbers (Polygamma's order)."""
    def build(c, rng):
        f = getattr(raw, op)
        for ft in float_types:
            # Ordinary values in each argument's domain, broadcast.
            feeds = {}
            for i, (name, (low, high, *whole)) in enumerate(args.items()):
                # (Betainc broadcasts scalars only.)
                shape = (3, 4) if i == 0 or op == "Betainc" else (4,)
                values = rng.uniform(low, high, shape)
                feeds[name] = c.feed((np.floor(values) if whole else values)
                                     .astype(ft))
            c.fetch(f(**feeds))
            # The edges of IEEE arithmetic in every argument.
            first, *rest = args
            edges = {first: c.feed(edge_floats(ft))}
            for name in rest:
                edges[name] = c.feed(np.full((4, 6), args[name][1], ft))
            c.fetch(f(**edges))
            if rest:
                flipped = {name: c.feed(edge_floats(ft) if name == rest[-1]
                                        else np.full((4, 6), args[name][1], ft))
                           for name in args}
                c.fetch(f(**flipped))
    return build


for _op, _args in [
        ("Lgamma", {"x": (-5, 10)}), ("Digamma", {"x": (-5, 10)}),
        ("Erfinv", {"x": (-1, 1)}), ("Ndtri", {"x": (0, 1)}),
        ("BesselI0", {"x": (-5, 5)}), ("BesselI0e", {"x": (-5, 5)}),
        ("BesselI1", {"x": (-5, 5)}), ("BesselI1e", {"x": (-5, 5)}),
        ("BesselJ0", {"x": (-10, 10)}), ("BesselJ1", {"x": (-10, 10)}),
        ("BesselK0", {"x": (0.1, 5)}), ("BesselK0e", {"x": (0.1, 5)}),
        ("BesselK1", {"x": (0.1, 5)}), ("BesselK1e", {"x": (0.1, 5)}),
        ("BesselY0", {"x": (0.1, 10)}), ("BesselY1", {"x": (0.1, 10)}),
        ("Igamma", {"a": (0.1, 5), "x": (0, 8)}),
        ("Igammac", {"a": (0.1, 5), "x": (0, 8)}),
        ("IgammaGradA", {"a": (0.5, 5), "x": (0.1, 8)}),
        ("RandomGammaGrad", {"alpha": (0.5, 5), "sample": (0.1, 8)}),
        ("Zeta", {"x": (1.1, 6), "q": (0.5, 4)}),
        ("Polygamma", {"a": (0, 4, True), "x": (0.5, 6)}),
        ("Betainc", {"a": (0.2, 5), "b": (0.2, 5), "x": (0, 1)})]:
    case(_op, TRANSCENDENTAL)(special_case(_op, _args))


# --------------------------------------------------------------------------
# Data movement
# --------------------------------------------------------------------------

def const(value, dtype=np.int32):
    return tf.constant(np.asarray(value, dtype))


@case("Transpose", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 3, 4), rng))
    c.fetch(raw.Transpose(x=x, perm=const([2, 0, 1])))
    c.fetch(raw.Transpose(x=x, perm=const([1, 0, 2], np.int64)))
    c.fetch(raw.Transpose(x=c.feed(ints((3, 5), rng)), perm=const([1, 0])))


@case("Slice", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((4, 5, 3), rng))
    c.fetch(raw.Slice(input=x, begin=const([1, 0, 1]), size=const([2, -1, 2])))
    c.fetch(raw.Slice(input=x, begin=const([0, 2, 0], np.int64),
                      size=const([4, 0, 3], np.int64)))


@case("StridedSlice", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((4, 6, 5), rng))
    ss = raw.StridedSlice
    # x[1:3, ::2, -1], x[::-1, 4:1:-2], x[..., 1:4], x[:, tf.newaxis, 2, ::3],
    # x[-3:, -100:100], x[2] (shrink).
    c.fetch(ss(input=x, begin=const([1, 0, -1]), end=const([3, 0, 0]),
               strides=const([1, 2, 1]), begin_mask=2, end_mask=2,
               shrink_axis_mask=4))
    c.fetch(ss(input=x, begin=const([0, 4]), end=const([0, 1]),
               strides=const([-1, -2]), begin_mask=1, end_mask=1))
    c.fetch(ss(input=x, begin=const([0, 1]), end=const([0, 4]),
               strides=const([1, 1]), ellipsis_mask=1))
    c.fetch(ss(input=x, begin=const([0, 0, 2, 0]), end=const([0, 0, 3, 0]),
               strides=const([1, 1, 1, 3]), begin_mask=9, end_mask=9,
               new_axis_mask=2, shrink_axis_mask=4))
    c.fetch(ss(input=x, begin=const([-3, -100]), end=const([0, 100]),
               strides=const([1, 1]), end_mask=1))
    c.fetch(ss(input=x, begin=const([2]), end=const([3]), strides=const([1]),
               shrink_axis_mask=1))


@case("StridedSliceGrad", EXACT)
def _(c, rng):
    # The gradients of x[1:3, ::2, -1] (shrink), x[::-1, 4:1:-2] (backwards)
    # and x[:, tf.newaxis, 2, ::3] of a (4, 6, 5) tensor, and of an int32
    # x[-1] (Keras' last RNN output), and of x[:, 1::2] with a computed dy:
    # dy into zeros of x's shape.
    ssg = raw.StridedSliceGrad
    shape = const([4, 6, 5])
    c.fetch(ssg(shape=shape, begin=const([1, 0, -1]), end=const([3, 0, 0]),
                strides=const([1, 2, 1]), dy=c.feed(ordinary_floats((2, 3), rng)),
                begin_mask=2, end_mask=2, shrink_axis_mask=4))
    c.fetch(ssg(shape=shape, begin=const([0, 4]), end=const([0, 1]),
                strides=const([-1, -2]), dy=c.feed(ordinary_floats((4, 2, 5), rng)),
                begin_mask=1, end_mask=1))
    c.fetch(ssg(shape=shape, begin=const([0, 0, 2, 0]), end=const([0, 0, 3, 0]),
                strides=const([1, 1, 1, 3]), dy=c.feed(ordinary_floats((4, 1, 2), rng)),
                begin_mask=9, end_mask=9, new_axis_mask=2, shrink_axis_mask=4))
    c.fetch(ssg(shape=const([5, 2]), begin=const([-1]), end=const([0]),
                strides=const([1]), dy=c.feed(ints((2,), rng)), shrink_axis_mask=1))
    # dy computed in the step (a buffer of the arena, not an input).
    dy = c.feed(ordinary_floats((3, 2), rng))
    c.fetch(ssg(shape=const([3, 4]), begin=const([0, 1]), end=const([3, 4]),
                strides=const([1, 2]), dy=tf.exp(dy) * dy))


@case("ReverseRoll", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 3, 4), rng))
    c.fetch(raw.ReverseV2(tensor=x, axis=const([1])))
    c.fetch(raw.ReverseV2(tensor=x, axis=const([0, -1], np.int64)))
    c.fetch(raw.ReverseV2(tensor=x, axis=const(np.zeros((0,), np.int32))))
    c.fetch(raw.ReverseV2(tensor=c.feed(ints((5,), rng)), axis=const([0])))
    # Each batch row's first seq_lengths elements reversed (0 and the whole
    # length among them), along dim 1 with the batch at 0, and along dim 0
    # with the batch at 2.
    c.fetch(raw.ReverseSequence(input=x, seq_lengths=c.feed(np.array([3, 0], np.int64)),
                                seq_dim=1, batch_dim=0))
    c.fetch(raw.ReverseSequence(input=x, seq_lengths=c.feed(np.array([2, 1, 0, 2], np.int32)),
                                seq_dim=0, batch_dim=2))
    c.fetch(raw.Roll(input=x, shift=const(1), axis=const(2)))
    # Negative and oversized shifts, two on one axis (they add up).
    c.fetch(raw.Roll(input=x, shift=const([-1, 7]), axis=const([1, 2])))
    c.fetch(raw.Roll(input=x, shift=const([2, 3], np.int64),
                     axis=const([-1, -1], np.int64)))


@case("SpaceDepth", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 4, 6, 3), rng))
    c.fetch(raw.SpaceToDepth(input=x, block_size=2))
    c.fetch(raw.DepthToSpace(input=c.feed(ordinary_floats((2, 2, 3, 8), rng)),
                             block_size=2))
    c.fetch(raw.DepthToSpace(input=c.feed(ordinary_floats((1, 2, 2, 18), rng)),
                             block_size=3))
    # Dilated causal Conv1D's pair (Keras), and 2-D blocks with padding and
    # crops.
    y = c.feed(ordinary_floats((2, 7, 3), rng))
    c.fetch(raw.SpaceToBatchND(input=y, block_shape=const([2]),
                               paddings=const([[1, 2]])))
    c.fetch(raw.BatchToSpaceND(input=c.feed(ordinary_floats((4, 5, 3), rng)),
                               block_shape=const([2]), crops=const([[1, 2]])))
    z = c.feed(ordinary_floats((2, 3, 5, 2), rng))
    c.fetch(raw.SpaceToBatchND(input=z, block_shape=const([2, 3]),
                               paddings=const([[1, 0], [2, 2]])))
    c.fetch(raw.BatchToSpaceND(input=c.feed(ordinary_floats((12, 2, 3, 2), rng)),
                               block_shape=const([2, 3], np.int64),
                               crops=const([[0, 1], [1, 2]], np.int64)))


@case("GatherNd", EXACT)
def _(c, rng):
    p = c.feed(ordinary_floats((4, 3, 2), rng))
    # Whole rows, single elements, slices of depth 2; int64 indices; a batch
    # of index tuples with two leading dims.
    c.fetch(raw.GatherNd(params=p, indices=c.feed(np.array([[3], [0], [3]], np.int32))))
    c.fetch(raw.GatherNd(params=p, indices=c.feed(np.array([[1, 2, 0], [3, 0, 1]], np.int64))))
    c.fetch(raw.GatherNd(params=p, indices=c.feed(np.array([[[0, 1], [2, 2]], [[3, 0], [1, 1]]],
                                                           np.int32))))
    c.fetch(raw.GatherNd(params=c.feed(ints((5, 3), rng)),
                         indices=c.feed(np.array([[4], [1]], np.int32))))


@case("Where", EXACT)
def _(c, rng):
    # The coordinates of the true elements, fetched: as many rows as the data
    # says (none for an all-false mask), of bool, float (NaN counts, -0.0
    # does not) and int inputs; boolean_mask's rows of a tensor and
    # of a 2-D mask, and a row-wise product of them.
    c.fetch(tf.where(c.feed(rng.random((3, 4)) < 0.5)))
    c.fetch(tf.where(c.feed(np.array([[0.0, -0.0, np.nan], [1.5, 0.0, -np.inf]],
                                     np.float32))))
    c.fetch(tf.where(c.feed(ints((2, 2, 3), rng, np.int32, -1, 2))))
    c.fetch(tf.where(c.feed(np.zeros((4,), bool))))
    x = c.feed(ordinary_floats((5, 3), rng))
    c.fetch(tf.boolean_mask(x, c.feed(np.array([False, True, True, False, True]))))
    c.fetch(tf.boolean_mask(x, c.feed(rng.random((5, 3)) < 0.4)))
    c.fetch(tf.matmul(tf.boolean_mask(x, c.feed(mask_of(rng, 5))),
                      c.feed(ordinary_floats((3, 2), rng))))


@case("NonMaxSuppression", EXACT)
def _(c, rng):
    # Overlapping clusters of boxes (corners in either order, one of zero
    # area), scores with ties; as many selected as the data says (V2, V3,
    # V4 and V5 unpadded), or padded to max_output_size (V4, V5); soft-NMS
    # (sigma > 0) decays scores instead; a threshold no score passes
    # selects none; the selected boxes gathered as detection models do.
    centers = rng.uniform(0.2, 0.8, (3, 2))
    boxes = []
    for i in range(12):
        cy, cx = centers[i % 3] + rng.normal(0, 0.03, 2)
        h, w = rng.uniform(0.1, 0.3, 2)
        box = [cy - h, cx - w, cy + h, cx + w]
        boxes.append(box[2:] + box[:2] if i % 4 == 1 else box)
    boxes[7] = [0.5, 0.5, 0.5, 0.9]
    boxes = c.feed(np.array(boxes, np.float32))
    values = rng.uniform(0, 1, 12).astype(np.float32)
    values[[2, 5]] = values[9]
    scores = c.feed(values)
    f32 = lambda v: tf.constant(v, tf.float32)
    c.fetch(raw.NonMaxSuppressionV2(boxes=boxes, scores=scores, max_output_size=const(5),
                                    iou_threshold=f32(0.4)))
    selected = raw.NonMaxSuppressionV3(boxes=boxes, scores=scores, max_output_size=const(20),
                                       iou_threshold=f32(0.5), score_threshold=f32(0.2))
    c.fetch(selected)
    c.fetch(tf.gather(boxes, selected))
    c.fetch(raw.NonMaxSuppressionV3(boxes=boxes, scores=scores, max_output_size=const(4),
                                    iou_threshold=f32(0.5), score_threshold=f32(2.0)))
    for pad in (False, True):
        for output in raw.NonMaxSuppressionV4(
                boxes=boxes, scores=scores, max_output_size=const(6),
                iou_threshold=f32(0.3), score_threshold=f32(0.1),
                pad_to_max_output_size=pad):
            c.fetch(output)
        for sigma in (0.0, 0.5):
            for output in raw.NonMaxSuppressionV5(
                    boxes=boxes, scores=scores, max_output_size=const(8),
                    iou_threshold=f32(1.0 if sigma else 0.5),
                    score_threshold=f32(0.05), soft_nms_sigma=f32(sigma),
                    pad_to_max_output_size=pad):
                c.fetch(output)


@case("UniqueRows", EXACT)
def _(c, rng):
    # tf.unique's values, as many as are distinct: fetched, gathered
    # through, counted and summed; int32 and int64, idx of either width,
    # one value repeated, and an empty input.
    x = c.feed(ints((12,), rng, np.int32, 0, 6))
    values, idx = tf.unique(x)
    c.fetch(values)
    c.fetch(idx)
    c.fetch(tf.gather(c.feed(ordinary_floats((6, 2), rng)), values))
    c.fetch(tf.size(values))
    c.fetch(tf.reduce_sum(values * 10))
    c.fetch(tf.unique(c.feed(ints((9,), rng, np.int64, -3, 3)), out_idx=tf.int64)[0])
    c.fetch(tf.unique(c.feed(np.full(5, 7, np.int32)))[0])
    c.fetch(tf.unique(c.feed(np.zeros(0, np.int64)))[0])


@case("DynamicPartition", EXACT)
def _(c, rng):
    # Rows to the partition each names, as many per output as the data
    # says: vectors of rows, a 2-D partition of a 3-D tensor, a partition
    # that gets nothing; the ids of a partitioned embedding lookup
    # (embedding_lookup's mod strategy) gathered and summed.
    data = c.feed(ordinary_floats((7, 2), rng))
    for out in tf.dynamic_partition(data, c.feed(np.array([2, 0, 2, 1, 0, 2, 2], np.int32)), 4):
        c.fetch(out)
    for out in tf.dynamic_partition(c.feed(ints((2, 3, 4), rng)),
                                    c.feed(np.array([[1, 0, 1], [1, 1, 0]], np.int32)), 2):
        c.fetch(out)
    ids = c.feed(np.array([5, 2, 8, 3, 0], np.int32))
    shards = tf.dynamic_partition(ids, ids % 2, 2)
    table = c.feed(ordinary_floats((5, 3), rng))
    for shard in shards:
        c.fetch(tf.reduce_sum(tf.gather(table, shard // 2), axis=0))


@case("DynamicStitch", EXACT)
def _(c, rng):
    # Rows to the positions constant indices name (later inputs over
    # earlier ones), of vectors and of [2, 2] indices into rows of rows;
    # the shape that the gradient of a reduction stitches from its input's
    # shape (math_ops.reduced_shape).
    a, b = c.feed(ordinary_floats((2, 3), rng)), c.feed(ordinary_floats((3, 3), rng))
    c.fetch(tf.dynamic_stitch([const([0, 4]), const([1, 3, 2])], [a, b]))
    c.fetch(raw.ParallelDynamicStitch(indices=[const([2, 0]), const([0, 1, 3])],
                                      data=[c.feed(ints((2,), rng)), c.feed(ints((3,), rng))]))
    c.fetch(tf.dynamic_stitch([const([[0, 3], [1, 2]])],
                              [c.feed(ordinary_floats((2, 2, 4), rng))]))
    x = c.feed(ordinary_floats((4, 5, 6), rng))
    axes = const([1])
    c.fetch(tf.dynamic_stitch([tf.range(3), axes],
                              [tf.shape(x), tf.ones_like(axes)]))


@case("ShardedEmbedding", REDUCTION)
def _(c, rng):
    # embedding_lookup over a table sharded in three (the mod and div
    # strategies): ids split by DynamicPartition, gathered from each shard,
    # stitched back by their positions; and DynamicPartition's gradient,
    # another stitch of partitioned positions.
    shards = [c.feed(ordinary_floats((n, 4), rng)) for n in (4, 3, 3)]
    ids = c.feed(np.array([[7, 0, 2], [9, 4, 4]], np.int32))
    c.fetch(tf1.nn.embedding_lookup(shards, ids, partition_strategy="mod"))
    c.fetch(tf1.nn.embedding_lookup(shards, ids, partition_strategy="div"))
    x = c.feed(ordinary_floats((6, 2), rng))
    parts = tf.dynamic_partition(x, c.feed(np.array([2, 0, 2, 1, 0, 2], np.int32)), 3)
    # (Gradients from each part's own rows: a reduction's gradient tiles
    # to a shape the count decides, which tfc does not follow.)
    c.fetch(tf.gradients(parts, x, grad_ys=[p * float(k + 1)
                                            for k, p in enumerate(parts)])[0])


@case("WhereInLoop", EXACT)
def _(c, rng):
    # A Where in a TF1 loop's body, its count carried around the loop: how
    # many elements pass each of three rising thresholds, summed.
    x = c.feed(np.array([3.0, -1.0, 0.5, 2.0, 1.5, -2.0], np.float32))

    def body(i, total):
        rows = tf.where(x > tf.cast(i, tf.float32))
        return i + 1, total + tf.cast(tf.shape(rows)[0], tf.float32)
    c.fetch(tf1.while_loop(lambda i, _: i < 3, body,
                           [tf.constant(0), tf.constant(0.0)])[1])


@case("GrowingTensorArrayTF1", EXACT)
def _(c, rng):
    # TF1 TensorArrays of dynamic size (TensorArrayV3, control flow v1):
    # written once per iteration of a loop over a constant range (the fixed
    # array of 4 elements), and of a loop whose fed limit decides under
    # maximum_iterations=5 (0, inside and past the bound): stacked, sized,
    # read and summed after the loop.
    tf1.disable_control_flow_v2()
    try:
        x = c.feed(ordinary_floats((3,), rng))

        def filled(limit, **loop):
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True,
                                clear_after_read=False)

            def body(i, ta):
                return i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))
            return tf1.while_loop(lambda i, ta: i < limit, body, (0, ta),
                                  **loop)[1]
        ta = filled(4)
        c.fetch(ta.stack())
        c.fetch(ta.size())
        for n in (0, 2, 5, 7):
            ta = filled(c.feed(np.int32(n)), maximum_iterations=5)
            stacked = ta.stack()
            c.fetch(stacked)
            c.fetch(ta.size())
            c.fetch(tf.reduce_sum(stacked, axis=0))
            if n:
                c.fetch(ta.read(n // 2))
    finally:
        tf1.enable_control_flow_v2()


@case("StridedSliceRunTimeIndex", EXACT)
def _(c, rng):
    # Slices at indices the step computes (x[i] in a loop; here fed): each
    # index shrinks its dimension, negative ones count from the end, with
    # constant ranges, an ellipsis and new axes around them; int32 and
    # int64 indices.
    x = c.feed(ordinary_floats((4, 5, 3), rng))
    i = c.feed(np.int32(2))
    j = c.feed(np.int32(-1))
    k = c.feed(np.int64(1))
    c.fetch(x[i])
    c.fetch(x[:, j])
    c.fetch(x[i, j])
    c.fetch(x[j, 1:4, i])
    c.fetch(x[i, :3])
    c.fetch(x[..., i])
    c.fetch(x[tf.newaxis, i, ::-2])
    c.fetch(x[k, k])
    c.fetch(x[i + 1])
    # In a TF2 loop: x[t] for each t, summed.
    @tf.function
    def rows(x):
        total = tf.zeros([5, 3])
        for t in tf.range(4):
            total += x[t] * tf.cast(t, tf.float32)
        return total
    c.fetch(rows(x))


@case("StridedSliceRunTimeRange", ELEMENTWISE)
def _(c, rng):
    # Ranges whose ends the step computes (x[:n] with n fed): as many rows
    # as TensorFlow's clamped range, negative ends from the end, strides,
    # empty ranges and ends past the dimension; fetched, summed along them,
    # and a range of the second dimension summed away.
    x = c.feed(ordinary_floats((6, 4), rng))
    for n in (0, 2, 6, 9, -2):
        m = c.feed(np.int32(n))
        c.fetch(x[:m])
        c.fetch(x[m:])
        c.fetch(x[1:m:2] * 2.0)
        c.fetch(tf.reduce_sum(x[:, :m], axis=1))
        c.fetch(tf.reduce_mean(x[m:, 1:3], axis=0))


@case("GrowingTensorArray", ELEMENTWISE)
def _(c, rng):
    # tf.TensorArray(dynamic_size=True) written in TF2 loops (TensorListReserve
    # of 0, TensorListSetItem that resizes): a loop over a constant range
    # (its length known), and loops whose trip count the data decides under
    # a constant bound (a break; maximum_iterations with a fed limit inside
    # and past the bound), stacked, summed, sized, read and gathered.
    x = c.feed(ordinary_floats((3,), rng))

    @tf.function
    def over_range(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(4):
            ta = ta.write(i, x * tf.cast(i, tf.float32) + 1.0)
        return ta.stack()

    @tf.function
    def bounded(x, n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True,
                            element_shape=[3])

        def body(i, ta):
            return i + 1, ta.write(i, tf.sin(x * tf.cast(i + 1, tf.float32)))
        _, ta = tf.while_loop(lambda i, ta: i < n, body, [0, ta],
                              maximum_iterations=5)
        stacked = ta.stack()
        return (stacked, tf.reduce_sum(stacked, axis=0), ta.size(),
                tf.shape(stacked), ta.read(1), ta.gather([1, 0]))

    @tf.function
    def until(x, t):
        # A loop over a constant range that breaks when the data says.
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(6):
            if tf.reduce_sum(x) * tf.cast(i, tf.float32) > t:
                break
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        return ta.stack(), ta.size()

    c.fetch(over_range(x))
    for t in (-100.0, 2.5, 100.0):
        for out in until(tf.abs(x), c.feed(np.float32(t))):
            c.fetch(out)
    # (Reads of elements 0 and 1: TensorFlow refuses them past the length,
    # as tfc does, run-time-checks.test.)
    for n in (2, 5, 7):
        for out in bounded(x, c.feed(np.int32(n))):
            c.fetch(out)


@case("WhereReduced", REDUCTION)
def _(c, rng):
    # Where's rows, as many as the data says, reduced, counted and shaped
    # inside the step: boolean_mask (Where, Squeeze, GatherV2), sums, means,
    # maxima and minima over the rows, Shape and Size of them; a mask with
    # no true element gives TensorFlow's empty reductions (0, NaN, -inf).
    x = c.feed(ordinary_floats((6, 4), rng))
    for mask in (np.array([True, False, True, True, False, True]),
                 np.zeros(6, bool)):
        rows = tf.boolean_mask(x, c.feed(mask))
        c.fetch(tf.reduce_mean(rows))
        c.fetch(tf.reduce_sum(rows, axis=0))
        c.fetch(tf.reduce_max(rows, axis=0, keepdims=True))
        c.fetch(tf.reduce_min(tf.nn.relu(rows) * 2.0, axis=[0, 1]))
        c.fetch(tf.shape(rows))
        c.fetch(tf.size(rows, out_type=tf.int64))
    # Where of numbers: NaN counts, -0.0 does not; the coordinates' sums
    # (weighted, so that each column shows) and their count by hand.
    values = np.array([[0.0, -0.0, np.nan, 1.5, 0.0],
                       [-2.0, 0.0, 0.0, np.inf, 0.25],
                       [0.0, 3.0, 0.0, 0.0, 0.0]], np.float32)
    where = tf.where(c.feed(values))
    c.fetch(tf.reduce_sum(tf.cast(where, tf.float32) * [[1.0, 100.0]], axis=0))
    count = tf.shape(where)[0]
    c.fetch(tf.reduce_sum(tf.cast(where, tf.float32)) / tf.cast(count, tf.float32))
    c.fetch(tf.reduce_sum(tf.where(c.feed(ints((2, 3, 4), rng, np.int64, -1, 2))),
                          axis=0))
    # A masked loss: the rows of a product, softmax and log, averaged.
    logits = tf.matmul(tf.boolean_mask(x, c.feed(mask_of(rng, 6))),
                       c.feed(ordinary_floats((4, 3), rng)))
    c.fetch(tf.reduce_mean(-tf.nn.log_softmax(logits)[:, 1]))


def mask_of(rng, n):
    """A random boolean mask of n elements with at least one true."""
    mask = rng.random(n) < 0.5
    mask[0] = True
    return mask


@case("MatrixBandPart", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 4, 5), rng))
    for lower, upper in ((-1, 0), (0, -1), (1, 2), (0, 0), (-1, -1), (3, 1)):
        c.fetch(raw.MatrixBandPart(input=x, num_lower=const(lower),
                                   num_upper=const(upper)))
    c.fetch(raw.MatrixBandPart(input=c.feed(ints((3, 3), rng)),
                               num_lower=const(1, np.int64), num_upper=const(0, np.int64)))


@case("TensorScatters", ELEMENTWISE)
def _(c, rng):
    # Rows of a [5, 3] tensor; a duplicate index (3) combines in order.
    t = c.feed(ordinary_floats((5, 3), rng))
    i = c.feed(np.array([[3], [0], [3]], np.int32))
    u = c.feed(ordinary_floats((3, 3), rng))
    c.fetch(raw.TensorScatterAdd(tensor=t, indices=i, updates=u))
    c.fetch(raw.TensorScatterSub(tensor=t, indices=i, updates=u))
    c.fetch(raw.TensorScatterMin(tensor=t, indices=i, updates=u))
    c.fetch(raw.TensorScatterMax(tensor=t, indices=i, updates=u))
    c.fetch(raw.TensorScatterUpdate(tensor=t, indices=c.feed(np.array([[4], [1]], np.int64)),
                                    updates=c.feed(ordinary_floats((2, 3), rng))))
    c.fetch(raw.ScatterNd(indices=i, updates=u, shape=const([6, 3])))
    c.fetch(raw.ScatterNd(indices=c.feed(np.array([[1], [1], [0]], np.int64)),
                          updates=c.feed(ordinary_floats((3,), rng)),
                          shape=const([4], np.int64)))


@case("Tile", EXACT)
def _(c, rng):
    c.fetch(raw.Tile(input=c.feed(ordinary_floats((2, 3), rng)),
                     multiples=const([2, 3])))
    c.fetch(raw.Tile(input=c.feed(ints((1, 2, 2), rng)), multiples=const([3, 1, 2])))


@case("BroadcastTo", EXACT)
def _(c, rng):
    c.fetch(raw.BroadcastTo(input=c.feed(ordinary_floats((3, 1), rng)),
                            shape=const([2, 3, 4])))
    c.fetch(raw.BroadcastTo(input=c.feed(np.array(7, np.int32)), shape=const([2, 2])))


@case("ConcatV2", EXACT)
def _(c, rng):
    a = c.feed(ordinary_floats((2, 3), rng))
    b = c.feed(ordinary_floats((2, 1), rng))
    e = c.feed(np.zeros((2, 0), np.float32))
    c.fetch(raw.ConcatV2(values=[a, b, e, a], axis=const(1)))
    c.fetch(raw.ConcatV2(values=[a, c.feed(ordinary_floats((1, 3), rng))],
                         axis=const(-2)))
    c.fetch(raw.ConcatV2(values=[c.feed(ints((2,), rng)), c.feed(ints((3,), rng))],
                         axis=const(0, np.int64)))


@case("PackUnpack", EXACT)
def _(c, rng):
    a = c.feed(ordinary_floats((2, 3), rng))
    b = c.feed(ordinary_floats((2, 3), rng))
    c.fetch(raw.Pack(values=[a, b, a], axis=1))
    c.fetch(raw.Pack(values=[a, b], axis=-1))
    c.fetch(raw.Pack(values=[c.feed(np.array(1, np.int32)),
                             c.feed(np.array(5, np.int32))]))
    parts = raw.Unpack(value=c.feed(ordinary_floats((3, 2, 4), rng)), num=2, axis=1)
    c.fetch(parts[0])
    c.fetch(parts[1])


@case("Split", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((4, 6), rng))
    parts = raw.Split(axis=const(1), value=x, num_split=3)
    for p in parts:
        c.fetch(p)
    parts = raw.SplitV(value=x, size_splits=const([1, -1]), axis=const(0),
                       num_split=2)
    for p in parts:
        c.fetch(p)


@case("Pad", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 3), rng))
    c.fetch(raw.Pad(input=x, paddings=const([[1, 0], [2, 1]])))
    c.fetch(raw.PadV2(input=c.feed(ints((2, 2), rng)),
                      paddings=const([[0, 1], [1, 1]], np.int64),
                      constant_values=c.feed(np.array(-7, np.int32))))
    y = c.feed(ordinary_floats((3, 4), rng))
    c.fetch(raw.MirrorPad(input=y, paddings=const([[2, 1], [3, 2]]), mode="REFLECT"))
    c.fetch(raw.MirrorPad(input=y, paddings=const([[3, 1], [0, 4]]), mode="SYMMETRIC"))


@case("GatherV2", EXACT)
def _(c, rng):
    params = c.feed(ordinary_floats((5, 3, 2), rng))
    c.fetch(raw.GatherV2(params=params, indices=c.feed(np.array([4, 0, 2, 2], np.int32)),
                         axis=const(0)))
    c.fetch(raw.GatherV2(params=params, indices=c.feed(np.array([[2, 0], [1, 1]], np.int64)),
                         axis=const(1)))
    c.fetch(raw.GatherV2(params=params, indices=c.feed(np.array(1, np.int32)),
                         axis=const(-1)))
    # batch_dims: row b of the indices picks from row b of the params
    # (positive and negative batch_dims, axis past the batch dims).
    c.fetch(raw.GatherV2(params=params, indices=c.feed(np.array([[2, 0], [1, 1], [0, 2],
                                                                 [2, 2], [1, 0]], np.int32)),
                         axis=const(1), batch_dims=1))
    c.fetch(raw.GatherV2(params=params, indices=c.feed(np.array([[1], [0], [1], [0], [1]],
                                                                np.int64)),
                         axis=const(2), batch_dims=-1))
    c.fetch(raw.GatherV2(params=c.feed(ordinary_floats((2, 3, 4), rng)),
                         indices=c.feed(np.array([[[3, 0]], [[1, 2]]], np.int32)),
                         axis=const(2), batch_dims=1))


@case("Gather", EXACT)
def _(c, rng):
    params = c.feed(ordinary_floats((5, 3), rng))
    c.fetch(raw.Gather(params=params, indices=c.feed(np.array([[4, 0], [2, 2]], np.int32))))
    c.fetch(raw.Gather(params=params, indices=c.feed(np.array(3, np.int64)),
                       validate_indices=False))


@case("CheckNumerics", EXACT)
def _(c, rng):
    # Values that pass; run-time-checks.test stops on the others.
    c.fetch(raw.CheckNumerics(tensor=c.feed(ordinary_floats((3, 4), rng)),
                              message="no NaN here"))
    c.fetch(raw.CheckNumerics(tensor=c.feed(ordinary_floats((2,), rng, np.float64)),
                              message="nor here"))


@case("Diagonals", EXACT)
def _(c, rng):
    # The first versions: the main diagonal, of a batch and of a tensor.
    c.fetch(raw.MatrixDiag(diagonal=c.feed(ordinary_floats((2, 3), rng))))
    m = c.feed(ordinary_floats((2, 3, 4), rng))
    c.fetch(raw.MatrixDiagPart(input=m))
    c.fetch(raw.MatrixSetDiag(input=m, diagonal=c.feed(ordinary_floats((2, 3), rng))))
    c.fetch(raw.Diag(diagonal=c.feed(ints((2, 3), rng))))
    c.fetch(raw.DiagPart(input=c.feed(ordinary_floats((2, 3, 2, 3), rng))))
    # Bands: k = (-1, 2) of a 4x5 matrix, padded, each alignment (V3) and
    # V2's left alignment; one diagonal given as a scalar k.
    for align in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
        c.fetch(raw.MatrixDiagPartV3(input=m, k=const([-1, 2]), padding_value=const(9.0, np.float32),
                                     align=align))
    c.fetch(raw.MatrixDiagPartV2(input=m, k=const([-2, 1]), padding_value=const(-1.0, np.float32)))
    c.fetch(raw.MatrixDiagPartV3(input=m, k=const(1), padding_value=const(0.0, np.float32)))
    bands = c.feed(ordinary_floats((2, 3, 4), rng))   # k = (-1, 1), 3 diagonals of 4
    for align in ("RIGHT_LEFT", "LEFT_RIGHT"):
        c.fetch(raw.MatrixDiagV3(diagonal=bands, k=const([-1, 1]), num_rows=const(-1),
                                 num_cols=const(-1), padding_value=const(7.0, np.float32),
                                 align=align))
        c.fetch(raw.MatrixSetDiagV3(input=c.feed(ordinary_floats((2, 4, 5), rng)),
                                    diagonal=bands, k=const([-1, 1]), align=align))
    c.fetch(raw.MatrixDiagV2(diagonal=c.feed(ints((3,), rng)), k=const(-1),
                             num_rows=const(5), num_cols=const(-1), padding_value=const(4)))
    c.fetch(raw.MatrixSetDiagV2(input=c.feed(ordinary_floats((3, 4), rng)),
                                diagonal=c.feed(ordinary_floats((3,), rng)), k=const(1)))


@case("LinearAlgebra", (1e-4, 1e-4))
def _(c, rng):
    # Well-conditioned batches: random matrices plus a multiple of I; a
    # symmetric positive definite one for Cholesky and the eigensolver.
    def square(n, batch=(2,), dtype=np.float32):
        return (rng.uniform(-1, 1, batch + (n, n)) + 3 * np.eye(n)).astype(dtype)
    a = c.feed(square(4))
    for adjoint in (False, True):
        c.fetch(raw.MatrixInverse(input=a, adjoint=adjoint))
        c.fetch(raw.MatrixSolve(matrix=a, rhs=c.feed(ordinary_floats((2, 4, 3), rng)),
                                adjoint=adjoint))
    c.fetch(raw.MatrixInverse(input=c.feed(square(3, (), np.float64))))
    c.fetch(raw.MatrixDeterminant(input=a))
    sign, log_abs = raw.LogMatrixDeterminant(input=c.feed(-square(3, (3,))))
    c.fetch(sign)
    c.fetch(log_abs)
    m = rng.uniform(-1, 1, (2, 5, 5))
    spd = c.feed((m @ np.swapaxes(m, -1, -2) + 5 * np.eye(5)).astype(np.float32))
    c.fetch(raw.Cholesky(input=spd))
    rhs = c.feed(ordinary_floats((2, 4, 2), rng))
    for lower in (True, False):
        for adjoint in (False, True):
            c.fetch(raw.MatrixTriangularSolve(matrix=a, rhs=rhs, lower=lower,
                                              adjoint=adjoint))
    tall = c.feed(ordinary_floats((2, 5, 3), rng))
    for full in (False, True):
        q, r = raw.Qr(input=tall, full_matrices=full)
        c.fetch(q)
        c.fetch(r)
    # Singular vectors and eigenvectors are unique up to sign: compared by
    # magnitude.
    for full in (False, True):
        s, u, v = raw.Svd(input=tall, full_matrices=full)
        c.fetch(s)
        if not full:
            c.fetch(tf.abs(u))
            c.fetch(tf.abs(v))
    c.fetch(raw.Svd(input=c.feed(ordinary_floats((3, 6), rng, np.float64)),
                    compute_uv=False).s)
    e, v = raw.SelfAdjointEigV2(input=spd)
    c.fetch(e)
    c.fetch(tf.abs(v))
    c.fetch(raw.SelfAdjointEigV2(input=spd, compute_v=False).e)


@case("Window3D", REDUCTION)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 5, 6, 7, 3), rng))
    for padding, strides in (("SAME", [1, 1, 1, 1, 1]), ("VALID", [1, 2, 1, 3, 1]),
                             ("SAME", [1, 2, 3, 2, 1])):
        c.fetch(raw.Conv3D(input=x, filter=c.feed(ordinary_floats((3, 2, 3, 3, 4), rng)),
                           strides=strides, padding=padding))
        for op in (raw.MaxPool3D, raw.AvgPool3D):
            c.fetch(op(input=x, ksize=[1, 2, 3, 2, 1], strides=strides, padding=padding))


@case("Conv3DGradients", REDUCTION)
def _(c, rng):
    # The input's and the filter's gradients of 3-D convolutions: SAME and
    # VALID, strides of 1, 2 and 3, and the gradients tf.gradients builds
    # for a small 3-D network's loss.
    x = c.feed(ordinary_floats((2, 5, 6, 7, 3), rng))
    for padding, strides in (("SAME", [1, 1, 1, 1, 1]), ("VALID", [1, 2, 1, 3, 1]),
                             ("SAME", [1, 2, 3, 2, 1])):
        w = ordinary_floats((3, 2, 3, 3, 4), rng)
        y = raw.Conv3D(input=x, filter=const(w, np.float32), strides=strides,
                       padding=padding)
        dy = c.feed(ordinary_floats(tuple(y.shape), rng))
        c.fetch(raw.Conv3DBackpropInputV2(input_sizes=const([2, 5, 6, 7, 3]),
                                          filter=c.feed(w), out_backprop=dy,
                                          strides=strides, padding=padding))
        c.fetch(raw.Conv3DBackpropFilterV2(input=x, filter_sizes=const([3, 2, 3, 3, 4]),
                                           out_backprop=dy, strides=strides,
                                           padding=padding))
    w = c.feed(ordinary_floats((2, 2, 2, 3, 5), rng))
    loss = tf.reduce_sum(tf.square(tf.nn.relu(
        tf.nn.conv3d(x, w, strides=[1, 1, 2, 2, 1], padding="SAME"))))
    for g in tf.gradients(loss, [x, w]):
        c.fetch(g)


@case("Pool3DGradients", REDUCTION)
def _(c, rng):
    # MaxPool3D's and AvgPool3D's gradients (SAME windows that cross the
    # edge, VALID with strides), raw and as tf.gradients builds them for a
    # 3-D network with a max pooling and an average pooling.
    x = c.feed(ordinary_floats((2, 5, 6, 7, 3), rng))
    for padding, ksize, strides in (("SAME", [1, 2, 2, 2, 1], [1, 1, 1, 1, 1]),
                                    ("VALID", [1, 2, 3, 2, 1], [1, 2, 1, 3, 1]),
                                    ("SAME", [1, 3, 2, 3, 1], [1, 2, 3, 2, 1])):
        y = raw.MaxPool3D(input=x, ksize=ksize, strides=strides, padding=padding)
        dy = c.feed(ordinary_floats(tuple(y.shape), rng))
        c.fetch(raw.MaxPool3DGrad(orig_input=x, orig_output=y, grad=dy, ksize=ksize,
                                  strides=strides, padding=padding))
        c.fetch(raw.AvgPool3DGrad(orig_input_shape=const([2, 5, 6, 7, 3]), grad=dy,
                                  ksize=ksize, strides=strides, padding=padding))
    w = c.feed(ordinary_floats((2, 2, 2, 3, 4), rng))
    h = tf.nn.conv3d(x, w, strides=[1, 1, 1, 1, 1], padding="SAME")
    h = tf.nn.max_pool3d(h, ksize=2, strides=2, padding="SAME")
    h = tf.nn.avg_pool3d(tf.nn.relu(h), ksize=2, strides=1, padding="VALID")
    for g in tf.gradients(tf.reduce_sum(tf.square(h)), [x, w]):
        c.fetch(g)


@case("Strings", EXACT)
def _(c, rng):
    words = c.feed(np.array([b"  Hello World \t", b"", b"h\xc3\xa9llo", b"MiXeD 42"]))
    c.fetch(raw.StringLength(input=words))
    c.fetch(raw.StringLength(input=words, unit="UTF8_CHAR"))
    c.fetch(raw.StringLower(input=words))
    c.fetch(raw.StringUpper(input=words))
    c.fetch(raw.StringStrip(input=words))
    texts = c.feed(np.array([b"Hello World", b"ab", b"h\xc3\xa9llo", b"MiXeD 42"]))
    c.fetch(raw.Substr(input=texts, pos=const(1), len=const(3)))
    c.fetch(raw.Substr(input=texts, pos=const(-2), len=const(-1)))
    c.fetch(raw.Substr(input=texts, pos=c.feed(np.array([-3, 0, 1, 8], np.int64)),
                       len=c.feed(np.array([2, 5, 2, 1], np.int64)), unit="UTF8_CHAR"))
    floats = c.feed(np.array([3.14159, -0.5, 1e10, np.nan, -np.inf, 0.0], np.float32))
    c.fetch(raw.AsString(input=floats))
    c.fetch(raw.AsString(input=floats, precision=2, scientific=True))
    c.fetch(raw.AsString(input=floats, shortest=True, width=12))
    c.fetch(raw.AsString(input=c.feed(np.array([3, -42, 0], np.int32)), width=5, fill="0"))
    c.fetch(raw.AsString(input=c.feed(np.array([1 << 40, -7], np.int64))))
    c.fetch(raw.AsString(input=c.feed(np.array([True, False]))))
    c.fetch(raw.AsString(input=c.feed(np.array([2.5, 1 / 3], np.float64)), precision=10))
    numbers = c.feed(np.array([b"1.5", b" 2", b"1e3", b"-7", b"inf", b"0x10", b".5 "]))
    c.fetch(raw.StringToNumber(string_tensor=numbers))
    c.fetch(raw.StringToNumber(string_tensor=numbers, out_type=tf.float64))
    c.fetch(raw.StringToNumber(string_tensor=c.feed(np.array([b"12", b"-3", b" 4", b"+9"])),
                               out_type=tf.int32))
    c.fetch(raw.StringToNumber(string_tensor=c.feed(np.array([b"123456789012"])),
                               out_type=tf.int64))


@case("ScalarSummary", EXACT)
def _(c, rng):
    # The serialized Summary, byte for byte: a value per tag, each value a
    # float however it came.
    tags = c.feed(np.array([b"loss", b"accuracy/top1", b""]))
    c.fetch(raw.ScalarSummary(tags=tags, values=c.feed(
        np.array([0.25, -3.5e-8, np.inf], np.float32))))
    c.fetch(raw.ScalarSummary(tags=tf.constant(b"lr"), values=c.feed(
        np.array(1 / 3, np.float64))))
    c.fetch(raw.ScalarSummary(tags=c.feed(np.array([[b"a", b"b"]])), values=c.feed(
        np.array([[7, -123456789]], np.int32))))
    c.fetch(raw.ScalarSummary(tags=tf.constant(b"step"), values=c.feed(
        np.array(1 << 40, np.int64))))


@case("StringToHashBucketFast", EXACT)
def _(c, rng):
    # Every length from 0 to 200 bytes (each of FarmHash's closed forms and
    # its 64-byte loop with a partial last block), non-ASCII bytes, into 1,
    # 7 and 2**40 buckets; and the hashed feature column's graph.
    # (No NUL bytes: NumPy's byte strings drop trailing ones.)
    texts = [bytes(rng.integers(1, 256, n, dtype=np.uint8)) for n in range(201)]
    texts += [b"hello", b"the quick brown fox"]
    words = c.feed(np.array(texts))
    for buckets in [1, 7, 1 << 40]:
        c.fetch(raw.StringToHashBucketFast(input=words, num_buckets=buckets))
    c.fetch(tf.strings.to_hash_bucket_fast(
        c.feed(np.array([[b"cat", b"dog"], [b"", b"bird"]])), 100))


@case("Regex", EXACT)
def _(c, rng):
    # RE2's syntax ((?i), \d, classes) and rewrites (\1, \0).
    texts = c.feed(np.array([b"Hello World 42", b"abc-123-def", b"", b"a.b.c"]))
    c.fetch(raw.StaticRegexReplace(input=texts, pattern=r"(\w+)-(\d+)", rewrite=r"\2:\1"))
    c.fetch(raw.StaticRegexReplace(input=texts, pattern=r"[aeiou]", rewrite="_",
                                   replace_global=False))
    c.fetch(raw.StaticRegexReplace(input=texts, pattern=r"\.", rewrite=r"<\0>"))
    c.fetch(raw.RegexReplace(input=texts, pattern=c.feed(np.array(b"(?i)hello|\\d")),
                             rewrite=c.feed(np.array(b"#"))))
    c.fetch(raw.RegexReplace(input=texts, pattern=c.feed(np.array(b"^")),
                             rewrite=c.feed(np.array(b">")), replace_global=False))
    c.fetch(raw.StaticRegexFullMatch(input=texts, pattern=r"[a-z]+-\d+-[a-z]+"))
    c.fetch(raw.RegexFullMatch(input=texts, pattern=c.feed(np.array(b".*\\d.*"))))


@case("LookupTable", EXACT)
def _(c, rng):
    # Static tables of constants (tf.lookup.StaticHashTable): string keys
    # (an empty one, UTF-8, a key given twice with one value), integer keys,
    # string values; queries that miss get the default.
    words = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        [b"the", b"cat", b"", b"h\xc3\xa9llo", b"sat", b"cat"],
        np.array([3, 1, 7, 9, 2, 1], np.int64)), default_value=-1)
    queries = c.feed(np.array([[b"the", b"dog", b"cat"], [b"", b"h\xc3\xa9llo", b"The"]]))
    c.fetch(words.lookup(queries))
    c.fetch(words.size())
    names = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        np.array([10, -3, 7, 1 << 40], np.int64), [b"ten", b"minus three", b"", b"big"]),
        default_value=b"?")
    c.fetch(names.lookup(c.feed(np.array([7, 10, 8, -3, 1 << 40, 0], np.int64))))
    scales = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        np.array([5, -2, 0], np.int32), np.array([0.5, -1.25, 3.0], np.float32)),
        default_value=np.float32(np.nan))
    c.fetch(scales.lookup(c.feed(np.array([0, 1, -2, 5], np.int32))))


@case("StringSplitToTensor", EXACT)
def _(c, rng):
    # tf.strings.split(...).to_tensor(shape=[None, L]): at white space (runs
    # of it, none kept), at a separator (empty tokens kept), at most
    # maxsplit times; strings with fewer tokens than L (the default past
    # them), more (cut), none; and tokens looked up in a vocabulary first,
    # as Keras' TextVectorization does.
    texts = c.feed(np.array([b"the cat  sat", b"", b"  lead and trail  ", b"one",
                             b"a\tb\nc\x0bd", b"x y z w v u t", b" "]))
    c.fetch(tf.strings.split(texts).to_tensor(default_value=b"<pad>", shape=[None, 4]))
    c.fetch(tf.strings.split(texts, sep=" ").to_tensor(shape=[None, 5]))
    c.fetch(tf.strings.split(texts, sep="  ").to_tensor(default_value=b"-", shape=[None, 3]))
    c.fetch(tf.strings.split(texts, maxsplit=2).to_tensor(shape=[None, 4]))
    c.fetch(tf.strings.split(texts, sep=" ", maxsplit=1).to_tensor(shape=[None, 3]))
    c.fetch(tf.strings.split(texts, maxsplit=0).to_tensor(shape=[None, 2]))
    vocabulary = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        [b"the", b"cat", b"sat", b"one", b"x"], np.arange(2, 7, dtype=np.int64)),
        default_value=1)
    tokens = tf.strings.split(tf.strings.lower(texts))
    flat = tokens.flat_values
    ids = tokens.with_flat_values(
        tf.where(tf.equal(flat, b""), np.int64(0), vocabulary.lookup(flat)))
    c.fetch(ids.to_tensor(shape=[None, 6]))


@case("UnicodeDecodeToTensor", EXACT)
def _(c, rng):
    # tf.strings.unicode_decode(..., "UTF-8").to_tensor(shape=[None, L]):
    # ASCII, 2- and 4-byte characters, and every kind of ill-formed UTF-8
    # (a stray continuation byte, a cut sequence, a surrogate, an overlong
    # form, past U+10FFFF, bytes never used), each maximal subpart one
    # error; replaced (by the default and another character), ignored;
    # control characters replaced; strings with fewer and more code points
    # than L.
    texts = c.feed(np.array([b"abc", b"h\xc3\xa9llo w\xc3\xb6rld", b"\x80x",
                             b"\xe2\x82", b"\xe2\x82x", b"\xf0\x9f\x98\x80!",
                             b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80",
                             b"a\x01\x1f\x7f\xc2\x85b", b"\xff\xfe", b"\xf0\x9f\x98",
                             b""]))
    c.fetch(tf.strings.unicode_decode(texts, "UTF-8").to_tensor(shape=[None, 5]))
    c.fetch(tf.strings.unicode_decode(
        texts, "UTF-8", replacement_char=63, replace_control_characters=True)
        .to_tensor(default_value=-1, shape=[None, 8]))
    c.fetch(tf.strings.unicode_decode(texts, "UTF-8", errors="ignore")
            .to_tensor(shape=[None, 3]))


@case("FakeQuant", ELEMENTWISE)
def _(c, rng):
    x = c.feed(rng.uniform(-8, 8, (4, 6)).astype(np.float32))
    g = c.feed(ordinary_floats((4, 6), rng))
    c.fetch(raw.FakeQuantWithMinMaxArgs(inputs=x))
    # A range whose zero point is nudged, few bits, the narrow range.
    c.fetch(raw.FakeQuantWithMinMaxArgs(inputs=x, min=-1.3, max=5.1, num_bits=4,
                                        narrow_range=True))
    c.fetch(raw.FakeQuantWithMinMaxArgsGradient(gradients=g, inputs=x, min=-1.3,
                                                max=5.1, num_bits=4,
                                                narrow_range=True))
    lo, hi = c.feed(np.array(-2.7, np.float32)), c.feed(np.array(3.3, np.float32))
    c.fetch(raw.FakeQuantWithMinMaxVars(inputs=x, min=lo, max=hi, num_bits=7))
    c.fetch(raw.FakeQuantWithMinMaxVars(inputs=x, min=lo, max=hi, narrow_range=True))
    for out in raw.FakeQuantWithMinMaxVarsGradient(gradients=g, inputs=x, min=lo, max=hi,
                                                   num_bits=6, narrow_range=True):
        c.fetch(out)
    # Per channel: the last dimension's 6.
    los = c.feed(np.array([-1.0, -2.5, 0.0, -6.0, -0.3, 0.5], np.float32))
    his = c.feed(np.array([1.0, 2.0, 4.0, 6.0, 0.2, 7.5], np.float32))
    c.fetch(raw.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=los, max=his, num_bits=5))
    c.fetch(raw.FakeQuantWithMinMaxVarsPerChannel(inputs=x, min=los, max=his,
                                                  narrow_range=True))
    for out in raw.FakeQuantWithMinMaxVarsPerChannelGradient(gradients=g, inputs=x,
                                                             min=los, max=his, num_bits=3,
                                                             narrow_range=True):
        c.fetch(out)


@case("OneHot", EXACT)
def _(c, rng):
    idx = c.feed(np.array([[0, 3], [2, -1], [5, 1]], np.int32))
    c.fetch(raw.OneHot(indices=idx, depth=const(4), on_value=const(1.0, np.float32),
                       off_value=const(0.0, np.float32)))
    c.fetch(raw.OneHot(indices=idx, depth=const(3), on_value=const(5, np.int32),
                       off_value=const(-1, np.int32), axis=0))


@case("Resize")
def _(c, rng):
    img = c.feed(ordinary_floats((2, 4, 5, 3), rng))
    for align, half in [(False, False), (True, False), (False, True)]:
        c.fetch(raw.ResizeBilinear(images=img, size=const([7, 3]),
                                   align_corners=align, half_pixel_centers=half))
        c.fetch(raw.ResizeNearestNeighbor(images=img, size=const([8, 9]),
                                          align_corners=align,
                                          half_pixel_centers=half))


@case("ResizeBicubicArea")
def _(c, rng):
    img = c.feed(ordinary_floats((2, 5, 6, 3), rng))
    for align, half in [(False, False), (True, False), (False, True)]:
        # Up and down in each dimension.
        for size in ([9, 4], [3, 11]):
            c.fetch(raw.ResizeBicubic(images=img, size=const(size),
                                      align_corners=align,
                                      half_pixel_centers=half))
    for align in (False, True):
        for size in ([9, 4], [3, 11], [2, 2], [5, 6]):
            c.fetch(raw.ResizeArea(images=img, size=const(size),
                                   align_corners=align))
    # Integer images, resampled into float.
    pixels = c.feed(rng.integers(0, 256, (1, 4, 4, 2)).astype(np.uint8))
    c.fetch(raw.ResizeBicubic(images=pixels, size=const([6, 3])))
    c.fetch(raw.ResizeArea(images=pixels, size=const([3, 7])))


@case("CropAndResize")
def _(c, rng):
    img = c.feed(ordinary_floats((2, 6, 7, 3), rng))
    # Boxes inside, flipped (y2 < y1), reaching outside the image, and a
    # point (one-pixel crops take the box's centre).
    boxes = c.feed(np.array([[0.1, 0.2, 0.8, 0.9], [0.9, 0.7, 0.2, 0.1],
                             [-0.3, -0.2, 1.4, 1.1], [0.5, 0.5, 0.5, 0.5]],
                            np.float32))
    which = c.feed(np.array([0, 1, 1, 0], np.int32))
    for method, extrapolation in [("bilinear", 0.0), ("nearest", -2.5)]:
        for size in ([4, 5], [1, 1], [3, 1]):
            c.fetch(raw.CropAndResize(image=img, boxes=boxes, box_ind=which,
                                      crop_size=const(size), method=method,
                                      extrapolation_value=extrapolation))


@case("Dilation2D")
def _(c, rng):
    img = c.feed(ordinary_floats((2, 7, 8, 3), rng))
    kernel = c.feed(ordinary_floats((3, 2, 3), rng))
    for strides, rates, padding in [([1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
                                    ([1, 2, 3, 1], [1, 1, 1, 1], "VALID"),
                                    ([1, 1, 2, 1], [1, 2, 2, 1], "SAME"),
                                    ([1, 2, 1, 1], [1, 2, 1, 1], "VALID")]:
        c.fetch(raw.Dilation2D(input=img, filter=kernel, strides=strides,
                               rates=rates, padding=padding))


@case("Bincount", EXACT)
def _(c, rng):
    values = c.feed(np.array([[0, 3, 3, 7, 1], [2, 2, 9, 0, 0]], np.int32))
    flat = c.feed(np.array([4, 0, 4, 1, 12, 4], np.int32))
    c.fetch(raw.Bincount(arr=flat, size=const(6),
                         weights=const([], np.float32)))
    c.fetch(raw.Bincount(arr=flat, size=const(5),
                         weights=c.feed(np.array([0.5, 1, 2, 3, 4, 0.25],
                                                 np.float32))))
    c.fetch(raw.DenseBincount(input=values, size=const(8),
                              weights=const([], np.int32)))
    c.fetch(raw.DenseBincount(input=values, size=const(4),
                              weights=const([], np.int64), binary_output=True))
    c.fetch(raw.DenseBincount(input=values, size=const(10),
                              weights=c.feed(ordinary_floats((2, 5), rng))))
    c.fetch(raw.DenseBincount(input=c.feed(np.array([3, 3, 1, 5], np.int64)),
                              size=const(4, np.int64),
                              weights=const([], np.float64)))


def complex_values(shape, rng, dtype=np.complex64):
    return (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)).astype(dtype)


@case("ComplexArithmetic", TRANSCENDENTAL)
def _(c, rng):
    # complex64 and complex128 made from parts, fed and fetched, through
    # the elementwise ops that take them; zeros and infinities among the
    # parts; moved by the data movement ops as any other element type.
    re = np.array([[0.0, 1.5, -2.0, 0.0, 3.0, -0.5], [2.0, -1.0, 0.25, 4.0, -3.0, 1.0]],
                  np.float32)
    im = np.array([[0.0, -0.5, 2.0, 1.0, 0.0, -4.0], [1.0, 3.0, -0.75, -2.0, 0.5, 0.0]],
                  np.float32)
    x = tf.complex(c.feed(re), c.feed(im))
    y = c.feed(complex_values((2, 6), rng))
    for out in [tf.math.real(x), tf.math.imag(x), tf.abs(x), tf.math.angle(x),
                tf.math.conj(x), x + y, x - y, x * y, x / y, -x, tf.square(x),
                tf.exp(x), tf.math.log(y), tf.sqrt(x), tf.math.reciprocal(y),
                tf.sign(x), tf.math.rsqrt(y), tf.sin(y), tf.cos(y), tf.tanh(y),
                tf.math.squared_difference(x, y), tf.pow(y, x),
                tf.add_n([x, y, x]), tf.zeros_like(x), tf.ones_like(y),
                tf.cast(tf.equal(x, y), tf.int32), tf.not_equal(x, x),
                tf.where(c.feed(re > 0), x, y)]:
        c.fetch(out)
    # Casts both ways (complex to real keeps the real part) and to complex128.
    c.fetch(tf.cast(c.feed(ints((3,), rng)), tf.complex64))
    c.fetch(tf.cast(y, tf.float32))
    c.fetch(tf.cast(y, tf.complex128))
    c.fetch(tf.cast(y, tf.int32))
    # Broadcasting a real part, complex128, and a complex constant.
    c.fetch(tf.complex(c.feed(np.array([1.0, -2.0, 0.5], np.float64)),
                       c.feed(np.array([[0.5], [-1.0]], np.float64))))
    w = c.feed(complex_values((3, 2), rng, np.complex128))
    c.fetch(w * w + tf.constant(np.array([1 + 2j, -0.5j], np.complex128)))
    # Data movement of complex elements.
    c.fetch(tf.transpose(y))
    c.fetch(tf.reshape(y, [3, 4]))
    c.fetch(tf.concat([x, y], axis=0))
    c.fetch(tf.stack([x, y], axis=1))
    c.fetch(y[:, 1:5:2])
    c.fetch(tf.gather(y, [1, 0, 1]))
    c.fetch(tf.tile(x[:, :2], [2, 3]))
    c.fetch(tf.reverse(y, [1]))
    c.fetch(tf.pad(x, [[1, 0], [0, 2]]))
    c.fetch(tf.pad(y, [[1, 1], [0, 0]], mode="REFLECT"))
    c.fetch(tf.gather_nd(y, [[1, 2], [0, 5]]))
    c.fetch(tf.reverse_sequence(y, [1, 4], seq_axis=1, batch_axis=0))
    c.fetch(tf.fill([2, 3], tf.complex(1.5, -2.0)))
    # The reductions TensorFlow defines on them, and rows of a partition.
    c.fetch(tf.reduce_sum(y, axis=1))
    c.fetch(tf.reduce_sum(w))
    c.fetch(tf.reduce_mean(y, axis=0))
    c.fetch(tf.reduce_prod(x, axis=1))
    c.fetch(tf.dynamic_partition(y, c.feed(np.array([1, 0], np.int32)), 2)[1])


@case("FFT", REDUCTION)
def _(c, rng):
    # Complex transforms over 1, 2 and 3 dimensions with batches before
    # them: powers of two, odd and prime lengths, length 1, and complex128.
    for shape in [(8,), (3, 7), (2, 12), (1,), (2, 13)]:
        x = c.feed(complex_values(shape, rng))
        c.fetch(tf.signal.fft(x))
        c.fetch(tf.signal.ifft(x))
    for shape in [(4, 6), (2, 5, 3), (1, 1)]:
        x = c.feed(complex_values(shape, rng))
        c.fetch(tf.signal.fft2d(x))
        c.fetch(tf.signal.ifft2d(x))
    for shape in [(2, 3, 4), (2, 2, 5, 3)]:
        x = c.feed(complex_values(shape, rng))
        c.fetch(tf.signal.fft3d(x))
        c.fetch(tf.signal.ifft3d(x))
    z = c.feed(complex_values((3, 10), rng, np.complex128))
    c.fetch(tf.signal.fft(z))
    c.fetch(tf.signal.ifft2d(z))
    # A round trip, and an empty batch.
    c.fetch(tf.signal.ifft(tf.signal.fft(c.feed(complex_values((2, 9), rng)))))
    c.fetch(tf.signal.fft(c.feed(np.zeros((0, 4), np.complex64))))


@case("RFFT", REDUCTION)
def _(c, rng):
    # Real transforms and their inverses: even and odd lengths, fft_length
    # that crops and that zero-pads, over 1, 2 and 3 dimensions; float64.
    x = c.feed(ordinary_floats((3, 10), rng))
    for length in [10, 7, 16, 1]:
        c.fetch(tf.signal.rfft(x, [length]))
    spectrum = c.feed(complex_values((2, 6), rng))
    for length in [10, 11, 6, 14, 1]:
        c.fetch(tf.signal.irfft(spectrum, [length]))
    image = c.feed(ordinary_floats((2, 5, 6), rng))
    c.fetch(tf.signal.rfft2d(image))
    c.fetch(tf.signal.rfft2d(image, [4, 9]))
    half = c.feed(complex_values((2, 5, 4), rng))
    c.fetch(tf.signal.irfft2d(half))
    c.fetch(tf.signal.irfft2d(half, [6, 5]))
    volume = c.feed(ordinary_floats((3, 4, 5), rng))
    c.fetch(tf.signal.rfft3d(volume))
    c.fetch(tf.signal.irfft3d(tf.signal.rfft3d(volume), [3, 4, 5]))
    c.fetch(tf.signal.irfft3d(c.feed(complex_values((2, 3, 3), rng)), [2, 3, 4]))
    d = c.feed(ordinary_floats((2, 9), rng, np.float64))
    c.fetch(tf.signal.rfft(d))
    c.fetch(tf.signal.irfft(tf.signal.rfft(d), [9]))


@case("Spectrogram", REDUCTION)
def _(c, rng):
    # A spectrogram as audio models compute it: framed, Hann-windowed,
    # real-transformed, its magnitude on a log scale; and back to the
    # signal (inverse_stft).
    signal = c.feed(ordinary_floats((2, 400), rng, low=-1.0, high=1.0))
    stft = tf.signal.stft(signal, frame_length=64, frame_step=32, fft_length=64)
    c.fetch(tf.math.log(tf.abs(stft) + 1e-6))
    c.fetch(tf.signal.inverse_stft(stft, frame_length=64, frame_step=32,
                                   fft_length=64))


@case("SpectrogramAnyBatch", REDUCTION)
def _(c, rng):
    # The spectrogram of a feed of unknown batch: one program for any batch
    # (the frames' split of the signal's shape and the transforms keep the
    # rows apart).
    batch = c.feed(ordinary_floats((3, 256), rng, low=-1.0, high=1.0), any_batch=True)
    c.fetch(tf.math.log(tf.abs(tf.signal.stft(batch, frame_length=64, frame_step=32,
                                              fft_length=64)) + 1e-6))


@case("RandomShuffle", EXACT)
def _(c, rng):
    # The first draws of the seeded streams, as a program's first step.
    c.fetch(raw.RandomShuffle(value=c.feed(np.arange(10, dtype=np.float32)),
                              seed=7, seed2=3))
    c.fetch(raw.RandomShuffle(value=c.feed(ints((13, 3), rng)), seed=1,
                              seed2=20251125))
    c.fetch(raw.RandomShuffle(value=c.feed(ordinary_floats((5, 2, 2), rng)),
                              seed=-4, seed2=0))
    c.fetch(raw.RandomShuffle(value=c.feed(ordinary_floats((1, 3), rng)),
                              seed=5, seed2=5))


@case("ShapeArithmetic", EXACT)
def _(c, rng):
    c.fetch(raw.BroadcastArgs(s0=const([2, 1, 3]), s1=const([4, 1])))
    c.fetch(raw.BroadcastArgs(s0=const([5], np.int64),
                              s1=const([1, 1, 5], np.int64)))
    offsets = raw.ConcatOffset(concat_dim=const(1),
                               shape=[const([2, 3, 4]), const([2, 5, 4]),
                                      const([2, 0, 4])])
    for o in offsets:
        c.fetch(o)
    # A feed beside the shapes, so that the graph has one.
    c.fetch(c.feed(np.array([1.0], np.float32)))


@case("FillRange", EXACT)
def _(c, rng):
    c.fetch(raw.Fill(dims=const([2, 3]), value=c.feed(np.array(2.5, np.float32))))
    c.fetch(raw.Range(start=const(3), limit=const(20), delta=const(4)))
    c.fetch(raw.Range(start=const(1.0, np.float32), limit=const(-2.0, np.float32),
                      delta=const(-0.5, np.float32)))


@case("Aliases", EXACT)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 3), rng))
    n = raw.IdentityN(input=[x, c.feed(ints((4,), rng))])
    c.fetch(n[0])
    c.fetch(n[1])
    c.fetch(raw.Reshape(tensor=x, shape=const([3, 2])))
    c.fetch(raw.ExpandDims(input=x, axis=const(-1)))
    c.fetch(raw.Squeeze(input=c.feed(ordinary_floats((1, 3, 1), rng)), axis=[0]))


@case("FusedBatchNormV3")
def _(c, rng):
    stats = [c.feed(ordinary_floats((4,), rng, low=0.5, high=2.0)) for _ in range(4)]
    y = raw.FusedBatchNormV3(x=c.feed(ordinary_floats((2, 3, 3, 4), rng)),
                             scale=stats[0], offset=stats[1], mean=stats[2],
                             variance=stats[3], epsilon=0.001, is_training=False)
    c.fetch(y.y)
    y = raw.FusedBatchNormV3(x=c.feed(ordinary_floats((2, 4, 3, 3), rng)),
                             scale=stats[0], offset=stats[1], mean=stats[2],
                             variance=stats[3], epsilon=0.01, is_training=False,
                             data_format="NCHW")
    c.fetch(y.y)


# --------------------------------------------------------------------------
# Reductions, scans, softmax
# --------------------------------------------------------------------------

def reduction_case(op):
    def build(c, rng):
        f = getattr(raw, op)
        x = c.feed(ordinary_floats((3, 4, 5), rng))
        c.fetch(f(input=x, axis=const([1, 2])))               # contiguous
        c.fetch(f(input=x, axis=const([0, 2]), keep_dims=True))  # not
        c.fetch(f(input=x, axis=const([-1])))
        c.fetch(f(input=x, axis=const(np.zeros((0,), np.int32))))  # none
        c.fetch(f(input=c.feed(edge_floats()), axis=const([1])))  # NaN, inf
        c.fetch(f(input=c.feed(ints((3, 4), rng, low=-3, high=4)), axis=const([0])))
        c.fetch(f(input=c.feed(ordinary_floats((2, 3), rng, np.float64)),
                  axis=const([1])))
    return build


for _op in ["Sum", "Mean", "Max", "Min", "Prod"]:
    case(_op, REDUCTION)(reduction_case(_op))


@case("EuclideanNormL2Loss", REDUCTION)
def _(c, rng):
    x = c.feed(ordinary_floats((3, 4, 5), rng))
    c.fetch(raw.EuclideanNorm(input=x, axis=const([1, 2])))
    c.fetch(raw.EuclideanNorm(input=x, axis=const([0, 2]), keep_dims=True))
    c.fetch(raw.EuclideanNorm(input=c.feed(edge_floats()), axis=const([1])))
    c.fetch(raw.EuclideanNorm(input=c.feed(ordinary_floats((2, 3), rng, np.float64)),
                              axis=const([0])))
    c.fetch(raw.L2Loss(t=x))
    c.fetch(raw.L2Loss(t=c.feed(ordinary_floats((7,), rng, np.float64))))


@case("AllAny", EXACT)
def _(c, rng):
    b = c.feed(rng.integers(0, 2, (3, 4)).astype(bool))
    c.fetch(raw.All(input=b, axis=const([1])))
    c.fetch(raw.Any(input=b, axis=const([0]), keep_dims=True))
    c.fetch(raw.All(input=c.feed(np.ones((2, 0), bool)), axis=const([1])))


@case("ArgMaxMin", EXACT)
def _(c, rng):
    x = c.feed(np.array([[1.0, 3.0, 3.0, -1.0], [np.nan, 2.0, np.nan, 5.0],
                         [-np.inf, -np.inf, -7.0, 0.0]], np.float32))
    c.fetch(raw.ArgMax(input=x, dimension=const(1)))
    c.fetch(raw.ArgMin(input=x, dimension=const(-1), output_type=tf.int32))
    c.fetch(raw.ArgMax(input=x, dimension=const(0)))
    c.fetch(raw.ArgMin(input=c.feed(ints((3, 5), rng, low=-2, high=2)),
                       dimension=const(0)))


@case("Cumulative")
def _(c, rng):
    x = c.feed(ordinary_floats((3, 4), rng))
    c.fetch(raw.Cumsum(x=x, axis=const(1)))
    c.fetch(raw.Cumsum(x=x, axis=const(0), exclusive=True))
    c.fetch(raw.Cumsum(x=x, axis=const(-1), reverse=True, exclusive=True))
    c.fetch(raw.Cumprod(x=x, axis=const(1), reverse=True))
    c.fetch(raw.Cumsum(x=c.feed(ints((2, 5), rng)), axis=const(1)))


@case("TopKV2", EXACT)
def _(c, rng):
    x = c.feed(np.array([[1.0, 3.0, 3.0, -1.0, 2.0], [0.5, -2.0, 7.0, 7.0, 7.0]],
                        np.float32))
    top = raw.TopKV2(input=x, k=const(3))
    c.fetch(top.values)
    c.fetch(top.indices)
    top = raw.TopKV2(input=c.feed(ordinary_floats((2, 3, 6), rng)), k=const(6))
    c.fetch(top.values)
    c.fetch(top.indices)


@case("Softmax", TRANSCENDENTAL)
def _(c, rng):
    c.fetch(raw.Softmax(logits=c.feed(ordinary_floats((3, 7), rng, low=-30, high=30))))
    c.fetch(raw.LogSoftmax(logits=c.feed(ordinary_floats((2, 2, 5), rng, low=-30,
                                                         high=30))))
    c.fetch(raw.Softmax(logits=c.feed(np.array([[1.0, -np.inf, 0.0]], np.float32))))


@case("LRN", TRANSCENDENTAL)
def _(c, rng):
    # The defaults (radius 5, bias 1, alpha 1, beta 0.5) over 16 channels:
    # windows clipped at both ends and whole ones.
    c.fetch(raw.LRN(input=c.feed(ordinary_floats((2, 3, 3, 16), rng))))
    # AlexNet's settings, and the betas with TensorFlow's special forms.
    for radius, bias, alpha, beta in [(2, 2.0, 1e-4, 0.75), (1, 1.0, 0.5, 1.0),
                                      (3, 0.5, 2.0, 0.5), (0, 1.0, 1.0, 2.0)]:
        c.fetch(raw.LRN(input=c.feed(ordinary_floats((1, 2, 4, 7), rng)),
                        depth_radius=radius, bias=bias, alpha=alpha, beta=beta))
    # A radius wider than the channels, one channel, and an empty batch.
    c.fetch(raw.LRN(input=c.feed(ordinary_floats((1, 2, 2, 3), rng)),
                    depth_radius=8, alpha=0.1))
    c.fetch(raw.LRN(input=c.feed(ordinary_floats((2, 2, 2, 1), rng)),
                    depth_radius=2))
    c.fetch(raw.LRN(input=c.feed(np.zeros((0, 2, 2, 4), np.float32))))


# --------------------------------------------------------------------------
# Training: gradients, losses, random initializers
# --------------------------------------------------------------------------

@case("ActivationGrads", TRANSCENDENTAL)
def _(c, rng):
    # (y, dy) forms, y in the activation's range.
    for op, low, high in [("TanhGrad", -0.99, 0.99), ("SigmoidGrad", 0.01, 0.99),
                          ("RsqrtGrad", 0.1, 3.0), ("SqrtGrad", 0.1, 3.0),
                          ("ReciprocalGrad", -3.0, 3.0)]:
        c.fetch(getattr(raw, op)(y=c.feed(ordinary_floats((3, 5), rng, low=low, high=high)),
                                 dy=c.feed(ordinary_floats((3, 5), rng))))
    # (gradients, features or outputs) forms, around the kinks.
    features = np.array([[-7.0, -1.0, -0.0, 0.0, 0.5, 6.0, 6.5, 3.0]], np.float32)
    for op, attrs in [("ReluGrad", {}), ("Relu6Grad", {}), ("LeakyReluGrad", {"alpha": 0.3}),
                      ("SoftplusGrad", {}), ("SoftsignGrad", {})]:
        c.fetch(getattr(raw, op)(gradients=c.feed(ordinary_floats((2, 8), rng)),
                                 features=c.feed(np.vstack([features, features * 0.7])),
                                 **attrs))
    for op in ["EluGrad", "SeluGrad"]:
        c.fetch(getattr(raw, op)(gradients=c.feed(ordinary_floats((2, 4), rng)),
                                 outputs=c.feed(np.array([[-0.9, -0.1, 0.0, 2.0],
                                                          [-1.5, -0.5, 0.3, 4.0]], np.float32))))


@case("BatchNormTraining", REDUCTION)
def _(c, rng):
    x = c.feed(ordinary_floats((2, 3, 5, 4), rng))
    scale = c.feed(ordinary_floats((4,), rng, low=0.5, high=2.0))
    offset = c.feed(ordinary_floats((4,), rng))
    empty = c.feed(np.zeros((0,), np.float32))
    bn = raw.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=empty,
                              variance=empty, epsilon=0.001, is_training=True)
    for i in range(5):
        c.fetch(bn[i])
    # Running statistics averaged with the previous ones.
    averaged = raw.FusedBatchNormV3(
        x=x, scale=scale, offset=offset,
        mean=c.feed(ordinary_floats((4,), rng)),
        variance=c.feed(ordinary_floats((4,), rng, low=0.5, high=2.0)),
        epsilon=0.01, exponential_avg_factor=0.3, is_training=True)
    for i in range(3):
        c.fetch(averaged[i])
    dy = c.feed(ordinary_floats((2, 3, 5, 4), rng))
    grad = raw.FusedBatchNormGradV3(
        y_backprop=dy, x=x, scale=scale, reserve_space_1=bn.reserve_space_1,
        reserve_space_2=bn.reserve_space_2, reserve_space_3=bn.reserve_space_3,
        epsilon=0.001, is_training=True)
    for i in range(3):
        c.fetch(grad[i])
    # Inference mode: the statistics are constants of the forward pass.
    grad = raw.FusedBatchNormGradV3(
        y_backprop=dy, x=x, scale=scale,
        reserve_space_1=c.feed(ordinary_floats((4,), rng)),
        reserve_space_2=c.feed(ordinary_floats((4,), rng, low=0.5, high=2.0)),
        reserve_space_3=empty, epsilon=0.001, is_training=False)
    for i in range(3):
        c.fetch(grad[i])


@case("BatchNormTrainingRelu", REDUCTION)
def _(c, rng):
    # A ReLU and a ReLU6 that alone read a training batch norm's y: tfc's
    # batch norm kernel applies them; the statistics are fetched too. 21
    # channels, 6 of them past the last whole vector of 16; scaled so that
    # some values pass 6.
    x = c.feed(ordinary_floats((2, 3, 4, 21), rng))
    offset = c.feed(ordinary_floats((21,), rng))
    empty = c.feed(np.zeros((0,), np.float32))
    for activation, scale in [(raw.Relu, 1.0), (raw.Relu6, 4.0)]:
        bn = raw.FusedBatchNormV3(
            x=x, scale=c.feed(ordinary_floats((21,), rng, low=0.5, high=2.0) * scale),
            offset=offset, mean=empty, variance=empty, epsilon=0.001,
            is_training=True)
        c.fetch(activation(features=bn.y))
        c.fetch(bn.batch_mean)
        c.fetch(bn.batch_variance)


@case("ConvGrads", REDUCTION)
def _(c, rng):
    # (input, filter, strides, padding, dilations, explicit paddings);
    # TensorFlow's CPU kernels have no dilated gradients.
    convs = [((2, 7, 6, 3), (3, 3, 3, 4), 2, "SAME", 1, []),
             ((2, 7, 6, 3), (2, 3, 3, 4), 3, "VALID", 1, []),
             ((1, 7, 6, 3), (3, 3, 3, 2), 1, "EXPLICIT", 1,
              [0, 0, 1, 2, 0, 1, 0, 0]),
             ((3, 5, 5, 8), (1, 1, 8, 6), 1, "VALID", 1, [])]
    for shape, fshape, stride, padding, dilation, pads in convs:
        x = c.feed(ordinary_floats(shape, rng))
        w = c.feed(ordinary_floats(fshape, rng))
        attrs = dict(strides=[1, stride, stride, 1], padding=padding,
                     dilations=[1, dilation, dilation, 1],
                     explicit_paddings=pads)
        y = raw.Conv2D(input=x, filter=w, **attrs)
        dy = c.feed(ordinary_floats(y.shape, rng))
        c.fetch(raw.Conv2DBackpropInput(input_sizes=const(shape), filter=w,
                                        out_backprop=dy, **attrs))
        c.fetch(raw.Conv2DBackpropFilter(input=x, filter_sizes=const(fshape),
                                         out_backprop=dy, **attrs))
    for shape, fshape, stride, padding in [((2, 6, 5, 4), (3, 3, 4, 2), 2, "SAME"),
                                           ((2, 6, 5, 3), (3, 2, 3, 1), 1, "VALID")]:
        x = c.feed(ordinary_floats(shape, rng))
        w = c.feed(ordinary_floats(fshape, rng))
        attrs = dict(strides=[1, stride, stride, 1], padding=padding)
        y = raw.DepthwiseConv2dNative(input=x, filter=w, **attrs)
        dy = c.feed(ordinary_floats(y.shape, rng))
        c.fetch(raw.DepthwiseConv2dNativeBackpropInput(
            input_sizes=const(shape), filter=w, out_backprop=dy, **attrs))
        c.fetch(raw.DepthwiseConv2dNativeBackpropFilter(
            input=x, filter_sizes=const(fshape), out_backprop=dy, **attrs))


@case("GroupedConv2D", REDUCTION)
def _(c, rng):
    # Two and four groups (RegNet, ResNeXt, Keras' Conv2D(groups=G)), one
    # strided with SAME padding; each becomes a convolution per group.
    x = c.feed(ordinary_floats((2, 7, 6, 8), rng))
    c.fetch(raw.Conv2D(input=x, filter=c.feed(ordinary_floats((3, 3, 4, 6), rng)),
                       strides=[1, 1, 1, 1], padding="VALID"))
    c.fetch(raw.Conv2D(input=x, filter=c.feed(ordinary_floats((3, 3, 2, 8), rng)),
                       strides=[1, 2, 2, 1], padding="SAME"))
    # One input channel per group (ConvNeXt's Conv2D(groups=C)): a depthwise
    # convolution, with one and two outputs per channel, the filter fed and
    # constant; dilated, it is split per group instead.
    c.fetch(raw.Conv2D(input=x, filter=c.feed(ordinary_floats((3, 3, 1, 8), rng)),
                       strides=[1, 1, 1, 1], padding="SAME"))
    c.fetch(raw.Conv2D(input=x, filter=tf.constant(ordinary_floats((7, 7, 1, 16), rng)),
                       strides=[1, 2, 2, 1], padding="SAME"))
    c.fetch(raw.Conv2D(input=x, filter=c.feed(ordinary_floats((2, 2, 1, 8), rng)),
                       strides=[1, 1, 1, 1], padding="VALID", dilations=[1, 2, 2, 1]))


@case("PadIntoConvolution", REDUCTION)
def _(c, rng):
    # Keras' ZeroPadding2D before a VALID convolution, which tfc-fold-pads
    # makes the convolution's own padding: MobileNetV2's ((0, 1), (0, 1))
    # before a stride-2 depthwise convolution, ResNet-50's 3 on every side
    # before its 7x7 stride-2 one; then a Pad that is also fetched, which
    # stays.
    x = c.feed(ordinary_floats((2, 8, 8, 3), rng))
    padded = raw.Pad(input=x, paddings=const([[0, 0], [0, 1], [0, 1], [0, 0]]))
    c.fetch(raw.DepthwiseConv2dNative(
        input=padded, filter=c.feed(ordinary_floats((3, 3, 3, 2), rng)),
        strides=[1, 2, 2, 1], padding="VALID"))
    padded = raw.Pad(input=x, paddings=const([[0, 0], [3, 3], [3, 3], [0, 0]]))
    c.fetch(raw.Conv2D(input=padded, filter=c.feed(ordinary_floats((7, 7, 3, 4), rng)),
                       strides=[1, 2, 2, 1], padding="VALID"))
    padded = raw.Pad(input=x, paddings=const([[0, 0], [1, 1], [1, 1], [0, 0]]))
    c.fetch(padded)
    c.fetch(raw.Conv2D(input=padded, filter=c.feed(ordinary_floats((3, 3, 3, 4), rng)),
                       strides=[1, 1, 1, 1], padding="VALID"))



@case("PadIntoMaxPool", EXACT)
def _(c, rng):
    # ResNet's ZeroPadding2D(1) before its 3x3 stride-2 max pooling, after a
    # ReLU (and a ReLU6): tfc-fold-pads makes the zeros the pooling's own
    # padding, which it skips, the same maximum for a value never below
    # zero. Odd and even sides, so that windows overhang the bottom and
    # right; inputs mostly negative, so that some border windows hold only
    # zeros. A Pad of a signed value (ResNetV2's of its first convolution)
    # folds too, the pooling then counting its padding as zeros, which can
    # be a window's maximum.
    for shape in [(2, 7, 7, 3), (1, 8, 6, 2)]:
        x = c.feed(ordinary_floats(shape, rng, low=-3.0, high=1.0))
        for activation in (raw.Relu, raw.Relu6):
            padded = raw.Pad(input=activation(features=x),
                             paddings=const([[0, 0], [1, 1], [1, 1], [0, 0]]))
            c.fetch(raw.MaxPool(input=padded, ksize=[1, 3, 3, 1],
                                strides=[1, 2, 2, 1], padding="VALID"))
        padded = raw.Pad(input=x, paddings=const([[0, 0], [1, 1], [1, 1], [0, 0]]))
        c.fetch(raw.MaxPool(input=padded, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                            padding="VALID"))

@case("ShiftedSubsample", EXACT)
def _(c, rng):
    # NASNet's factorized reduction: the ReLU'd image halved by a 1x1
    # average pooling of stride 2, and shifted one pixel up and left first
    # (ZeroPadding2D(((0, 1), (0, 1))), Cropping2D(((1, 0), (1, 0)))) on
    # its second path. tfc-fold-subsamples makes the second one strided
    # read of the image, with a row and column of zeros after on odd sides
    # (the last kept pixel is the Pad's). A Pad of (1, 1) before a 1x1 max
    # pooling of stride 2 (kept pixels in the padding before) and a crop
    # alone before one of stride 3.
    for shape in [(2, 7, 7, 3), (1, 8, 6, 4)]:
        x = raw.Relu(features=c.feed(ordinary_floats(shape, rng)))
        one = dict(ksize=[1, 1, 1, 1], strides=[1, 2, 2, 1], padding="VALID")
        c.fetch(raw.AvgPool(value=x, **one))
        shifted = raw.Pad(input=x, paddings=const([[0, 0], [0, 1], [0, 1], [0, 0]]))[:, 1:, 1:, :]
        c.fetch(raw.AvgPool(value=shifted, **one))
    x = c.feed(ordinary_floats((1, 6, 7, 2), rng))
    padded = raw.Pad(input=x, paddings=const([[0, 0], [1, 1], [1, 1], [0, 0]]))
    c.fetch(raw.MaxPool(input=padded, ksize=[1, 1, 1, 1], strides=[1, 2, 2, 1],
                        padding="VALID"))
    c.fetch(raw.AvgPool(value=x[:, 2:, 1:6, :], ksize=[1, 1, 1, 1], strides=[1, 3, 3, 1],
                        padding="VALID"))


@case("ReluOfConcat", REDUCTION)
def _(c, rng):
    # NASNet's cell output: a concatenation of its branches (a convolution
    # with a residual add, a pooling plus a value, a plain input), read by
    # two ReLUs of the next cells; tfc-sink-activations moves the ReLU onto
    # each piece, where the convolution's epilogue and the add's loop take
    # it (the convolution is read by the concatenation alone, so its ReLU
    # joins its epilogue). Edge values in the plain piece (-0, NaN,
    # infinities). Then Relu6
    # of a concatenation along the width, and of a concatenation of a
    # concatenation; and a concatenation also fetched itself, which stays.
    x = c.feed(ordinary_floats((1, 6, 6, 8), rng))
    w = tf.constant(ordinary_floats((1, 1, 8, 16), rng))
    residual = c.feed(ordinary_floats((1, 6, 6, 16), rng))
    conv = raw.AddV2(x=raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1],
                                  padding="SAME"), y=residual)
    pooled = raw.AddV2(x=raw.AvgPool(value=x, ksize=[1, 3, 3, 1],
                                     strides=[1, 1, 1, 1], padding="SAME"), y=x)
    edges = np.resize(edge_floats(), (1, 6, 6, 4)).astype(np.float32)
    plain = c.feed(edges)
    joined = raw.ConcatV2(values=[conv, pooled, plain], axis=const(3))
    c.fetch(raw.Relu(features=joined))
    c.fetch(raw.Neg(x=raw.Relu(features=joined)))
    wide = raw.ConcatV2(values=[x, pooled], axis=const(2))
    c.fetch(raw.Relu6(features=wide))
    inner = raw.ConcatV2(values=[x, plain], axis=const(3))
    outer = raw.ConcatV2(values=[inner, pooled], axis=const(-1))
    c.fetch(raw.Relu6(features=outer))
    kept = raw.ConcatV2(values=[residual, x], axis=const(3))
    c.fetch(kept)
    c.fetch(raw.Relu(features=kept))


@case("PoolChannelBlocks", REDUCTION)
def _(c, rng):
    # Max and average pooling over channel counts that take the kernel's
    # blocks of four vectors and what is left (40: a block and a vector on
    # AVX2; 37: a block and five single channels; 168: NASNet's), with
    # windows at the borders (SAME, counting only the image) and strided.
    for shape in [(1, 7, 7, 40), (2, 5, 6, 37), (1, 6, 6, 168)]:
        x = c.feed(ordinary_floats(shape, rng))
        for ksize, stride, padding in [(3, 1, "SAME"), (3, 2, "VALID"),
                                       (2, 2, "SAME")]:
            attrs = dict(ksize=[1, ksize, ksize, 1],
                         strides=[1, stride, stride, 1], padding=padding)
            c.fetch(raw.MaxPool(input=x, **attrs))
            c.fetch(raw.AvgPool(value=x, **attrs))


# Winograd's transforms lose a few bits: its error is about 1e-6 of the sum
# of the magnitudes of an output's terms (here a few hundred: 144 to 576
# products of values in [-3, 3]), so outputs that cancel to near zero
# need an absolute tolerance of that size.
WINOGRAD = (1e-4, 1e-3)


@case("ConvWinograd", WINOGRAD)
def _(c, rng):
    # 3x3, stride 1, channels multiples of 16: the shapes tfc computes by
    # Winograd's F(4x4, 3x3), forward (with a bias and ReLU fused into it)
    # and both gradients; outputs not a whole number of 4x4 tiles.
    # (48 and 32 tiles: enough for the kernels to choose Winograd.)
    for shape, fshape, padding in [((2, 9, 30, 16), (3, 3, 16, 32), "SAME"),
                                   ((2, 18, 18, 16), (3, 3, 16, 16), "VALID")]:
        x = c.feed(ordinary_floats(shape, rng))
        w = c.feed(ordinary_floats(fshape, rng))
        b = c.feed(ordinary_floats(fshape[3:], rng))
        attrs = dict(strides=[1, 1, 1, 1], padding=padding)
        y = raw.Conv2D(input=x, filter=w, **attrs)
        c.fetch(raw.Relu(features=raw.BiasAdd(value=y, bias=b)))
        dy = c.feed(ordinary_floats(y.shape, rng))
        c.fetch(raw.Conv2DBackpropInput(input_sizes=const(shape), filter=w,
                                        out_backprop=dy, **attrs))
        c.fetch(raw.Conv2DBackpropFilter(input=x, filter_sizes=const(fshape),
                                         out_backprop=dy, **attrs))


@case("ConvHardSwish", WINOGRAD)
def _(c, rng):
    # Hard swish, x * relu6(x + 3) / 6 (MobileNetV3's), after a convolution
    # and its bias, which tfc applies in the convolution's kernel: as Keras
    # writes it, x * (relu6(x + 3) / 6), after a 1x1 convolution (oneDNN's
    # post-op) and a 3x3 one of 16 channels (Winograd's); then (x *
    # relu6(x + 3)) * (1 / 6) after a depthwise one. Outputs span the
    # activation's knees at -3 and 3.
    def keras_form(v):
        return raw.Mul(x=v, y=raw.RealDiv(
            x=raw.Relu6(features=raw.AddV2(x=v, y=tf.constant(3.0))), y=tf.constant(6.0)))

    x = c.feed(ordinary_floats((2, 6, 6, 4), rng))
    pointwise = raw.Conv2D(input=x, filter=c.feed(ordinary_floats((1, 1, 4, 8), rng)),
                           strides=[1, 1, 1, 1], padding="VALID")
    c.fetch(keras_form(raw.BiasAdd(value=pointwise, bias=c.feed(ordinary_floats((8,), rng)))))
    wide = c.feed(ordinary_floats((1, 12, 12, 16), rng, low=-1.0, high=1.0))
    winograd = raw.Conv2D(input=wide, filter=c.feed(ordinary_floats((3, 3, 16, 16), rng,
                                                                    low=-0.5, high=0.5)),
                          strides=[1, 1, 1, 1], padding="SAME")
    c.fetch(keras_form(raw.BiasAdd(value=winograd, bias=c.feed(ordinary_floats((16,), rng)))))
    depthwise = raw.DepthwiseConv2dNative(
        input=x, filter=c.feed(ordinary_floats((3, 3, 4, 1), rng)), strides=[1, 1, 1, 1],
        padding="SAME")
    v = raw.BiasAdd(value=depthwise, bias=c.feed(ordinary_floats((4,), rng)))
    product = raw.Mul(x=v, y=raw.Relu6(features=raw.AddV2(x=v, y=tf.constant(3.0))))
    c.fetch(raw.Mul(x=product, y=tf.constant(1.0 / 6.0)))

def conv_bias_relu(c, rng, convolutions):
    """Fetches relu(conv(x, w) + b) for each (input shape, filter shape,
    padding, whether the filter is a constant), stride 1, all else fed."""
    for shape, fshape, padding, constant in convolutions:
        x = c.feed(ordinary_floats(shape, rng))
        values = ordinary_floats(fshape, rng)
        w = const(values, np.float32) if constant else c.feed(values)
        b = c.feed(ordinary_floats(fshape[3:], rng))
        y = raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding=padding)
        c.fetch(raw.Relu(features=raw.BiasAdd(value=y, bias=b)))


@case("ConvWinogradFilters", WINOGRAD)
def _(c, rng):
    # 1x7, 7x1, 1x3, 3x1 and 5x5 filters, stride 1, channels multiples of
    # 16: InceptionV3's factorized and 5x5 convolutions, which tfc computes
    # on AVX2 by Winograd's F(4, 7) and F(4, 3) along the filter's axis (17
    # x 17 and 8 x 8 images: 85 and 16 tiles of 4 outputs) and F(4x4, 5x5),
    # with a bias and ReLU fused into them; SAME (outputs not whole tiles)
    # and VALID; the filter fed, and constant (transformed once by its call
    # site).
    conv_bias_relu(c, rng, [
        ((1, 17, 17, 16), (1, 7, 16, 32), "SAME", False),
        ((1, 17, 17, 16), (7, 1, 16, 16), "SAME", True),
        ((2, 8, 8, 32), (1, 3, 32, 16), "SAME", False),
        ((1, 14, 9, 16), (3, 1, 16, 16), "VALID", False),
        ((1, 18, 15, 16), (5, 5, 16, 16), "SAME", False),
        ((1, 14, 17, 16), (5, 5, 16, 32), "VALID", True)])


@case("ConvWinogradFiltersManyTiles", WINOGRAD)
def _(c, rng):
    # The filters of ConvWinogradFilters on batches with 128 output tiles
    # or more (rows of 4 outputs along the filter's axis; 4x4 tiles for
    # 5x5), where tfc's AVX-512 kernels take them too (with AVX2 they take
    # them from 12 tiles): 1x7 and 7x1 on 17 x 17 images, 1x3 and 3x1 on
    # 16 x 16 and 5x5 on 35 x 35, constant filters and fed ones, with a
    # bias and ReLU.
    conv_bias_relu(c, rng, [
        ((2, 17, 17, 16), (1, 7, 16, 32), "SAME", True),
        ((2, 17, 17, 32), (7, 1, 32, 16), "SAME", False),
        ((4, 16, 16, 16), (1, 3, 16, 16), "SAME", True),
        ((4, 16, 16, 16), (3, 1, 16, 32), "VALID", False),
        ((2, 35, 35, 16), (5, 5, 16, 16), "SAME", True)])


@case("ConvSwish", REDUCTION)
def _(c, rng):
    # Swish after convolutions, which tfc applies in the convolution's
    # kernel: Keras' x * sigmoid(beta * x) with beta a constant 1 after a
    # convolution and its bias (a batch of two images), and x * sigmoid(x)
    # after a depthwise convolution; values around 0 and large enough that
    # the sigmoid saturates both ways.
    x = c.feed(ordinary_floats((2, 9, 9, 8), rng, low=-6.0, high=6.0))
    w = c.feed(ordinary_floats((1, 1, 8, 16), rng))
    b = c.feed(ordinary_floats((16,), rng))
    y = raw.AddV2(x=raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1],
                               padding="SAME"), y=b)
    beta = tf.constant(1.0, tf.float32)
    c.fetch(raw.Mul(x=y, y=raw.Sigmoid(x=raw.Mul(x=beta, y=y))))
    dw = c.feed(ordinary_floats((3, 3, 8, 1), rng))
    z = raw.DepthwiseConv2dNative(input=x, filter=dw, strides=[1, 1, 1, 1],
                                  padding="SAME")
    c.fetch(raw.Mul(x=raw.Sigmoid(x=z), y=z))


@case("ExpansionDepthwise", REDUCTION)
def _(c, rng):
    # Inverted bottlenecks (MobileNetV2's, EfficientNet's): a 1x1
    # convolution by a constant filter with its bias and activation, read
    # only by a depthwise convolution with its own, which tfc computes in
    # one kernel without writing the expansion. Swish then swish, 3x3
    # stride 2 after a ZeroPadding2D's pad (folded into the window);
    # ReLU6 then ReLU6, 3x3 stride 1 SAME on 2 images, 72 expanded
    # channels (not whole vectors) and a fed bias; 5x5 stride 1 with hard
    # swish after a plain expansion, on 1 image; and an expansion larger
    # than the kernel keeps whole (48 x 48 pixels of 64 channels), one
    # image in bands of rows, through a ring of rows.
    def weights(shape, scale=0.5):
        return const(ordinary_floats(shape, rng, low=-scale, high=scale), np.float32)

    def swish(v):
        return raw.Mul(x=v, y=raw.Sigmoid(x=v))

    def expand(x, cin, e):
        return raw.Conv2D(input=x, filter=weights((1, 1, cin, e)), strides=[1, 1, 1, 1],
                          padding="VALID")

    x = c.feed(ordinary_floats((1, 16, 16, 8), rng))
    e = swish(raw.BiasAdd(value=expand(x, 8, 48), bias=weights((48,))))
    padded = raw.Pad(input=e, paddings=const([[0, 0], [0, 1], [0, 1], [0, 0]]))
    d = raw.DepthwiseConv2dNative(input=padded, filter=weights((3, 3, 48, 1)),
                                  strides=[1, 2, 2, 1], padding="VALID")
    c.fetch(swish(raw.AddV2(x=d, y=weights((48,)))))
    x2 = c.feed(ordinary_floats((2, 12, 10, 16), rng))
    e2 = raw.Relu6(features=raw.BiasAdd(value=expand(x2, 16, 72),
                                        bias=c.feed(ordinary_floats((72,), rng))))
    d2 = raw.DepthwiseConv2dNative(input=e2, filter=weights((3, 3, 72, 1)),
                                   strides=[1, 1, 1, 1], padding="SAME")
    c.fetch(raw.Relu6(features=raw.BiasAdd(value=d2, bias=weights((72,)))))
    x3 = c.feed(ordinary_floats((1, 14, 14, 24), rng))
    d3 = raw.DepthwiseConv2dNative(input=expand(x3, 24, 48), filter=weights((5, 5, 48, 1)),
                                   strides=[1, 1, 1, 1], padding="SAME")
    h = raw.BiasAdd(value=d3, bias=weights((48,)))
    c.fetch(raw.Mul(x=h, y=raw.RealDiv(
        x=raw.Relu6(features=raw.AddV2(x=h, y=tf.constant(3.0))), y=tf.constant(6.0))))
    x4 = c.feed(ordinary_floats((1, 48, 48, 8), rng))
    e4 = raw.Relu(features=raw.BiasAdd(value=expand(x4, 8, 64), bias=weights((64,))))
    d4 = raw.DepthwiseConv2dNative(input=e4, filter=weights((3, 3, 64, 1)),
                                   strides=[1, 2, 2, 1], padding="SAME")
    c.fetch(raw.Relu(features=raw.BiasAdd(value=d4, bias=weights((64,)))))


@case("DenseEpilogue", REDUCTION)
def _(c, rng):
    # Products by a constant matrix (a dense layer's weights), which tfc
    # computes by its dense kernel with the bias, a residual and the
    # activation after them applied as it writes: tf.nn.gelu's exact form
    # (x * 0.5 * erfc(-x / sqrt(2))), Keras' Tensordot (reshaped rows)
    # with ReLU, transpose_b with a residual and ReLU6, a residual whose
    # buffer the output takes over, BatchMatMulV2 and Einsum projections
    # with a per-head bias and with swish, hard swish, and a product too
    # small for oneDNN's primitive. Values span GELU's tails (-6 to 6).
    def weights(shape, scale=0.3):
        return const(ordinary_floats(shape, rng, low=-scale, high=scale), np.float32)

    def gelu(v):
        return raw.Mul(x=raw.Mul(x=tf.constant(0.5), y=v),
                       y=raw.Erfc(x=raw.Mul(x=raw.Neg(x=v),
                                            y=tf.constant(0.7071067811865476, tf.float32))))

    x = c.feed(ordinary_floats((64, 32), rng))
    b48 = c.feed(ordinary_floats((48,), rng))
    c.fetch(gelu(raw.BiasAdd(value=raw.MatMul(a=x, b=weights((32, 48))), bias=b48)))
    seq = c.feed(ordinary_floats((2, 40, 32), rng))
    rows = raw.MatMul(a=raw.Reshape(tensor=seq, shape=const([80, 32])), b=weights((32, 64)))
    steps = raw.Reshape(tensor=rows, shape=const([2, 40, 64]))
    c.fetch(raw.Relu(features=raw.BiasAdd(value=steps, bias=c.feed(ordinary_floats((64,), rng)))))
    residual = c.feed(ordinary_floats((64, 40), rng))
    transposed = raw.MatMul(a=x, b=weights((40, 32)), transpose_b=True)
    c.fetch(raw.Relu6(features=raw.AddV2(x=residual, y=transposed)))
    doubled = raw.Mul(x=residual, y=tf.constant(2.0))
    product = raw.MatMul(a=x, b=weights((32, 40)))
    c.fetch(raw.Relu(features=raw.AddV2(
        x=raw.BiasAdd(value=product, bias=c.feed(ordinary_floats((40,), rng))), y=doubled)))
    heads = raw.Reshape(tensor=raw.BatchMatMulV2(x=seq, y=weights((32, 64))),
                        shape=const([2, 40, 4, 16]))
    c.fetch(raw.AddV2(x=heads, y=c.feed(ordinary_floats((4, 16), rng))))
    z = raw.AddV2(x=raw.Einsum(inputs=[seq, weights((32, 48))], equation="abc,cd->abd"),
                  y=c.feed(ordinary_floats((48,), rng)))
    c.fetch(raw.Mul(x=z, y=raw.Sigmoid(x=raw.Mul(x=tf.constant(1.0), y=z))))
    h = raw.BiasAdd(value=raw.MatMul(a=x, b=weights((32, 24), 0.6)),
                    bias=c.feed(ordinary_floats((24,), rng)))
    c.fetch(raw.Mul(x=h, y=raw.RealDiv(
        x=raw.Relu6(features=raw.AddV2(x=h, y=tf.constant(3.0))), y=tf.constant(6.0))))
    small = c.feed(ordinary_floats((2, 8), rng))
    c.fetch(gelu(raw.BiasAdd(value=raw.MatMul(a=small, b=weights((8, 4), 1.0)),
                             bias=c.feed(ordinary_floats((4,), rng)))))


@case("SubnormalsFlushed")
def _(c, rng):
    # TensorFlow computes with subnormal floats flushed to zero (results)
    # and read as zero (operands) on every thread of a step. Each output
    # scales what would be a subnormal by 1e38, so that a step that kept
    # it differs from TensorFlow's 0 by far more than the tolerance.
    big = c.feed(np.array(1e38, np.float32))
    # Products below the normal range (1e-40, 1e-39) and one above it.
    x = c.feed(np.array([1e-30, -1e-30, 1e-20, 1e-19], np.float32))
    y = c.feed(np.array([1e-10, 1e-10, 1e-19, 1e-18], np.float32))
    c.fetch(raw.Mul(x=raw.Mul(x=x, y=y), y=big))
    # Subnormal operands, the smallest one included.
    s = c.feed(np.array([1e-39, -1e-39, 1.4e-45, 1e-37], np.float32))
    c.fetch(raw.Mul(x=s, y=big))
    # exp and sigmoid whose results are subnormal.
    t = c.feed(np.array([-88.0, -90.0, -100.0, -80.0], np.float32))
    c.fetch(raw.Mul(x=raw.Exp(x=t), y=big))
    c.fetch(raw.Mul(x=raw.Sigmoid(x=t), y=big))
    # A loop long enough to run on every thread, summed.
    tiled = raw.Tile(input=raw.Reshape(tensor=x, shape=[1, 4]),
                     multiples=[16384, 1])
    c.fetch(raw.Sum(input=raw.Mul(x=raw.Mul(x=tiled, y=y), y=big), axis=[0]))
    # A product whose terms are subnormal.
    a = c.feed(np.full((2, 64), 1e-20, np.float32))
    c.fetch(raw.Mul(x=raw.MatMul(a=a, b=raw.Transpose(x=a, perm=[1, 0])), y=big))
    # A convolution (oneDNN's, on OpenMP's threads) whose sums are
    # subnormal.
    faint = c.feed(np.full((1, 16, 16, 8), 1e-20, np.float32))
    faint_filter = c.feed(np.full((1, 1, 8, 16), 1e-20, np.float32))
    c.fetch(raw.Mul(x=raw.Conv2D(input=faint, filter=faint_filter,
                                 strides=[1, 1, 1, 1], padding="SAME"), y=big))
    # x * sigmoid(x) after a convolution (oneDNN's), on values far below 0.
    image = c.feed(ordinary_floats((1, 16, 16, 8), rng, low=1.0, high=2.0))
    w = c.feed(np.full((1, 1, 8, 16), -8.0, np.float32))
    z = raw.Conv2D(input=image, filter=w, strides=[1, 1, 1, 1], padding="SAME")
    beta = tf.constant(1.0, tf.float32)
    swish = raw.Mul(x=z, y=raw.Sigmoid(x=raw.Mul(x=beta, y=z)))
    c.fetch(raw.Mul(x=swish, y=big))


@case("PoolGrads")
def _(c, rng):
    # ReLU'd values: windows of zeros, where the first maximum takes the
    # gradient.
    x = c.feed(np.maximum(ordinary_floats((2, 5, 6, 3), rng), 0))
    for ksize, stride, padding in [(3, 2, "SAME"), (2, 2, "VALID"), (3, 1, "SAME")]:
        attrs = dict(ksize=[1, ksize, ksize, 1], strides=[1, stride, stride, 1],
                     padding=padding)
        y = raw.MaxPool(input=x, **attrs)
        dy = c.feed(ordinary_floats(y.shape, rng))
        c.fetch(raw.MaxPoolGrad(orig_input=x, orig_output=y, grad=dy, **attrs))
        c.fetch(raw.AvgPoolGrad(orig_input_shape=const([2, 5, 6, 3]), grad=dy,
                                **attrs))


@case("PoolGradRelu")
def _(c, rng):
    # ReLU then max pooling, differentiated: tfc's pooling gradient applies
    # the ReluGrad. 19 channels: a vector of 16 (two of 8 on AVX2) and
    # three single ones; windows that tile the image (2x2, stride 2) and
    # overlapping ones.
    x = raw.Relu(features=c.feed(ordinary_floats((2, 6, 8, 19), rng)))
    for ksize, stride, padding in [(2, 2, "VALID"), (3, 2, "SAME")]:
        attrs = dict(ksize=[1, ksize, ksize, 1], strides=[1, stride, stride, 1],
                     padding=padding)
        y = raw.MaxPool(input=x, **attrs)
        dy = c.feed(ordinary_floats(y.shape, rng))
        dx = raw.MaxPoolGrad(orig_input=x, orig_output=y, grad=dy, **attrs)
        c.fetch(raw.ReluGrad(gradients=dx, features=x))


def variables_updated_by(c, values, update):
    """Resource variables holding the fed `values`, updated in the step by
    update(handles); fetches every variable's value after the update. The
    update's fed inputs must be made before: TensorFlow leaves out a
    control edge that a fed input already implies, and feeding it cuts
    that path."""
    handles = []
    for v in values:
        h = raw.VarHandleOp(dtype=tf.float32, shape=v.shape,
                            shared_name="%s_var%d" % (c.name, len(c.feeds)))
        handles.append((h, raw.AssignVariableOp(resource=h, value=c.feed(v))))
    with tf.control_dependencies([a for _, a in handles]):
        op = update([h for h, _ in handles])
    with tf.control_dependencies([op]):
        for h, _ in handles:
            c.fetch(raw.ReadVariableOp(resource=h, dtype=tf.float32))


@case("Scatters")
def _(c, rng):
    # Duplicate indices accumulate in order.
    indices = np.array([3, 0, 3, 1], np.int32)
    for op in ("ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul",
               "ResourceScatterDiv", "ResourceScatterMin", "ResourceScatterMax",
               "ResourceScatterUpdate"):
        u = c.feed(ordinary_floats((4, 3), rng, low=0.5, high=2.0))
        i = c.feed(indices)
        variables_updated_by(c, [ordinary_floats((5, 3), rng, low=0.5, high=2.0)],
                             lambda h, op=op, u=u, i=i: getattr(raw, op)(
                                 resource=h[0], indices=i, updates=u))
    # A scalar update, int64 indices.
    i, u = c.feed(np.array([2, 0], np.int64)), c.feed(np.array(1.5, np.float32))
    variables_updated_by(c, [ordinary_floats((4, 2), rng)],
                         lambda h: raw.ResourceScatterAdd(resource=h[0], indices=i,
                                                          updates=u))
    # ResourceGather: rows of a rank-3 variable with 2-D indices.
    h = raw.VarHandleOp(dtype=tf.float32, shape=[4, 2, 3], shared_name="gather_var")
    init = raw.AssignVariableOp(resource=h, value=c.feed(ordinary_floats((4, 2, 3), rng)))
    i = c.feed(np.array([[3, 1], [1, 0]], np.int32))
    with tf.control_dependencies([init]):
        c.fetch(raw.ResourceGather(resource=h, indices=i, dtype=tf.float32))
    # UnsortedSegmentSum: negative ids dropped, empty segments zero.
    c.fetch(raw.UnsortedSegmentSum(data=c.feed(ordinary_floats((5, 2), rng)),
                                   segment_ids=c.feed(np.array([2, -1, 0, 2, 3], np.int32)),
                                   num_segments=const(5)))
    c.fetch(raw.UnsortedSegmentSum(data=c.feed(ordinary_floats((2, 3, 2), rng)),
                                   segment_ids=c.feed(np.array([[1, 0, 1], [0, 0, 3]], np.int64)),
                                   num_segments=const(4)))


@case("Search", EXACT)
def _(c, rng):
    # Bucketize: boundaries hit exactly, below the first, above the last,
    # NaN (past them all); ints and doubles compared as TensorFlow does.
    c.fetch(raw.Bucketize(input=c.feed(edge_floats()), boundaries=[-1.0, 0.0, 0.5, 2.5, 10.0]))
    c.fetch(raw.Bucketize(input=c.feed(ints((3, 4), rng)), boundaries=[-3.0, 0.5, 4.0]))
    c.fetch(raw.Bucketize(input=c.feed(np.array([0.1, 0.30000001, 2.0], np.float64)),
                          boundaries=[0.1, 0.3]))
    # tf.searchsorted: rows of sorted inputs, repeated values.
    sorted_rows = c.feed(np.sort(ints((3, 6), rng), axis=1))
    values = c.feed(ints((3, 5), rng))
    for op in (raw.LowerBound, raw.UpperBound):
        c.fetch(op(sorted_inputs=sorted_rows, values=values))
        c.fetch(op(sorted_inputs=sorted_rows, values=values, out_type=tf.int64))
        c.fetch(op(sorted_inputs=c.feed(np.sort(ordinary_floats((2, 7), rng), axis=1)),
                   values=c.feed(ordinary_floats((2, 4), rng))))


@case("Segments", REDUCTION)
def _(c, rng):
    data = c.feed(ordinary_floats((6, 3), rng))
    # Unsorted: ids in any order, negative ones dropped, empty segments at
    # the identity (the lowest float for Max, the highest for Min).
    ids = c.feed(np.array([2, -1, 0, 2, 4, 0], np.int32))
    for op in (raw.UnsortedSegmentMax, raw.UnsortedSegmentMin, raw.UnsortedSegmentProd):
        c.fetch(op(data=data, segment_ids=ids, num_segments=const(5)))
    c.fetch(raw.UnsortedSegmentMax(data=c.feed(ordinary_floats((2, 3, 2), rng)),
                                   segment_ids=c.feed(np.array([[1, 0, 1], [0, 0, 3]],
                                                               np.int64)),
                                   num_segments=const(4, np.int64)))
    # Sorted: constant ids (their last gives the count) with a gap, which
    # is 0 (1 for Prod).
    sorted_ids = const([0, 0, 1, 3, 3, 3])
    for op in (raw.SegmentSum, raw.SegmentMean, raw.SegmentMax, raw.SegmentMin,
               raw.SegmentProd):
        c.fetch(op(data=data, segment_ids=sorted_ids))
    # Sparse: rows picked by indices (repeated), segments sorted.
    indices = c.feed(np.array([5, 0, 0, 2, 3], np.int32))
    sparse_ids = const([0, 0, 2, 2, 2])
    for op in (raw.SparseSegmentSum, raw.SparseSegmentMean, raw.SparseSegmentSqrtN):
        c.fetch(op(data=data, indices=indices, segment_ids=sparse_ids))
    for op in (raw.SparseSegmentSumWithNumSegments, raw.SparseSegmentMeanWithNumSegments,
               raw.SparseSegmentSqrtNWithNumSegments):
        c.fetch(op(data=data, indices=indices,
                   segment_ids=c.feed(np.array([1, 1, 1, 3, 3], np.int64)),
                   num_segments=const(5)))
    # Their gradients: segment rows scattered back to the indexed rows.
    grad = c.feed(ordinary_floats((3, 3), rng))
    for op in (raw.SparseSegmentSumGrad, raw.SparseSegmentMeanGrad,
               raw.SparseSegmentSqrtNGrad):
        c.fetch(op(grad=grad, indices=indices, segment_ids=sparse_ids,
                   output_dim0=const(7)))


@case("SparseApply", TRANSCENDENTAL)
def _(c, rng):
    indices = np.array([4, 1, 4], np.int32)   # A duplicate: applied twice.
    grad = ordinary_floats((3, 2), rng)
    def var():
        return ordinary_floats((6, 2), rng)
    def slot():
        return ordinary_floats((6, 2), rng, low=0.1, high=1.0)
    def scalar(v):
        return const(v, np.float32)
    fed_grad, fed_indices = c.feed(grad), c.feed(indices)
    g = lambda: fed_grad
    i = lambda: fed_indices
    variables_updated_by(c, [var(), slot()], lambda h: raw.ResourceSparseApplyMomentum(
        var=h[0], accum=h[1], lr=scalar(0.1), grad=g(), indices=i(),
        momentum=scalar(0.9), use_nesterov=True))
    variables_updated_by(c, [var(), slot()], lambda h: raw.ResourceSparseApplyAdagrad(
        var=h[0], accum=h[1], lr=scalar(0.1), grad=g(), indices=i()))
    variables_updated_by(c, [var(), slot()], lambda h: raw.ResourceSparseApplyAdagradV2(
        var=h[0], accum=h[1], lr=scalar(0.1), epsilon=scalar(1e-3), grad=g(),
        indices=i()))
    variables_updated_by(c, [var(), slot(), slot()], lambda h: raw.ResourceSparseApplyRMSProp(
        var=h[0], ms=h[1], mom=h[2], lr=scalar(0.01), rho=scalar(0.9),
        momentum=scalar(0.5), epsilon=scalar(1e-7), grad=g(), indices=i()))
    variables_updated_by(c, [var(), ordinary_floats((6, 2), rng, low=-0.1, high=0.1),
                             slot(), slot()],
                         lambda h: raw.ResourceSparseApplyCenteredRMSProp(
        var=h[0], mg=h[1], ms=h[2], mom=h[3], lr=scalar(0.01), rho=scalar(0.9),
        momentum=scalar(0.5), epsilon=scalar(1e-7), grad=g(), indices=i()))
    variables_updated_by(c, [var(), slot(), slot()], lambda h: raw.ResourceSparseApplyAdadelta(
        var=h[0], accum=h[1], accum_update=h[2], lr=scalar(1.0), rho=scalar(0.95),
        epsilon=scalar(1e-6), grad=g(), indices=i()))
    variables_updated_by(c, [var(), slot(), var()], lambda h: raw.ResourceSparseApplyFtrl(
        var=h[0], accum=h[1], linear=h[2], grad=g(), indices=i(), lr=scalar(0.1),
        l1=scalar(0.01), l2=scalar(0.01), lr_power=scalar(-0.5)))
    variables_updated_by(c, [var(), slot(), var()], lambda h: raw.ResourceSparseApplyFtrlV2(
        var=h[0], accum=h[1], linear=h[2], grad=g(), indices=i(), lr=scalar(0.1),
        l1=scalar(0.01), l2=scalar(0.01), l2_shrinkage=scalar(0.02),
        lr_power=scalar(-0.5)))


@case("BiasAddGrad", REDUCTION)
def _(c, rng):
    c.fetch(raw.BiasAddGrad(out_backprop=c.feed(ordinary_floats((4, 6), rng))))
    c.fetch(raw.BiasAddGrad(out_backprop=c.feed(ordinary_floats((2, 3, 3, 5), rng))))
    c.fetch(raw.BiasAddGrad(out_backprop=c.feed(ordinary_floats((2, 5, 3, 3), rng)),
                            data_format="NCHW"))


@case("CrossEntropy", TRANSCENDENTAL)
def _(c, rng):
    logits = ordinary_floats((4, 5), rng, low=-20, high=20)
    probabilities = rng.dirichlet(np.ones(5), 4).astype(np.float32)
    dense = raw.SoftmaxCrossEntropyWithLogits(features=c.feed(logits),
                                              labels=c.feed(probabilities))
    c.fetch(dense.loss)
    c.fetch(dense.backprop)
    for label_type in (np.int32, np.int64):
        sparse = raw.SparseSoftmaxCrossEntropyWithLogits(
            features=c.feed(logits), labels=c.feed(np.array([0, 4, 2, 2], label_type)))
        c.fetch(sparse.loss)
        c.fetch(sparse.backprop)


@case("Random", EXACT)
def _(c, rng):
    # Sizes that are not multiples of the generator's groups of 4; explicit
    # seed pairs, as graph and op seeds become the seed and seed2 attrs.
    c.fetch(raw.RandomUniform(shape=const([3, 7]), dtype=tf.float32, seed=1, seed2=2))
    c.fetch(raw.RandomUniform(shape=const([5]), dtype=tf.float32, seed=87654321, seed2=0))
    c.fetch(raw.RandomUniformInt(shape=const([2, 9]), minval=const(-5), maxval=const(17),
                                 seed=7, seed2=3))
    c.fetch(raw.RandomUniformInt(shape=const([7]), minval=const(10, np.int64),
                                 maxval=const(1 << 40, np.int64), seed=7, seed2=4))


@case("RandomNormal", TRANSCENDENTAL)
def _(c, rng):
    c.fetch(raw.RandomStandardNormal(shape=const([6, 5]), dtype=tf.float32, seed=3, seed2=9))
    # Enough values that the truncation rejects some.
    c.fetch(raw.TruncatedNormal(shape=const([41, 13]), dtype=tf.float32, seed=11, seed2=5))


@case("StatelessRandom", TRANSCENDENTAL)
def _(c, rng):
    # Seed pairs fed (int32, a negative one, and int64), sizes that are not
    # multiples of the generator's groups.
    seeds = [c.feed(np.array([7, 11], np.int32)), c.feed(np.array([-3, 5], np.int32)),
             c.feed(np.array([1 << 40, 123456789], np.int64))]
    for seed in seeds:
        c.fetch(raw.StatelessRandomUniform(shape=const([3, 7]), seed=seed))
    c.fetch(raw.StatelessRandomNormal(shape=const([6, 5]), seed=seeds[0]))
    c.fetch(raw.StatelessTruncatedNormal(shape=const([41, 13]), seed=seeds[2]))
    c.fetch(raw.StatelessRandomUniformInt(shape=const([2, 9]), seed=seeds[1],
                                          minval=const(-5), maxval=const(17)))
    c.fetch(raw.StatelessRandomUniformInt(shape=const([7]), seed=seeds[0],
                                          minval=const(10, np.int64),
                                          maxval=const(1 << 40, np.int64)))
    # The second versions, keyed as tf.random.stateless_* keys them.
    key, counter = raw.StatelessRandomGetKeyCounter(seed=seeds[1])
    alg = raw.StatelessRandomGetAlg()
    c.fetch(key)
    c.fetch(counter)
    c.fetch(alg)
    c.fetch(raw.StatelessRandomUniformV2(shape=const([5, 3]), key=key, counter=counter,
                                         alg=alg))
    c.fetch(raw.StatelessRandomNormalV2(shape=const([9]), key=key, counter=counter,
                                        alg=alg))
    c.fetch(raw.StatelessTruncatedNormalV2(shape=const([30]), key=key, counter=counter,
                                           alg=alg))
    c.fetch(raw.StatelessRandomUniformIntV2(shape=const([6]), key=key, counter=counter,
                                            alg=alg, minval=const(0), maxval=const(100)))
    # A key and counter given as values, and the auto-selected algorithm.
    key2, counter2, alg2 = raw.StatelessRandomGetKeyCounterAlg(seed=seeds[2])
    c.fetch(alg2)
    c.fetch(raw.StatelessRandomUniformV2(
        shape=const([4]), key=c.feed(np.array([12345], np.uint64)),
        counter=c.feed(np.array([3, 1 << 50], np.uint64)), alg=const(3)))
    c.fetch(raw.StatelessRandomNormalV2(shape=const([4]), key=key2, counter=counter2,
                                        alg=alg2))
    c.fetch(raw.Empty(shape=const([2, 3]), dtype=tf.float32, init=True))


# --------------------------------------------------------------------------
# Attribute values: every value the op table declares handled, other than
# the default, checked here if no case above or corpus model uses it
# (OpTableTest.HandledAttributeValuesAreCheckedAgainstTensorFlow holds the
# table to that).
# --------------------------------------------------------------------------

@case("AttributeValues", REDUCTION)
def _(c, rng):
    c.fetch(raw.All(input=c.feed(rng.integers(0, 2, (3, 4)).astype(bool)),
                    axis=const([1]), keep_dims=True))
    for op in (raw.BatchMatMul, raw.BatchMatMulV2):
        for adj_x, adj_y in ((True, False), (False, True), (True, True)):
            a = ordinary_floats((2, 4, 3) if adj_x else (2, 3, 4), rng)
            b = ordinary_floats((2, 5, 4) if adj_y else (2, 4, 5), rng)
            c.fetch(op(x=c.feed(a), y=c.feed(b), adj_x=adj_x, adj_y=adj_y))
    c.fetch(raw.BatchMatMulV3(x=c.feed(ordinary_floats((3, 2), rng)),
                              y=c.feed(ordinary_floats((4, 3), rng)),
                              Tout=tf.float32, adj_x=True, adj_y=True))
    # Float32 to bfloat16 by dropping the low mantissa bits, seen as float32.
    c.fetch(raw.Cast(x=raw.Cast(x=c.feed(edge_floats()), DstT=tf.bfloat16,
                                Truncate=True), DstT=tf.float32))
    x = c.feed(ordinary_floats((2, 9, 8, 3), rng))
    for padding in ("SAME", "VALID"):
        c.fetch(raw.Conv2D(input=x, filter=c.feed(ordinary_floats((3, 2, 3, 4), rng)),
                           strides=[1, 1, 1, 1], padding=padding, dilations=[1, 2, 3, 1]))
    c.fetch(raw.Cumprod(x=c.feed(ordinary_floats((3, 4), rng)), axis=const(1),
                        exclusive=True))
    c.fetch(raw.Cumprod(x=c.feed(ordinary_floats((3, 4), rng)), axis=const(0),
                        exclusive=True, reverse=True))
    # x[..., 1:3] of a (2, 3, 4) tensor.
    c.fetch(raw.StridedSliceGrad(shape=const([2, 3, 4]), begin=const([0, 1]),
                                 end=const([0, 3]), strides=const([1, 1]),
                                 dy=c.feed(ordinary_floats((2, 3, 2), rng)),
                                 ellipsis_mask=1))
    # The first versions of the batch norm ops, training (with running
    # averages) and inference (NHWC and NCHW), and their gradients.
    stats = [c.feed(ordinary_floats((4,), rng, low=0.5, high=2.0)) for _ in range(4)]
    for op in (raw.FusedBatchNorm, raw.FusedBatchNormV2):
        bn = op(x=c.feed(ordinary_floats((2, 3, 5, 4), rng)),
                scale=stats[0], offset=stats[1], mean=stats[2], variance=stats[3],
                epsilon=0.01, exponential_avg_factor=0.3, is_training=True)
        for i in range(3):
            c.fetch(bn[i])
        c.fetch(op(x=c.feed(ordinary_floats((2, 4, 3, 3), rng)), scale=stats[0],
                   offset=stats[1], mean=stats[2], variance=stats[3], epsilon=0.01,
                   is_training=False, data_format="NCHW").y)
    dy = c.feed(ordinary_floats((2, 3, 5, 4), rng))
    xg = c.feed(ordinary_floats((2, 3, 5, 4), rng))
    for op in (raw.FusedBatchNormGrad, raw.FusedBatchNormGradV2):
        for training in (True, False):
            grad = op(y_backprop=dy, x=xg, scale=stats[0], reserve_space_1=stats[2],
                      reserve_space_2=stats[3], epsilon=0.01, is_training=training)
            for i in range(3):
                c.fetch(grad[i])


@case("OptimizerFlags", TRANSCENDENTAL)
def _(c, rng):
    # The optimizers' flags on their resource forms, dense and sparse.
    def var(shape):
        return ordinary_floats(shape, rng)
    def slot(shape):
        return ordinary_floats(shape, rng, low=0.1, high=1.0)
    def scalar(v):
        return const(v, np.float32)
    grad = c.feed(ordinary_floats((4, 2), rng))
    variables_updated_by(c, [var((4, 2)), slot((4, 2))], lambda h: raw.ResourceApplyMomentum(
        var=h[0], accum=h[1], lr=scalar(0.1), grad=grad, momentum=scalar(0.9),
        use_nesterov=True))
    variables_updated_by(c, [var((4, 2)), slot((4, 2)), slot((4, 2))],
                         lambda h: raw.ResourceApplyAdam(
        var=h[0], m=h[1], v=h[2], beta1_power=scalar(0.81), beta2_power=scalar(0.998),
        lr=scalar(0.01), beta1=scalar(0.9), beta2=scalar(0.999), epsilon=scalar(1e-7),
        grad=grad, use_nesterov=True))
    variables_updated_by(c, [var((4, 2)), slot((4, 2))], lambda h: raw.ResourceApplyAdagrad(
        var=h[0], accum=h[1], lr=scalar(0.1), grad=grad, update_slots=False))
    variables_updated_by(c, [var((4, 2)), slot((4, 2))], lambda h: raw.ResourceApplyAdagradV2(
        var=h[0], accum=h[1], lr=scalar(0.1), epsilon=scalar(1e-3), grad=grad,
        update_slots=False))
    variables_updated_by(c, [var((4, 2)), slot((4, 2)), var((4, 2))],
                         lambda h: raw.ResourceApplyFtrl(
        var=h[0], accum=h[1], linear=h[2], grad=grad, lr=scalar(0.1), l1=scalar(0.01),
        l2=scalar(0.01), lr_power=scalar(-0.5), multiply_linear_by_lr=True))
    variables_updated_by(c, [var((4, 2)), slot((4, 2)), var((4, 2))],
                         lambda h: raw.ResourceApplyFtrlV2(
        var=h[0], accum=h[1], linear=h[2], grad=grad, lr=scalar(0.1), l1=scalar(0.01),
        l2=scalar(0.01), l2_shrinkage=scalar(0.02), lr_power=scalar(-0.5),
        multiply_linear_by_lr=True))
    rows = c.feed(ordinary_floats((3, 2), rng))
    indices = c.feed(np.array([4, 1, 4], np.int32))
    variables_updated_by(c, [var((6, 2)), slot((6, 2))], lambda h: raw.ResourceSparseApplyAdagrad(
        var=h[0], accum=h[1], lr=scalar(0.1), grad=rows, indices=indices,
        update_slots=False))
    variables_updated_by(c, [var((6, 2)), slot((6, 2))],
                         lambda h: raw.ResourceSparseApplyAdagradV2(
        var=h[0], accum=h[1], lr=scalar(0.1), epsilon=scalar(1e-3), grad=rows,
        indices=indices, update_slots=False))
    variables_updated_by(c, [var((6, 2)), slot((6, 2)), var((6, 2))],
                         lambda h: raw.ResourceSparseApplyFtrl(
        var=h[0], accum=h[1], linear=h[2], grad=rows, indices=indices, lr=scalar(0.1),
        l1=scalar(0.01), l2=scalar(0.01), lr_power=scalar(-0.5),
        multiply_linear_by_lr=True))
    variables_updated_by(c, [var((6, 2)), slot((6, 2)), var((6, 2))],
                         lambda h: raw.ResourceSparseApplyFtrlV2(
        var=h[0], accum=h[1], linear=h[2], grad=rows, indices=indices, lr=scalar(0.1),
        l1=scalar(0.01), l2=scalar(0.01), l2_shrinkage=scalar(0.02),
        lr_power=scalar(-0.5), multiply_linear_by_lr=True))


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def generate(name, build, tol):
    rng = np.random.default_rng(SEED + sum(map(ord, name)))
    g = tf.Graph()
    with g.as_default():
        tf1.set_random_seed(SEED)
        c = Case(name)
        build(c, rng)
    with tf1.Session(graph=g, config=session_config()) as sess:
        with g.as_default():
            sess.run(tf1.tables_initializer())
        outputs = sess.run(c.fetches, feed_dict={p: v for p, v in c.feeds})
    out_dir = os.path.join(HERE, "cases", name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(os.path.join(out_dir, "inputs"))
    os.makedirs(os.path.join(out_dir, "outputs"))
    tf.io.write_graph(g.as_graph_def(), out_dir, "graph.pbtxt", as_text=True)
    for i, (_, value) in enumerate(c.feeds):
        np.save(os.path.join(out_dir, "inputs", "%d.npy" % i), value)
    for i, value in enumerate(outputs):
        value = np.asarray(value)
        if value.dtype == object:  # Strings: bytes objects, saved as 'S'.
            value = value.astype(bytes)
        np.save(os.path.join(out_dir, "outputs", "%d.npy" % i), value)
    return {"feeds": ["x%d" % i for i in range(len(c.feeds))],
            "fetches": ["out%d" % i for i in range(len(c.fetches))],
            "rtol": tol[0], "atol": tol[1]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated case names")
    args = parser.parse_args()
    manifest_path = os.path.join(HERE, "cases.json")
    manifest = {}
    if args.only and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    names = args.only.split(",") if args.only else sorted(CASES)
    if not args.only:
        shutil.rmtree(os.path.join(HERE, "cases"), ignore_errors=True)
    for name in names:
        build, tol = CASES[name]
        manifest[name] = generate(name, build, tol)
    with open(manifest_path, "w") as f:
        json.dump(dict(sorted(manifest.items())), f, indent=1)
        f.write("\n")
    print("wrote %d cases" % len(names))


if __name__ == "__main__":
    main()
