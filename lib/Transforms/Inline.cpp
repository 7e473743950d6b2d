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
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
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
  OpKind kind = opKindOf(node);
  return kind == OpKind::PartitionedCall ||
         kind == OpKind::StatefulPartitionedCall;
}

bool isWhile(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::While || kind == OpKind::StatelessWhile;
}

bool isIf(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::If || kind == OpKind::StatelessIf;
}

bool isCase(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::Case || kind == OpKind::StatelessCase;
}

/// What the inliner replaces: calls, and functional While and If.
bool usesFunctions(Operation *node) {
  return tfg::isNode(node) &&
         (isCall(node) || isWhile(node) || isIf(node) || isCase(node));
}

/// Bounds inlining: a function that calls itself would never end.
constexpr unsigned kMaxInlinedCalls = 1 << 20;

class Inliner {
public:
  Inliner(ModuleOp module)
      : module(module), symbols(module), roots(getRootNames(module)) {}

  LogicalResult inlineCall(Operation *call, NameUniquer &names,
                           SmallVectorImpl<Operation *> &newCalls);
  /// While/StatelessWhile as a TF1 frame, If/StatelessIf as a TF1
  /// conditional, their functions inlined (what TensorFlow's own lowering
  /// of functional control flow builds).
  LogicalResult lowerWhile(Operation *node, NameUniquer &names,
                           SmallVectorImpl<Operation *> &newCalls);
  LogicalResult lowerIf(Operation *node, NameUniquer &names,
                        SmallVectorImpl<Operation *> &newCalls);
  /// Case/StatelessCase as a chain of conditionals on the index.
  LogicalResult lowerCase(Operation *node, NameUniquer &names,
                          SmallVectorImpl<Operation *> &newCalls);
  unsigned inlined = 0;

private:
  /// The function an attr of `node` names, or an error.
  FailureOr<tfg::FuncOp> functionOf(Operation *node, StringRef attr,
                                    unsigned numArgs);
  /// Clones `func`'s body at the builder's point, its arguments bound to
  /// `args`, nodes named `prefix` + their name, the device of `node` where
  /// they have none; returns what its return gives (data values, then
  /// control tokens in `control`), and adds the cloned nodes that use
  /// functions to `newCalls` and all of them to `clones`.
  SmallVector<Value> cloneBody(OpBuilder &builder, Operation *node,
                               tfg::FuncOp func, ValueRange args,
                               StringRef prefix, NameUniquer &names,
                               SmallVectorImpl<Operation *> &newCalls,
                               SmallVectorImpl<Value> &control,
                               SmallVectorImpl<Operation *> &clones);
  FailureOr<SmallVector<Value>> conditional(
      OpBuilder &builder, Operation *node, Value pred, ValueRange inputs,
      ValueRange control, StringRef prefix, NameUniquer &names,
      function_ref<FailureOr<SmallVector<Value>>(int, ArrayRef<Value>, Operation *)>
          makeSide);
  /// One branch function inlined on `args` (its input-less nodes waiting
  /// for `pivot`), checked to give as many results as `node` has.
  FailureOr<SmallVector<Value>> branch(OpBuilder &builder, Operation *node,
                                       tfg::FuncOp func, ArrayRef<Value> args,
                                       Operation *pivot, StringRef prefix,
                                       NameUniquer &names,
                                       SmallVectorImpl<Operation *> &newCalls);
  /// `node`'s results become `values` (its control token waits for their
  /// producers), and `node` goes.
  void replaceResults(OpBuilder &builder, Operation *node,
                      ArrayRef<Value> values, NameUniquer &names);
  /// Replaces the control token of `node` by a NoOp's that waits for
  /// `done` (named like `node` when it is a target or init node).
  void replaceControl(OpBuilder &builder, Operation *node,
                      ArrayRef<Value> done, NameUniquer &names);

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

