//===- EmitControlFlow.cpp - TF1 conditionals and loops -------------------===//
//
// Conditionals (Switch/Merge) as predicated code, and loop frames (see
// Frames.h) as scf.while loops over planned buffers: docs/ControlFlow.md.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Transforms/Stacks.h"

#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tfc {

// TF1 conditionals: a Switch forwards its data to one output and leaves
// the other dead; a node with a dead input is dead and does not run; a
// Merge forwards its live input. The schedule and the memory plan stay
// static: each value downstream of a Switch gets an i1 saying whether it
// is alive, computed as the step runs, and a node that may be dead runs
// under an scf.if on it. Both outputs of a Switch are its input's buffer,
// so a branch costs nothing when not taken.

Value StepEmitter::aliveOf(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !isNodeOrGroup(producer))
    return {};
  if (isa<tfg::ControlType>(value.getType()))
    return aliveNodes.lookup(producer);
  return aliveValues.lookup(value);
}

/// The element of a constant tensor whose elements are all that one, or
/// null.
static TypedAttr splatElementOf(Value tensor) {
  Operation *producer = tensor.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      opKindOf(producer) != OpKind::Const)
    return {};
  auto value = dyn_cast_or_null<DenseElementsAttr>(producer->getAttr("value"));
  if (!value || !value.isSplat() || !value.getElementType().isIntOrFloat())
    return {};
  return value.getSplatValue<TypedAttr>();
}

Value StepEmitter::negate(Location loc, Value condition) {
  Value yes = builder.create<arith::ConstantIntOp>(loc, 1, 1);
  return builder.create<arith::XOrIOp>(loc, condition, yes);
}

void StepEmitter::makeBuffers(ArrayRef<Operation *> nodes) {
  for (Operation *node : nodes) {
    for (Value value : tfg::getDataOperands(node))
      memrefFor(value);
    for (Value value : tfg::getDataResults(node))
      memrefFor(value);
  }
}

Value StepEmitter::combineAlive(Location loc, Value a, Value b, bool all) {
  // A null value is "always alive".
  if (!a || !b)
    return all ? (a ? a : b) : Value();
  return all ? builder.create<arith::AndIOp>(loc, a, b).getResult()
             : builder.create<arith::OrIOp>(loc, a, b).getResult();
}

LogicalResult StepEmitter::computeAlive(Operation *node) {
  Location loc = node->getLoc();
  OpKind kind = plainOpKindOf(node);
  // A ControlTrigger is alive even when its inputs are dead: TensorFlow's
  // loop gradients wait for it on either branch.
  if (kind == OpKind::ControlTrigger)
    return success();
  bool merge = kind == OpKind::Merge;
  Value alive;
  if (merge) {
    // Alive when any data input is; an input that is always alive makes
    // the Merge always alive.
    bool first = true;
    for (Value operand : tfg::getDataOperands(node)) {
      alive = first ? aliveOf(operand)
                    : combineAlive(loc, alive, aliveOf(operand), false);
      first = false;
      if (!alive)
        break;
    }
  } else {
    for (Value operand : node->getOperands())
      alive = combineAlive(loc, alive, aliveOf(operand), true);
  }
  if (alive)
    aliveNodes[node] = alive;
  if (kind == OpKind::Switch) {
    // Output 0 when the predicate is false, output 1 when it is true. The
    // predicate's buffer is read even when the Switch is dead: the result
    // is masked by `alive`.
    Value predicate = tfg::getDataOperands(node)[1];
    auto predType = dyn_cast<RankedTensorType>(predicate.getType());
    Value predBuffer = memrefFor(predicate);
    if (!predType || predType.getRank() != 0 || !predBuffer)
      return error(node) << "the predicate is not a scalar";
    Value pred = builder.create<memref::LoadOp>(loc, predBuffer, ValueRange{});
    aliveValues[tfg::getDataResults(node)[0]] =
        combineAlive(loc, alive, negate(loc, pred), true);
    aliveValues[tfg::getDataResults(node)[1]] = combineAlive(loc, alive, pred, true);
    return success();
  }
  if (alive)
    for (Value result : tfg::getDataResults(node))
      aliveValues[result] = alive;
  return success();
}

