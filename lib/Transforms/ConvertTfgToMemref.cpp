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
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_CONVERTTFGTOMEMREFPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

MemRefType memrefOf(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return MemRefType::get(type.getShape(), type.getElementType());
}

class StepEmitter {
public:
  StepEmitter(ModuleOp module, tfg::GraphOp graph)
      : module(module), graph(graph), context(module.getContext()),
        builder(context) {}

  LogicalResult emit();

private:
  /// The memref holding a tensor value.
  Value memrefFor(Value value);
  LogicalResult emitNode(Operation *node);
  LogicalResult emitGroup(Operation *root);
  LogicalResult emitMatMul(Operation *node);
  LogicalResult emitRowKernel(Operation *node, StringRef kernel);
  LogicalResult emitWindow(Operation *node);
  LogicalResult emitBatchMatMul(Operation *node);
  LogicalResult emitEinsum(Operation *node);
  /// A call of tfc_cpu_strided_matmul_f32 with its descriptor as a global.
  LogicalResult emitStridedMatMul(Operation *node,
                                  ArrayRef<int64_t> descriptor);
  LogicalResult emitReduction(Operation *node);
  /// A call of kernel `name` with the runtime first; integer arguments
  /// become i64 constants (i32 for the `kind` selectors given as int32_t).
  void callKernel(Location loc, StringRef name, ArrayRef<Value> pointers,
                  ArrayRef<int64_t> sizes, std::optional<int32_t> kind = {});
  /// The value of one elementwise node inside a linalg body.
  FailureOr<Value> emitScalar(Operation *node, ArrayRef<Value> inputs,
                              Location loc);
  Value pointerTo(Value memref);
  func::FuncOp kernel(StringRef name, TypeRange inputs);
  InFlightDiagnostic error(Operation *node) {
    return node->emitError() << "node '" << tfg::getNodeName(node) << "' ("
                             << tfg::getOpType(node) << "): ";
  }

  ModuleOp module;
  tfg::GraphOp graph;
  MLIRContext *context;
  OpBuilder builder;
  func::FuncOp step;
  Value runtime, arena;
  llvm::DenseMap<Value, Value> memrefs;
  /// Byte offsets of the arena views (see pointerTo).
  llvm::DenseMap<Value, int64_t> arenaOffsets;
  llvm::DenseMap<StringRef, SmallVector<Operation *>> groups;
  unsigned globals = 0;
};

Value StepEmitter::pointerTo(Value memref) {
  Location loc = memref.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(context);
  // A view's aligned pointer is the arena's: its offset is in the
  // descriptor. The planned byte offset is known, so add it here.
  auto it = arenaOffsets.find(memref);
  Value base = it == arenaOffsets.end() ? memref : arena;
  Value index =
      builder.create<memref::ExtractAlignedPointerAsIndexOp>(loc, base);
  Value i64 = builder.create<arith::IndexCastOp>(loc, builder.getI64Type(),
                                                 index);
  Value pointer = builder.create<LLVM::IntToPtrOp>(loc, ptr, i64);
  if (it == arenaOffsets.end() || it->second == 0)
    return pointer;
  Value offset = builder.create<arith::ConstantIntOp>(loc, it->second, 64);
  return builder.create<LLVM::GEPOp>(loc, ptr, builder.getI8Type(), pointer,
                                     ValueRange{offset});
}

func::FuncOp StepEmitter::kernel(StringRef name, TypeRange inputs) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto func = builder.create<func::FuncOp>(
      module.getLoc(), name, builder.getFunctionType(inputs, {}));
  func.setPrivate();
  return func;
}