  // Arguments: the call's inputs, behind the call's control inputs.
  SmallVector<Value> control(tfg::getControlOperands(call));
  Operation *inputControl = nullptr;
  if (!control.empty())
    inputControl = createNodeLike(builder, call, "NoOp",
                            names.get(prefix + "input_control_node"), {}, {},
                            control);
  SmallVector<Value> args;
  for (auto [arg, input] : llvm::zip(body.getArguments(), data)) {
    Value value = input;
    if (inputControl) {
      auto type = cast<TensorType>(input.getType());
      Type element = type.getElementType();
      if (auto ref = dyn_cast<tfg::RefType>(element))
        element = ref.getElementType();
      auto argName =
          func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), tfg::kNameAttr);
      Operation *identity = createNodeLike(
          builder, call, "Identity",
          names.get(prefix + (argName ? argName.getValue() : "arg").str()),
          type.clone(element), input, tfg::getControlToken(inputControl),
          {builder.getNamedAttr("T", TypeAttr::get(element))});
      value = identity->getResult(0);
    }
    args.push_back(value);
  }
  SmallVector<Value> bodyControl;
  SmallVector<Operation *> clones;
  SmallVector<Value> results = cloneBody(builder, call, func, args, prefix,
                                         names, newCalls, bodyControl, clones);

  // Results, and the call's control token.
  for (auto [result, value] : llvm::zip(tfg::getDataResults(call), results))
    result.replaceAllUsesWith(value);
  llvm::SetVector<Value> done(bodyControl.begin(), bodyControl.end());
  for (Value value : results)
    if (Operation *producer = value.getDefiningOp())
      done.insert(tfg::getControlToken(producer));
  if (inputControl)
    done.insert(tfg::getControlToken(inputControl));
  replaceControl(builder, call, done.getArrayRef(), names);
  call->erase();
  ++inlined;
  return success();
}

SmallVector<Value> Inliner::cloneBody(OpBuilder &builder, Operation *node,
                                      tfg::FuncOp func, ValueRange args,
                                      StringRef prefix, NameUniquer &names,
                                      SmallVectorImpl<Operation *> &newCalls,
                                      SmallVectorImpl<Value> &control,
                                      SmallVectorImpl<Operation *> &clones) {
  Block &body = func.getBody().front();
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    mapping.map(arg, value);
  // Clone every node, then resolve the operands that referred to nodes
  // cloned later (graph regions have no order).
  size_t first = clones.size();
  tfg::ReturnOp ret;
  for (Operation &op : body) {
    if (auto r = dyn_cast<tfg::ReturnOp>(op)) {
      ret = r;
      continue;
    }
    Operation *clone = builder.clone(op, mapping);
    clone->setAttr(tfg::kNameAttr, builder.getStringAttr(names.get(
                                       (prefix + tfg::getNodeName(&op)).str())));
    if (tfg::getRequestedDevice(clone).empty() &&
        !tfg::getRequestedDevice(node).empty())
      clone->setAttr(tfg::kDeviceAttr,
                     builder.getStringAttr(tfg::getRequestedDevice(node)));
    clones.push_back(clone);
    if (usesFunctions(clone))
      newCalls.push_back(clone);
  }
  for (Operation *clone : llvm::drop_begin(clones, first))
    for (OpOperand &operand : clone->getOpOperands())
      if (Value mapped = mapping.lookupOrNull(operand.get()))
        operand.set(mapped);
  for (Value value : ret.getControlOperands())
    control.push_back(mapping.lookupOrDefault(value));
  SmallVector<Value> results;
  for (Value value : ret.getDataOperands())
    results.push_back(mapping.lookupOrDefault(value));
  return results;
}

void Inliner::replaceControl(OpBuilder &builder, Operation *node,
                             ArrayRef<Value> done, NameUniquer &names) {
  // A node named as a target or init node keeps its name on the node that
  // waits for the body, so that the entry can still run it.
  StringRef name = tfg::getNodeName(node);
  Value token = tfg::getControlToken(node);
  bool isRoot = roots.contains(name);
  if (token.use_empty() && !isRoot)
    return;
  // For a root node the NoOp takes over its name (the node is erased
  // next, before anything verifies names).
  std::string noOpName =
      isRoot ? name.str() : names.get((name + "/output_control_node").str());
  Operation *outputControl = createNodeLike(builder, node, "NoOp", noOpName, {}, {}, done);
  token.replaceAllUsesWith(tfg::getControlToken(outputControl));
}

