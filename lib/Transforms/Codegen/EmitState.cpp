//===- EmitState.cpp - variables, optimizers and random generators --------===//
//
// Nodes that work on the state area (tfc-plan-state): each variable's
// buffer is a view of the state at its planned offset, made once per
// function for every variable node, and refs and handles resolve to it.
//
//  * Reads (Identity of a ref, ReadVariableOp) check the variable's
//    initialized flag and are its buffer (a copy when marked
//    tfc.snapshot by tfc-order-variable-accesses).
//  * Assign and AssignVariableOp copy the value in and set the flag;
//    AssignAdd/AssignSub (and their VariableOp forms) update in place.
//  * The optimizers' Apply ops call the runtime's update kernels with the
//    buffers of the variable and its slots.
//  * Random ops call tfc_cpu_random with their generator's state.
//  * CountUpTo and ResourceCountUpTo call tfc_count_up_to.
//  * Every update (assignments, scatters, the optimizers' Apply ops) holds
//    its variable's lock (tfc_variable_lock): within a step tfc orders the
//    accesses to a variable (tfc-order-variable-accesses), but a parameter
//    server runs the steps of several workers at once. TensorFlow takes
//    the lock only where use_locking (or the resource form) says; tfc
//    always does, which gives one of the results TensorFlow may give, and
//    a shared global_step that misses no increment.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {

