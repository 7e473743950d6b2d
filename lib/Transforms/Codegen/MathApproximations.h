//===- MathApproximations.h - float32 exp, tanh, erf, erfc as arithmetic -*- C++ -*-===//
//
// Builds float32 exp, tanh, sigmoid, erf and erfc from arith ops and
// selects (the method and polynomials of include/tfc/Support/
// MathPolynomials.h), for the element bodies of generated loops: a C
// library call per element would keep the loop scalar, while these
// vectorize. Accuracy against the C library, in ulps, is measured by
// test/e2e/math-accuracy.test and stated in docs/Codegen.md.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_CODEGEN_MATHAPPROXIMATIONS_H
#define TFC_TRANSFORMS_CODEGEN_MATHAPPROXIMATIONS_H

#include "mlir/IR/Builders.h"

namespace tfc {

/// Each takes and returns a scalar f32; NaN gives NaN, and infinities the
/// function's limits.
mlir::Value buildExpF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value buildTanhF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value buildSigmoidF32(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x);
mlir::Value buildErfF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value buildErfcF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);

} // namespace tfc

#endif // TFC_TRANSFORMS_CODEGEN_MATHAPPROXIMATIONS_H