LogicalResult StepEmitter::emitPredicated(Operation *node) {
  if (failed(computeAlive(node)))
    return failure();
  Value alive = aliveNodes.lookup(node);
  OpKind kind = opKindOf(node);
  // Nodes without code of their own (a push to a stack is an alias with
  // an effect), or that handle liveness themselves.
  if (!alive || kind == OpKind::InternalArg || kind == OpKind::Const ||
      kind == OpKind::NoOp || isVariableNode(node) ||
      (isAlias(node) && !isStackOp(node)) ||
      plainOpKindOf(node) == OpKind::Merge)
    return emitNode(node);
  Location loc = node->getLoc();
  if (kind == OpKind::InternalRetval) {
    // TensorFlow refuses to fetch a dead tensor; so does the program.
    auto check = builder.create<scf::IfOp>(loc, negate(loc, alive),
                                           /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&check.getThenRegion().front());
    Value fetched = tfg::getDataOperands(node)[0];
    std::string name = (tfg::getNodeName(fetched.getDefiningOp()) + ":" +
                        Twine(cast<OpResult>(fetched).getResultNumber()))
                           .str();
    callKernel(loc, "tfc_fail",
               {stringPointer(loc, "fetched tensor '" + name +
                                       "' is dead: its branch was not taken")},
               {});
    builder.setInsertionPointAfter(check);
    return emitNode(node);
  }
  // The buffers this node (or group) uses are made here, outside the
  // conditional, where later nodes can see them.
  makeBuffers(node);
  auto conditional = builder.create<scf::IfOp>(loc, alive, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&conditional.getThenRegion().front());
  return emitNode(node);
}

LogicalResult StepEmitter::emitItems(ArrayRef<FrameItem> items) {
  for (FrameItem item : items)
    if (failed(isa<Frame *>(item) ? emitLoop(cast<Frame *>(item))
                                  : emitPredicated(cast<Operation *>(item))))
      return failure();
  return success();
}

