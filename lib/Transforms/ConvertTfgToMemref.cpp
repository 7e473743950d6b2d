//===- ConvertTfgToMemref.cpp - the step as loops and kernel calls --------===//
//
// Turns the planned step entry (after tfc-fuse-elementwise and
// tfc-plan-memory) into `func.func @tfc_step_impl`:
//
//   (%runtime: !llvm.ptr, %arena: memref<ARENAxi8>, %in0: memref<..>, ...,
//    %out0: memref<..>, ...)
//
// in the order the schedule fixes. Every materialized tensor is a
// memref.view of the arena at its planned offset; `_Arg` outputs are the
// input parameters; Const outputs are private memref.globals. Each
// elementwise group is one linalg.generic over its inputs (broadcast by
// indexing maps) writing its root's buffer; heavy ops call kernels of the
// runtime's C ABI with raw pointers and static sizes; `_Retval` copies into
// its output parameter. The function knows nothing of the graph: no op names
// survive, and no decision is left to run time.
//
// This file holds the walk and the helpers; the op families are lowered by
// the patterns of the files of Codegen/ (PopulatePatterns.h).
//
//===----------------------------------------------------------------------===//

#include "Codegen/PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Partition.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Queues.h"
#include "tfc/Transforms/Stacks.h"
#include "tfc/Transforms/TensorArrays.h"
#include "tfc/Transforms/Variables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_CONVERTTFGTOMEMREFPASS
#include "tfc/Transforms/Passes.h.inc"



MemRefType memrefOf(Value value) { return memrefOf(value.getType()); }

MemRefType memrefOf(Type tensorType) {
  auto type = cast<RankedTensorType>(tensorType);
  Type element = type.getElementType();
  // A ref tensor is the variable's buffer.
  if (auto ref = dyn_cast<tfg::RefType>(element))
    element = ref.getElementType();
  // A string tensor holds a handle per element (tfc_runtime.h).
  if (isa<tfg::StringType>(element))
    element = IntegerType::get(type.getContext(), 64);
  // arith computes on signless integers; the tensor type keeps the sign.
  if (auto integer = dyn_cast<IntegerType>(element))
    element = IntegerType::get(type.getContext(), integer.getWidth());
  return MemRefType::get(type.getShape(), element);
}

std::pair<int64_t, int64_t> rowsOf(MemRefType type) {
  // A scalar is one row of one element.
  int64_t rows = type.getRank() ? type.getDimSize(0) : 1;
  return {rows, rows ? type.getNumElements() / rows : 0};
}

Value StepEmitter::nullPointer(Location loc) {
  return builder.create<LLVM::ZeroOp>(loc, LLVM::LLVMPointerType::get(context));
}

Value StepEmitter::pointerTo(Value memref) {
  Location loc = memref.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  // A view's aligned pointer is its base's (arena or state): its offset is
  // in the descriptor. The planned byte offset is known, so add it here.
  auto it = views.find(memref);
  Value base = it == views.end() ? memref : it->second.first;
  int64_t offset = it == views.end() ? 0 : it->second.second;
  Value index =
      builder.create<memref::ExtractAlignedPointerAsIndexOp>(loc, base);
  Value i64 = builder.create<arith::IndexCastOp>(loc, builder.getI64Type(),
                                                 index);
  Value pointer = builder.create<LLVM::IntToPtrOp>(loc, ptr, i64);
  return offset == 0 ? pointer : bytePointer(loc, pointer, offset);
}

Value StepEmitter::bytePointer(Location loc, Value pointer, int64_t offset) {
  Type ptr = LLVM::LLVMPointerType::get(context);
  Value bytes = builder.create<arith::ConstantIntOp>(loc, offset, 64);
  return builder.create<LLVM::GEPOp>(loc, ptr, builder.getI8Type(), pointer,
                                     ValueRange{bytes});
}

bool StepEmitter::sameMemory(Value a, Value b) const {
  auto x = views.find(a), y = views.find(b);
  return a == b ||
         (x != views.end() && y != views.end() && x->second == y->second);
}

Value StepEmitter::reshapeOf(Location loc, Value memref, MemRefType type) {
  if (auto known = views.find(memref); known != views.end())
    return viewOf(loc, known->second.first, known->second.second, type);
  return builder.create<memref::ReinterpretCastOp>(
      loc, type, memref, 0, type.getShape(), rowMajorStrides(type.getShape()));
}

