//===- ScheduleRecvs.cpp - start each _Recv just before it is needed ------===//
//
// White paper §5.2: a _Recv has no inputs, so an executor may start it at
// once and hold the received tensor in memory long before its consumers
// run. The paper's scheduler computes, with the cost model, the as-soon-
// and as-late-as-possible start times of every node of the step (all
// partitions, _Send -> _Recv edges costing the transfer), and adds control
// edges that keep each _Recv from starting much before its ALAP time.
//
// Here: for each _Recv r, the latest-finishing node n of r's own partition
// that (a) finishes, at its ASAP time, no later than r's ALAP start, (b)
// finishes after r's ASAP start (otherwise the edge delays nothing), (c)
// is not a _Recv and does not depend on r, gets the control edge n -> r.
// The edge cannot delay the critical path (r still starts by its ALAP
// time) and cannot close a cycle. Each partition's schedule is then
// re-derived from one global topological order, as tfc-partition does, so
// that the static schedules stay free of deadlock; in that order each
// delayed _Recv comes right after its new predecessor, which is where its
// buffer's lifetime now starts.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Partition.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Placement.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <queue>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_SCHEDULERECVSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The nodes of one entry's partitions as one graph.
struct StepGraph {
  SmallVector<Operation *> nodes;
  llvm::DenseMap<Operation *, unsigned> index;
  /// Producers of each node: its operands' definers and, for a _Recv, its
  /// _Send.
  SmallVector<SmallVector<unsigned>> preds, succs;

  explicit StepGraph(ArrayRef<tfg::GraphOp> partitions) {
    llvm::StringMap<Operation *> sends;
    for (tfg::GraphOp graph : partitions)
      for (Operation &op : graph.getBody()) {
        index[&op] = nodes.size();
        nodes.push_back(&op);
        if (opKindOf(&op) == OpKind::InternalSend)
          sends[rendezvousKey(&op)] = &op;
      }
    preds.resize(nodes.size());
    succs.resize(nodes.size());
    for (auto [i, node] : llvm::enumerate(nodes)) {
      auto link = [&, i = i](Operation *producer) {
        auto it = index.find(producer);
        if (it == index.end())
          return;
        preds[i].push_back(it->second);
        succs[it->second].push_back(i);
      };
      for (Value operand : node->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          if (!(tfg::isNode(producer) &&
                plainOpKindOf(producer) == OpKind::NextIteration))
            link(producer);
      if (opKindOf(node) == OpKind::InternalRecv)
        if (Operation *send = sends.lookup(rendezvousKey(node)))
          link(send);
    }
  }

  /// Kahn's algorithm, ties broken by `priority` (lower first).
  SmallVector<unsigned> order(ArrayRef<unsigned> priority) const {
    SmallVector<unsigned> pending(nodes.size());
    using Entry = std::pair<unsigned, unsigned>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
    for (unsigned i = 0; i < nodes.size(); ++i)
      if ((pending[i] = preds[i].size()) == 0)
        ready.push({priority[i], i});
    SmallVector<unsigned> result;
    while (!ready.empty()) {
      unsigned i = ready.top().second;
      ready.pop();
      result.push_back(i);
      for (unsigned s : succs[i])
        if (--pending[s] == 0)
          ready.push({priority[s], s});
    }
    return result;
  }
};

DeviceName deviceOf(Operation *node) {
  return DeviceName::parse(tfg::getAssignedDevice(node)).value_or(DeviceName());
}

struct ScheduleRecvsPass : public impl::ScheduleRecvsPassBase<ScheduleRecvsPass> {
  PassCounter numDelayed{this, "delayed", "_Recv nodes given a control edge"};

  void runOnOperation() override {
    numDelayed = 0;
    ModuleOp module = getOperation();
    if (module->hasAttr(kNoRecvSchedulingAttr))
      return;
    CostModel costs;
    if (auto file = module->getAttrOfType<StringAttr>(kCostFileAttr)) {
      std::string error;
      if (!costs.load(file.getValue(), error)) {
        module.emitError() << "cost file " << error;
        return signalPassFailure();
      }
    }
    llvm::MapVector<StringRef, SmallVector<tfg::GraphOp>> entries;
    for (auto graph : module.getOps<tfg::GraphOp>())
      if (auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr))
        if (graph->hasAttr(kPartitionDeviceAttr))
          entries[entry.getValue()].push_back(graph);
    for (auto &[entry, partitions] : entries)
      if (partitions.size() > 1 && failed(schedule(partitions, costs)))
        return signalPassFailure();
  }

