//===- FreezeVariables.cpp - a SavedModel's variables from its checkpoint -===//
//
// A compile of a SavedModel without --init takes the variables' values
// from the SavedModel's variables/ checkpoint: setCompileInterface names
// the saver's restore op as the init entry and marks the module with the
// checkpoint prefix (tfc.freeze_variables). After inlining, the init entry
// says which checkpoint tensor each variable gets: AssignVariableOp (or
// Assign, for TF1 reference variables) of a RestoreV2 output whose
// tensor_names entry is a constant. This pass reads those tensors from the
// checkpoint (CheckpointReader: checksums verified), and then:
//
//  * for inference, a step that only reads its variables (ReadVariableOp of
//    a handle; Identity of a reference variable), bakes them into the
//    program as tfcompile and TensorFlow's freezing do: every read becomes
//    a Const of the value, and the init entry goes;
//  * for training, a step that writes a variable (a train step exported as
//    a signature), keeps every variable in the state area and gives the
//    init entry the values as constants in place of the RestoreV2 outputs,
//    so the program starts from the SavedModel's values, in one file that
//    needs no SavedModel beside it. Each variable node is marked with the
//    key it has in the checkpoint (tfc.checkpoint_key), so the program's
//    checkpoints use TensorFlow's keys: a TF2 object-graph key like
//    "model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE". The checkpoint's
//    object graph goes on the module (tfc.checkpoint_object_graph) for the
//    program to save with its own checkpoints, which tf.train.Checkpoint
//    then restores.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FREEZEVARIABLESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

tfg::GraphOp entry(ModuleOp module, StringRef name) {
  for (auto graph : module.getOps<tfg::GraphOp>())
    if (auto attr = graph->getAttrOfType<StringAttr>(kEntryAttr))
      if (attr.getValue() == name)
        return graph;
  return {};
}

/// The value of checkpoint tensor `key` for variable node `variable`, as
/// an attribute; an error on the node if the checkpoint lacks it or has it
/// with another dtype.
FailureOr<DenseElementsAttr> readValue(const rt::CheckpointReader &reader,
                                       StringRef prefix, Operation *variable,
                                       const std::string &key) {
  auto found = reader.entries().find(key);
  auto dtype = variable->getAttrOfType<TypeAttr>("dtype");
  if (found == reader.entries().end() || !dtype ||
      found->second.dtype != tfg::typeToDataType(dtype.getValue()))
    return variable->emitError()
           << "variable '" << tfg::getNodeName(variable) << "': checkpoint "
           << prefix << " has no tensor '" << key << "' of its dtype";
  // A part of a partitioned variable: its slice of the full tensor.
  std::vector<int64_t> shape = found->second.shape;
  rt::TensorSlice slice = rt::TensorSlice::whole(shape.size());
  std::string error;
  if (auto spec = variable->getAttrOfType<StringAttr>(kCheckpointSliceAttr)) {
    std::vector<int64_t> fullShape;
    if (!rt::TensorSlice::parseSpec(spec.str(), fullShape, slice, error))
      return variable->emitError()
             << "variable '" << tfg::getNodeName(variable) << "': " << error;
    if (fullShape != shape)
      return variable->emitError()
             << "variable '" << tfg::getNodeName(variable)
             << "': its slice '" << spec.getValue()
             << "' is of another full shape than checkpoint tensor '" << key
             << "'";
    shape = slice.shapeIn(fullShape);
  }
  std::vector<uint8_t> bytes;
  if (!reader.readSlice(key, slice, bytes, error))
    return variable->emitError() << error;
  auto type = RankedTensorType::get(shape, dtype.getValue());
  if (type.getElementType().isInteger(1))
    return DenseElementsAttr::get(type, SmallVector<bool>(bytes.begin(), bytes.end()));
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

/// A Const node of `value` before `before`, named `name`, on its device.
Operation *createConst(OpBuilder &b, Operation *before, StringRef name,
                       DenseElementsAttr value) {
  b.setInsertionPoint(before);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(name)),
      b.getNamedAttr("dtype", TypeAttr::get(value.getType().getElementType())),
      b.getNamedAttr("value", value)};
  if (!tfg::getRequestedDevice(before).empty())
    attrs.push_back(b.getNamedAttr(
        tfg::kDeviceAttr, b.getStringAttr(tfg::getRequestedDevice(before))));
  return tfg::createNode(b, before->getLoc(), "Const", value.getType(), {}, {}, attrs);
}

