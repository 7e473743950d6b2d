//===- Inline.cpp - inline function calls into the graph ------------------===//
//
// PartitionedCall and StatefulPartitionedCall nodes of a graph are replaced
// by a copy of the called function's body, named "<call>/<node>", keeping
// the call's control semantics the way TensorFlow's inliner does:
//
//  * control inputs of the call: a NoOp "<call>/input_control_node" gathers
//    them, and each argument becomes an Identity "<call>/<arg>" that waits
//    for it, so nothing of the body starts before the call could have;
//  * users of the call's control token: they wait for a NoOp
//    "<call>/output_control_node" that depends on the function's control
//    outputs and on the producers of its results; a call that is a target
//    or init node leaves that NoOp under its own name, so it can still run;
//  * body nodes without a device take the call's device.
//
// Calls inside inlined bodies are inlined in turn; functions that nothing
// refers to any more are removed.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_INLINEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool isCall(Operation *node) {
  StringRef type = tfg::getOpType(node);
  return type == "PartitionedCall" || type == "StatefulPartitionedCall";
}

/// Bounds inlining: a function that calls itself would never end.
constexpr unsigned kMaxInlinedCalls = 1 << 20;

class Inliner {
public:
  Inliner(ModuleOp module)
      : module(module), symbols(module), roots(getRootNames(module)) {}

  LogicalResult inlineCall(Operation *call, NameUniquer &names,
                           SmallVectorImpl<Operation *> &newCalls);
  unsigned inlined = 0;

private:
  Operation *makeNode(OpBuilder &builder, Operation *call, StringRef opType,
                      std::string name, TypeRange types, ValueRange data,
                      ValueRange control, ArrayRef<NamedAttribute> attrs = {}) {
    SmallVector<NamedAttribute> all(attrs);
    all.push_back(builder.getNamedAttr(tfg::kNameAttr,
                                       builder.getStringAttr(name)));
    if (StringRef device = tfg::getRequestedDevice(call); !device.empty())
      all.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                         builder.getStringAttr(device)));
    return tfg::createNode(builder, call->getLoc(), opType, types, data,
                           control, all);
  }

  ModuleOp module;
  SymbolTable symbols;
  llvm::StringSet<> roots;
};