// A TF1 while loop (a frame, see Frames.h) becomes an scf.while over
// buffers: each variable lives in its Merge's buffer, which starts as the
// Enter's value; the "before" region computes the condition, the "after"
// region the body and then copies each NextIteration's value into its
// variable; an Exit is its variable's buffer after the loop. The memory
// plan keeps those buffers, and what the loop reads from outside, alive
// through the loop.
LogicalResult StepEmitter::emitLoop(Frame *frame) {
  Location loc = frame->loopCond->getLoc();
  // A loop inside a conditional runs when its Enters are alive, and its
  // Exits are alive when it ran; inside, its values are alive.
  Value loopAlive;
  for (Operation *enter : frame->enters) {
    if (failed(computeAlive(enter)))
      return failure();
    loopAlive = combineAlive(loc, loopAlive, aliveNodes.lookup(enter), true);
  }
  for (Operation *enter : frame->enters) {
    aliveNodes.erase(enter);
    for (Value result : tfg::getDataResults(enter))
      aliveValues.erase(result);
  }
  if (auto type = dyn_cast<RankedTensorType>(
          tfg::getDataResults(frame->loopCond)[0].getType());
      !type || type.getRank() != 0 || !type.getElementType().isInteger(1))
    return error(frame->loopCond) << "the loop condition is not a bool scalar";
  // Every buffer of the loop is made here, where the whole loop and what
  // follows it see it.
  makeBuffers(frame->allNodes);
  std::optional<scf::IfOp> guard;
  if (loopAlive) {
    guard = builder.create<scf::IfOp>(loc, loopAlive, /*withElseRegion=*/false);
    builder.setInsertionPointToStart(&guard->getThenRegion().front());
  }
  for (Operation *enter : frame->enters)
    if (failed(emitNode(enter)))
      return failure();
  // Each variable's buffer (null for a handle).
  SmallVector<Value> variables;
  for (auto [i, v] : llvm::enumerate(frame->variables)) {
    Value value = tfg::getDataResults(v.merge)[0];
    // A handle carried through the loop must stay its variable's (or
    // stack's, or TensorArray's): it is resolved at compile time.
    if (isVariableReference(value.getType())) {
      auto source = [](Value handle) {
        return sourceNodeOf(handle, [](Operation *node) {
          OpKind kind = opKindOf(node);
          return isVariableNode(node) || isStackNode(node) ||
                 kind == OpKind::TensorArrayV3 ||
                 kind == OpKind::TensorArrayGradV3;
        });
      };
      Operation *made = source(value);
      if (!made || made != source(tfg::getDataOperands(v.nextIteration)[0]))
        return error(v.merge) << "a loop variable that is a handle must be "
                                 "the same variable in every iteration";
      variables.push_back(Value());
      continue;
    }
    Value buffer = memrefFor(value);
    Value start = tfg::getDataOperands(v.enter)[0];
    Value initial = memrefFor(start);
    if (!buffer || !initial)
      return error(v.merge) << "a loop variable has no buffer";
    // A variable starting from a constant of one repeated element (the
    // zeros of a gradient loop's accumulators, say) is filled: half the
    // memory traffic of copying it from the program's data.
    if (TypedAttr element = splatElementOf(start))
      builder.create<linalg::FillOp>(
          loc, builder.create<arith::ConstantOp>(loc, element).getResult(),
          buffer);
    else if (!sameMemory(initial, buffer))
      builder.create<memref::CopyOp>(loc, initial, buffer);
    variables.push_back(buffer);
  }
  // A NextIteration value that is another variable's buffer is copied
  // aside before any variable is overwritten, so that a body that swaps
  // variables sees them swapped.
  SmallVector<Value> scratch(frame->variables.size());
  for (auto [i, v] : llvm::enumerate(frame->variables)) {
    if (!variables[i])
      continue;
    Value next = memrefFor(tfg::getDataOperands(v.nextIteration)[0]);
    if (llvm::any_of(variables, [&](Value other) {
          return other && other != variables[i] && sameMemory(next, other);
        }))
      scratch[i] = builder.create<memref::AllocOp>(
          loc, cast<MemRefType>(variables[i].getType()));
  }

  // The loop counts its iterations (from 0), for the keys of transfers in
  // a loop that spans devices; unused, the count folds away.
  Type i64 = builder.getI64Type();
  Value first = builder.create<arith::ConstantIntOp>(loc, 0, 64);
  auto loop = builder.create<scf::WhileOp>(loc, TypeRange{i64}, ValueRange{first});
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *before = builder.createBlock(&loop.getBefore(), {}, {i64}, {loc});
    loopIterations.push_back(before->getArgument(0));
    if (failed(emitItems(frame->condition)) || failed(emitNode(frame->loopCond)))
      return failure();
    for (Operation *send : frame->predicateSends)
      if (failed(emitNode(send)))
        return failure();
    Value condition = builder.create<memref::LoadOp>(
        loc, memrefFor(tfg::getDataResults(frame->loopCond)[0]), ValueRange{});
    builder.create<scf::ConditionOp>(loc, condition, before->getArgument(0));

    Block *after = builder.createBlock(&loop.getAfter(), {}, {i64}, {loc});
    loopIterations.back() = after->getArgument(0);
    for (const LoopVariable &v : frame->variables)
      if (failed(emitNode(v.switchNode)))
        return failure();
    if (failed(emitItems(frame->body)))
      return failure();
    for (auto [i, v] : llvm::enumerate(frame->variables)) {
      if (failed(emitNode(v.nextIteration)))
        return failure();
      if (scratch[i])
        builder.create<memref::CopyOp>(
            loc, memrefFor(tfg::getDataOperands(v.nextIteration)[0]), scratch[i]);
    }
    for (auto [i, v] : llvm::enumerate(frame->variables)) {
      if (!variables[i])
        continue;
      Value next = scratch[i] ? scratch[i]
                              : memrefFor(tfg::getDataOperands(v.nextIteration)[0]);
      if (!next)
        return error(v.nextIteration) << "the next value has no buffer";
      if (!sameMemory(next, variables[i]))
        builder.create<memref::CopyOp>(loc, next, variables[i]);
    }
    Value one = builder.create<arith::ConstantIntOp>(loc, 1, 64);
    builder.create<scf::YieldOp>(
        loc, ValueRange{builder.create<arith::AddIOp>(loc, after->getArgument(0), one)});
    loopIterations.pop_back();
  }
  for (Value buffer : scratch)
    if (buffer)
      builder.create<memref::DeallocOp>(loc, buffer);
  if (guard)
    builder.setInsertionPointAfter(*guard);
  for (const LoopVariable &v : frame->variables)
    for (Operation *exit : v.exits) {
      if (failed(emitNode(exit)))
        return failure();
      if (loopAlive) {
        aliveNodes[exit] = loopAlive;
        aliveValues[tfg::getDataResults(exit)[0]] = loopAlive;
      }
    }
  return success();
}

