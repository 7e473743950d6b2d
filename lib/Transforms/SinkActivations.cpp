//===- SinkActivations.cpp - ReLUs of a concatenation onto its pieces -----===//
//
// NASNet ends each cell in a concatenation of its branches and begins the
// next with a ReLU of it: a pass that copies the pieces into one tensor,
// then a second pass over that tensor for the ReLU. A ReLU commutes with
// a concatenation, so this pass moves it onto the pieces: Relu(ConcatV2(a,
// b, ..., axis)) becomes ConcatV2(Relu(a), Relu(b), ..., axis), and the
// same for Relu6. Each piece's ReLU can then join the kernel or loop that
// computes the piece (a convolution's epilogue after its residual add,
// an elementwise group), or be merged by CSE with a ReLU of the same piece
// the graph already has (NASNet's branches read ReLUs of the cell's
// inputs). Where neither happens, the piece's ReLU is one pass over the
// piece, as the ReLU of the whole was over it: no more work than before.
//
// The concatenation is rewritten when every reader of it is a ReLU of one
// kind (CSE has not yet merged the two that NASNet's next two cells
// apply), none of them a root or with control inputs, all on the
// concatenation's device; the concatenation itself is not a root. Nodes
// waiting on the old concatenation or on a ReLU wait on the new
// concatenation, which takes the first ReLU's name. A piece that is
// itself such a concatenation is rewritten in turn.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_SINKACTIVATIONSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isActivation(OpKind kind) {
  return kind == OpKind::Relu || kind == OpKind::Relu6;
}

class ActivationSinker {
public:
  ActivationSinker(Block &body, const llvm::StringSet<> &roots)
      : names(body), roots(roots) {}

  /// The ReLUs that alone read `concat`, all of one kind and movable onto
  /// its pieces (see the file comment), or none.
  SmallVector<Operation *> activationsOf(Operation *concat) {
    if (opKindOf(concat) != OpKind::ConcatV2 || isRoot(concat, roots))
      return {};
    Value joined = tfg::getDataResults(concat)[0];
    SmallVector<Operation *> readers;
    for (Operation *reader : joined.getUsers()) {
      if (!tfg::isNode(reader) || !isActivation(opKindOf(reader)) ||
          (!readers.empty() && opKindOf(reader) != opKindOf(readers[0])) ||
          isRoot(reader, roots) || !tfg::getControlOperands(reader).empty() ||
          !sameDevice(reader, concat))
        return {};
      if (!llvm::is_contained(readers, reader))
        readers.push_back(reader);
    }
    // In the body's order, so that the first ReLU names the result.
    llvm::sort(readers, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    return readers;
  }

  /// Rewrites `concat` read by `activations`; returns the new
  /// concatenation.
  Operation *sink(Operation *concat, ArrayRef<Operation *> activations) {
    Operation *first = activations.front();
    OpBuilder builder(concat);
    ValueRange operands = tfg::getDataOperands(concat);
    // Each piece's ReLU has the first ReLU's attrs (its type, devices) and
    // a name of its own, set last.
    SmallVector<NamedAttribute> pieceAttrs;
    for (NamedAttribute attr : first->getAttrs())
      if (attr.getName() != tfg::kNameAttr)
        pieceAttrs.push_back(attr);
    pieceAttrs.push_back(
        builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr("")));
    SmallVector<Value> pieces;
    // The last operand is the axis.
    for (auto [index, piece] : llvm::enumerate(operands.drop_back())) {
      pieceAttrs.back().setValue(builder.getStringAttr(names.get(
          (tfg::getNodeName(first) + "/" + Twine(index)).str())));
      // Right after the piece's producer, where the step computes the
      // piece: a fusion group goes where its root is, so a ReLU at the
      // concatenation would move the convolution that takes it in there,
      // away from the values it reads (they would leave the cache, and
      // live longer in the memory plan).
      Operation *producer = piece.getDefiningOp();
      if (producer && producer->getBlock() == concat->getBlock())
        builder.setInsertionPointAfter(producer);
      else
        builder.setInsertionPoint(concat);
      Operation *activation =
          tfg::createNode(builder, first->getLoc(), tfg::getOpType(first),
                          piece.getType(), piece, {}, pieceAttrs);
      pieces.push_back(activation->getResult(0));
    }
    pieces.push_back(operands.back());
    builder.setInsertionPoint(concat);
    Operation *joined =
        tfg::createNode(builder, concat->getLoc(), tfg::getOpType(concat),
                        tfg::getDataResults(concat)[0].getType(), pieces,
                        tfg::getControlOperands(concat), concat->getAttrs());
    joined->setAttr(tfg::kNameAttr, first->getAttr(tfg::kNameAttr));
    Value control = tfg::getControlToken(joined);
    for (Operation *activation : activations) {
      tfg::getDataResults(activation)[0].replaceAllUsesWith(
          joined->getResult(0));
      tfg::getControlToken(activation).replaceAllUsesWith(control);
      activation->erase();
    }
    tfg::getControlToken(concat).replaceAllUsesWith(control);
    concat->erase();
    return joined;
  }

private:
  NameUniquer names;
  const llvm::StringSet<> &roots;
};

struct SinkActivationsPass
    : public impl::SinkActivationsPassBase<SinkActivationsPass> {
  PassCounter numSunk{this, "sunk",
                      "concatenations whose ReLU moved onto their pieces"};

  void runOnOperation() override {
    numSunk = 0;
    llvm::StringSet<> roots = getRootNames(getOperation());
    for (Block *body : getBodies(getOperation())) {
      ActivationSinker sinker(*body, roots);
      llvm::SetVector<Operation *> worklist;
      for (Operation &node : *body)
        if (opKindOf(&node) == OpKind::ConcatV2)
          worklist.insert(&node);
      while (!worklist.empty()) {
        Operation *concat = worklist.pop_back_val();
        SmallVector<Operation *> activations = sinker.activationsOf(concat);
        if (activations.empty())
          continue;
        Operation *joined = sinker.sink(concat, activations);
        ++numSunk;
        // A piece that is a concatenation read by its new ReLU alone.
        for (Value piece : tfg::getDataOperands(joined).drop_back())
          if (Operation *activation = piece.getDefiningOp())
            if (Operation *inner =
                    tfg::getDataOperands(activation)[0].getDefiningOp())
              if (tfg::isNode(inner) && opKindOf(inner) == OpKind::ConcatV2)
                worklist.insert(inner);
      }
    }
  }
};

} // namespace
} // namespace tfc