FailureOr<tfg::FuncOp> Inliner::functionOf(Operation *node, StringRef attr,
                                           unsigned numArgs) {
  StringRef name = tfg::getNodeName(node);
  auto ref = node->getAttrOfType<tfg::FuncAttr>(attr);
  if (!ref)
    return node->emitError() << "node '" << name << "' (" << tfg::getOpType(node)
                             << ") has no function '" << attr << "'";
  auto func = symbols.lookup<tfg::FuncOp>(
      ref.getName().getRootReference().getValue());
  if (!func)
    return node->emitError() << "node '" << name << "': no function '"
                             << ref.getName().getRootReference().getValue()
                             << "' in the library";
  if (func.getNumArguments() != numArgs)
    return node->emitError() << "node '" << name << "': function '"
                             << func.getSymName() << "' takes "
                             << func.getNumArguments() << " arguments, not "
                             << numArgs;
  return func;
}

// While: one frame named like the node (LoopBuilder, Frames.h), its
// condition inlined on the variables' values at the loop's head, its body
// on their values in the body; the Exits replace the node's results.
LogicalResult Inliner::lowerWhile(Operation *node, NameUniquer &names,
                                  SmallVectorImpl<Operation *> &newCalls) {
  OperandRange inputs = tfg::getDataOperands(node);
  FailureOr<tfg::FuncOp> cond = functionOf(node, "cond", inputs.size());
  FailureOr<tfg::FuncOp> body = functionOf(node, "body", inputs.size());
  if (failed(cond) || failed(body))
    return failure();
  OpBuilder builder(node);
  StringRef name = tfg::getNodeName(node);
  std::string prefix = (name + "/").str();
  LoopBuilder loop(
      builder, node, name, intAttr(node, "parallel_iterations", 10),
      [&](LoopBuilder::Role role, unsigned) {
        return names.get(prefix + LoopBuilder::opTypeOf(role).str());
      });
  SmallVector<Value> head = loop.start(inputs, tfg::getControlOperands(node));
  SmallVector<Value> ignored;
  SmallVector<Operation *> clones;
  SmallVector<Value> predicate =
      cloneBody(builder, node, *cond, head, prefix + "cond/", names, newCalls,
                ignored, clones);
  if (predicate.size() != 1)
    return node->emitError() << "node '" << name
                             << "': its condition returns " << predicate.size()
                             << " values, not one";
  SmallVector<Value> bodyArgs = loop.decide(predicate[0]);
  SmallVector<Value> bodyControl;
  SmallVector<Value> next = cloneBody(builder, node, *body, bodyArgs,
                                      prefix + "body/", names, newCalls,
                                      bodyControl, clones);
  if (next.size() != inputs.size())
    return node->emitError() << "node '" << name << "': its body returns "
                             << next.size() << " values for "
                             << inputs.size() << " loop variables";
  loop.close(next, bodyControl);
  SmallVector<Value> exits;
  for (auto [k, result] : llvm::enumerate(tfg::getDataResults(node))) {
    Value exit = loop.exit(k);
    result.replaceAllUsesWith(exit);
    exits.push_back(tfg::getControlToken(exit.getDefiningOp()));
  }
  replaceControl(builder, node, exits, names);
  node->erase();
  ++inlined;
  return success();
}