namespace {

/// An optimizer update: its kernel, the op's inputs in the kernel's order
/// (-1: a null pointer for an input this form lacks), and the bool attrs
/// passed after the element count.
struct Update {
  StringRef kernel;
  SmallVector<int> inputs;
  SmallVector<StringRef> flags;
  /// Sparse forms: the input holding the row indices (after the inputs
  /// above in the kernel's parameters), and the gradient (a row per index).
  int indices = -1, gradient = -1;
};

std::optional<Update> updateFor(OpKind kind) {
  switch (kind) {
  case OpKind::ApplyGradientDescent:
  case OpKind::ResourceApplyGradientDescent:
    return Update{"apply_gradient_descent_f32", {0, 1, 2}, {}};
  case OpKind::ApplyMomentum:
  case OpKind::ResourceApplyMomentum:
    return Update{"apply_momentum_f32", {0, 1, 2, 3, 4},
                  {"use_nesterov"}};
  case OpKind::ApplyAdagrad:
  case OpKind::ResourceApplyAdagrad:
    return Update{"apply_adagrad_f32", {0, 1, 2, -1, 3},
                  {"update_slots"}};
  case OpKind::ApplyAdagradV2:
  case OpKind::ResourceApplyAdagradV2:
    return Update{"apply_adagrad_f32", {0, 1, 2, 3, 4},
                  {"update_slots"}};
  case OpKind::ApplyRMSProp:
  case OpKind::ResourceApplyRMSProp:
    return Update{"apply_rmsprop_f32", {0, 1, 2, 3, 4, 5, 6, 7}, {}};
  case OpKind::ApplyCenteredRMSProp:
  case OpKind::ResourceApplyCenteredRMSProp:
    return Update{"apply_centered_rmsprop_f32",
                  {0, 1, 2, 3, 4, 5, 6, 7, 8}, {}};
  case OpKind::ApplyAdam:
  case OpKind::ResourceApplyAdam:
    return Update{"apply_adam_f32", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                  {"use_nesterov"}};
  case OpKind::ApplyAdadelta:
  case OpKind::ResourceApplyAdadelta:
    return Update{"apply_adadelta_f32", {0, 1, 2, 3, 4, 5, 6}, {}};
  case OpKind::ApplyFtrl:
  case OpKind::ResourceApplyFtrl:
    return Update{"apply_ftrl_f32", {0, 1, 2, 3, 4, 5, 6, -1, 7},
                  {"multiply_linear_by_lr"}};
  case OpKind::ApplyFtrlV2:
  case OpKind::ResourceApplyFtrlV2:
    return Update{"apply_ftrl_f32", {0, 1, 2, 3, 4, 5, 6, 7, 8},
                  {"multiply_linear_by_lr"}};
  case OpKind::SparseApplyMomentum:
  case OpKind::ResourceSparseApplyMomentum:
    return Update{"sparse_apply_momentum_f32", {0, 1, 2, 3, 5},
                  {"use_nesterov"}, 4, 3};
  case OpKind::SparseApplyAdagrad:
  case OpKind::ResourceSparseApplyAdagrad:
    return Update{"sparse_apply_adagrad_f32", {0, 1, 2, -1, 3},
                  {"update_slots"}, 4, 3};
  case OpKind::SparseApplyAdagradV2:
  case OpKind::ResourceSparseApplyAdagradV2:
    return Update{"sparse_apply_adagrad_f32", {0, 1, 2, 3, 4},
                  {"update_slots"}, 5, 4};
  case OpKind::SparseApplyRMSProp:
  case OpKind::ResourceSparseApplyRMSProp:
    return Update{"sparse_apply_rmsprop_f32",
                  {0, 1, 2, 3, 4, 5, 6, 7}, {}, 8, 7};
  case OpKind::SparseApplyCenteredRMSProp:
  case OpKind::ResourceSparseApplyCenteredRMSProp:
    return Update{"sparse_apply_centered_rmsprop_f32",
                  {0, 1, 2, 3, 4, 5, 6, 7, 8}, {}, 9, 8};
  case OpKind::SparseApplyAdadelta:
  case OpKind::ResourceSparseApplyAdadelta:
    return Update{"sparse_apply_adadelta_f32",
                  {0, 1, 2, 3, 4, 5, 6}, {}, 7, 6};
  case OpKind::SparseApplyFtrl:
  case OpKind::ResourceSparseApplyFtrl:
    return Update{"sparse_apply_ftrl_f32",
                  {0, 1, 2, 3, 5, 6, 7, -1, 8},
                  {"multiply_linear_by_lr"}, 4, 3};
  case OpKind::SparseApplyFtrlV2:
  case OpKind::ResourceSparseApplyFtrlV2:
    return Update{"sparse_apply_ftrl_f32",
                  {0, 1, 2, 3, 5, 6, 7, 8, 9},
                  {"multiply_linear_by_lr"}, 4, 3};
  default:
    return std::nullopt;
  }
}

/// tfc_cpu_scatter_f32's kind for a scatter into a variable, or -1.
int scatterKind(OpKind kind) {
  switch (kind) {
  case OpKind::ScatterUpdate:
  case OpKind::ResourceScatterUpdate:
    return 0;
  case OpKind::ScatterAdd:
  case OpKind::ResourceScatterAdd:
    return 1;
  case OpKind::ScatterSub:
  case OpKind::ResourceScatterSub:
    return 2;
  case OpKind::ScatterMul:
  case OpKind::ResourceScatterMul:
    return 3;
  case OpKind::ScatterDiv:
  case OpKind::ResourceScatterDiv:
    return 4;
  case OpKind::ResourceScatterMin:
    return 5;
  case OpKind::ResourceScatterMax:
    return 6;
  default:
    return -1;
  }
}

/// tfc_cpu_random's kind for a random op, stateful or not, or -1.
int randomKind(OpKind kind) {
  switch (kind) {
  case OpKind::RandomUniform:
  case OpKind::StatelessRandomUniform:
  case OpKind::StatelessRandomUniformV2:
    return 0;
  case OpKind::RandomStandardNormal:
  case OpKind::StatelessRandomNormal:
  case OpKind::StatelessRandomNormalV2:
    return 1;
  case OpKind::TruncatedNormal:
  case OpKind::StatelessTruncatedNormal:
  case OpKind::StatelessTruncatedNormalV2:
    return 2;
  case OpKind::RandomUniformInt:
  case OpKind::StatelessRandomUniformInt:
  case OpKind::StatelessRandomUniformIntV2:
    return 3;
  default:
    return -1;
  }
}

/// The output of the random op `node`, whose values of `distribution` the
/// kernels make as float32 (int32 or int64 for uniform integers); an error
/// naming the node for other element types.
FailureOr<Value> randomOutput(StepEmitter &step, Operation *node,
                              int distribution) {
  FailureOr<Value> out = step.outputFor(node);
  if (failed(out))
    return failure();
  Type element = cast<MemRefType>(out->getType()).getElementType();
  bool made = distribution == 3 ? element.isInteger(32) || element.isInteger(64)
                                : element.isF32();
  if (!made)
    return step.error(node) << "random values of type " << element
                            << " are not supported yet";
  return out;
}

bool isAssignment(OpKind kind) {
  return kind == OpKind::Assign || kind == OpKind::AssignVariableOp;
}

/// +1 for AssignAdd forms, -1 for AssignSub forms, 0 otherwise.
int accumulation(OpKind kind) {
  if (kind == OpKind::AssignAdd || kind == OpKind::AssignAddVariableOp)
    return 1;
  if (kind == OpKind::AssignSub || kind == OpKind::AssignSubVariableOp)
    return -1;
  return 0;
}

} // namespace