LogicalResult Inliner::inlineCall(Operation *call, NameUniquer &names,
                                  SmallVectorImpl<Operation *> &newCalls) {
  StringRef callName = tfg::getNodeName(call);
  auto callee = call->getAttrOfType<tfg::FuncAttr>("f");
  if (!callee)
    return call->emitError() << "call '" << callName << "' has no function";
  auto func = symbols.lookup<tfg::FuncOp>(
      callee.getName().getRootReference().getValue());
  if (!func)
    return call->emitError() << "call '" << callName << "': no function '"
                             << callee.getName().getRootReference().getValue()
                             << "' in the library";
  OperandRange data = tfg::getDataOperands(call);
  if (data.size() != func.getNumArguments() ||
      tfg::getDataResults(call).size() != func.getNumResults())
    return call->emitError() << "call '" << callName << "' does not match "
                             << "the signature of '" << func.getSymName()
                             << "'";

  OpBuilder builder(call);
  std::string prefix = (callName + "/").str();
  Block &body = func.getBody().front();
  IRMapping mapping;

  // Arguments: the call's inputs, behind the call's control inputs.
  SmallVector<Value> control(tfg::getControlOperands(call));
  Operation *inputControl = nullptr;
  if (!control.empty())
    inputControl = makeNode(builder, call, "NoOp",
                            names.get(prefix + "input_control_node"), {}, {},
                            control);
  for (auto [arg, input] : llvm::zip(body.getArguments(), data)) {
    Value value = input;
    if (inputControl) {
      auto type = cast<TensorType>(input.getType());
      Type element = type.getElementType();
      if (auto ref = dyn_cast<tfg::RefType>(element))
        element = ref.getElementType();
      auto argName =
          func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), tfg::kNameAttr);
      Operation *identity = makeNode(
          builder, call, "Identity",
          names.get(prefix + (argName ? argName.getValue() : "arg").str()),
          type.clone(element), input, tfg::getControlToken(inputControl),
          {builder.getNamedAttr("T", TypeAttr::get(element))});
      value = identity->getResult(0);
    }
    mapping.map(arg, value);
  }

  // The body: clone every node, then resolve the operands that referred to
  // nodes cloned later (graph regions have no order).
  SmallVector<Operation *> clones;
  tfg::ReturnOp ret;
  for (Operation &op : body) {
    if (auto r = dyn_cast<tfg::ReturnOp>(op)) {
      ret = r;
      continue;
    }
    Operation *clone = builder.clone(op, mapping);
    clone->setAttr(tfg::kNameAttr, builder.getStringAttr(names.get(
                                       prefix + tfg::getNodeName(&op).str())));
    if (tfg::getRequestedDevice(clone).empty() &&
        !tfg::getRequestedDevice(call).empty())
      clone->setAttr(tfg::kDeviceAttr,
                     builder.getStringAttr(tfg::getRequestedDevice(call)));
    clones.push_back(clone);
    if (isCall(clone))
      newCalls.push_back(clone);
  }
  for (Operation *clone : clones)
    for (OpOperand &operand : clone->getOpOperands())
      if (Value mapped = mapping.lookupOrNull(operand.get()))
        operand.set(mapped);

  // Results, and the call's control token.
  for (auto [result, value] :
       llvm::zip(tfg::getDataResults(call), ret.getDataOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));
  // A call named as a target or init node keeps its name on the node that
  // waits for the body, so that the entry can still run it.
  Value token = tfg::getControlToken(call);
  bool isRootCall = roots.contains(callName);
  if (!token.use_empty() || isRootCall) {
    llvm::SetVector<Value> done;
    for (Value value : ret.getControlOperands())
      done.insert(mapping.lookupOrDefault(value));
    for (Value value : ret.getDataOperands())
      if (Operation *producer = mapping.lookupOrDefault(value).getDefiningOp())
        done.insert(tfg::getControlToken(producer));
    if (inputControl)
      done.insert(tfg::getControlToken(inputControl));
    // For a root call the NoOp takes over the call's name (the call is
    // erased below, before anything verifies names).
    std::string name = isRootCall ? callName.str()
                                  : names.get(prefix + "output_control_node");
    Operation *outputControl =
        makeNode(builder, call, "NoOp", name, {}, {}, done.getArrayRef());
    token.replaceAllUsesWith(tfg::getControlToken(outputControl));
  }
  call->erase();
  ++inlined;
  return success();
}

/// Names of the functions that attributes anywhere in the module refer to.
llvm::StringSet<> referencedFunctions(ModuleOp module) {
  llvm::StringSet<> names;
  module.walk([&](Operation *op) {
    if (isa<tfg::FuncOp>(op))
      return;
    op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
      names.insert(ref.getRootReference().getValue());
    });
  });
  return names;
}

struct InlinePass : public impl::InlinePassBase<InlinePass> {
  PassCounter numInlined{this, "inlined", "calls inlined"};
  void runOnOperation() override {
    numInlined = 0; // Reported even when nothing happens.
    ModuleOp module = getOperation();
    Inliner inliner(module);
    for (auto graph : module.getOps<tfg::GraphOp>()) {
      NameUniquer names(graph.getBody());
      SmallVector<Operation *> worklist;
      for (Operation &op : graph.getBody())
        if (tfg::isNode(&op) && isCall(&op))
          worklist.push_back(&op);
      while (!worklist.empty()) {
        Operation *call = worklist.pop_back_val();
        if (inliner.inlined >= kMaxInlinedCalls) {
          call->emitError() << "more than " << kMaxInlinedCalls
                            << " calls inlined: is a function recursive?";
          return signalPassFailure();
        }
        if (failed(inliner.inlineCall(call, names, worklist)))
          return signalPassFailure();
      }
    }
    numInlined = inliner.inlined;

    // Functions are kept only while something refers to them (a While body,
    // a call that is not inlined, ...). Removing one can orphan others.
    bool erased = true;
    while (erased) {
      erased = false;
      llvm::StringSet<> used = referencedFunctions(module);
      for (auto func : llvm::make_early_inc_range(module.getOps<tfg::FuncOp>()))
        if (!used.contains(func.getSymName())) {
          func.erase();
          erased = true;
        }
    }
  }
};

} // namespace
} // namespace tfc