// A conditional on `pred`: a Switch of every input on it, each side built
// by `makeSide` (0: false, 1: true) from its side's values with the side's
// pivot, an Identity of the predicate switched on itself; a Merge per
// result. Branch nodes without inputs wait for their pivot, so that they
// are dead with their side, as in TensorFlow's lowering.
FailureOr<SmallVector<Value>> Inliner::conditional(
    OpBuilder &builder, Operation *node, Value pred, ValueRange inputs,
    ValueRange control, StringRef prefix, NameUniquer &names,
    function_ref<FailureOr<SmallVector<Value>>(int, ArrayRef<Value>, Operation *)>
        makeSide) {
  auto typeAttr = [&](Type type) {
    return builder.getNamedAttr(
        "T", TypeAttr::get(cast<TensorType>(type).getElementType()));
  };
  Operation *predSwitch = createNodeLike(builder, node, "Switch",
                                   names.get((prefix + "Switch").str()),
                                   {pred.getType(), pred.getType()}, {pred, pred},
                                   control, {typeAttr(pred.getType())});
  Operation *pivots[2];
  for (int side = 0; side < 2; ++side)
    pivots[side] = createNodeLike(builder, node, "Identity",
                            names.get((prefix + (side ? "pivot_t" : "pivot_f")).str()),
                            pred.getType(), predSwitch->getResult(side), {},
                            {typeAttr(pred.getType())});
  SmallVector<Value> sides[2];
  for (Value input : inputs) {
    Operation *s = createNodeLike(builder, node, "Switch",
                            names.get((prefix + "Switch").str()),
                            {input.getType(), input.getType()}, {input, pred},
                            control, {typeAttr(input.getType())});
    sides[0].push_back(s->getResult(0));
    sides[1].push_back(s->getResult(1));
  }
  SmallVector<Value> results[2];
  for (int side = 0; side < 2; ++side) {
    FailureOr<SmallVector<Value>> made = makeSide(side, sides[side], pivots[side]);
    if (failed(made))
      return failure();
    results[side] = std::move(*made);
  }
  if (results[0].size() != results[1].size())
    return node->emitError() << "node '" << tfg::getNodeName(node)
                             << "': its branches return " << results[0].size()
                             << " and " << results[1].size() << " values";
  SmallVector<Value> merged;
  for (auto [a, b] : llvm::zip(results[0], results[1])) {
    Operation *merge = createNodeLike(
        builder, node, "Merge", names.get((prefix + "Merge").str()),
        {a.getType(), RankedTensorType::get({}, builder.getI32Type())}, {a, b}, {},
        {typeAttr(a.getType()), builder.getNamedAttr("N", builder.getI64IntegerAttr(2))});
    merged.push_back(merge->getResult(0));
  }
  return merged;
}

FailureOr<SmallVector<Value>> Inliner::branch(
    OpBuilder &builder, Operation *node, tfg::FuncOp func, ArrayRef<Value> args,
    Operation *pivot, StringRef prefix, NameUniquer &names,
    SmallVectorImpl<Operation *> &newCalls) {
  SmallVector<Value> ignored;
  SmallVector<Operation *> clones;
  SmallVector<Value> results =
      cloneBody(builder, node, func, args, prefix, names, newCalls, ignored, clones);
  if (pivot)
    for (Operation *clone : clones)
      if (clone->getNumOperands() == 0)
        clone->insertOperands(0, tfg::getControlToken(pivot));
  if (results.size() != tfg::getDataResults(node).size())
    return node->emitError() << "node '" << tfg::getNodeName(node)
                             << "': a branch returns " << results.size()
                             << " values, not " << tfg::getDataResults(node).size();
  return results;
}

void Inliner::replaceResults(OpBuilder &builder, Operation *node,
                             ArrayRef<Value> values, NameUniquer &names) {
  SmallVector<Value> done;
  for (auto [result, value] : llvm::zip(tfg::getDataResults(node), values)) {
    result.replaceAllUsesWith(value);
    done.push_back(tfg::getControlToken(value.getDefiningOp()));
  }
  replaceControl(builder, node, done, names);
  node->erase();
  ++inlined;
}

LogicalResult Inliner::lowerIf(Operation *node, NameUniquer &names,
                               SmallVectorImpl<Operation *> &newCalls) {
  OperandRange operands = tfg::getDataOperands(node);
  ValueRange inputs = operands.drop_front();
  FailureOr<tfg::FuncOp> thenFunc = functionOf(node, "then_branch", inputs.size());
  FailureOr<tfg::FuncOp> elseFunc = functionOf(node, "else_branch", inputs.size());
  if (failed(thenFunc) || failed(elseFunc))
    return failure();
  Value pred = operands[0];
  if (!cast<TensorType>(pred.getType()).getElementType().isInteger(1))
    return node->emitError() << "node '" << tfg::getNodeName(node)
                             << "': its predicate is not a bool";
  OpBuilder builder(node);
  std::string prefix = (tfg::getNodeName(node) + "/").str();
  SmallVector<Value> control(tfg::getControlOperands(node));
  FailureOr<SmallVector<Value>> results = conditional(
      builder, node, pred, inputs, control, prefix, names,
      [&](int side, ArrayRef<Value> args, Operation *pivot) {
        return branch(builder, node, side ? *thenFunc : *elseFunc, args, pivot,
                      prefix + (side ? "then/" : "else/"), names, newCalls);
      });
  if (failed(results))
    return failure();
  replaceResults(builder, node, *results, names);
  return success();
}

