//===- FoldConstants.cpp - fold what shape inference computes -------------===//
//
// Shape inference knows the values of the small integer tensors graphs use
// to compute shapes: Shape, Size and Rank of static shapes, and the
// StridedSlice/Pack/ConcatV2/arithmetic built on them (Keras' reshapes,
// BroadcastGradientArgs in gradients). This pass replaces those nodes by
// Const nodes, so that later stages see literal shapes and the shape
// computations disappear.
//
// A single-output node is replaced by a Const of the same name, which takes
// over its control users; other outputs get Consts of their own and the
// node goes once unused. Inside TF1 conds and loops a tensor may be dead or
// belong to an iteration: there the Const keeps control edges from the
// node's inputs (and its control inputs), as TensorFlow's constant folding
// does, so that it runs exactly when the node would have.
//
// Numeric subgraphs of constants are folded once code generation exists,
// with its kernels, so that folded and run values are bit-identical.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Nodes downstream of a Switch or Enter, up to the Merge or Exit that
/// ends the branch or loop: their tensors may be dead or per-iteration.
llvm::DenseSet<Operation *> nodesInControlFlow(Block &body) {
  llvm::DenseSet<Operation *> inside;
  SmallVector<Operation *> worklist;
  for (Operation &op : body) {
    StringRef type = tfg::isNode(&op) ? tfg::getOpType(&op) : "";
    if (type.ends_with("Switch") || type.ends_with("Enter"))
      for (Operation *user : op.getUsers())
        worklist.push_back(user);
  }
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!tfg::isNode(node) || !inside.insert(node).second)
      continue;
    StringRef type = tfg::getOpType(node);
    if (type.ends_with("Merge") || type.ends_with("Exit"))
      continue;
    for (Operation *user : node->getUsers())
      worklist.push_back(user);
  }
  return inside;
}

/// A Const node holding `values` with the type of `result`.
Operation *makeConst(OpBuilder &builder, Value result,
                     ArrayRef<int64_t> values, StringRef name,
                     ValueRange control, StringRef device) {
  auto type = cast<RankedTensorType>(result.getType());
  auto element = cast<IntegerType>(type.getElementType());
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(element.getWidth(), v, /*isSigned=*/true));
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(name)),
      builder.getNamedAttr("dtype", TypeAttr::get(element)),
      builder.getNamedAttr("value", DenseElementsAttr::get(type, ints))};
  if (!device.empty())
    attrs.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                         builder.getStringAttr(device)));
  return tfg::createNode(builder, result.getDefiningOp()->getLoc(), "Const",
                         type, {}, control, attrs);
}

struct FoldConstantsPass
    : public impl::FoldConstantsPassBase<FoldConstantsPass> {
  PassCounter numFolded{this, "folded", "outputs replaced by constants"};
  void runOnOperation() override {
    numFolded = 0; // Reported even when nothing happens.
    for (Block *body : getBodies(getOperation())) {
      KnownValues values;
      unsigned refined = 0;
      if (failed(inferShapes(*body, refined, &values)))
        return signalPassFailure();
      llvm::DenseSet<Operation *> inControlFlow = nodesInControlFlow(*body);
      NameUniquer names(*body);
      OpBuilder builder(&getContext());

      SmallVector<Operation *> nodes;
      for (Operation &op : *body)
        if (tfg::isNode(&op) && tfg::getOpType(&op) != "Const" &&
            !isStateful(&op))
          nodes.push_back(&op);
      for (Operation *node : nodes) {
        // The outputs whose values are known, with static integer types.
        SmallVector<Value> folded;
        for (Value result : tfg::getDataResults(node)) {
          auto type = dyn_cast<RankedTensorType>(result.getType());
          if (type && type.hasStaticShape() &&
              isa<IntegerType>(type.getElementType()) &&
              !type.getElementType().isInteger(1) && values.count(result) &&
              !result.use_empty())
            folded.push_back(result);
        }
        if (folded.empty())
          continue;
        llvm::SetVector<Value> control;
        if (inControlFlow.contains(node)) {
          for (Value input : tfg::getDataOperands(node))
            if (Operation *producer = input.getDefiningOp())
              control.insert(tfg::getControlToken(producer));
          for (Value token : tfg::getControlOperands(node))
            control.insert(token);
        }
        builder.setInsertionPoint(node);
        bool whole = tfg::getDataResults(node).size() == 1;
        for (Value result : folded) {
          unsigned port = cast<OpResult>(result).getResultNumber();
          std::string name =
              whole ? tfg::getNodeName(node).str()
                    : names.get((tfg::getNodeName(node) + "/_folded_" +
                                 Twine(port))
                                    .str());
          Operation *constant =
              makeConst(builder, result, values[result], name,
                        control.getArrayRef(), tfg::getRequestedDevice(node));
          result.replaceAllUsesWith(constant->getResult(0));
          // The Const of a single-output node takes its place entirely.
          if (whole) {
            tfg::getControlToken(node).replaceAllUsesWith(
                tfg::getControlToken(constant));
            node->erase();
          }
          ++numFolded;
        }
      }
    }
  }
};

} // namespace
} // namespace tfc