Value StepEmitter::memrefFor(Value value) {
  if (Value known = memrefs.lookup(value))
    return known;
  Operation *node = value.getDefiningOp();
  Location loc = node->getLoc();
  // Constants: private globals with their value.
  if (tfg::getOpType(node) == "Const") {
    auto dense = node->getAttrOfType<DenseElementsAttr>("value");
    std::string name = "tfc_const_" + std::to_string(globals++);
    MemRefType type = memrefOf(value);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      builder.create<memref::GlobalOp>(
          loc, name, builder.getStringAttr("private"), type,
          dense.reshape(RankedTensorType::get(type.getShape(),
                                              type.getElementType())),
          /*constant=*/true, builder.getI64IntegerAttr(64));
    }
    Value global = builder.create<memref::GetGlobalOp>(loc, type, name);
    memrefs[value] = global;
    return global;
  }
  // Everything else lives in the arena at its planned offset.
  auto offsets = node->getAttrOfType<DenseI64ArrayAttr>("tfc.offsets");
  unsigned port = cast<OpResult>(value).getResultNumber();
  if (!offsets || port >= offsets.size() || offsets[port] < 0)
    return {};
  Value offset = builder.create<arith::ConstantIndexOp>(loc, offsets[port]);
  Value view = builder.create<memref::ViewOp>(loc, memrefOf(value), arena,
                                              offset, ValueRange{});
  memrefs[value] = view;
  arenaOffsets[view] = offsets[port];
  return view;
}

/// The scalar computation of one elementwise node on element values.
FailureOr<Value> StepEmitter::emitScalar(Operation *node,
                                         ArrayRef<Value> in, Location loc) {
  StringRef type = tfg::getOpType(node);
  Type element = cast<TensorType>(tfg::getDataResults(node)[0].getType())
                     .getElementType();
  if (!isa<FloatType>(element))
    return error(node) << "code generation supports float elementwise ops "
                          "only for now";
  auto zero = [&] {
    return builder.create<arith::ConstantOp>(loc, builder.getFloatAttr(element, 0.0));
  };
  if (type == "Add" || type == "AddV2" || type == "BiasAdd")
    return Value(builder.create<arith::AddFOp>(loc, in[0], in[1]));
  if (type == "Sub")
    return Value(builder.create<arith::SubFOp>(loc, in[0], in[1]));
  if (type == "Mul")
    return Value(builder.create<arith::MulFOp>(loc, in[0], in[1]));
  if (type == "RealDiv" || type == "Div")
    return Value(builder.create<arith::DivFOp>(loc, in[0], in[1]));
  if (type == "Maximum")
    return Value(builder.create<arith::MaximumFOp>(loc, in[0], in[1]));
  if (type == "Minimum")
    return Value(builder.create<arith::MinimumFOp>(loc, in[0], in[1]));
  if (type == "SquaredDifference") {
    Value d = builder.create<arith::SubFOp>(loc, in[0], in[1]);
    return Value(builder.create<arith::MulFOp>(loc, d, d));
  }
  if (type == "Neg")
    return Value(builder.create<arith::NegFOp>(loc, in[0]));
  if (type == "Abs")
    return Value(builder.create<math::AbsFOp>(loc, in[0]));
  if (type == "Square")
    return Value(builder.create<arith::MulFOp>(loc, in[0], in[0]));
  if (type == "Sqrt")
    return Value(builder.create<math::SqrtOp>(loc, in[0]));
  if (type == "Rsqrt")
    return Value(builder.create<math::RsqrtOp>(loc, in[0]));
  if (type == "Exp")
    return Value(builder.create<math::ExpOp>(loc, in[0]));
  if (type == "Log")
    return Value(builder.create<math::LogOp>(loc, in[0]));
  if (type == "Log1p")
    return Value(builder.create<math::Log1pOp>(loc, in[0]));
  if (type == "Tanh")
    return Value(builder.create<math::TanhOp>(loc, in[0]));
  if (type == "Erf")
    return Value(builder.create<math::ErfOp>(loc, in[0]));
  if (type == "Erfc") {
    // MLIR 19's math dialect has no erfc, and 1 - erf(x) loses the tail:
    // call the C library's erfcf.
    if (!element.isF32())
      return error(node) << "code generation supports float32 Erfc only";
    func::FuncOp erfc = kernel("erfcf", TypeRange{element});
    erfc.setType(builder.getFunctionType(element, element));
    return builder.create<func::CallOp>(loc, erfc, in[0]).getResult(0);
  }
  if (type == "Relu")
    // NaN propagates, as in TensorFlow.
    return Value(builder.create<arith::MaximumFOp>(loc, in[0], zero()));
  if (type == "Relu6") {
    Value six = builder.create<arith::ConstantOp>(
        loc, builder.getFloatAttr(element, 6.0));
    Value relu = builder.create<arith::MaximumFOp>(loc, in[0], zero());
    return Value(builder.create<arith::MinimumFOp>(loc, relu, six));
  }
  if (type == "Sigmoid") {
    Value one = builder.create<arith::ConstantOp>(
        loc, builder.getFloatAttr(element, 1.0));
    Value e = builder.create<math::ExpOp>(
        loc, builder.create<arith::NegFOp>(loc, in[0]));
    return Value(builder.create<arith::DivFOp>(
        loc, one, builder.create<arith::AddFOp>(loc, one, e)));
  }
  return error(node) << "no code generation for this op yet";
}

