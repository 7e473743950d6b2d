//===- RaiseFrames.cpp - TF1 while loops laid out as loops ----------------===//
//
// See Frames.h for the pattern and the order; this pass checks every
// entry's frames, moves the nodes into that order (a topological order, so
// every later pass's schedule keeps it) and names each node's frame.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_RAISEFRAMESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

struct RaiseFramesPass : public impl::RaiseFramesPassBase<RaiseFramesPass> {
  void runOnOperation() override {
    for (auto graph : getOperation().getOps<tfg::GraphOp>()) {
      if (!graph->hasAttr(kEntryAttr))
        continue;
      Block &body = graph.getBody();
      FailureOr<std::unique_ptr<FrameInfo>> frames = FrameInfo::analyze(body);
      if (failed(frames))
        return signalPassFailure();
      if (!(*frames)->hasFrames())
        continue;
      Builder builder(&getContext());
      Operation *end = body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>()
                           ? nullptr
                           : &body.back();
      for (Operation *node : (*frames)->flatten()) {
        if (end)
          node->moveBefore(end);
        else
          node->moveBefore(&body, body.end());
        if (Frame *frame = (*frames)->frameOf(node))
          node->setAttr(kFrameAttr, builder.getStringAttr(frame->path()));
      }
    }
  }
};

} // namespace
} // namespace tfc
