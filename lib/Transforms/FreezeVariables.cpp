//===- FreezeVariables.cpp - a SavedModel's variables as constants --------===//
//
// An inference compile of a SavedModel (`tfc compile saved_model/`
// without --init) bakes the variables' values into the program, as
// tfcompile and TensorFlow's freezing do: setCompileInterface names the
// saver's restore op as the init entry and marks the module with the
// checkpoint prefix (tfc.freeze_variables). After inlining, the init entry
// says which checkpoint tensor each variable gets: AssignVariableOp (or
// Assign, for TF1 reference variables) of a RestoreV2 output whose
// tensor_names entry is a constant. This pass reads those tensors from the
// checkpoint (CheckpointReader: checksums verified) and replaces every read
// of a variable the step only reads (ReadVariableOp of its handle; Identity
// of a reference variable) by a Const of its value. When every variable of
// the step is frozen, the init entry has nothing left to do and goes.
// A variable the step writes stays (and is a code generation error for
// now), as does its init entry.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FREEZEVARIABLESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

Value skipIdentities(Value value) {
  while (Operation *producer = value.getDefiningOp()) {
    if (!tfg::isNode(producer) || tfg::getOpType(producer) != "Identity")
      break;
    value = tfg::getDataOperands(producer)[0];
  }
  return value;
}

tfg::GraphOp entry(ModuleOp module, StringRef name) {
  for (auto graph : module.getOps<tfg::GraphOp>())
    if (auto attr = graph->getAttrOfType<StringAttr>(kEntryAttr))
      if (attr.getValue() == name)
        return graph;
  return {};
}

struct FreezeVariablesPass
    : public impl::FreezeVariablesPassBase<FreezeVariablesPass> {
  PassCounter numFrozen{this, "frozen", "variable reads replaced by constants"};

  void runOnOperation() override {
    numFrozen = 0;
    ModuleOp module = getOperation();
    auto prefix = module->getAttrOfType<StringAttr>(kFreezeVariablesAttr);
    if (!prefix)
      return;
    module->removeAttr(kFreezeVariablesAttr);
    tfg::GraphOp init = entry(module, "init"), step = entry(module, "step");
    if (!init || !step)
      return;

    // The checkpoint tensor of each restored variable.
    llvm::StringMap<std::string> keys;
    for (Operation &op : init.getBody()) {
      StringRef type = tfg::isNode(&op) ? tfg::getOpType(&op) : "";
      if (type != "AssignVariableOp" && type != "Assign")
        continue;
      Operation *target = tfg::getDataOperands(&op)[0].getDefiningOp();
      Value value = skipIdentities(tfg::getDataOperands(&op)[1]);
      Operation *restore = value.getDefiningOp();
      if (!target || !tfg::isNode(target) || !isVariableNode(target) || !restore ||
          !tfg::isNode(restore) || tfg::getOpType(restore) != "RestoreV2")
        continue;
      Operation *names = tfg::getDataOperands(restore)[1].getDefiningOp();
      Operation *slices = tfg::getDataOperands(restore)[2].getDefiningOp();
      auto namesValue = names ? names->getAttrOfType<DenseStringElementsAttr>("value")
                              : DenseStringElementsAttr();
      auto slicesValue = slices ? slices->getAttrOfType<DenseStringElementsAttr>("value")
                                : DenseStringElementsAttr();
      unsigned index = cast<OpResult>(value).getResultNumber();
      if (!namesValue || !slicesValue ||
          index >= namesValue.getRawStringData().size())
        continue;
      // A partitioned variable restores slices: not frozen.
      if (!slicesValue.getRawStringData()[slicesValue.isSplat() ? 0 : index].empty())
        continue;
      keys[variableId(target)] = namesValue.getRawStringData()[index].str();
    }

    rt::CheckpointReader reader;
    std::string error;
    if (!keys.empty() && !reader.open(prefix.getValue().str(), error)) {
      module.emitError() << error;
      return signalPassFailure();
    }
    bool allFrozen = true;
    OpBuilder b(&getContext());
    SmallVector<Operation *> variables;
    for (Operation &op : step.getBody())
      if (isVariableNode(&op))
        variables.push_back(&op);
    for (Operation *variable : variables) {
      Operation &op = *variable;
      auto key = keys.find(variableId(&op));
      bool resource = tfg::getOpType(&op) == "VarHandleOp";
      // Frozen only when the step just reads it.
      bool readOnly = llvm::all_of(op.getUsers(), [&](Operation *user) {
        return tfg::isNode(user) &&
               tfg::getOpType(user) == (resource ? "ReadVariableOp" : "Identity") &&
               tfg::getControlOperands(user).empty();
      });
      if (key == keys.end() || !readOnly) {
        allFrozen = false;
        continue;
      }
      const rt::CheckpointEntry *checkpointEntry = nullptr;
      auto found = reader.entries().find(key->second);
      if (found != reader.entries().end())
        checkpointEntry = &found->second;
      auto dtype = op.getAttrOfType<TypeAttr>("dtype");
      if (!checkpointEntry || !dtype ||
          checkpointEntry->dtype != tfg::typeToDataType(dtype.getValue())) {
        op.emitError() << "variable '" << tfg::getNodeName(&op) << "': checkpoint "
                       << prefix.getValue() << " has no tensor '" << key->second
                       << "' of its dtype";
        return signalPassFailure();
      }
      std::vector<uint8_t> bytes;
      if (!reader.read(key->second, bytes, error)) {
        op.emitError() << error;
        return signalPassFailure();
      }
      auto type = RankedTensorType::get(checkpointEntry->shape, dtype.getValue());
      DenseElementsAttr value =
          type.getElementType().isInteger(1)
              ? DenseElementsAttr::get(
                    type, SmallVector<bool>(bytes.begin(), bytes.end()))
              : DenseElementsAttr::getFromRawBuffer(
                    type, ArrayRef<char>(reinterpret_cast<const char *>(bytes.data()),
                                         bytes.size()));
      for (Operation *read : llvm::to_vector(op.getUsers())) {
        b.setInsertionPoint(read);
        SmallVector<NamedAttribute> attrs = {
            b.getNamedAttr(tfg::kNameAttr, read->getAttr(tfg::kNameAttr)),
            b.getNamedAttr("dtype", dtype), b.getNamedAttr("value", value)};
        if (!tfg::getRequestedDevice(read).empty())
          attrs.push_back(b.getNamedAttr(
              tfg::kDeviceAttr, b.getStringAttr(tfg::getRequestedDevice(read))));
        Operation *constant =
            tfg::createNode(b, read->getLoc(), "Const", type, {}, {}, attrs);
        tfg::getDataResults(read)[0].replaceAllUsesWith(constant->getResult(0));
        tfg::getControlToken(read).replaceAllUsesWith(tfg::getControlToken(constant));
        read->erase();
        ++numFrozen;
      }
      if (op.use_empty())
        op.erase();
    }
    if (allFrozen) {
      init.erase();
      module->removeAttr(kInitAttr);
    }
  }
};

} // namespace
} // namespace tfc
