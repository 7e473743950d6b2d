//===- StridedProducts.cpp - batched products as strided layouts ----------===//

#include "tfc/Transforms/StridedProducts.h"

#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace mlir;

namespace tfc {

namespace {

FailureOr<StridedProduct> batchMatMul(Operation *node, RankedTensorType a,
                                      RankedTensorType b, RankedTensorType c) {
  bool adjX = boolAttr(node, "adj_x"), adjY = boolAttr(node, "adj_y");
  SmallVector<int64_t> sa = rowMajorStrides(a.getShape()),
                       sb = rowMajorStrides(b.getShape()),
                       sc = rowMajorStrides(c.getShape());
  int64_t ra = a.getRank(), rb = b.getRank(), rc = c.getRank();
  StridedProduct p;
  for (int64_t d = 0; d < rc - 2; ++d) {
    p.batch.push_back(c.getDimSize(d));
    // Right-aligned broadcasting: a missing or size-1 dim is stride 0.
    auto strideIn = [&](RankedTensorType t, ArrayRef<int64_t> strides,
                        int64_t rank) -> int64_t {
      int64_t i = d - (rc - 2 - (rank - 2));
      return i >= 0 && t.getDimSize(i) != 1 ? strides[i] : 0;
    };
    p.batchA.push_back(strideIn(a, sa, ra));
    p.batchB.push_back(strideIn(b, sb, rb));
    p.batchC.push_back(sc[d]);
  }
  p.m = c.getDimSize(rc - 2);
  p.n = c.getDimSize(rc - 1);
  p.k = a.getDimSize(adjX ? ra - 2 : ra - 1);
  p.aM = adjX ? sa[ra - 1] : sa[ra - 2];
  p.aK = adjX ? sa[ra - 2] : sa[ra - 1];
  p.bK = adjY ? sb[rb - 1] : sb[rb - 2];
  p.bN = adjY ? sb[rb - 2] : sb[rb - 1];
  p.cM = sc[rc - 2];
  p.cN = sc[rc - 1];
  return p;
}

/// Two-operand Einsum without ellipses or repeated labels: labels in both
/// inputs and the output are batch dims; one label only in A and the
/// output gives the rows, one only in B and the output the columns (others
/// of those kinds become batch dims with stride 0 on the other side); the
/// contracted labels must be adjacent in memory in both operands (one
/// label, or several that act as one).
FailureOr<StridedProduct> einsum(Operation *node, RankedTensorType a,
                                 RankedTensorType b, RankedTensorType c,
                                 std::string &why) {
  auto equationAttr = node->getAttrOfType<StringAttr>("equation");
  StringRef equation = equationAttr ? equationAttr.getValue() : "";
  auto [inputs, out] = equation.split("->");
  auto [la, lb] = inputs.split(',');
  auto unsupported = [&]() -> FailureOr<StridedProduct> {
    why = ("Einsum '" + equation + "' is not supported yet").str();
    return failure();
  };
  if (!equation.contains("->") || equation.contains('.') ||
      int64_t(la.size()) != a.getRank() || int64_t(lb.size()) != b.getRank() ||
      int64_t(out.size()) != c.getRank())
    return unsupported();
  auto stride = [](StringRef labels, ArrayRef<int64_t> strides,
                   char l) -> int64_t {
    size_t i = labels.find(l);
    return i == StringRef::npos ? 0 : strides[i];
  };
  SmallVector<int64_t> sa = rowMajorStrides(a.getShape()),
                       sb = rowMajorStrides(b.getShape()),
                       sc = rowMajorStrides(c.getShape());
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
  StridedProduct p;
  for (auto [i, l] : llvm::enumerate(out)) {
    if (l == mLabel || l == nLabel)
      continue;
    p.batch.push_back(c.getDimSize(i));
    p.batchA.push_back(stride(la, sa, l));
    p.batchB.push_back(stride(lb, sb, l));
    p.batchC.push_back(sc[i]);
  }
  auto size = [&](std::optional<char> l) -> int64_t {
    if (!l)
      return 1;
    size_t i = la.find(*l);
    return i != StringRef::npos ? a.getDimSize(i) : b.getDimSize(lb.find(*l));
  };
  char none = 0;
  p.m = size(mLabel);
  p.n = size(nLabel);
  p.k = kSize;
  p.aM = stride(la, sa, mLabel.value_or(none));
  p.aK = stride(la, sa, kLabel.value_or(none));
  p.bK = stride(lb, sb, kLabel.value_or(none));
  p.bN = stride(lb, sb, nLabel.value_or(none));
  p.cM = stride(out, sc, mLabel.value_or(none));
  p.cN = stride(out, sc, nLabel.value_or(none));
  return p;
}

} // namespace

SmallVector<int64_t> StridedProduct::descriptor() const {
  SmallVector<int64_t> d = {int64_t(batch.size())};
  llvm::append_range(d, batch);
  llvm::append_range(d, batchA);
  llvm::append_range(d, batchB);
  llvm::append_range(d, batchC);
  llvm::append_range(d, SmallVector<int64_t>{m, n, k, aM, aK, bK, bN, cM, cN});
  return d;
}

bool isBatchedProduct(Operation *node) {
  return llvm::is_contained({OpKind::BatchMatMul, OpKind::BatchMatMulV2,
                             OpKind::BatchMatMulV3, OpKind::Einsum},
                            opKindOf(node));
}

FailureOr<StridedProduct> stridedProductOf(Operation *node, std::string &why) {
  if (!isBatchedProduct(node)) {
    why = "not a batched product";
    return failure();
  }
  if (opKindOf(node) == OpKind::Einsum &&
      tfg::getDataOperands(node).size() != 2) {
    why = "code generation supports two-operand Einsum only";
    return failure();
  }
  auto a = dyn_cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
  auto b = dyn_cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
  auto c = dyn_cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  if (!a || !b || !c || !a.hasStaticShape() || !b.hasStaticShape() ||
      !c.hasStaticShape()) {
    why = "the operands' shapes are not static";
    return failure();
  }
  if (!a.getElementType().isF32() || !b.getElementType().isF32()) {
    why = "code generation supports float32 only for now";
    return failure();
  }
  if (opKindOf(node) == OpKind::Einsum)
    return einsum(node, a, b, c, why);
  if (a.getRank() < 2 || b.getRank() < 2 || c.getRank() < 2) {
    why = "a batched product's operands have at least 2 dims";
    return failure();
  }
  return batchMatMul(node, a, b, c);
}

std::optional<DenseLayer> denseLayerOf(Operation *node) {
  if (tfg::getDataOperands(node).size() != 2 ||
      tfg::getDataResults(node).empty())
    return std::nullopt;
  Value weights = valueOutsideGroup(tfg::getDataOperands(node)[1]);
  Operation *weightsNode = weights.getDefiningOp();
  if (!weightsNode || opKindOf(weightsNode) != OpKind::Const)
    return std::nullopt;
  auto a = dyn_cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
  auto c = dyn_cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  if (!a || !c || !a.hasStaticShape() || !c.hasStaticShape() ||
      !a.getElementType().isF32() || !c.getElementType().isF32())
    return std::nullopt;
  if (opKindOf(node) == OpKind::MatMul) {
    auto b = dyn_cast<RankedTensorType>(weights.getType());
    auto flag = [&](StringRef name) {
      auto attr = node->getAttrOfType<BoolAttr>(name);
      return attr && attr.getValue();
    };
    if (flag("transpose_a") || !b || !b.getElementType().isF32() ||
        a.getRank() != 2 || c.getRank() != 2)
      return std::nullopt;
    return DenseLayer{c.getDimSize(0), a.getDimSize(1), c.getDimSize(1),
                      flag("transpose_b")};
  }
  std::string why;
  FailureOr<StridedProduct> p = stridedProductOf(node, why);
  if (failed(p))
    return std::nullopt;
  // B one dense matrix (or its transpose) that every batch reads; A's and
  // C's batches whole row-major matrices one after another.
  bool plainB = p->bN == 1 && p->bK == p->n;
  bool transposedB = p->bK == 1 && p->bN == p->k;
  if (!(plainB || transposedB) || p->aK != 1 || p->aM != p->k || p->cN != 1 ||
      p->cM != p->n)
    return std::nullopt;
  int64_t rows = p->m, stridedA = p->m * p->k, stridedC = p->m * p->n;
  for (int64_t d = int64_t(p->batch.size()) - 1; d >= 0; --d) {
    if (p->batch[d] == 1)
      continue;
    if (p->batchB[d] != 0 || p->batchA[d] != stridedA ||
        p->batchC[d] != stridedC)
      return std::nullopt;
    rows *= p->batch[d];
    stridedA *= p->batch[d];
    stridedC *= p->batch[d];
  }
  return DenseLayer{rows, p->k, p->n, transposedB && !plainB};
}

} // namespace tfc