/// One linalg.generic for an elementwise group: inputs are the group's
/// external operands, broadcast to the root's shape.
LogicalResult StepEmitter::emitGroup(Operation *root) {
  Location loc = root->getLoc();
  Value rootResult = tfg::getDataResults(root)[0];
  auto outType = cast<RankedTensorType>(rootResult.getType());
  int64_t rank = outType.getRank();

  // Members in dependency order (the group's nodes, root last).
  SmallVector<Operation *> members = groups.lookup(tfg::getNodeName(root));
  members.push_back(root);
  llvm::DenseSet<Operation *> inGroup(members.begin(), members.end());

  SmallVector<Value> inputs;   // External tensor values, deduplicated.
  SmallVector<AffineMap> maps;
  for (Operation *member : members)
    for (Value operand : tfg::getDataOperands(member)) {
      if (inGroup.contains(operand.getDefiningOp()) ||
          llvm::is_contained(inputs, operand))
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      // Right-aligned broadcasting: size-1 (and missing) dims read index 0.
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        int64_t outDim = rank - type.getRank() + d;
        exprs.push_back(type.getDimSize(d) == 1 && outType.getDimSize(outDim) != 1
                            ? builder.getAffineConstantExpr(0)
                            : builder.getAffineDimExpr(outDim));
      }
      inputs.push_back(operand);
      maps.push_back(AffineMap::get(rank, 0, exprs, context));
    }
  maps.push_back(builder.getMultiDimIdentityMap(rank));
  SmallVector<Value> inputMemrefs;
  for (Value input : inputs) {
    Value memref = memrefFor(input);
    if (!memref)
      return error(root) << "an input has no buffer";
    inputMemrefs.push_back(memref);
  }
  Value output = memrefFor(rootResult);
  if (!output)
    return error(root) << "output has no buffer";

  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  LogicalResult result = success();
  builder.create<linalg::GenericOp>(
      loc, inputMemrefs, output, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
        llvm::DenseMap<Value, Value> scalars;
        for (auto [value, arg] : llvm::zip(inputs, args))
          scalars[value] = arg;
        Value last;
        for (Operation *member : members) {
          SmallVector<Value> in;
          for (Value operand : tfg::getDataOperands(member))
            in.push_back(scalars.lookup(operand));
          FailureOr<Value> v = emitScalar(member, in, nestedLoc);
          if (failed(v)) {
            result = failure();
            v = Value(args.back()); // Keep the body well formed.
          }
          scalars[tfg::getDataResults(member)[0]] = *v;
          last = *v;
        }
        builder.create<linalg::YieldOp>(nestedLoc, last);
      });
  return result;
}

