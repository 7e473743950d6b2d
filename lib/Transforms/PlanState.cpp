//===- PlanState.cpp - the state that persists across steps ---------------===//
//
// The arena (tfc-plan-memory) holds what lives within a step; the state
// area holds what outlives it: the value of every variable, a byte per
// variable saying whether it has been initialized (assigned or restored),
// and the position of each random op's generator. The program allocates
// it zeroed once; checkpoints save and restore the variables in it.
//
// Layout: variables in order of first appearance (step partitions, then
// the init entry), each 64-byte aligned; then the flag bytes; then 16
// bytes per random op. A variable is one per identity (Variables.h), so
// the init entry's Assign and the step's reads meet in one buffer.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PLANSTATEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

constexpr int64_t kAlignment = 64;
/// A random op's generator: the seeds it started from and the number of
/// 128-bit samples it has used (runtime/kernels: tfc_cpu_random).
constexpr int64_t kGeneratorBytes = 32;

bool isRandomOp(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::RandomUniform ||
         kind == OpKind::RandomStandardNormal ||
         kind == OpKind::TruncatedNormal || kind == OpKind::RandomUniformInt ||
         kind == OpKind::RandomShuffle;
}

/// The tensor type a variable node declares (dtype and shape attrs); null
/// when either is missing or the shape is not static.
RankedTensorType declaredType(Operation *node) {
  auto dtype = node->getAttrOfType<TypeAttr>("dtype");
  auto shape = node->getAttrOfType<tfg::ShapeAttr>("shape");
  if (!dtype || !shape || !shape.hasRank() ||
      llvm::any_of(shape.getDims(), [](int64_t d) { return d < 0; }))
    return {};
  return RankedTensorType::get(shape.getDims(), dtype.getValue());
}

struct Variable {
  std::string key;
  RankedTensorType type;
  Operation *first;
  int64_t offset = 0, flag = 0;
};

struct PlanStatePass : public impl::PlanStatePassBase<PlanStatePass> {
  PassCounter numVariables{this, "variables", "variables in the state"};
  PassCounter stateBytes{this, "state-bytes", "bytes of the state area"};

  void runOnOperation() override {
    numVariables = 0;
    stateBytes = 0;
    ModuleOp module = getOperation();
    // Step partitions first, then the once-run entries', then the queue
    // runners'.
    SmallVector<tfg::GraphOp> entries;
    for (StringRef kind : {"step", "init", "local_init", "chief_init", "runner"})
      for (auto graph : module.getOps<tfg::GraphOp>())
        if (auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr))
          if (kind == "runner" ? !runnerEntryNode(graph).empty()
                               : entry.getValue() == kind)
            entries.push_back(graph);

    // Variables in order of first appearance, and their index by identity.
    SmallVector<std::pair<std::string, Variable>> variables;
    llvm::StringMap<unsigned> indexOf;
    SmallVector<Operation *> randomOps;
    for (tfg::GraphOp graph : entries) {
      for (Operation &node : graph.getBody()) {
        if (isRandomOp(&node))
          randomOps.push_back(&node);
        if (!isVariableNode(&node))
          continue;
        RankedTensorType type = declaredType(&node);
        if (!type || !type.getElementType().isIntOrFloat()) {
          node.emitError() << "variable '" << tfg::getNodeName(&node)
                           << "': its dtype and shape must be static and "
                              "numeric to compile";
          return signalPassFailure();
        }
        std::string id = variableId(&node);
        auto [index, inserted] = indexOf.try_emplace(id, variables.size());
        if (inserted)
          variables.push_back({id, Variable{checkpointKey(&node), type, &node}});
        auto *it = &variables[index->second];
        if (!inserted && it->second.type != type) {
          node.emitError() << "variable '" << it->first << "': node '"
                           << tfg::getNodeName(&node) << "' declares it as "
                           << type << " but node '"
                           << tfg::getNodeName(it->second.first) << "' as "
                           << it->second.type;
          return signalPassFailure();
        }
      }
    }

    int64_t size = 0;
    for (auto &[id, variable] : variables) {
      variable.offset = size;
      size = llvm::alignTo(size + tensorBytes(variable.type), kAlignment);
    }
    for (auto &[id, variable] : variables)
      variable.flag = size++;
    size = llvm::alignTo(size, 8);
    Builder b(&getContext());
    for (Operation *node : randomOps) {
      node->setAttr(kStateOffsetAttr, b.getI64IntegerAttr(size));
      size += kGeneratorBytes;
    }
    size = llvm::alignTo(size, kAlignment);

    for (tfg::GraphOp graph : entries)
      for (Operation &node : graph.getBody())
        if (isVariableNode(&node)) {
          const Variable &variable =
              variables[indexOf.lookup(variableId(&node))].second;
          node.setAttr(kStateOffsetAttr, b.getI64IntegerAttr(variable.offset));
          node.setAttr(kFlagOffsetAttr, b.getI64IntegerAttr(variable.flag));
        }
    SmallVector<Attribute> table;
    for (auto &[id, variable] : variables) {
      // A part of a partitioned variable saves as its slice of the full
      // variable's key.
      Operation *node = variable.first;
      auto sliceOf = node->getAttrOfType<StringAttr>(kSliceOfAttr);
      auto slice = node->getAttrOfType<StringAttr>(kCheckpointSliceAttr);
      SmallVector<NamedAttribute> entry = {
          b.getNamedAttr("name", b.getStringAttr(id)),
          b.getNamedAttr("key", sliceOf && slice ? sliceOf
                                                 : b.getStringAttr(variable.key)),
          b.getNamedAttr("type", TypeAttr::get(variable.type)),
          b.getNamedAttr("offset", b.getI64IntegerAttr(variable.offset)),
          b.getNamedAttr("flag", b.getI64IntegerAttr(variable.flag))};
      if (sliceOf && slice)
        entry.push_back(b.getNamedAttr("slice", slice));
      table.push_back(b.getDictionaryAttr(entry));
    }
    module->setAttr(kVariablesAttr, b.getArrayAttr(table));
    module->setAttr(kStateBytesAttr, b.getI64IntegerAttr(size));
    numVariables = variables.size();
    stateBytes = size;
  }
};

} // namespace
} // namespace tfc