struct FreezeVariablesPass
    : public impl::FreezeVariablesPassBase<FreezeVariablesPass> {
  PassCounter numFrozen{this, "frozen", "variable reads replaced by constants"};
  PassCounter numLoaded{this, "loaded",
                        "variables the init entry sets from the checkpoint"};

  void runOnOperation() override {
    numFrozen = 0;
    numLoaded = 0;
    ModuleOp module = getOperation();
    auto prefix = module->getAttrOfType<StringAttr>(kFreezeVariablesAttr);
    if (!prefix)
      return;
    module->removeAttr(kFreezeVariablesAttr);
    tfg::GraphOp init = entry(module, "init"), step = entry(module, "step");
    if (!init || !step)
      return;

    // Each variable's checkpoint key: what the restore op assigns it, or
    // for a TF2 SavedModel, its object's key (the restore op may assign
    // other copies of the variables than the functions capture, as for
    // Keras 3 models).
    llvm::StringMap<std::string> keys, slices;
    addRestoredKeys(init, keys, slices);
    auto savedModel = module->getAttrOfType<DictionaryAttr>("tfg.saved_model");
    if (auto captured = savedModel ? savedModel.getAs<DictionaryAttr>("variable_keys")
                                   : DictionaryAttr())
      for (tfg::GraphOp graph : {init, step})
        for (Operation &op : graph.getBody())
          if (isVariableNode(&op))
            if (auto key = captured.getAs<StringAttr>(tfg::getNodeName(&op)))
              keys[variableId(&op)] = key.str();
    rt::CheckpointReader reader;
    std::string error;
    if (!keys.empty() && !reader.open(prefix.getValue().str(), error)) {
      module.emitError() << error;
      return signalPassFailure();
    }

    SmallVector<Operation *> variables;
    for (Operation &op : step.getBody())
      if (isVariableNode(&op))
        variables.push_back(&op);
    // The parts of partitioned variables that the restore op restores as
    // slices: each is its slice of the full tensor.
    for (Operation *variable : variables) {
      auto slice = slices.find(variableId(variable));
      if (slice != slices.end() && !variable->hasAttr(kCheckpointSliceAttr))
        variable->setAttr(kCheckpointSliceAttr,
                          StringAttr::get(&getContext(), slice->second));
    }
    // (A queue runner's entry, or a local or chief init, may use the
    // variables too: they stay.)
    bool readOnly = queueRunnerNodes(module).empty() &&
                    !entry(module, "local_init") && !entry(module, "chief_init") &&
                    llvm::all_of(variables, [&](Operation *variable) {
      bool resource = opKindOf(variable) == OpKind::VarHandleOp;
      return keys.count(variableId(variable)) &&
             llvm::all_of(variable->getUsers(), [&](Operation *user) {
               return tfg::isNode(user) &&
                      opKindOf(user) == (resource ? OpKind::ReadVariableOp
                                                  : OpKind::Identity) &&
                      tfg::getControlOperands(user).empty();
             });
    });
    if (failed(readOnly ? freeze(variables, keys, reader, prefix)
                        : load(module, init, variables, keys, reader, prefix)))
      return signalPassFailure();
    if (readOnly) {
      init.erase();
      module->removeAttr(kInitAttr);
    }
  }

  /// The key of each variable the init entry assigns a RestoreV2 output,
  /// by variable identity, and for a part of a partitioned variable (a
  /// sliced restore) its slice of that key's tensor.
  static void addRestoredKeys(tfg::GraphOp init, llvm::StringMap<std::string> &keys,
                              llvm::StringMap<std::string> &partSlices) {
    for (Operation &op : init.getBody()) {
      OpKind kind = opKindOf(&op);
      if (kind != OpKind::AssignVariableOp && kind != OpKind::Assign)
        continue;
      Operation *target = tfg::getDataOperands(&op)[0].getDefiningOp();
      Value value = skipIdentities(tfg::getDataOperands(&op)[1]);
      Operation *restore = value.getDefiningOp();
      if (!target || !tfg::isNode(target) || !isVariableNode(target) || !restore ||
          !tfg::isNode(restore) || opKindOf(restore) != OpKind::RestoreV2)
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
      // A sliced restore names the full tensor and the part's slice of it.
      StringRef spec =
          slicesValue.getRawStringData()[slicesValue.isSplat() ? 0 : index];
      if (!spec.empty())
        partSlices[variableId(target)] = spec.str();
      keys[variableId(target)] = namesValue.getRawStringData()[index].str();
    }
  }

  /// Inference: every read of a variable becomes a Const of its value.
  LogicalResult freeze(ArrayRef<Operation *> variables,
                       const llvm::StringMap<std::string> &keys,
                       const rt::CheckpointReader &reader, StringAttr prefix) {
    OpBuilder b(&getContext());
    for (Operation *variable : variables) {
      FailureOr<DenseElementsAttr> value = readValue(
          reader, prefix.getValue(), variable, keys.lookup(variableId(variable)));
      if (failed(value))
        return failure();
      for (Operation *read : llvm::to_vector(variable->getUsers())) {
        Operation *constant = createConst(b, read, tfg::getNodeName(read), *value);
        tfg::getDataResults(read)[0].replaceAllUsesWith(constant->getResult(0));
        tfg::getControlToken(read).replaceAllUsesWith(tfg::getControlToken(constant));
        read->erase();
        ++numFrozen;
      }
      variable->erase();
    }
    return success();
  }

  /// Training: the init entry becomes one assignment of its checkpoint
  /// value, as a Const, per variable of the step, and every variable node
  /// learns its checkpoint key.
  LogicalResult load(ModuleOp module, tfg::GraphOp init, ArrayRef<Operation *> variables,
                     const llvm::StringMap<std::string> &keys,
                     const rt::CheckpointReader &reader, StringAttr prefix) {
    OpBuilder b(&getContext());
    auto roots = module->getAttrOfType<ArrayAttr>(kInitAttr);
    if (!roots || roots.size() != 1)
      return module.emitError() << "a SavedModel's init entry has one restore op";
    StringRef rootName = cast<StringAttr>(roots[0]).getValue();

    Block &body = init.getBody();
    for (Operation &op : llvm::reverse(body))
      op.dropAllUses();
    while (!body.empty())
      body.back().erase();
    b.setInsertionPointToEnd(&body);
    SmallVector<Value> assigned;
    for (Operation *variable : variables) {
      auto key = keys.find(variableId(variable));
      if (key == keys.end())
        continue;
      // (A part of a partitioned variable keeps its own identity.)
      variable->setAttr(variable->hasAttr(kCheckpointSliceAttr) ? kSliceOfAttr
                                                                : kCheckpointKeyAttr,
                        b.getStringAttr(key->second));
      FailureOr<DenseElementsAttr> value =
          readValue(reader, prefix.getValue(), variable, key->second);
      if (failed(value))
        return failure();
      Operation *copy = b.clone(*variable);
      StringRef name = tfg::getNodeName(variable);
      Operation *constant = createConst(b, copy, (name + "/initial_value").str(), *value);
      b.setInsertionPointToEnd(&body);
      Value reference = tfg::getDataResults(copy)[0];
      Operation *assign;
      if (opKindOf(variable) == OpKind::VarHandleOp)
        assign = tfg::createNode(
            b, variable->getLoc(), "AssignVariableOp", {},
            {reference, constant->getResult(0)}, {},
            {b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(name + "/initialize")),
             b.getNamedAttr("dtype", variable->getAttr("dtype"))});
      else
        assign = tfg::createNode(
            b, variable->getLoc(), "Assign", reference.getType(),
            {reference, constant->getResult(0)}, {},
            {b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(name + "/initialize")),
             b.getNamedAttr("T", variable->getAttr("dtype")),
             b.getNamedAttr("validate_shape", b.getBoolAttr(true)),
             b.getNamedAttr("use_locking", b.getBoolAttr(true))});
      assigned.push_back(tfg::getControlToken(assign));
      ++numLoaded;
    }
    tfg::createNode(b, init.getLoc(), "NoOp", {}, {}, assigned,
                    {b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(rootName))});

    if (reader.entries().count(rt::kObjectGraphKey)) {
      std::vector<std::string> graph;
      std::string error;
      if (!reader.readStrings(rt::kObjectGraphKey, graph, error) || graph.size() != 1)
        return module.emitError()
               << (error.empty() ? prefix.str() + ": the object graph is not one string"
                                 : error);
      module->setAttr(kObjectGraphAttr, b.getStringAttr(graph[0]));
    }
    return success();
  }
};

} // namespace
} // namespace tfc