Value StepEmitter::viewOf(Location loc, Value base, int64_t offset,
                          MemRefType type) {
  // The arena and the state are bytes; an output parameter has its
  // output's elements, seen whole in another shape.
  auto baseType = cast<MemRefType>(base.getType());
  Value view;
  if (baseType.getRank() == 1 && baseType.getElementType().isInteger(8)) {
    Value index = builder.create<arith::ConstantIndexOp>(loc, offset);
    view = builder.create<memref::ViewOp>(loc, type, base, index, ValueRange{});
  } else {
    assert(offset == 0 && "a typed base is only seen whole");
    view = baseType == type ? base
                            : builder.create<memref::ReinterpretCastOp>(
                                  loc, type, base, 0, type.getShape(),
                                  rowMajorStrides(type.getShape()));
  }
  views[view] = {base, offset};
  return view;
}

Value StepEmitter::outputParameter(int64_t index) {
  return step.getArgument(
      3 + graph->getAttrOfType<IntegerAttr>(kNumInputsAttr).getInt() + index);
}

std::string StepEmitter::addGlobal(Location loc, StringRef prefix,
                                   MemRefType type, DenseElementsAttr value,
                                   IntegerAttr alignment) {
  std::string name = prefix.str() + std::to_string(globals++);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  builder.create<memref::GlobalOp>(loc, name, builder.getStringAttr("private"),
                                   type, value, /*constant=*/true, alignment);
  return name;
}

Value StepEmitter::stringPointer(Location loc, StringRef text) {
  auto type = MemRefType::get({int64_t(text.size() + 1)}, builder.getI8Type());
  // One global per text: a variable's name serves each of its checks.
  auto [it, inserted] = strings.try_emplace(text, "");
  if (inserted) {
    SmallVector<int8_t> chars(text.begin(), text.end());
    chars.push_back(0);
    it->second = addGlobal(
        loc, "tfc_string_", type,
        DenseElementsAttr::get(
            RankedTensorType::get(type.getShape(), builder.getI8Type()),
            ArrayRef<int8_t>(chars)),
        IntegerAttr());
  }
  return pointerTo(builder.create<memref::GetGlobalOp>(loc, type, it->second));
}

func::FuncOp StepEmitter::kernel(StringRef name, TypeRange inputs,
                                 TypeRange results) {
  func::FuncOp &known = kernels[name];
  if (known)
    return known;
  // Another step of the module may have declared it.
  if ((known = module.lookupSymbol<func::FuncOp>(name)))
    return known;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  known = builder.create<func::FuncOp>(
      module.getLoc(), name, builder.getFunctionType(inputs, results));
  known.setPrivate();
  return known;
}

Value StepEmitter::concatWindowFor(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *concat = use.getOwner();
    unsigned index = use.getOperandNumber();
    if (!isInPlaceOperand(concat, index))
      continue;
    std::optional<int64_t> axis = concatAxis(concat);
    Value whole = memrefFor(tfg::getDataResults(concat)[0]);
    auto base = views.find(whole);
    if (!axis || !whole || base == views.end())
      return {};
    // The concatenation's output may itself be a window: its strides are
    // the outermost concatenation's, and so are this one's.
    auto type = cast<RankedTensorType>(value.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> offsets(rank, 0), steps(rank, 1);
    offsets[*axis] = concatOffset(concat, index, *axis);
    auto window = builder.create<memref::SubViewOp>(
        value.getLoc(), whole, offsets, type.getShape(), steps);
    int64_t from =
        getStridesAndOffset(cast<MemRefType>(whole.getType())).second;
    int64_t to = getStridesAndOffset(window.getType()).second;
    views[window] = {base->second.first,
                     base->second.second +
                         (to - from) * elementBytes(type.getElementType())};
    memrefs[value] = window;
    return window;
  }
  return {};
}