LogicalResult StepEmitter::emitMatMul(Operation *node) {
  OperandRange inputs = tfg::getDataOperands(node);
  auto a = cast<RankedTensorType>(inputs[0].getType());
  auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  if (!a.getElementType().isF32())
    return error(node) << "code generation supports float32 MatMul only for now";
  bool ta = node->getAttrOfType<BoolAttr>("transpose_a") &&
            node->getAttrOfType<BoolAttr>("transpose_a").getValue();
  bool tb = node->getAttrOfType<BoolAttr>("transpose_b") &&
            node->getAttrOfType<BoolAttr>("transpose_b").getValue();
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  int64_t k = a.getDimSize(ta ? 0 : 1);
  Value pa = pointerTo(memrefFor(inputs[0]));
  Value pb = pointerTo(memrefFor(inputs[1]));
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  Value pc = pointerTo(out);
  Location loc = node->getLoc();
  auto i64 = [&](int64_t v) {
    return builder.create<arith::ConstantIntOp>(loc, v, 64);
  };
  auto i32 = [&](int64_t v) {
    return builder.create<arith::ConstantIntOp>(loc, v, 32);
  };
  SmallVector<Value> args = {runtime, pa, pb, pc, i64(m), i64(k), i64(n),
                             i32(ta), i32(tb)};
  func::FuncOp callee = kernel("tfc_cpu_matmul_f32", ValueRange(args).getTypes());
  builder.create<func::CallOp>(loc, callee, args);
  return success();
}

/// Kernels over the rows of a 2-D view of their input: Softmax, LogSoftmax.
LogicalResult StepEmitter::emitRowKernel(Operation *node, StringRef kernelName) {
  Value input = tfg::getDataOperands(node)[0];
  auto type = cast<RankedTensorType>(input.getType());
  if (!type.getElementType().isF32() || type.getRank() < 1)
    return error(node) << "code generation supports float32 only for now";
  int64_t cols = type.getShape().back();
  int64_t rows = cols == 0 ? 0 : type.getNumElements() / cols;
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  Location loc = node->getLoc();
  SmallVector<Value> args = {runtime, pointerTo(memrefFor(input)),
                             pointerTo(out),
                             builder.create<arith::ConstantIntOp>(loc, rows, 64),
                             builder.create<arith::ConstantIntOp>(loc, cols, 64)};
  builder.create<func::CallOp>(
      loc, kernel(kernelName, ValueRange(args).getTypes()), args);
  return success();
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

/// The integer values of a Const node's output, or nullopt.
static std::optional<SmallVector<int64_t>> constantInts(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !tfg::isNode(producer) || tfg::getOpType(producer) != "Const")
    return std::nullopt;
  auto dense = producer->getAttrOfType<DenseIntElementsAttr>("value");
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool on NHWC float32.
LogicalResult StepEmitter::emitWindow(Operation *node) {
  StringRef type = tfg::getOpType(node);
  bool isConv = type == "Conv2D", isDepthwise = type == "DepthwiseConv2dNative";
  Value input = tfg::getDataOperands(node)[0];
  Value result = tfg::getDataResults(node)[0];
  auto in = cast<RankedTensorType>(input.getType());
  auto out = cast<RankedTensorType>(result.getType());
  if (!in.getElementType().isF32())
    return error(node) << "code generation supports float32 only for now";
  auto format = node->getAttrOfType<StringAttr>("data_format");
  if (format && format.getValue() != "NHWC")
    return error(node) << "code generation supports NHWC only for now";
  auto ints = [&](StringRef name, int64_t fallback) {
    SmallVector<int64_t> values;
    if (auto list = node->getAttrOfType<ArrayAttr>(name))
      for (Attribute a : list)
        values.push_back(cast<IntegerAttr>(a).getInt());
    if (values.size() != 4)
      values.assign(4, fallback);
    return values;
  };
  SmallVector<int64_t> strides = ints("strides", 1);
  SmallVector<int64_t> dilations = ints("dilations", 1);
  int64_t n = in.getDimSize(0), h = in.getDimSize(1), w = in.getDimSize(2),
          c = in.getDimSize(3);
  int64_t oh = out.getDimSize(1), ow = out.getDimSize(2);
  int64_t kh, kw;
  if (isConv || isDepthwise) {
    auto filter = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
    kh = filter.getDimSize(0);
    kw = filter.getDimSize(1);
  } else {
    SmallVector<int64_t> ksize = ints("ksize", 1);
    kh = ksize[1];
    kw = ksize[2];
  }
  // Top and left padding, as TensorFlow derives them.
  StringRef padding = node->getAttrOfType<StringAttr>("padding").getValue();
  int64_t padTop = 0, padLeft = 0;
  if (padding == "SAME") {
    auto before = [](int64_t in, int64_t out, int64_t k, int64_t stride,
                     int64_t dilation) {
      int64_t total = (out - 1) * stride + (k - 1) * dilation + 1 - in;
      return std::max<int64_t>(total, 0) / 2;
    };
    padTop = before(h, oh, kh, strides[1], dilations[1]);
    padLeft = before(w, ow, kw, strides[2], dilations[2]);
  } else if (padding == "EXPLICIT") {
    SmallVector<int64_t> pads;
    if (auto list = node->getAttrOfType<ArrayAttr>("explicit_paddings"))
      for (Attribute a : list)
        pads.push_back(cast<IntegerAttr>(a).getInt());
    if (pads.size() != 8)
      return error(node) << "explicit_paddings must have 8 values";
    padTop = pads[2];
    padLeft = pads[4];
  }
  Value outMemref = memrefFor(result);
  if (!outMemref)
    return error(node) << "output has no buffer";
  Location loc = node->getLoc();
  if (isConv || isDepthwise) {
    auto filter = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
    if (isConv && filter.getDimSize(2) != c)
      return error(node) << "grouped convolutions are not supported";
    callKernel(loc, isConv ? "tfc_cpu_conv2d_f32" : "tfc_cpu_depthwise_conv2d_f32",
               {pointerTo(memrefFor(input)),
                pointerTo(memrefFor(tfg::getDataOperands(node)[1])),
                pointerTo(outMemref)},
               {n, h, w, c, kh, kw, filter.getDimSize(3), oh, ow, strides[1],
                strides[2], dilations[1], dilations[2], padTop, padLeft});
    return success();
  }
  callKernel(loc, "tfc_cpu_pool2d_f32",
             {pointerTo(memrefFor(input)), pointerTo(outMemref)},
             {n, h, w, c, kh, kw, oh, ow, strides[1], strides[2], padTop,
              padLeft},
             type == "MaxPool" ? 0 : 1);
  return success();
}

/// Row-major element strides of a shape.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

LogicalResult StepEmitter::emitStridedMatMul(Operation *node,
                                             ArrayRef<int64_t> descriptor) {
  Location loc = node->getLoc();
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  std::string name = "tfc_product_" + std::to_string(globals++);
  auto type = MemRefType::get({int64_t(descriptor.size())}, builder.getI64Type());
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    builder.create<memref::GlobalOp>(
        loc, name, builder.getStringAttr("private"), type,
        DenseElementsAttr::get(
            RankedTensorType::get(type.getShape(), builder.getI64Type()),
            descriptor),
        /*constant=*/true, IntegerAttr());
  }
  Value table = builder.create<memref::GetGlobalOp>(loc, type, name);
  OperandRange inputs = tfg::getDataOperands(node);
  callKernel(loc, "tfc_cpu_strided_matmul_f32",
             {pointerTo(memrefFor(inputs[0])), pointerTo(memrefFor(inputs[1])),
              pointerTo(out), pointerTo(table)},
             {});
  return success();
}