MemRefType variableType(Operation *variableNode) {
  auto dtype = variableNode->getAttrOfType<TypeAttr>("dtype");
  auto shape = variableNode->getAttrOfType<tfg::ShapeAttr>("shape");
  return memrefOf(RankedTensorType::get(shape.getDims(), dtype.getValue()));
}

void StepEmitter::checkInitialized(Location loc, Value reference) {
  Operation *variable = variableNodeOf(reference);
  int64_t flag = variable->getAttrOfType<IntegerAttr>(kFlagOffsetAttr).getInt();
  callKernel(loc, "tfc_check_initialized",
             {bytePointer(loc, pointerTo(state), flag),
              stringPointer(loc, variableId(variable))},
             {});
}

void StepEmitter::lockVariable(Location loc, Value variable) {
  callKernel(loc, "tfc_variable_lock", {pointerTo(variable)}, {});
}

void StepEmitter::unlockVariable(Location loc, Value variable) {
  callKernel(loc, "tfc_variable_unlock", {pointerTo(variable)}, {});
}

void StepEmitter::setInitialized(Location loc, Value reference, bool value) {
  Operation *variable = variableNodeOf(reference);
  int64_t flag = variable->getAttrOfType<IntegerAttr>(kFlagOffsetAttr).getInt();
  Value byte = builder.create<arith::ConstantIntOp>(loc, value ? 1 : 0, 8);
  builder.create<LLVM::StoreOp>(loc, byte,
                                bytePointer(loc, pointerTo(state), flag));
}

/// Scatter*/ResourceScatter* (kind: see tfc_cpu_scatter_f32): updates of
/// the indexed rows of a float32 variable, in place.
static LogicalResult emitScatter(StepEmitter &step, Operation *node, int kind) {
  Location loc = node->getLoc();
  OperandRange operands = tfg::getDataOperands(node);
  Value variable = step.memrefFor(operands[0]);
  Value indices = step.memrefFor(operands[1]),
        updates = step.memrefFor(operands[2]);
  if (!indices || !updates)
    return step.error(node) << "the indices or the updates have no buffer";
  auto varType = cast<MemRefType>(variable.getType());
  auto indicesType = cast<MemRefType>(indices.getType());
  auto updatesType = cast<MemRefType>(updates.getType());
  if (!varType.getElementType().isF32() ||
      !updatesType.getElementType().isF32())
    return step.error(node) << "scatters into float32 variables only for now";
  if (varType.getRank() == 0)
    return step.error(node) << "scatters into a scalar variable";
  auto [rows, rowSize] = rowsOf(varType);
  int64_t count = indicesType.getNumElements();
  bool scalar = updatesType.getRank() == 0;
  if (!scalar && updatesType.getNumElements() != count * rowSize)
    return step.error(node)
           << "updates of type " << updatesType << " do not match indices "
           << indicesType << " into a variable of type " << varType;
  // An update (kind 0) initializes nothing: the variable must be, as for
  // every other kind.
  step.checkInitialized(loc, operands[0]);
  step.lockVariable(loc, variable);
  step.callKernel(loc, step.kernelName("scatter_f32"),
                  {step.pointerTo(variable), step.pointerTo(indices),
                   step.pointerTo(updates),
                   step.stringPointer(loc, tfg::getNodeName(node))},
                  {rows, rowSize, count,
                   indicesType.getElementTypeBitWidth() / 8, scalar ? 1 : 0,
                   node->hasAttr(kSkipNegativeIndicesAttr) ? 1 : 0},
                  kind);
  step.unlockVariable(loc, variable);
  return success();
}

namespace {

/// Variables, optimizers and random generators (the state area).
class StateOpPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    // Every ref or handle operand must lead to a variable node.
    for (Value operand : operands)
      if (isVariableReference(operand.getType()) && !variableNodeOf(operand))
        return step.error(node)
               << "cannot tell which variable an input refers to";