Value StepEmitter::memrefFor(Value value) {
  if (Value known = memrefs.lookup(value))
    return known;
  // Inside a fusion group, an input is its value outside, and the root's
  // results are the group's; the other members' values never exist.
  if (Value outside = valueOutsideGroup(value); outside != value)
    return memrefFor(outside);
  if (Operation *producer = value.getDefiningOp();
      producer && isa<FusionGroupOp>(producer->getParentOp()))
    return {};
  // A ref or handle: the variable's buffer in the state area.
  if (isVariableReference(value.getType())) {
    Operation *variable = variableNodeOf(value);
    return variable ? memrefs.lookup(tfg::getDataResults(variable)[0]) : Value();
  }
  Operation *node = value.getDefiningOp();
  Location loc = node->getLoc();
  // String constants: handles the step stores (stringConstant).
  if (opKindOf(node) == OpKind::Const &&
      isa<DenseStringElementsAttr>(node->getAttr("value"))) {
    Value handles = stringConstant(
        loc, cast<DenseStringElementsAttr>(node->getAttr("value")),
        memrefOf(value));
    memrefs[value] = handles;
    return handles;
  }
  // Constants: private globals with their value.
  if (opKindOf(node) == OpKind::Const) {
    auto dense = node->getAttrOfType<DenseElementsAttr>("value");
    MemRefType type = memrefOf(value);
    std::string name = addGlobal(
        loc, "tfc_const_", type,
        dense.bitcast(type.getElementType())
            .reshape(RankedTensorType::get(type.getShape(), type.getElementType())),
        builder.getI64IntegerAttr(64));
    Value global = builder.create<memref::GetGlobalOp>(loc, type, name);
    memrefs[value] = global;
    return global;
  }
  if (Value window = concatWindowFor(value))
    return window;
  unsigned port = cast<OpResult>(value).getResultNumber();
  // A fetched tensor the plan made in its output parameter: the parameter,
  // seen as the value's shape (an alias's or a writer's before it).
  if (auto outputs = node->getAttrOfType<DenseI64ArrayAttr>(kInOutputsAttr);
      outputs && port < outputs.size() && outputs[port] >= 0) {
    Value parameter = outputParameter(outputs[port]);
    views[parameter] = {parameter, 0};
    Value view = viewOf(loc, parameter, 0, memrefOf(value));
    memrefs[value] = view;
    return view;
  }
  // Everything else lives in the arena at its planned offset.
  auto offsets = node->getAttrOfType<DenseI64ArrayAttr>(kOffsetsAttr);
  if (!offsets || port >= offsets.size() || offsets[port] < 0)
    return {};
  Value view = viewOf(loc, arena, offsets[port], memrefOf(value));
  memrefs[value] = view;
  return view;
}

void appendStringObject(SmallVectorImpl<int8_t> &bytes, StringRef text) {
  for (int i = 0; i < 8; ++i)
    bytes.push_back(int8_t(uint64_t(text.size()) >> (8 * i)));
  bytes.append(text.begin(), text.end());
  bytes.push_back(0);
}

Value StepEmitter::stringObject(Location loc, StringRef text) {
  auto [it, inserted] = stringObjects.try_emplace(text, "");
  auto type = MemRefType::get({int64_t(8 + text.size() + 1)}, builder.getI8Type());
  if (inserted) {
    SmallVector<int8_t> bytes;
    appendStringObject(bytes, text);
    it->second = addGlobal(
        loc, "tfc_string_object_", type,
        DenseElementsAttr::get(
            RankedTensorType::get(type.getShape(), builder.getI8Type()),
            ArrayRef<int8_t>(bytes)),
        builder.getI64IntegerAttr(8));
  }
  return pointerTo(builder.create<memref::GetGlobalOp>(loc, type, it->second));
}

Value StepEmitter::handleOf(Location loc, Value pointer) {
  return builder.create<LLVM::PtrToIntOp>(loc, builder.getI64Type(), pointer);
}

Value StepEmitter::stringConstant(Location loc, DenseStringElementsAttr value,
                                  MemRefType type) {
  // Addresses are not constants of a memref.global: the handles live in a
  // writable global that the step fills, at its start, from the objects.
  auto flat = MemRefType::get({type.getNumElements()}, builder.getI64Type());
  std::string name = "tfc_string_handles_" + std::to_string(globals++);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    builder.create<memref::GlobalOp>(loc, name, builder.getStringAttr("private"),
                                     flat, builder.getUnitAttr(),
                                     /*constant=*/false, IntegerAttr());
  }
  Value handles = builder.create<memref::GetGlobalOp>(loc, flat, name);
  for (auto [i, text] : llvm::enumerate(value.getValues<StringRef>())) {
    Value index = builder.create<arith::ConstantIndexOp>(loc, i);
    builder.create<memref::StoreOp>(loc, handleOf(loc, stringObject(loc, text)),
                                    handles, ValueRange{index});
  }
  if (flat == type)
    return handles;
  return builder.create<memref::ReinterpretCastOp>(
      loc, type, handles, 0, type.getShape(), rowMajorStrides(type.getShape()));
}

