//===- EmitContractions.cpp - MatMul, BatchMatMul, Einsum -------------------===//
//
// Matrix products as calls of the runtime's GEMM kernels: MatMul with its
// transposes, and BatchMatMul and Einsum as one strided batched product
// whose layout is a constant descriptor.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

namespace {

/// MatMul: the matmul_f32 kernel, with its transposes.
class MatMulPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OperandRange inputs = tfg::getDataOperands(node);
    auto a = cast<RankedTensorType>(inputs[0].getType());
    auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    if (!a.getElementType().isF32())
      return step.error(node)
             << "code generation supports float32 MatMul only for now";
    bool ta = boolAttr(node, "transpose_a"), tb = boolAttr(node, "transpose_b");
    int64_t m = c.getDimSize(0), n = c.getDimSize(1);
    int64_t k = a.getDimSize(ta ? 0 : 1);
    Value pa = step.pointerTo(step.memrefFor(inputs[0]));
    Value pb = step.pointerTo(step.memrefFor(inputs[1]));
    Value out = step.memrefFor(tfg::getDataResults(node)[0]);
    if (!out)
      return step.error(node) << "output has no buffer";
    Value pc = step.pointerTo(out);
    Location loc = node->getLoc();
    auto i64 = [&](int64_t v) {
      return step.builder.create<arith::ConstantIntOp>(loc, v, 64);
    };
    auto i32 = [&](int64_t v) {
      return step.builder.create<arith::ConstantIntOp>(loc, v, 32);
    };
    SmallVector<Value> args = {step.runtime, pa, pb, pc, i64(m), i64(k),
                               i64(n), i32(ta), i32(tb)};
    func::FuncOp callee =
        step.kernel(step.kernelName("matmul_f32"), ValueRange(args).getTypes());
    step.builder.create<func::CallOp>(loc, callee, args);
    return success();
  }
};

/// A call of the strided_matmul_f32 kernel with its descriptor as a
/// global.
LogicalResult emitStridedMatMul(StepEmitter &step, Operation *node,
                                ArrayRef<int64_t> descriptor) {
  Location loc = node->getLoc();
  FailureOr<Value> out = step.outputFor(node);
  if (failed(out))
    return failure();
  Value table = step.constantTable(loc, descriptor);
  OperandRange inputs = tfg::getDataOperands(node);
  step.callKernel(loc, step.kernelName("strided_matmul_f32"),
                  {step.pointerTo(step.memrefFor(inputs[0])),
                   step.pointerTo(step.memrefFor(inputs[1])),
                   step.pointerTo(*out), step.pointerTo(table)},
                  {});
  return success();
}

/// BatchMatMul(V2/V3): batch dims broadcast (stride 0), adjoints as swapped
/// strides.
class BatchMatMulPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    auto a = cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
    auto b = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
    auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    if (!a.getElementType().isF32() || !b.getElementType().isF32())
      return step.error(node)
             << "code generation supports float32 only for now";
    bool adjX = boolAttr(node, "adj_x"), adjY = boolAttr(node, "adj_y");
    SmallVector<int64_t> sa = stridesOf(a.getShape()),
                         sb = stridesOf(b.getShape()),
                         sc = stridesOf(c.getShape());
    int64_t ra = a.getRank(), rb = b.getRank(), rc = c.getRank();
    SmallVector<int64_t> batch, batchA, batchB, batchC;
    for (int64_t d = 0; d < rc - 2; ++d) {
      batch.push_back(c.getDimSize(d));
      auto strideIn = [&](RankedTensorType t, ArrayRef<int64_t> strides,
                          int64_t rank) -> int64_t {
        int64_t i = d - (rc - 2 - (rank - 2));
        return i >= 0 && t.getDimSize(i) != 1 ? strides[i] : 0;
      };
      batchA.push_back(strideIn(a, sa, ra));
      batchB.push_back(strideIn(b, sb, rb));
      batchC.push_back(sc[d]);
    }
    int64_t m = c.getDimSize(rc - 2), n = c.getDimSize(rc - 1);
    int64_t k = a.getDimSize(adjX ? ra - 2 : ra - 1);
    SmallVector<int64_t> desc = {int64_t(batch.size())};
    llvm::append_range(desc, batch);
    llvm::append_range(desc, batchA);
    llvm::append_range(desc, batchB);
    llvm::append_range(desc, batchC);
    llvm::append_range(desc, SmallVector<int64_t>{
        m, n, k,
        adjX ? sa[ra - 1] : sa[ra - 2], adjX ? sa[ra - 2] : sa[ra - 1],
        adjY ? sb[rb - 1] : sb[rb - 2], adjY ? sb[rb - 2] : sb[rb - 1],
        sc[rc - 2], sc[rc - 1]});
    return emitStridedMatMul(step, node, desc);
  }
};