    if (kind == OpKind::VarIsInitializedOp ||
        kind == OpKind::IsVariableInitialized) {
      Operation *variable = variableNodeOf(operands[0]);
      int64_t flag =
          variable->getAttrOfType<IntegerAttr>(kFlagOffsetAttr).getInt();
      Value byte = step.builder.create<LLVM::LoadOp>(
          loc, step.builder.getI8Type(),
          step.bytePointer(loc, step.pointerTo(step.state), flag));
      Value isSet = step.builder.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ne, byte,
          step.builder.create<arith::ConstantIntOp>(loc, 0, 8));
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      step.builder.create<memref::StoreOp>(loc, isSet, *out, ValueRange{});
      return success();
    }

    if (isVariableRead(node)) {
      step.checkInitialized(loc, operands[0]);
      Value buffer = step.memrefFor(operands[0]);
      Value result = tfg::getDataResults(node)[0];
      if (memrefOf(result) != buffer.getType())
        return step.error(node) << "reads a " << buffer.getType()
                                << " variable as " << result.getType();
      if (!node->hasAttr(kSnapshotAttr)) {
        step.memrefs[result] = buffer;
        return success();
      }
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      step.builder.create<memref::CopyOp>(loc, buffer, *out);
      return success();
    }

    if (int distribution = randomKind(kind); distribution >= 0) {
      FailureOr<Value> out = randomOutput(step, node, distribution);
      if (failed(out))
        return failure();
      auto outType = cast<MemRefType>(out->getType());
      Type element = outType.getElementType();
      Value none = step.nullPointer(loc);
      Value low = distribution == 3
                      ? step.pointerTo(step.memrefFor(operands[1]))
                      : none;
      Value high = distribution == 3
                       ? step.pointerTo(step.memrefFor(operands[2]))
                       : none;
      int64_t offset =
          node->getAttrOfType<IntegerAttr>(kStateOffsetAttr).getInt();
      int64_t dtype = tfg::typeToDataType(element);
      step.callKernel(
          loc, step.kernelName("random"),
          {step.pointerTo(*out),
           step.bytePointer(loc, step.pointerTo(step.state), offset), low,
           high},
          {outType.getNumElements(), dtype, intAttr(node, "seed"),
           intAttr(node, "seed2")},
          distribution);
      return success();
    }

    if (kind == OpKind::RandomShuffle) {
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      auto type = cast<MemRefType>(out->getType());
      int64_t rows = type.getRank() ? type.getDimSize(0) : 1;
      int64_t rowBytes =
          rows ? type.getNumElements() / rows *
                     elementBytes(type)
               : 0;
      if (!type.getElementType().isIntOrFloat())
        return step.error(node) << "shuffles numbers only";
      int64_t offset =
          node->getAttrOfType<IntegerAttr>(kStateOffsetAttr).getInt();
      step.callKernel(
          loc, step.kernelName("random_shuffle"),
          {step.pointerTo(step.memrefFor(operands[0])), step.pointerTo(*out),
           step.bytePointer(loc, step.pointerTo(step.state), offset)},
          {rows, rowBytes, intAttr(node, "seed"), intAttr(node, "seed2")});
      return success();
    }

    if (kind == OpKind::ResourceGather) {
      // Rows of the variable (axis 0; batch_dims 0), each index checked.
      auto batchDims = node->getAttrOfType<IntegerAttr>("batch_dims");
      if (batchDims && batchDims.getInt() != 0)
        return step.error(node) << "batch_dims other than 0 are not supported";
      step.checkInitialized(loc, operands[0]);
      auto varType = cast<MemRefType>(step.memrefFor(operands[0]).getType());
      FailureOr<Value> out = step.outputFor(node);
      Value indices = step.memrefFor(operands[1]);
      if (failed(out) || !indices)
        return failure();
      if (varType.getRank() == 0)
        return step.error(node) << "gathers from a scalar variable";
      auto [rows, rowSize] = rowsOf(varType);
      int64_t rowBytes = rowSize * elementBytes(varType);
      auto indicesType = cast<MemRefType>(indices.getType());
      step.callKernel(loc, step.kernelName("gather_rows"),
                      {step.pointerTo(step.memrefFor(operands[0])),
                       step.pointerTo(indices), step.pointerTo(*out),
                       step.stringPointer(loc, tfg::getNodeName(node))},
                      {rows, rowBytes, indicesType.getNumElements(),
                       indicesType.getElementTypeBitWidth() / 8});
      return success();
    }

    if (int scatter = scatterKind(kind); scatter >= 0)
      return emitScatter(step, node, scatter);

    if (kind == OpKind::CountUpTo || kind == OpKind::ResourceCountUpTo) {
      step.checkInitialized(loc, operands[0]);
      Value variable = step.memrefFor(operands[0]);
      FailureOr<Value> out = step.outputFor(node);
      if (failed(out))
        return failure();
      auto type = cast<MemRefType>(variable.getType());
      if (type.getRank() != 0 || !type.getElementType().isInteger())
        return step.error(node) << "counts up a variable of type " << type
                                << ", not an integer scalar";
      step.callKernel(loc, "tfc_count_up_to",
                      {step.pointerTo(variable), step.pointerTo(*out),
                       step.stringPointer(loc, tfg::getNodeName(node))},
                      {intAttr(node, "limit"), elementBytes(type)});
      return success();
    }

    if (kind == OpKind::DestroyResourceOp) {
      step.setInitialized(loc, operands[0], false);
      return success();
    }

    Value variable = step.memrefFor(operands[0]);
    auto varType = cast<MemRefType>(variable.getType());
    if (isAssignment(kind) || accumulation(kind)) {
      Value value = step.memrefFor(operands[1]);
      if (!value)
        return step.error(node) << "the assigned value has no buffer";
      if (cast<MemRefType>(value.getType()).getShape() != varType.getShape())
        return step.error(node) << "assigns a value of type " << value.getType()
                                << " to a variable of type " << varType
                                << " (variables keep their shape)";
      if (isAssignment(kind)) {
        // The value's buffer may have another (equal) layout: copy elements.
        step.lockVariable(loc, variable);
        step.builder.create<memref::CopyOp>(loc, value, variable);
        step.setInitialized(loc, operands[0], true);
        step.unlockVariable(loc, variable);
        return success();
      }
      step.checkInitialized(loc, operands[0]);
      step.lockVariable(loc, variable);
      int sign = accumulation(kind);
      bool isFloat = isa<FloatType>(varType.getElementType());
      AffineMap identity =
          step.builder.getMultiDimIdentityMap(varType.getRank());
      step.emitLoop(loc, {variable, value}, {identity, identity}, variable,
                    [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                      if (isFloat && sign > 0)
                        return b.create<arith::AddFOp>(l, args[0], args[1]);
                      if (isFloat)
                        return b.create<arith::SubFOp>(l, args[0], args[1]);
                      if (sign > 0)
                        return b.create<arith::AddIOp>(l, args[0], args[1]);
                      return b.create<arith::SubIOp>(l, args[0], args[1]);
                    });
      step.unlockVariable(loc, variable);
      return success();
    }

    std::optional<Update> update = updateFor(kind);
    if (!update)
      return step.error(node) << "no code generation for this op yet";
    if (!varType.getElementType().isF32())
      return step.error(node)
             << "updates of " << varType.getElementType()
             << " variables are not supported yet (float32 only)";
    SmallVector<Value> pointers;
    // Sparse forms: the indices, their count, the variable's rows.
    auto [rows, rowSize] = rowsOf(varType);
    int64_t sparseCount = 0, indexBytes = 0;
    Value indices;
    if (update->indices >= 0) {
      if (varType.getRank() == 0)
        return step.error(node) << "a sparse update of a scalar variable";
      indices = step.memrefFor(operands[update->indices]);
      if (!indices)
        return step.error(node) << "the indices have no buffer";
      auto indicesType = cast<MemRefType>(indices.getType());
      if (indicesType.getRank() != 1)
        return step.error(node) << "the indices must be a vector";
      sparseCount = indicesType.getNumElements();
      indexBytes = indicesType.getElementTypeBitWidth() / 8;
    }
    for (int index : update->inputs) {
      if (index < 0) {
        pointers.push_back(step.nullPointer(loc));
        continue;
      }
      if (index >= int(operands.size()))
        return step.error(node)
               << "has " << operands.size() << " inputs, expected " << index + 1
               << " or more";
      Value operand = operands[index];
      Value buffer = step.memrefFor(operand);
      if (!buffer)
        return step.error(node) << "input " << index << " has no buffer";
      auto bufferType = cast<MemRefType>(buffer.getType());
      // Slots and the gradient have the variable's shape (a sparse
      // gradient: a row per index); the rest are scalars.
      int64_t expected = varType.getNumElements();
      if (index == update->gradient)
        expected = sparseCount * rowSize;
      if (bufferType.getNumElements() != expected &&
          bufferType.getNumElements() != 1)
        return step.error(node)
               << "input " << index << " has type " << bufferType
               << ", not the variable's " << varType << " or a scalar";
      if (!bufferType.getElementType().isF32())
        return step.error(node) << "input " << index << " is not float32";
      if (isVariableReference(operand.getType()))
        step.checkInitialized(loc, operand);
      pointers.push_back(step.pointerTo(buffer));
    }
    SmallVector<int64_t> sizes = {varType.getNumElements()};
    if (update->indices >= 0) {
      pointers.push_back(step.pointerTo(indices));
      pointers.push_back(step.stringPointer(loc, tfg::getNodeName(node)));
      sizes = {rowSize, sparseCount, rows, indexBytes,
               node->hasAttr(kSkipNegativeIndicesAttr) ? 1 : 0};
    }
    // update_slots defaults to true; the others to false.
    for (StringRef flag : update->flags)
      sizes.push_back(boolAttr(node, flag, flag == "update_slots"));
    step.lockVariable(loc, variable);
    step.callKernel(loc, step.kernelName(update->kernel), pointers, sizes);
    step.unlockVariable(loc, variable);
    return success();
  }
};