namespace {

/// Merge: the live input's value and its index.
class MergePattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    FailureOr<Value> out = step.outputFor(node, 0);
    if (failed(out))
      return failure();
    Value index = step.memrefFor(tfg::getDataResults(node)[1]);
    for (auto [k, input] : llvm::enumerate(tfg::getDataOperands(node))) {
      Value source = step.memrefFor(input);
      if (!source)
        return step.error(node) << "input " << k << " has no buffer";
      Value alive = step.aliveOf(input);
      std::optional<scf::IfOp> conditional;
      if (alive) {
        conditional = step.builder.create<scf::IfOp>(loc, alive, false);
        step.builder.setInsertionPointToStart(
            &conditional->getThenRegion().front());
      }
      if (!step.sameMemory(source, *out))
        step.builder.create<memref::CopyOp>(loc, source, *out);
      if (index)
        step.builder.create<memref::StoreOp>(
            loc, step.builder.create<arith::ConstantIntOp>(loc, k, 32), index,
            ValueRange{});
      if (conditional)
        step.builder.setInsertionPointAfter(*conditional);
    }
    return success();
  }
};

/// Assert: stops the step, as TensorFlow does, when its condition is
/// false, with the node's name and its data as far as the compiler knows
/// them (constant strings and numbers; the others by name). A condition
/// that is a constant true (TF1 dynamic_rnn's shape checks, folded) makes
/// no code; a constant false is an error here.
class AssertPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    std::string message = tfg::nodeLabel(node) + ": assertion failed:";
    for (Value data : operands.drop_front()) {
      Operation *producer = data.getDefiningOp();
      auto value = producer && opKindOf(producer) == OpKind::Const
                       ? producer->getAttrOfType<ElementsAttr>("value")
                       : ElementsAttr();
      std::string text;
      if (auto strings = dyn_cast_or_null<DenseStringElementsAttr>(value))
        for (StringRef s : strings.getRawStringData())
          text += (text.empty() ? "" : " ") + s.str();
      else if (auto ints = dyn_cast_or_null<DenseIntElementsAttr>(value))
        for (const APInt &v : ints.getValues<APInt>())
          text += (text.empty() ? "" : " ") + std::to_string(v.getSExtValue());
      else
        text = "<" + (producer ? tfg::getNodeName(producer).str()
                               : std::string("an input")) + ">";
      message += " [" + text + "]";
    }
    Value condition = operands.front();
    if (Operation *producer = condition.getDefiningOp())
      if (opKindOf(producer) == OpKind::Const)
        if (auto value = producer->getAttrOfType<DenseIntElementsAttr>("value")) {
          if (llvm::all_of(value.getValues<APInt>(),
                           [](const APInt &v) { return !v.isZero(); }))
            return success();
          return step.error(node) << "the condition is always false:"
                                  << message.substr(message.find(':') + 1);
        }
    Value buffer = step.memrefFor(condition);
    auto type = dyn_cast<RankedTensorType>(condition.getType());
    if (!buffer || !type || type.getRank() != 0)
      return step.error(node) << "the condition is not a scalar";
    Value holds = step.builder.create<memref::LoadOp>(loc, buffer, ValueRange{});
    Value fails = step.builder.create<arith::XOrIOp>(
        loc, holds, step.builder.create<arith::ConstantIntOp>(loc, 1, 1));
    auto branch = step.builder.create<scf::IfOp>(loc, fails, false);
    OpBuilder::InsertionGuard guard(step.builder);
    step.builder.setInsertionPointToStart(&branch.getThenRegion().front());
    step.callKernel(loc, "tfc_fail", {step.stringPointer(loc, message)}, {});
    return success();
  }
};

/// CheckNumerics: stops the step when its input has a NaN or an infinity,
/// with TensorFlow's message; else its output is a copy of the input.
class CheckNumericsPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    Value input = tfg::getDataOperands(node)[0];
    auto type = cast<RankedTensorType>(input.getType());
    Value source = step.memrefFor(input);
    FailureOr<Value> output = step.outputFor(node);
    if (failed(output) || !source)
      return failure();
    auto message = node->getAttrOfType<StringAttr>("message");
    std::string text = tfg::nodeLabel(node) + ": " +
                       (message ? message.getValue().str() : std::string());
    step.callKernel(loc, "tfc_check_numerics",
                    {step.pointerTo(source), step.stringPointer(loc, text)},
                    {type.getNumElements(),
                     int64_t(tfg::typeToDataType(type.getElementType()))});
    step.builder.create<memref::CopyOp>(loc, source, *output);
    return success();
  }
};

} // namespace

void populateControlFlowPatterns(CodegenPatterns &patterns) {
  patterns.add<MergePattern>("Merge");
  patterns.add<AssertPattern>("Assert");
  patterns.add<CheckNumericsPattern>("CheckNumerics");
}

} // namespace tfc