Value StepEmitter::addressTable(Location loc, ArrayRef<Value> memrefs) {
  auto type = MemRefType::get({int64_t(memrefs.size())}, builder.getI64Type());
  Value table = builder.create<memref::AllocaOp>(loc, type);
  for (auto [i, memref] : llvm::enumerate(memrefs)) {
    Value index = builder.create<arith::ConstantIndexOp>(loc, i);
    Value pointer = memref ? pointerTo(memref) : nullPointer(loc);
    builder.create<memref::StoreOp>(loc, handleOf(loc, pointer), table,
                                    ValueRange{index});
  }
  return pointerTo(table);
}

void StepEmitter::callKernel(Location loc, StringRef name,
                             ArrayRef<Value> pointers, ArrayRef<int64_t> sizes,
                             std::optional<int32_t> kind) {
  SmallVector<Value> args = {runtime};
  if (kind)
    args.push_back(builder.create<arith::ConstantIntOp>(loc, *kind, 32));
  llvm::append_range(args, pointers);
  for (int64_t size : sizes)
    args.push_back(builder.create<arith::ConstantIntOp>(loc, size, 64));
  builder.create<func::CallOp>(loc, kernel(name, ValueRange(args).getTypes()),
                               args);
}

FailureOr<Value> StepEmitter::outputFor(Operation *node, unsigned port) {
  Value out = memrefFor(tfg::getDataResults(node)[port]);
  if (!out)
    return error(node) << "output " << port << " has no buffer";
  return out;
}

Value StepEmitter::constantTable(Location loc, ArrayRef<int64_t> values) {
  auto type = MemRefType::get({int64_t(values.size())}, builder.getI64Type());
  std::string name = addGlobal(
      loc, "tfc_table_", type,
      DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), builder.getI64Type()), values),
      IntegerAttr());
  return builder.create<memref::GetGlobalOp>(loc, type, name);
}

namespace {

/// _Send and _Recv: tfc_send/tfc_recv with the rendezvous key.
class TransferPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    bool send = opKindOf(node) == OpKind::InternalSend;
    Value tensor =
        send ? tfg::getDataOperands(node)[0] : tfg::getDataResults(node)[0];
    Value buffer = step.memrefFor(tensor);
    if (!buffer)
      return step.error(node) << "the transferred tensor has no buffer";
    int64_t bytes = tensorBytes(tensor.getType());
    if (bytes < 0)
      return step.error(node) << "the transferred tensor has no static size";
    auto frame = node->getAttrOfType<StringAttr>(kFrameAttr);
    if (!frame) {
      step.callKernel(loc, send ? "tfc_send" : "tfc_recv",
                      {step.stringPointer(loc, rendezvousKey(node)),
                       step.pointerTo(buffer)},
                      {bytes});
      return success();
    }
    // In a loop cut between devices (tfc-partition): once per iteration.
    if (step.loopIterations.size() != 1)
      return step.error(node) << "a transfer inside a loop nested in another "
                                 "loop is not supported yet";
    OpBuilder &builder = step.builder;
    SmallVector<Value> args = {
        step.runtime,
        step.stringPointer(loc, rendezvousKeyPrefixInFrame(node, frame.getValue())),
        step.pointerTo(buffer), step.loopIterations.front(),
        builder.create<arith::ConstantIntOp>(loc, bytes, 64)};
    StringRef name = send ? "tfc_send_in_frame" : "tfc_recv_in_frame";
    builder.create<func::CallOp>(
        loc, step.kernel(name, ValueRange(args).getTypes()), args);
    return success();
  }
};