/// TensorScatterUpdate/Add/Sub/Min/Max and ScatterNd of rows (indices
/// [count, 1]): the tensor copied (ScatterNd: zeros), then its rows
/// replaced or combined with the updates, in order (duplicates add up).
class TensorScatterUpdatePattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    OpKind kind = opKindOf(node);
    bool fromZeros = kind == OpKind::ScatterNd;
    // scatter_f32's kinds: 1 add, 2 subtract, 5 min, 6 max.
    int combine = llvm::StringSwitch<int>(tfg::getOpType(node))
                      .Cases("TensorScatterAdd", "ScatterNd", 1)
                      .Case("TensorScatterSub", 2)
                      .Case("TensorScatterMin", 5)
                      .Case("TensorScatterMax", 6)
                      .Default(0);
    Value tensor = fromZeros ? Value() : step.memrefFor(operands[0]),
          indices = step.memrefFor(operands[fromZeros ? 0 : 1]),
          updates = step.memrefFor(operands[fromZeros ? 1 : 2]);
    FailureOr<Value> out = step.outputFor(node);
    if ((!tensor && !fromZeros) || !indices || !updates || failed(out))
      return step.error(node) << "an input has no buffer";
    auto outType = cast<MemRefType>(out->getType());
    auto indicesType = cast<MemRefType>(indices.getType());
    auto updatesType = cast<MemRefType>(updates.getType());
    Type element = outType.getElementType();
    if (outType.getRank() == 0 || indicesType.getRank() != 2 ||
        indicesType.getDimSize(1) != 1 || !element.isIntOrFloat())
      return step.error(node)
             << "updates rows of an integer or float tensor only "
                "(indices [count, 1]) for now";
    auto [rows, rowSize] = rowsOf(outType);
    int64_t count = indicesType.getDimSize(0);
    if (updatesType.getNumElements() != count * rowSize)
      return step.error(node) << "updates of type " << updatesType
                              << " do not match indices " << indicesType;
    if (combine && !element.isF32())
      return step.error(node) << "combines float32 rows only for now";
    // The tensor's value first, unless the plan put the output over it.
    if (fromZeros)
      step.builder.create<linalg::FillOp>(
          loc,
          ValueRange{step.builder.create<arith::ConstantOp>(
              loc, step.builder.getZeroAttr(element))},
          ValueRange{*out});
    else if (!step.sameMemory(tensor, *out))
      step.builder.create<memref::CopyOp>(loc, tensor, *out);
    if (combine) {
      step.callKernel(loc, step.kernelName("scatter_f32"),
                      {step.pointerTo(*out), step.pointerTo(indices),
                       step.pointerTo(updates),
                       step.stringPointer(loc, tfg::getNodeName(node))},
                      {rows, rowSize, count,
                       indicesType.getElementTypeBitWidth() / 8,
                       /*scalarUpdates=*/0, /*dropNegative=*/0},
                      combine);
      return success();
    }
    // (Booleans are a byte each.)
    int64_t elementBytes =
        std::max<int64_t>(element.getIntOrFloatBitWidth() / 8, 1);
    step.callKernel(loc, step.kernelName("scatter_rows"),
                    {step.pointerTo(*out), step.pointerTo(indices),
                     step.pointerTo(updates),
                     step.stringPointer(loc, tfg::getNodeName(node))},
                    {rows, rowSize * elementBytes, count,
                     indicesType.getElementTypeBitWidth() / 8});
    return success();
  }
};

