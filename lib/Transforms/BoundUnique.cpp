//===- BoundUnique.cpp - Unique with a static bound on its size -----------===//
//
// Unique's first output, the distinct values, has a size only the data
// decides. TF1 optimizers use it in one pattern, to add up the rows of a
// sparse gradient that share an index before a nonlinear update:
//
//   y, idx = Unique(indices)
//   sums   = UnsortedSegmentSum(grad, idx, StridedSlice(Shape(y))[0])
//   ...    = ResourceScatterAdd(slot, y, sums * c)        (Adam)
//            ResourceSparseApplyAdagrad(var, accum, lr, sums, y)
//
// tfc gives y the input's length, its bound: the distinct values first,
// then -1 (tfc_cpu_unique). Shape(y) then says the bound, the segment sum
// has zero rows past the distinct values, and the updates that take y as
// indices skip the negative ones (tfc.skip_negative_indices): the same
// updates as TensorFlow's. This pass claims (tfc.pad_negative) the Uniques
// whose y is used so and no other way: as the indices of scatters and
// sparse optimizer updates, and through Shape or Size only for
// num_segments of UnsortedSegmentSum, whose rows may reach only
// elementwise ops and the updates' value operands (what reaches a
// reduction or a reshape would see the padding). Any other Unique is left
// to tfc-bound-dynamic-rows, which follows y as rows whose count only the
// data decides. idx is exact and free to use.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_BOUNDUNIQUEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The users of `value`'s data, seen through Identity nodes.
SmallVector<OpOperand *> dataUses(Value value) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (tfg::isNode(user) && opKindOf(user) == OpKind::Identity)
      llvm::append_range(uses, dataUses(tfg::getDataResults(user)[0]));
    else
      uses.push_back(&use);
  }
  return uses;
}

struct BoundUniquePass : public impl::BoundUniquePassBase<BoundUniquePass> {
  void runOnOperation() override {
    for (Block *body : getBodies(getOperation()))
      for (Operation &node : *body)
        if (tfg::isNode(&node) && opKindOf(&node) == OpKind::Unique)
          bound(&node);
  }

  /// Claims `unique` when its values are used only as the sparse updates
  /// of deduplicated rows use them: its padding becomes -1, which the
  /// updates skip. Other Uniques are left to tfc-bound-dynamic-rows.
  void bound(Operation *unique) {
    llvm::SetVector<Operation *> updates, segmentSums;
    for (OpOperand *use : dataUses(tfg::getDataResults(unique)[0])) {
      Operation *user = use->getOwner();
      OpKind kind = opKindOf(user);
      if (int(use->getOperandNumber()) == scatterIndicesOperand(user)) {
        updates.insert(user);
        continue;
      }
      if ((kind != OpKind::Shape && kind != OpKind::Size) ||
          !countUses(user, segmentSums))
        return;
    }
    if (updates.empty())
      return;
    // The segment sums' rows past the count are zeros, harmless where an
    // update that skips the padding takes them.
    SmallVector<Value> rows;
    for (Operation *sum : segmentSums)
      rows.push_back(tfg::getDataResults(sum)[0]);
    llvm::DenseSet<Value> seen;
    while (!rows.empty()) {
      Value value = rows.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (OpOperand *use : dataUses(value)) {
        Operation *user = use->getOwner();
        if (isElementwise(user)) {
          llvm::append_range(rows, tfg::getDataResults(user));
          continue;
        }
        int indices = scatterIndicesOperand(user);
        if (!updates.contains(user) || use->getOperandNumber() == 0 ||
            int(use->getOperandNumber()) == indices)
          return;
      }
    }
    MLIRContext *context = &getContext();
    unique->setAttr(kPadNegativeAttr, UnitAttr::get(context));
    for (Operation *update : updates)
      update->setAttr(kSkipNegativeIndicesAttr, UnitAttr::get(context));
  }

  /// Whether Shape or Size of the values goes only through StridedSlice
  /// (and Identity) to num_segments of UnsortedSegmentSum.
  bool countUses(Operation *node, llvm::SetVector<Operation *> &segmentSums) {
    for (OpOperand *use : dataUses(tfg::getDataResults(node)[0])) {
      Operation *user = use->getOwner();
      OpKind kind = opKindOf(user);
      if (kind == OpKind::StridedSlice && use->getOperandNumber() == 0) {
        if (!countUses(user, segmentSums))
          return false;
      } else if (kind == OpKind::UnsortedSegmentSum &&
                 use->getOperandNumber() == 2) {
        segmentSums.insert(user);
      } else {
        return false;
      }
    }
    return true;
  }
};

} // namespace
} // namespace tfc