/// Aliases: each output a view of its input's memory.
class AliasPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    // Output i is input i's memory, seen with another shape: a view at the
    // same arena offset, or the input reshaped (a variable's buffer in the
    // state area, an input, a constant).
    for (auto [port, result] : llvm::enumerate(tfg::getDataResults(node))) {
      Value input = aliasedInput(node, port);
      // Handles are resolved to their variable by memrefFor.
      if (isVariableReference(result.getType()))
        continue;
      MemRefType resultType = memrefOf(result);
      if (memrefOf(input) == resultType)
        step.memrefs[result] = step.memrefFor(input);
      else if (Value view = step.memrefFor(result))
        step.memrefs[result] = view;
      else
        step.memrefs[result] =
            step.reshapeOf(node->getLoc(), step.memrefFor(input), resultType);
    }
    return success();
  }
};

/// _Retval: a copy into the step's output parameter, unless the plan made
/// the tensor there.
class RetvalPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    int64_t index = node->getAttrOfType<IntegerAttr>("index").getInt();
    Value source = step.memrefFor(tfg::getDataOperands(node)[0]);
    Value target = step.outputParameter(index);
    if (!step.sameMemory(source, target))
      step.builder.create<memref::CopyOp>(node->getLoc(), source, target);
    return success();
  }
};

} // namespace

void populateStepPatterns(CodegenPatterns &patterns) {
  patterns.add<AliasPattern>("Alias");
  patterns.add<RetvalPattern>("Retval");
  patterns.add<TransferPattern>("Transfer");
}

StepEmitter::~StepEmitter() = default;

LogicalResult StepEmitter::emitNode(Operation *node) {
  // Empty tensors hold nothing to compute or copy; transfers synchronize
  // even when they carry nothing.
  auto isEmpty = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getNumElements() == 0;
  };
  // A fusion group: its pattern computes the members (Group, in the
  // elementwise family).
  if (isa<FusionGroupOp>(node))
    return llvm::all_of(tfg::getDataResults(node), isEmpty)
               ? success()
               : traced(node, [&] {
                   return applyNodePatterns(*applicator, matcher, node);
                 });
  const OpInfo *op = lookupOp(node);
  if (!op || !op->isLowered())
    return error(node) << "no code generation for this op yet";
  if (op->lowering == Lowering::NoCode)
    return success();
  if (op->kind == OpKind::Placeholder || op->kind == OpKind::PlaceholderV2)
    return error(node) << "the step reads this placeholder, which is not "
                          "fed: add --feed "
                       << tfg::getNodeName(node);
  if (op->lowering == Lowering::RewrittenBy)
    return error(node) << "should have been rewritten by " << op->loweredBy
                       << " before code generation";
  if (op->family != OpFamily::Transfer &&
      (op->kind == OpKind::InternalRetval
           ? isEmpty(tfg::getDataOperands(node)[0])
           : !tfg::getDataResults(node).empty() &&
                 llvm::all_of(tfg::getDataResults(node), isEmpty)))
    return success();
  // Every op the table lowers with a pattern has one (verifyCoverTable).
  return traced(node, [&] { return applyNodePatterns(*applicator, matcher, node); });
}

/// How a trace names `node` (tfc_runtime.h): "NAME\tOP", and for a fused
/// group its root's name, its members' ops joined by '+' and their names.
static std::string traceLabel(Operation *node) {
  auto group = dyn_cast<FusionGroupOp>(node);
  if (!group)
    return (tfg::getNodeName(node) + "\t" + tfg::getOpType(node)).str();
  std::string ops, names;
  for (Operation &member : group.getMembers().without_terminator()) {
    ops += (ops.empty() ? "" : "+") + tfg::getOpType(&member).str();
    names += (names.empty() ? "" : ",") + tfg::getNodeName(&member).str();
  }
  return tfg::getNodeName(node).str() + "\t" + ops + "\t" + names;
}

LogicalResult StepEmitter::traced(Operation *node,
                                  function_ref<LogicalResult()> emitCode) {
  // if (tracing) start = tfc_trace_now(); CODE;
  // if (tracing) tfc_trace_node("NAME\tOP", start);
  if (!tracing)
    return emitCode();
  Location loc = node->getLoc();
  Type i64 = builder.getI64Type();
  auto readClock = builder.create<scf::IfOp>(loc, TypeRange{i64}, tracing,
                                             /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(readClock.thenBlock());
    Value now =
        builder.create<func::CallOp>(loc, kernel("tfc_trace_now", {}, {i64}),
                                     ValueRange{})
            .getResult(0);
    builder.create<scf::YieldOp>(loc, now);
    builder.setInsertionPointToStart(readClock.elseBlock());
    builder.create<scf::YieldOp>(
        loc, ValueRange{builder.create<arith::ConstantIntOp>(loc, 0, 64)});
  }
  if (failed(emitCode()))
    return failure();
  auto record = builder.create<scf::IfOp>(loc, tracing);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(record.thenBlock());
  Value label = stringPointer(loc, traceLabel(node));
  Value start = readClock.getResult(0);
  builder.create<func::CallOp>(
      loc, kernel("tfc_trace_node", {label.getType(), i64}),
      ValueRange{label, start});
  return success();
}