/// BatchMatMul(V2/V3): batch dims broadcast (stride 0), adjoints as swapped
/// strides.
LogicalResult StepEmitter::emitBatchMatMul(Operation *node) {
  auto a = cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
  auto b = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
  auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  if (!a.getElementType().isF32() || !b.getElementType().isF32())
    return error(node) << "code generation supports float32 only for now";
  auto flag = [&](StringRef name) {
    auto attr = node->getAttrOfType<BoolAttr>(name);
    return attr && attr.getValue();
  };
  bool adjX = flag("adj_x"), adjY = flag("adj_y");
  SmallVector<int64_t> sa = stridesOf(a.getShape()), sb = stridesOf(b.getShape()),
                       sc = stridesOf(c.getShape());
  int64_t ra = a.getRank(), rb = b.getRank(), rc = c.getRank();
  SmallVector<int64_t> batch, batchA, batchB, batchC;
  for (int64_t d = 0; d < rc - 2; ++d) {
    batch.push_back(c.getDimSize(d));
    auto strideIn = [&](RankedTensorType t, ArrayRef<int64_t> strides,
                        int64_t rank) -> int64_t {
      int64_t i = d - (rc - 2 - (rank - 2));
      return i >= 0 && t.getDimSize(i) != 1 ? strides[i] : 0;
    };
    batchA.push_back(strideIn(a, sa, ra));
    batchB.push_back(strideIn(b, sb, rb));
    batchC.push_back(sc[d]);
  }
  int64_t m = c.getDimSize(rc - 2), n = c.getDimSize(rc - 1);
  int64_t k = a.getDimSize(adjX ? ra - 2 : ra - 1);
  SmallVector<int64_t> desc = {int64_t(batch.size())};
  llvm::append_range(desc, batch);
  llvm::append_range(desc, batchA);
  llvm::append_range(desc, batchB);
  llvm::append_range(desc, batchC);
  llvm::append_range(desc, SmallVector<int64_t>{
      m, n, k,
      adjX ? sa[ra - 1] : sa[ra - 2], adjX ? sa[ra - 2] : sa[ra - 1],
      adjY ? sb[rb - 1] : sb[rb - 2], adjY ? sb[rb - 2] : sb[rb - 1],
      sc[rc - 2], sc[rc - 1]});
  return emitStridedMatMul(node, desc);
}