/// An Identity of a ref variable reads it (the value at this point of the
/// step, see tfc-order-variable-accesses); other Identities are aliases.
class VariableReadPattern : public StateOpPattern {
public:
  using StateOpPattern::StateOpPattern;

  LogicalResult match(Operation *node) const override {
    return success(isVariableRead(node));
  }
};

/// The stateless random ops, from the Philox stream their seed pair (the
/// first versions) or key and counter (the second) start; and the ops
/// that make a key and counter of a seed pair, and name the algorithm.
class StatelessRandomPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    Location loc = node->getLoc();
    OpBuilder &b = step.builder;
    auto pointer = [&](Value value) { return step.pointerTo(step.memrefFor(value)); };
    auto bytesOf = [](Value value) -> int64_t {
      return elementBytes(value.getType());
    };
    // The algorithm, on CPUs: 1, Philox.
    auto storePhilox = [&](unsigned port) -> LogicalResult {
      FailureOr<Value> out = step.outputFor(node, port);
      if (failed(out))
        return failure();
      b.create<memref::StoreOp>(loc, b.create<arith::ConstantIntOp>(loc, 1, 32),
                                *out, ValueRange{});
      return success();
    };
    if (kind == OpKind::StatelessRandomGetAlg)
      return storePhilox(0);
    if (kind == OpKind::StatelessRandomGetKeyCounter ||
        kind == OpKind::StatelessRandomGetKeyCounterAlg) {
      FailureOr<Value> key = step.outputFor(node, 0);
      FailureOr<Value> counter = step.outputFor(node, 1);
      if (failed(key) || failed(counter))
        return failure();
      step.callKernel(loc, step.kernelName("random_key_counter"),
                      {pointer(operands[0]), step.pointerTo(*key),
                       step.pointerTo(*counter)},
                      {bytesOf(operands[0])});
      return kind == OpKind::StatelessRandomGetKeyCounterAlg ? storePhilox(2)
                                                             : success();
    }

    int distribution = randomKind(kind);
    FailureOr<Value> out = randomOutput(step, node, distribution);
    if (failed(out))
      return failure();
    auto outType = cast<MemRefType>(out->getType());
    Type element = outType.getElementType();
    // (shape, seed, [minval, maxval]) or (shape, key, counter, algorithm,
    // [minval, maxval]).
    bool keyed = llvm::is_contained(
        {OpKind::StatelessRandomUniformV2, OpKind::StatelessRandomNormalV2,
         OpKind::StatelessTruncatedNormalV2, OpKind::StatelessRandomUniformIntV2},
        kind);
    Value none = step.nullPointer(loc);
    unsigned bounds = keyed ? 4 : 2;
    step.callKernel(
        loc, step.kernelName("stateless_random"),
        {step.pointerTo(*out), keyed ? none : pointer(operands[1]),
         keyed ? pointer(operands[1]) : none,
         keyed ? pointer(operands[2]) : none,
         keyed ? pointer(operands[3]) : none,
         distribution == 3 ? pointer(operands[bounds]) : none,
         distribution == 3 ? pointer(operands[bounds + 1]) : none,
         step.stringPointer(loc, tfg::nodeLabel(node))},
        {outType.getNumElements(), tfg::typeToDataType(element),
         keyed ? 8 : bytesOf(operands[1])},
        distribution);
    return success();
  }
};

} // namespace

void populateStatePatterns(CodegenPatterns &patterns) {
  patterns.add<StateOpPattern>("StateOp");
  patterns.add<StatelessRandomPattern>("StatelessRandom");
  patterns.add<TensorScatterUpdatePattern>("TensorScatter");
  // Before the Identity's alias pattern, which it declines to.
  patterns.add<VariableReadPattern>("VariableRead", {"Identity"},
                                    /*benefit=*/2);
}

} // namespace tfc