  LogicalResult schedule(ArrayRef<tfg::GraphOp> partitions, const CostModel &costs) {
    StepGraph graph(partitions);
    unsigned n = graph.nodes.size();
    SmallVector<unsigned> position(n);
    for (unsigned i = 0; i < n; ++i)
      position[i] = i;
    SmallVector<unsigned> topo = graph.order(position);
    if (topo.size() != n)
      return success(); // A cycle (TF1 loop): leave the schedule as it is.

    SmallVector<double> duration(n), asap(n, 0), alap(n);
    for (unsigned i = 0; i < n; ++i)
      duration[i] = costs.computeSeconds(graph.nodes[i], deviceOf(graph.nodes[i]));
    auto delay = [&](unsigned from, unsigned to) {
      Operation *producer = graph.nodes[from];
      if (opKindOf(producer) != OpKind::InternalSend ||
          opKindOf(graph.nodes[to]) != OpKind::InternalRecv)
        return 0.0;
      return costs.transferSeconds(producer->getOperand(0), deviceOf(producer),
                                   deviceOf(graph.nodes[to]));
    };
    double length = 0;
    for (unsigned i : topo) {
      for (unsigned p : graph.preds[i])
        asap[i] = std::max(asap[i], asap[p] + duration[p] + delay(p, i));
      length = std::max(length, asap[i] + duration[i]);
    }
    for (unsigned i : llvm::reverse(topo)) {
      alap[i] = length - duration[i];
      for (unsigned s : graph.succs[i])
        alap[i] = std::min(alap[i], alap[s] - delay(i, s) - duration[i]);
    }

    // A loop's nodes stay as they are: an edge from inside a loop would
    // pull a _Recv into it, and a _Recv in a loop runs every iteration.
    llvm::DenseSet<Operation *> inLoops;
    for (tfg::GraphOp partition : partitions) {
      ScopedDiagnosticHandler quiet(partition.getContext(),
                                    [](Diagnostic &) { return success(); });
      FailureOr<std::unique_ptr<FrameInfo>> frames =
          FrameInfo::analyze(partition.getBody());
      if (failed(frames))
        return success(); // tfc-raise-frames reports it.
      for (const std::unique_ptr<Frame> &frame : (*frames)->getFrames())
        inLoops.insert(frame->allNodes.begin(), frame->allNodes.end());
    }

    const double epsilon = 1e-12;
    bool changed = false;
    for (unsigned r = 0; r < n; ++r) {
      Operation *recv = graph.nodes[r];
      if (opKindOf(recv) != OpKind::InternalRecv || inLoops.contains(recv))
        continue;
      // What depends on r may not become its predecessor.
      llvm::BitVector below(n);
      SmallVector<unsigned> stack = {r};
      while (!stack.empty()) {
        unsigned i = stack.pop_back_val();
        for (unsigned s : graph.succs[i])
          if (!below.test(s)) {
            below.set(s);
            stack.push_back(s);
          }
      }
      int best = -1;
      double bestFinish = asap[r] + epsilon;
      for (Operation &op : recv->getBlock()->getOperations()) {
        unsigned i = graph.index.lookup(&op);
        double finish = asap[i] + duration[i];
        if (i == r || below.test(i) || opKindOf(&op) == OpKind::InternalRecv ||
            inLoops.contains(&op) ||
            finish > alap[r] + epsilon || finish < bestFinish)
          continue;
        best = i;
        bestFinish = finish;
      }
      if (best < 0)
        continue;
      recv->insertOperands(recv->getNumOperands(),
                           tfg::getControlToken(graph.nodes[best]));
      // Later receives must see this edge: two edges that are each
      // acyclic alone can close a cycle together.
      graph.preds[r].push_back(best);
      graph.succs[best].push_back(r);
      ++numDelayed;
      changed = true;
    }
    if (!changed)
      return success();
    // New schedules: one global topological order, each partition's nodes
    // in it, ties kept in their old order.
    StepGraph updated(partitions);
    SmallVector<unsigned> schedule = updated.order(position);
    if (schedule.size() != n)
      return tfg::GraphOp(partitions.front()).emitError(
          "internal error: recv scheduling closed a cycle");
    for (unsigned i : schedule) {
      Operation *node = updated.nodes[i];
      node->moveBefore(node->getBlock(), node->getBlock()->end());
    }
    return success();
  }
};

} // namespace
} // namespace tfc
