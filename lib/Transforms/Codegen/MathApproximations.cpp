//===- MathApproximations.cpp - float32 exp, tanh, erf, erfc as arithmetic ===//
//
// The same steps as the kernels' runtime/kernels/cpu/VectorMath.h, op for
// op, so that a generated loop and a kernel agree. The one fast-math flag
// is `contract` on the polynomials' multiply-adds, which may then fuse
// where the target has FMA (as GCC fuses them in the kernels built for
// AVX2 and AVX-512); nothing else: the Cody-Waite reduction and Dekker's
// product rely on each operation rounding on its own.
//
//===----------------------------------------------------------------------===//

#include "MathApproximations.h"

#include "tfc/Support/MathPolynomials.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tfc::math_polynomials;

namespace tfc {
namespace {

/// Scalar f32 arithmetic at one location.
struct F32 {
  OpBuilder &b;
  Location loc;

  Value c(float v) {
    return b.create<arith::ConstantOp>(loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return b.create<arith::AddFOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubFOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<arith::MulFOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.create<arith::DivFOp>(loc, x, y); }
  Value neg(Value x) { return b.create<arith::NegFOp>(loc, x); }
  /// Ordered comparisons: false for NaN, as C's < and >.
  Value lt(Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value gt(Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x, y);
  }
  Value isNaN(Value x) {
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, x, x);
  }
  Value select(Value condition, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, condition, x, y);
  }
  Value abs(Value x) { return select(lt(x, c(0)), neg(x), x); }
  /// A polynomial's steps may each be one fused multiply-add where the
  /// target has them (LLVM's contraction of a `contract` multiply into
  /// the `contract` add that uses it): one rounding instead of two, half
  /// the operations of erfc's and exp's polynomials. Nothing else is
  /// contracted (see the file comment).
  template <size_t N> Value horner(const float (&coefficients)[N], Value v) {
    auto contract = arith::FastMathFlags::contract;
    Value acc = c(coefficients[N - 1]);
    for (size_t i = N - 1; i-- > 0;)
      acc = b.create<arith::AddFOp>(
          loc, b.create<arith::MulFOp>(loc, acc, v, contract),
          c(coefficients[i]), contract);
    return acc;
  }
  /// 2^k for an integral f32 k in [-126, 127].
  Value i32(int32_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI32IntegerAttr(v));
  }
  /// 2^k for an i32 k in [-126, 127]: the bits of a float with k's
  /// biased exponent and a zero fraction.
  Value powerOfTwo(Value k) {
    Value bits = b.create<arith::ShLIOp>(
        loc, b.create<arith::AddIOp>(loc, k, i32(127)), i32(23));
    return b.create<arith::BitcastOp>(loc, b.getF32Type(), bits);
  }

  /// exp(x) for x within [kExpLow, kExpHigh].
  Value expClamped(Value x) {
    // Round to even by adding and subtracting 1.5 * 2^23.
    Value shifter = c(12582912.0f);
    Value k = sub(add(mul(x, c(kLog2E)), shifter), shifter);
    Value r = sub(x, mul(k, c(kLn2High)));
    r = sub(r, mul(k, c(kLn2Low)));
    Value p = add(add(c(1.0f), r), mul(mul(r, r), horner(kExpTail, r)));
    // 2^k as two normal factors: k in [-150, 129].
    Value ki = b.create<arith::FPToSIOp>(loc, b.getI32Type(), k);
    Value half = b.create<arith::ShRSIOp>(loc, ki, i32(1));
    Value rest = b.create<arith::SubIOp>(loc, ki, half);
    return mul(mul(p, powerOfTwo(half)), powerOfTwo(rest));
  }

  Value exp(Value x) {
    Value clamped =
        select(lt(x, c(kExpLow)), c(kExpLow),
               select(gt(x, c(kExpHigh)), c(kExpHigh), x));
    return select(isNaN(x), x, expClamped(clamped));
  }

  /// erfc(a) for a >= 0 (NaN: any value; the callers select).
  Value erfcNonNegative(Value a) {
    a = select(lt(a, c(kErfcZero)), a, c(kErfcZero));
    // a^2 = high + low exactly (Veltkamp's split, Dekker's product).
    Value split = mul(a, c(4097.0f));
    Value aHigh = sub(split, sub(split, a));
    Value aLow = sub(a, aHigh);
    Value high = mul(a, a);
    Value low = add(add(sub(mul(aHigh, aHigh), high),
                        mul(mul(c(2.0f), aHigh), aLow)),
                    mul(aLow, aLow));
    Value e = mul(expClamped(neg(high)), sub(c(1.0f), low));
    Value t = div(c(1.0f), add(c(1.0f), mul(c(0.5f), a)));
    Value p = select(lt(a, c(kErfcSplit)),
                     horner(kErfcNear, sub(t, c(kErfcNearCenter))),
                     horner(kErfcFar, sub(t, c(kErfcFarCenter))));
    return mul(mul(e, t), p);
  }
};

} // namespace

Value buildExpF32(OpBuilder &b, Location loc, Value x) {
  return F32{b, loc}.exp(x);
}

Value buildTanhF32(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value a = f.abs(x);
  Value x2 = f.mul(x, x);
  // x + x^3 p(x^2) is +0 at x = -0: the sign goes back on.
  Value small = f.b.create<math::CopySignOp>(
      loc, f.add(x, f.mul(f.mul(x, x2), f.horner(kTanhOdd, x2))), x);
  Value e = f.exp(f.mul(f.c(2.0f), a));
  Value large = f.sub(f.c(1.0f), f.div(f.c(2.0f), f.add(e, f.c(1.0f))));
  large = f.select(f.lt(x, f.c(0)), f.neg(large), large);
  return f.select(f.lt(a, f.c(kTanhSmall)), small,
                  f.select(f.isNaN(x), x, large));
}

Value buildSigmoidF32(OpBuilder &b, Location loc, Value x) {
  // exp(x) / (1 + exp(x)) below 0, so that exp never overflows.
  F32 f{b, loc};
  Value negative = f.lt(x, f.c(0));
  Value e = f.exp(f.select(negative, x, f.neg(x)));
  Value s = f.div(f.c(1.0f), f.add(f.c(1.0f), e));
  return f.select(negative, f.mul(e, s), s);
}

Value buildErfcF32(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value a = f.abs(x);
  Value x2 = f.mul(x, x);
  Value fromErf = f.sub(f.c(1.0f), f.mul(x, f.horner(kErfOdd, x2)));
  Value tail = f.erfcNonNegative(a);
  tail = f.select(f.lt(x, f.c(0)), f.sub(f.c(2.0f), tail), tail);
  return f.select(f.lt(a, f.c(kErfSmall)), fromErf,
                  f.select(f.isNaN(x), x, tail));
}

Value buildErfF32(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value a = f.abs(x);
  Value x2 = f.mul(x, x);
  Value small = f.mul(x, f.horner(kErfOdd, x2));
  Value large = f.sub(f.c(1.0f), f.erfcNonNegative(a));
  large = f.select(f.lt(x, f.c(0)), f.neg(large), large);
  return f.select(f.lt(a, f.c(kErfSmall)), small,
                  f.select(f.isNaN(x), x, large));
}

} // namespace tfc