LogicalResult StepEmitter::emit(StringRef functionName,
                                ArrayRef<Type> inputTypes,
                                ArrayRef<Type> outputTypes) {
  auto arenaBytes = graph->getAttrOfType<IntegerAttr>(kArenaBytesAttr);
  if (!arenaBytes)
    return graph.emitError("convert-tfg-to-memref needs tfc-plan-memory first");
  CodegenPatterns families(*this, context);
  populateCodegenPatterns(families);
  if (failed(families.verifyCoverTable(graph)))
    return failure();
  patterns = std::make_unique<FrozenRewritePatternSet>(std::move(families.set));
  applicator = std::make_unique<PatternApplicator>(*patterns);
  applicator->applyDefaultCostModel();
  SmallVector<Operation *> schedule;
  for (Operation *op : topologicalOrder(graph.getBody()))
    if (tfg::isNode(op))
      schedule.push_back(op);
  graph->setAttr(kNumInputsAttr, builder.getI64IntegerAttr(inputTypes.size()));

  auto stateBytes = module->getAttrOfType<IntegerAttr>(kStateBytesAttr);
  SmallVector<Type> params = {
      LLVM::LLVMPointerType::get(context),
      MemRefType::get({arenaBytes.getInt()}, builder.getI8Type()),
      MemRefType::get({stateBytes ? stateBytes.getInt() : 0},
                      builder.getI8Type())};
  // An empty tensor's parameter is memref<0xT>: the bare-pointer calling
  // convention rejects shapes like 2x0, whose strides are not canonical.
  auto parameterType = [](Type tensorType) {
    MemRefType type = memrefOf(tensorType);
    return type.getNumElements() == 0
               ? MemRefType::get({0}, type.getElementType())
               : type;
  };
  for (Type type : inputTypes)
    params.push_back(parameterType(type));
  for (Type type : outputTypes)
    params.push_back(parameterType(type));
  builder.setInsertionPointToEnd(module.getBody());
  step = builder.create<func::FuncOp>(graph.getLoc(), functionName,
                                      builder.getFunctionType(params, {}));
  Block *entry = step.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  runtime = entry->getArgument(0);
  arena = entry->getArgument(1);
  state = entry->getArgument(2);
  // Tracing (Trace.h): asked once per call; the thread is named after the
  // partition's device.
  if (tracePoints) {
    Location loc = graph.getLoc();
    Value enabled = builder
                        .create<func::CallOp>(
                            loc,
                            kernel("tfc_trace_enabled", {},
                                   {builder.getI32Type()}),
                            ValueRange{})
                        .getResult(0);
    tracing = builder.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ne, enabled,
        builder.create<arith::ConstantIntOp>(loc, 0, 32));
    auto nameThread = builder.create<scf::IfOp>(loc, tracing);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(nameThread.thenBlock());
    auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    Value name = stringPointer(loc, device ? device.getValue()
                                           : StringRef("/device:CPU:0"));
    builder.create<func::CallOp>(
        loc, kernel("tfc_trace_thread", {name.getType()}), ValueRange{name});
  }
  for (Operation *arg : schedule) {
    if (opKindOf(arg) != OpKind::InternalArg)
      continue;
    int64_t index = arg->getAttrOfType<IntegerAttr>("index").getInt();
    Value param = entry->getArgument(3 + index);
    MemRefType type = memrefOf(arg->getResult(0));
    if (param.getType() != type)
      param = builder.create<memref::ReinterpretCastOp>(
          arg->getLoc(), type, param, 0, type.getShape(),
          rowMajorStrides(type.getShape()));
    memrefs[arg->getResult(0)] = param;
  }

  // String constants' handles, stored once at the start of the step.
  for (Operation *node : schedule)
    if (opKindOf(node) == OpKind::Const &&
        isa<DenseStringElementsAttr>(node->getAttr("value")))
      memrefFor(node->getResult(0));

  // Each variable's buffer in the state area, for every node to use.
  for (Operation *node : schedule) {
    if (!isVariableNode(node))
      continue;
    auto offset = node->getAttrOfType<IntegerAttr>(kStateOffsetAttr);
    if (!offset)
      return error(node) << "convert-tfg-to-memref needs tfc-plan-state first";
    memrefs[tfg::getDataResults(node)[0]] = viewOf(
        node->getLoc(), state, offset.getInt(), variableType(node));
  }

  FailureOr<std::unique_ptr<FrameInfo>> frames =
      FrameInfo::analyze(graph.getBody());
  if (failed(frames) || failed(emitItems((*frames)->topLevel())))
    return failure();
  builder.create<func::ReturnOp>(graph.getLoc());
  return success();
}