/// Two-operand Einsum without ellipses or repeated labels: labels in both
/// inputs and the output are batch dims; one label only in A and the
/// output gives the rows, one only in B and the output the columns (others
/// of those kinds become batch dims with stride 0 on the other side); at
/// most one label is contracted.
LogicalResult StepEmitter::emitEinsum(Operation *node) {
  if (tfg::getDataOperands(node).size() != 2)
    return error(node) << "code generation supports two-operand Einsum only";
  auto a = cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
  auto b = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
  auto c = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  if (!a.getElementType().isF32())
    return error(node) << "code generation supports float32 only for now";
  StringRef equation = node->getAttrOfType<StringAttr>("equation").getValue();
  auto [inputs, out] = equation.split("->");
  auto [la, lb] = inputs.split(',');
  auto unsupported = [&] {
    return error(node) << "Einsum '" << equation << "' is not supported yet";
  };
  if (!equation.contains("->") || equation.contains('.') ||
      int64_t(la.size()) != a.getRank() || int64_t(lb.size()) != b.getRank() ||
      int64_t(out.size()) != c.getRank())
    return unsupported();
  auto stride = [](StringRef labels, ArrayRef<int64_t> strides, char l) -> int64_t {
    size_t i = labels.find(l);
    return i == StringRef::npos ? 0 : strides[i];
  };
  SmallVector<int64_t> sa = stridesOf(a.getShape()), sb = stridesOf(b.getShape()),
                       sc = stridesOf(c.getShape());
  for (StringRef labels : {la, lb, out})
    for (char l : labels)
      if (labels.count(l) != 1)
        return unsupported(); // Repeated labels (diagonals, traces).
  std::optional<char> kLabel, mLabel, nLabel;
  for (char l : la)
    if (lb.contains(l) && !out.contains(l)) {
      if (kLabel)
        return unsupported();
      kLabel = l;
    }
  for (char l : la)
    if (!lb.contains(l) && !out.contains(l))
      return unsupported(); // Summed over one operand only.
  for (char l : lb)
    if (!la.contains(l) && !out.contains(l))
      return unsupported();
  // Rows and columns: the last A-only and B-only labels of the output.
  for (char l : out) {
    if (la.contains(l) && !lb.contains(l))
      mLabel = l;
    if (lb.contains(l) && !la.contains(l))
      nLabel = l;
  }
  SmallVector<int64_t> batch, batchA, batchB, batchC;
  for (auto [i, l] : llvm::enumerate(out)) {
    if (l == mLabel || l == nLabel)
      continue;
    batch.push_back(c.getDimSize(i));
    batchA.push_back(stride(la, sa, l));
    batchB.push_back(stride(lb, sb, l));
    batchC.push_back(sc[i]);
  }
  auto size = [&](std::optional<char> l) -> int64_t {
    if (!l)
      return 1;
    size_t i = la.find(*l);
    return i != StringRef::npos ? a.getDimSize(i) : b.getDimSize(lb.find(*l));
  };
  SmallVector<int64_t> desc = {int64_t(batch.size())};
  llvm::append_range(desc, batch);
  llvm::append_range(desc, batchA);
  llvm::append_range(desc, batchB);
  llvm::append_range(desc, batchC);
  char none = 0;
  llvm::append_range(desc, SmallVector<int64_t>{
      size(mLabel), size(nLabel), size(kLabel),
      stride(la, sa, mLabel.value_or(none)), stride(la, sa, kLabel.value_or(none)),
      stride(lb, sb, kLabel.value_or(none)), stride(lb, sb, nLabel.value_or(none)),
      stride(out, sc, mLabel.value_or(none)), stride(out, sc, nLabel.value_or(none))});
  return emitStridedMatMul(node, desc);
}

