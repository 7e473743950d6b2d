//===- VerifyAcyclic.cpp - reject cycles outside TF1 loops ----------------===//
//
// Depth-first search over the edges producer -> consumer of each graph or
// function body, skipping edges that leave a NextIteration node: those are
// the back edges of TF1 loops, the only cycles TensorFlow can execute.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_VERIFYACYCLICPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isBackEdgeSource(Operation *op) {
  return plainOpKindOf(op) == OpKind::NextIteration;
}

/// Finds a cycle among the nodes of `body`; returns it (first node repeated
/// at the end) or an empty list.
SmallVector<Operation *> findCycle(Block &body) {
  enum class State { Unvisited, OnStack, Done };
  llvm::DenseMap<Operation *, State> state;
  // Explicit stack of (node, next user index) so that deep graphs do not
  // overflow the call stack.
  struct Frame {
    Operation *node;
    SmallVector<Operation *> successors;
    size_t next = 0;
  };
  auto successorsOf = [&](Operation *node) {
    SmallVector<Operation *> result;
    if (isBackEdgeSource(node))
      return result;
    for (Operation *user : node->getUsers())
      if (tfg::isNode(user) && user->getBlock() == &body)
        result.push_back(user);
    return result;
  };

  for (Operation &root : body) {
    if (!tfg::isNode(&root) || state[&root] != State::Unvisited)
      continue;
    SmallVector<Frame> stack;
    stack.push_back({&root, successorsOf(&root)});
    state[&root] = State::OnStack;
    while (!stack.empty()) {
      Frame &frame = stack.back();
      if (frame.next == frame.successors.size()) {
        state[frame.node] = State::Done;
        stack.pop_back();
        continue;
      }
      Operation *next = frame.successors[frame.next++];
      State &nextState = state[next];
      if (nextState == State::Done)
        continue;
      if (nextState == State::OnStack) {
        SmallVector<Operation *> cycle;
        auto start = llvm::find_if(
            stack, [&](const Frame &f) { return f.node == next; });
        for (auto it = start; it != stack.end(); ++it)
          cycle.push_back(it->node);
        cycle.push_back(next);
        return cycle;
      }
      nextState = State::OnStack;
      stack.push_back({next, successorsOf(next)});
    }
  }
  return {};
}

struct VerifyAcyclicPass
    : public impl::VerifyAcyclicPassBase<VerifyAcyclicPass> {
  void runOnOperation() override {
    auto check = [&](Block &body) {
      SmallVector<Operation *> cycle = findCycle(body);
      if (cycle.empty())
        return;
      InFlightDiagnostic diag = cycle.front()->emitError(
          "cycle that does not pass through NextIteration: ");
      llvm::interleave(
          cycle, diag,
          [&](Operation *node) { diag << tfg::getNodeName(node); }, " -> ");
      signalPassFailure();
    };
    for (Operation &op : *getOperation().getBody()) {
      if (auto graph = dyn_cast<tfg::GraphOp>(op))
        check(graph.getBody());
      else if (auto func = dyn_cast<tfg::FuncOp>(op))
        check(func.getBody().front());
    }
  }
};

} // namespace
} // namespace tfc