namespace {

struct ConvertTfgToMemrefPass
    : public impl::ConvertTfgToMemrefPassBase<ConvertTfgToMemrefPass> {
  using ConvertTfgToMemrefPassBase::ConvertTfgToMemrefPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tfg::GraphOp> steps, inits;
    // The once-run entries after the init: every worker's, the chief's.
    SmallVector<tfg::GraphOp> localInits, chiefInits;
    // Each queue runner's entry, by its enqueue node.
    llvm::MapVector<StringRef, SmallVector<tfg::GraphOp>> runners;
    for (auto graph : module.getOps<tfg::GraphOp>()) {
      auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
      if (entry && entry.getValue() == "step")
        steps.push_back(graph);
      if (entry && entry.getValue() == "init")
        inits.push_back(graph);
      if (entry && entry.getValue() == "local_init")
        localInits.push_back(graph);
      if (entry && entry.getValue() == "chief_init")
        chiefInits.push_back(graph);
      if (StringRef node = runnerEntryNode(graph); !node.empty())
        runners[node].push_back(graph);
    }
    // Each partition is written for the target of its device type (CPU
    // when it names none).
    llvm::DenseMap<Operation *, const DeviceTarget *> targets;
    // A runner's threads run their entry on their own: its partitions on
    // several devices would need a rendezvous of their own per thread.
    for (auto &[node, partitions] : runners)
      if (partitions.size() > 1) {
        partitions[1].emitError()
            << "queue runner node '" << node << "': its entry spans "
            << partitions.size()
            << " devices; tfc runs a queue runner's entry on one device (place "
               "the nodes it needs on one)";
        return signalPassFailure();
      }
    SmallVector<tfg::GraphOp> others(inits);
    others.append(localInits);
    others.append(chiefInits);
    for (auto &[node, partitions] : runners)
      others.push_back(partitions.front());
    for (tfg::GraphOp graph : llvm::concat<tfg::GraphOp>(steps, others)) {
      std::string type = partitionDeviceType(graph);
      targets[graph] = lookupDeviceTarget(type);
      if (!targets[graph]) {
        // Only a partition that names its device has a type other than CPU.
        StringRef device =
            graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr).getValue();
        graph.emitError() << "partition on " << device
                          << ": code generation for " << type
                          << " devices is not implemented yet (--emit mlir "
                             "shows the placement; --devices without it "
                             "compiles for CPUs)";
        return signalPassFailure();
      }
    }
    // The init entry runs before any input exists, and a queue runner's
    // apart from the steps.
    for (tfg::GraphOp graph : others)
      for (Operation &op : graph.getBody())
        if (opKindOf(&op) == OpKind::InternalArg) {
          StringRef runner = runnerEntryNode(graph);
          InFlightDiagnostic error = op.emitError();
          if (runner.empty())
            error << "the "
                  << graph->getAttrOfType<StringAttr>(kEntryAttr).getValue()
                  << " entry needs a fed tensor ('" << tfg::getNodeName(&op)
                  << "'): its nodes must not depend on feeds";
          else
            error << "queue runner node '" << runner
                  << "' needs a fed tensor ('" << tfg::getNodeName(&op)
                  << "'): a queue runner's enqueues must not depend on feeds";
          return signalPassFailure();
        }
    // The stacks of loop gradients and the TensorArrays, numbered over the
    // program (a gradient array by its forward array and source).
    int64_t stacks = 0, arrays = 0;
    std::map<std::pair<Operation *, std::string>, int64_t> gradientArrays;
    auto i64 = IntegerType::get(&getContext(), 64);
    module.walk([&](Operation *op) {
      if (isStackNode(op))
        op->setAttr(kStackSlotAttr, IntegerAttr::get(i64, stacks++));
      if (opKindOf(op) == OpKind::TensorArrayV3)
        op->setAttr(kTensorArraySlotAttr, IntegerAttr::get(i64, arrays++));
    });
    // The queues, numbered over the program by name: the init entry's node
    // of a queue and the step's make and use one queue. Summary writers
    // likewise.
    std::map<std::string, int64_t> queues, accumulators, writers;
    module.walk([&](Operation *op) {
      if (tfg::isNode(op) && opKindOf(op) == OpKind::SummaryWriter) {
        auto [it, inserted] = writers.try_emplace(queueName(op), writers.size());
        op->setAttr(kSummaryWriterSlotAttr, IntegerAttr::get(i64, it->second));
        return;
      }
      bool queue = isQueueNode(op);
      if (!queue && !isAccumulatorNode(op))
        return;
      auto &numbers = queue ? queues : accumulators;
      auto [it, inserted] = numbers.try_emplace(queueName(op), numbers.size());
      op->setAttr(queue ? kQueueSlotAttr : kAccumulatorSlotAttr,
                  IntegerAttr::get(i64, it->second));
    });
    module.walk([&](Operation *op) {
      if (opKindOf(op) != OpKind::TensorArrayGradV3)
        return;
      auto source = op->getAttrOfType<StringAttr>("source");
      auto key = std::make_pair(forwardArrayOf(op),
                                source ? source.str() : std::string());
      auto [it, inserted] = gradientArrays.try_emplace(key, arrays);
      if (inserted)
        ++arrays;
      op->setAttr(kTensorArraySlotAttr, IntegerAttr::get(i64, it->second));
    });
    // The model's inputs and outputs, by index, over every partition.
    SmallVector<Type> inputs, outputs;
    for (tfg::GraphOp graph : steps)
      for (Operation &op : graph.getBody()) {
        OpKind kind = opKindOf(&op);
        if (kind != OpKind::InternalArg && kind != OpKind::InternalRetval)
          continue;
        auto index = op.getAttrOfType<IntegerAttr>("index");
        if (!index || index.getInt() < 0) {
          op.emitError("_Arg/_Retval without an index");
          return signalPassFailure();
        }
        auto &list = kind == OpKind::InternalArg ? inputs : outputs;
        if (list.size() <= size_t(index.getInt()))
          list.resize(index.getInt() + 1);
        list[index.getInt()] = kind == OpKind::InternalArg
                                   ? op.getResult(0).getType()
                                   : op.getOperand(0).getType();
      }
    if (llvm::is_contained(inputs, Type()) || llvm::is_contained(outputs, Type())) {
      module.emitError("_Arg or _Retval indices are not contiguous");
      return signalPassFailure();
    }
    unsigned globals = 0;
    auto emitEntries = [&](ArrayRef<tfg::GraphOp> graphs, StringRef prefix,
                           ArrayRef<Type> in, ArrayRef<Type> out) {
      for (auto [k, graph] : llvm::enumerate(graphs)) {
        std::string name = graphs.size() == 1
                               ? prefix.str()
                               : prefix.str() + "_" + std::to_string(k);
        graph->setAttr(kStepFunctionAttr,
                       StringAttr::get(module.getContext(), name));
        if (failed(StepEmitter(module, graph, *targets[graph], globals,
                               tracePoints)
                       .emit(name, in, out)))
          return failure();
      }
      return success();
    };
    if (failed(emitEntries(steps, "tfc_step_impl", inputs, outputs)) ||
        failed(emitEntries(inits, "tfc_init_impl", {}, {})) ||
        failed(emitEntries(localInits, "tfc_local_init_impl", {}, {})) ||
        failed(emitEntries(chiefInits, "tfc_chief_init_impl", {}, {})))
      return signalPassFailure();
    for (auto [k, runner] : llvm::enumerate(runners))
      if (failed(emitEntries(runner.second,
                             "tfc_runner_" + std::to_string(k) + "_impl", {},
                             {})))
        return signalPassFailure();
  }
};

} // namespace
} // namespace tfc