/// Sum/Mean/Max/Min/Prod over a contiguous run of axes given by a Const.
LogicalResult StepEmitter::emitReduction(Operation *node) {
  Value input = tfg::getDataOperands(node)[0];
  auto in = cast<RankedTensorType>(input.getType());
  if (!in.getElementType().isF32())
    return error(node) << "code generation supports float32 reductions only for now";
  std::optional<SmallVector<int64_t>> axes =
      constantInts(tfg::getDataOperands(node)[1]);
  if (!axes)
    return error(node) << "reduction axes must be constant";
  int64_t rank = in.getRank();
  SmallVector<int64_t> normalized;
  for (int64_t a : *axes)
    normalized.push_back(a < 0 ? a + rank : a);
  llvm::sort(normalized);
  normalized.erase(std::unique(normalized.begin(), normalized.end()),
                   normalized.end());
  for (size_t i = 1; i < normalized.size(); ++i)
    if (normalized[i] != normalized[i - 1] + 1)
      return error(node) << "code generation supports reducing contiguous "
                            "axes only for now";
  int64_t outer = 1, reduced = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    bool isReduced = llvm::is_contained(normalized, d);
    int64_t size = in.getDimSize(d);
    if (isReduced)
      reduced *= size;
    else if (normalized.empty() || d < normalized.front())
      outer *= size;
    else
      inner *= size;
  }
  StringRef type = tfg::getOpType(node);
  int32_t kind = llvm::StringSwitch<int32_t>(type)
                     .Case("Sum", 0)
                     .Case("Mean", 1)
                     .Case("Max", 2)
                     .Case("Min", 3)
                     .Default(4);
  Value out = memrefFor(tfg::getDataResults(node)[0]);
  if (!out)
    return error(node) << "output has no buffer";
  callKernel(node->getLoc(), "tfc_cpu_reduce_f32",
             {pointerTo(memrefFor(input)), pointerTo(out)},
             {outer, reduced, inner}, kind);
  return success();
}