/// Two-operand Einsum without ellipses or repeated labels: labels in both
/// inputs and the output are batch dims; one label only in A and the
/// output gives the rows, one only in B and the output the columns (others
/// of those kinds become batch dims with stride 0 on the other side); the
/// contracted labels must be adjacent in memory in both operands (one
/// label, or several that act as one).
class EinsumPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    if (tfg::getDataOperands(node).size() != 2)
      return step.error(node)
             << "code generation supports two-operand Einsum only";
    auto a = cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
    auto b = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
    auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    if (!a.getElementType().isF32())
      return step.error(node)
             << "code generation supports float32 only for now";
    StringRef equation = node->getAttrOfType<StringAttr>("equation").getValue();
    auto [inputs, out] = equation.split("->");
    auto [la, lb] = inputs.split(',');
    auto unsupported = [&] {
      return step.error(node)
             << "Einsum '" << equation << "' is not supported yet";
    };
    if (!equation.contains("->") || equation.contains('.') ||
        int64_t(la.size()) != a.getRank() ||
        int64_t(lb.size()) != b.getRank() || int64_t(out.size()) != c.getRank())
      return unsupported();
    auto stride = [](StringRef labels, ArrayRef<int64_t> strides,
                     char l) -> int64_t {
      size_t i = labels.find(l);
      return i == StringRef::npos ? 0 : strides[i];
    };
    SmallVector<int64_t> sa = stridesOf(a.getShape()),
                         sb = stridesOf(b.getShape()),
                         sc = stridesOf(c.getShape());
    for (StringRef labels : {la, lb, out})
      for (char l : labels)
        if (labels.count(l) != 1)
          return unsupported(); // Repeated labels (diagonals, traces).
    std::optional<char> kLabel, mLabel, nLabel;
    // Contracted labels: several act as one (Keras' attention output
    // 'abcd,cde->abe' sums over heads and their width) when they are
    // adjacent in memory, in the same order, in both operands.
    std::string summed;
    for (char l : la)
      if (lb.contains(l) && !out.contains(l))
        summed.push_back(l);
    int64_t kSize = 1;
    for (size_t i = 0; i < summed.size(); ++i) {
      size_t ia = la.find(summed[i]), ib = lb.find(summed[i]);
      kSize *= a.getDimSize(ia);
      if (i + 1 == summed.size())
        break;
      size_t na = la.find(summed[i + 1]), nb = lb.find(summed[i + 1]);
      if (nb < ib || sa[ia] != sa[na] * a.getDimSize(na) ||
          sb[ib] != sb[nb] * b.getDimSize(nb))
        return unsupported();
    }
    if (!summed.empty())
      kLabel = summed.back();
    for (char l : la)
      if (!lb.contains(l) && !out.contains(l))
        return unsupported(); // Summed over one operand only.
    for (char l : lb)
      if (!la.contains(l) && !out.contains(l))
        return unsupported();
    // Rows and columns: the last A-only and B-only labels of the output.
    for (char l : out) {
      if (la.contains(l) && !lb.contains(l))
        mLabel = l;
      if (lb.contains(l) && !la.contains(l))
        nLabel = l;
    }
    SmallVector<int64_t> batch, batchA, batchB, batchC;
    for (auto [i, l] : llvm::enumerate(out)) {
      if (l == mLabel || l == nLabel)
        continue;
      batch.push_back(c.getDimSize(i));
      batchA.push_back(stride(la, sa, l));
      batchB.push_back(stride(lb, sb, l));
      batchC.push_back(sc[i]);
    }
    auto size = [&](std::optional<char> l) -> int64_t {
      if (!l)
        return 1;
      size_t i = la.find(*l);
      return i != StringRef::npos ? a.getDimSize(i) : b.getDimSize(lb.find(*l));
    };
    SmallVector<int64_t> desc = {int64_t(batch.size())};
    llvm::append_range(desc, batch);
    llvm::append_range(desc, batchA);
    llvm::append_range(desc, batchB);
    llvm::append_range(desc, batchC);
    char none = 0;
    llvm::append_range(
        desc, SmallVector<int64_t>{size(mLabel), size(nLabel), kSize,
                                   stride(la, sa, mLabel.value_or(none)),
                                   stride(la, sa, kLabel.value_or(none)),
                                   stride(lb, sb, kLabel.value_or(none)),
                                   stride(lb, sb, nLabel.value_or(none)),
                                   stride(out, sc, mLabel.value_or(none)),
                                   stride(out, sc, nLabel.value_or(none))});
    return emitStridedMatMul(step, node, desc);
  }
};

} // namespace

void populateContractionPatterns(CodegenPatterns &patterns) {
  patterns.add<MatMulPattern>("MatMul");
  patterns.add<BatchMatMulPattern>("BatchMatMul");
  patterns.add<EinsumPattern>("Einsum");
}

} // namespace tfc