// Case: branch k when the index is k, the last branch for any other
// index, as a chain of conditionals on index == k.
LogicalResult Inliner::lowerCase(Operation *node, NameUniquer &names,
                                 SmallVectorImpl<Operation *> &newCalls) {
  OperandRange operands = tfg::getDataOperands(node);
  SmallVector<Value> inputs(operands.drop_front());
  auto branchAttrs = node->getAttrOfType<ArrayAttr>("branches");
  if (!branchAttrs || branchAttrs.empty())
    return node->emitError() << "node '" << tfg::getNodeName(node)
                             << "' (Case) has no branches";
  SmallVector<tfg::FuncOp> funcs;
  for (Attribute attr : branchAttrs) {
    auto ref = dyn_cast<tfg::FuncAttr>(attr);
    auto func = ref ? symbols.lookup<tfg::FuncOp>(
                          ref.getName().getRootReference().getValue())
                    : tfg::FuncOp();
    if (!func || func.getNumArguments() != inputs.size())
      return node->emitError() << "node '" << tfg::getNodeName(node)
                               << "': branch " << funcs.size()
                               << " is not a function of " << inputs.size()
                               << " arguments in the library";
    funcs.push_back(func);
  }
  Value index = operands[0];
  auto indexType = cast<TensorType>(index.getType());
  if (!indexType.getElementType().isInteger(32))
    return node->emitError() << "node '" << tfg::getNodeName(node)
                             << "': its branch index is not an int32";
  OpBuilder builder(node);
  std::string prefix = (tfg::getNodeName(node) + "/").str();
  SmallVector<Value> control(tfg::getControlOperands(node));
  std::function<FailureOr<SmallVector<Value>>(size_t, Value, ArrayRef<Value>,
                                              Operation *)>
      from = [&](size_t k, Value idx, ArrayRef<Value> args,
                 Operation *pivot) -> FailureOr<SmallVector<Value>> {
    std::string level = prefix + "branch" + std::to_string(k) + "/";
    if (k + 1 == funcs.size())
      return branch(builder, node, funcs[k], args, pivot, level, names, newCalls);
    auto i32 = RankedTensorType::get({}, builder.getI32Type());
    Operation *constant = createConstLike(
        builder, node, names.get(level + "index"),
        DenseElementsAttr::get(i32, ArrayRef<int32_t>{int32_t(k)}),
        pivot ? ValueRange(tfg::getControlToken(pivot)) : ValueRange());
    Operation *equal = createNodeLike(
        builder, node, "Equal", names.get(level + "Equal"),
        RankedTensorType::get(indexType.getShape(), builder.getI1Type()),
        {idx, constant->getResult(0)}, {},
        {builder.getNamedAttr("T", TypeAttr::get(builder.getI32Type()))});
    SmallVector<Value> switched = {idx};
    llvm::append_range(switched, args);
    return conditional(
        builder, node, equal->getResult(0), switched,
        k == 0 ? ValueRange(control) : ValueRange(), level, names,
        [&](int side, ArrayRef<Value> sideArgs, Operation *sidePivot)
            -> FailureOr<SmallVector<Value>> {
          if (side)
            return branch(builder, node, funcs[k], sideArgs.drop_front(),
                          sidePivot, level, names, newCalls);
          return from(k + 1, sideArgs[0], sideArgs.drop_front(), sidePivot);
        });
  };
  FailureOr<SmallVector<Value>> results = from(0, index, inputs, nullptr);
  if (failed(results))
    return failure();
  replaceResults(builder, node, *results, names);
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
        if (usesFunctions(&op))
          worklist.push_back(&op);
      while (!worklist.empty()) {
        Operation *call = worklist.pop_back_val();
        if (inliner.inlined >= kMaxInlinedCalls) {
          call->emitError() << "more than " << kMaxInlinedCalls
                            << " calls inlined: is a function recursive?";
          return signalPassFailure();
        }
        LogicalResult done =
            isWhile(call)  ? inliner.lowerWhile(call, names, worklist)
            : isIf(call)   ? inliner.lowerIf(call, names, worklist)
            : isCase(call) ? inliner.lowerCase(call, names, worklist)
                           : inliner.inlineCall(call, names, worklist);
        if (failed(done))
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