LogicalResult StepEmitter::emitNode(Operation *node) {
  StringRef type = tfg::getOpType(node);
  if (type == "_Arg" || type == "Const" || type == "NoOp")
    return success();
  if (node->hasAttr("tfc.fused_into"))
    return success(); // Computed by its group's root.
  if (isElementwise(node))
    return emitGroup(node);
  if (type == "MatMul")
    return emitMatMul(node);
  if (type == "Softmax")
    return emitRowKernel(node, "tfc_cpu_softmax_f32");
  if (type == "BatchMatMul" || type == "BatchMatMulV2" ||
      type == "BatchMatMulV3")
    return emitBatchMatMul(node);
  if (type == "Einsum")
    return emitEinsum(node);
  if (type == "Conv2D" || type == "DepthwiseConv2dNative" ||
      type == "MaxPool" || type == "AvgPool")
    return emitWindow(node);
  if (type == "Sum" || type == "Mean" || type == "Max" || type == "Min" ||
      type == "Prod")
    return emitReduction(node);
  if (type == "Identity" || type == "StopGradient" || type == "Snapshot" ||
      type == "PreventGradient" || type == "Reshape" || type == "Squeeze" ||
      type == "ExpandDims") {
    // Aliases: the output is the input's memory, seen with another shape:
    // a view at the same arena offset, or (for inputs and constants) a
    // reinterpretation with row-major strides.
    Value input = tfg::getDataOperands(node)[0];
    Value result = tfg::getDataResults(node)[0];
    MemRefType resultType = memrefOf(result);
    if (memrefOf(input) == resultType) {
      memrefs[result] = memrefFor(input);
    } else if (Value view = memrefFor(result)) {
      memrefs[result] = view;
    } else {
      SmallVector<int64_t> strides(resultType.getRank(), 1);
      for (int64_t d = resultType.getRank() - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * resultType.getDimSize(d + 1);
      memrefs[result] = builder.create<memref::ReinterpretCastOp>(
          node->getLoc(), resultType, memrefFor(input), 0,
          resultType.getShape(), strides);
    }
    return success();
  }
  if (type == "_Retval") {
    int64_t index = node->getAttrOfType<IntegerAttr>("index").getInt();
    Value source = memrefFor(tfg::getDataOperands(node)[0]);
    Value target = step.getArgument(2 + graph->getAttrOfType<IntegerAttr>(
                                            "tfc.num_inputs").getInt() + index);
    builder.create<memref::CopyOp>(node->getLoc(), source, target);
    return success();
  }
  return error(node) << "no code generation for this op yet";
}

LogicalResult StepEmitter::emit() {
  auto arenaBytes = graph->getAttrOfType<IntegerAttr>("tfc.arena_bytes");
  if (!arenaBytes)
    return graph.emitError("convert-tfg-to-memref needs tfc-plan-memory first");
  // Parameters: runtime, arena, inputs by index, outputs by index.
  SmallVector<Operation *> args, rets;
  SmallVector<Operation *> schedule;
  for (Operation *op : topologicalOrder(graph.getBody())) {
    if (!tfg::isNode(op))
      continue;
    schedule.push_back(op);
    if (auto fused = op->getAttrOfType<StringAttr>("tfc.fused_into"))
      groups[fused.getValue()].push_back(op);
    StringRef type = tfg::getOpType(op);
    auto index = op->getAttrOfType<IntegerAttr>("index");
    if (type == "_Arg" || type == "_Retval") {
      auto &list = type == "_Arg" ? args : rets;
      if (!index || index.getInt() < 0)
        return op->emitError("_Arg/_Retval without an index");
      if (list.size() <= size_t(index.getInt()))
        list.resize(index.getInt() + 1);
      list[index.getInt()] = op;
    }
  }
  if (llvm::is_contained(args, nullptr) || llvm::is_contained(rets, nullptr))
    return graph.emitError("_Arg or _Retval indices are not contiguous");
  graph->setAttr("tfc.num_inputs", builder.getI64IntegerAttr(args.size()));

  SmallVector<Type> params = {LLVM::LLVMPointerType::get(context),
                              MemRefType::get({arenaBytes.getInt()},
                                              builder.getI8Type())};
  for (Operation *arg : args)
    params.push_back(memrefOf(arg->getResult(0)));
  for (Operation *ret : rets)
    params.push_back(memrefOf(tfg::getDataOperands(ret)[0]));
  builder.setInsertionPointToEnd(module.getBody());
  step = builder.create<func::FuncOp>(graph.getLoc(), "tfc_step_impl",
                                      builder.getFunctionType(params, {}));
  Block *entry = step.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  runtime = entry->getArgument(0);
  arena = entry->getArgument(1);
  for (auto [i, arg] : llvm::enumerate(args))
    memrefs[arg->getResult(0)] = entry->getArgument(2 + i);

  for (Operation *node : schedule)
    if (failed(emitNode(node)))
      return failure();
  builder.create<func::ReturnOp>(graph.getLoc());
  return success();
}

struct ConvertTfgToMemrefPass
    : public impl::ConvertTfgToMemrefPassBase<ConvertTfgToMemrefPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto graph : llvm::to_vector(module.getOps<tfg::GraphOp>())) {
      auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
      if (!entry || entry.getValue() != "step")
        continue;
      if (failed(StepEmitter(module, graph).emit()))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace tfc
