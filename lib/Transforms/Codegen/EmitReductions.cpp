//===- EmitReductions.cpp - reductions, scans, top-k, segments -------------===//
//
// Reductions over constant axes, the axis kernels (arg-min/max, scans),
// TopK, Unique and segment sums, as linalg loops or calls of the runtime's
// kernels.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;

namespace tfc {

namespace {

/// The axes a node reduces, from its constant operand `index`: in range,
/// sorted, without repeats.
FailureOr<SmallVector<int64_t>> axesOf(Operation *node, unsigned index,
                                       int64_t rank,
                                       function_ref<InFlightDiagnostic()> error) {
  std::optional<SmallVector<int64_t>> axes =
      constantInts(tfg::getDataOperands(node)[index]);
  if (!axes)
    return error() << "the axes must be constant";
  if (std::optional<SmallVector<int64_t>> normalized = normalizeAxes(*axes, rank))
    return *normalized;
  int64_t outside = *llvm::find_if(
      *axes, [&](int64_t a) { return !normalizeAxis(a, rank); });
  return error() << "axis " << outside << " out of range for rank " << rank;
}

/// The sizes before, along and after `axis`.
std::tuple<int64_t, int64_t, int64_t> aroundAxis(ArrayRef<int64_t> shape,
                                                 int64_t axis) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
    inner *= shape[d];
  return {outer, shape[axis], inner};
}

/// BiasAddGrad sums over every axis but the channels: the last (NHWC) or
/// the second (NCHW).
SmallVector<int64_t> biasAxes(Operation *node, int64_t rank) {
  auto format = node->getAttrOfType<StringAttr>("data_format");
  int64_t channels = format && format.getValue() == "NCHW" && rank > 2 ? 1 : rank - 1;
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != channels)
      axes.push_back(d);
  return axes;
}

/// tfc_cpu_reduce_f32's kind for a reduction.
int32_t reduceKind(OpKind kind) {
  switch (kind) {
  case OpKind::Sum:
  case OpKind::BiasAddGrad:
    return 0;
  case OpKind::Mean:
    return 1;
  case OpKind::Max:
    return 2;
  case OpKind::Min:
    return 3;
  default:
    return 4;
  }
}

/// Sum/Mean/Max/Min/Prod/All/Any/EuclideanNorm over constant axes, L2Loss
/// over all. Float32 over one
/// contiguous run of axes calls the runtime's kernel; everything else is a
/// linalg reduction: the output set to the identity, then one loop nest
/// folding every input element into its output element.
class ReductionPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    Value input = tfg::getDataOperands(node)[0];
    auto in = cast<RankedTensorType>(input.getType());
    int64_t rank = in.getRank();
    FailureOr<SmallVector<int64_t>> axes =
        kind == OpKind::BiasAddGrad
            ? FailureOr<SmallVector<int64_t>>(biasAxes(node, rank))
        : kind == OpKind::L2Loss
            ? FailureOr<SmallVector<int64_t>>(
                  llvm::to_vector(llvm::seq<int64_t>(0, rank)))
            : axesOf(node, 1, rank, [&] { return step.error(node); });
    if (failed(axes))
      return failure();
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    Value source = step.memrefFor(input);
    Location loc = node->getLoc();
    Type element = in.getElementType();

    bool contiguous = true;
    for (size_t i = 1; i < axes->size(); ++i)
      contiguous &= (*axes)[i] == (*axes)[i - 1] + 1;
    // Sums of squares: EuclideanNorm's square root of one, L2Loss's half.
    bool squares = kind == OpKind::EuclideanNorm || kind == OpKind::L2Loss;
    if (squares && !isa<FloatType>(element))
      return step.error(node) << "no code generation for this op on " << element;
    if (element.isF32() && contiguous && kind != OpKind::All &&
        kind != OpKind::Any && !squares && in.getNumElements() > 0) {
      int64_t outer = 1, reduced = 1, inner = 1;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t size = in.getDimSize(d);
        if (llvm::is_contained(*axes, d))
          reduced *= size;
        else if (axes->empty() || d < axes->front())
          outer *= size;
        else
          inner *= size;
      }
      // A Mean that computes the variance too (tfc-fuse-elementwise).
      if (node->hasAttr(kVarianceAttr)) {
        FailureOr<Value> variance = step.outputFor(node, 1);
        if (failed(variance))
          return failure();
        step.callKernel(loc, step.kernelName("moments_f32"),
                        {step.pointerTo(source), step.pointerTo(*out),
                         step.pointerTo(*variance)},
                        {outer, reduced, inner});
        return success();
      }
      step.callKernel(loc, step.kernelName("reduce_f32"),
                      {step.pointerTo(source), step.pointerTo(*out)},
                      {outer, reduced, inner}, reduceKind(kind));
      return success();
    }

    if (node->hasAttr(kVarianceAttr))
      return step.error(node) << "a Mean with its variance must reduce "
                                 "contiguous axes of a float32 tensor";

    // The identity and the combination of the reduction.
    bool isFloat = isa<FloatType>(element);
    bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
    auto storage = cast<MemRefType>(out->getType()).getElementType();
    // Complex numbers sum and multiply (the only reductions TensorFlow
    // defines on them, with Mean).
    auto complexType = dyn_cast<ComplexType>(element);
    if (complexType && kind != OpKind::Sum && kind != OpKind::Prod &&
        kind != OpKind::Mean)
      return step.error(node) << "no code generation for this op on " << element;
    auto identity = [&](OpBuilder &b, Location l) -> Value {
      if (complexType)
        return complexConstant(b, l, complexType, kind == OpKind::Prod ? 1.0 : 0.0);
      if (isFloat) {
        double v =
            kind == OpKind::Max    ? -std::numeric_limits<double>::infinity()
            : kind == OpKind::Min  ? std::numeric_limits<double>::infinity()
            : kind == OpKind::Prod ? 1.0
                                   : 0.0;
        return b.create<arith::ConstantOp>(l, b.getFloatAttr(element, v));
      }
      unsigned bits = storage.getIntOrFloatBitWidth();
      APInt v =
          kind == OpKind::Max   ? (isUnsigned ? APInt::getMinValue(bits)
                                              : APInt::getSignedMinValue(bits))
          : kind == OpKind::Min ? (isUnsigned ? APInt::getMaxValue(bits)
                                              : APInt::getSignedMaxValue(bits))
          : kind == OpKind::Prod || kind == OpKind::All ? APInt(bits, 1)
                                                        : APInt(bits, 0);
      return b.create<arith::ConstantOp>(l, b.getIntegerAttr(storage, v));
    };
    auto combine = [&](OpBuilder &b, Location l, Value x, Value acc) -> Value {
      if (complexType)
        return kind == OpKind::Prod ? Value(b.create<complex::MulOp>(l, x, acc))
                                    : Value(b.create<complex::AddOp>(l, x, acc));
      if (kind == OpKind::All)
        return b.create<arith::AndIOp>(l, x, acc);
      if (kind == OpKind::Any)
        return b.create<arith::OrIOp>(l, x, acc);
      if (kind == OpKind::Max)
        return isFloat      ? Value(b.create<arith::MaximumFOp>(l, x, acc))
               : isUnsigned ? Value(b.create<arith::MaxUIOp>(l, x, acc))
                            : Value(b.create<arith::MaxSIOp>(l, x, acc));
      if (kind == OpKind::Min)
        return isFloat      ? Value(b.create<arith::MinimumFOp>(l, x, acc))
               : isUnsigned ? Value(b.create<arith::MinUIOp>(l, x, acc))
                            : Value(b.create<arith::MinSIOp>(l, x, acc));
      if (kind == OpKind::Prod)
        return isFloat ? Value(b.create<arith::MulFOp>(l, x, acc))
                       : Value(b.create<arith::MulIOp>(l, x, acc));
      if (squares)
        return b.create<arith::AddFOp>(l, b.create<arith::MulFOp>(l, x, x), acc);
      return isFloat ? Value(b.create<arith::AddFOp>(l, x, acc))
                     : Value(b.create<arith::AddIOp>(l, x, acc));
    };
    step.emitLoop(loc, {}, {}, *out, [&](OpBuilder &b, Location l, ValueRange) {
      return identity(b, l);
    });
    if (in.getNumElements() > 0) {
      bool keepDims = boolAttr(node, "keep_dims");
      SmallVector<AffineExpr> outExprs;
      SmallVector<utils::IteratorType> iterators;
      for (int64_t d = 0; d < rank; ++d) {
        bool reduced = llvm::is_contained(*axes, d);
        iterators.push_back(reduced ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
        if (!reduced)
          outExprs.push_back(step.builder.getAffineDimExpr(d));
        else if (keepDims)
          outExprs.push_back(step.builder.getAffineConstantExpr(0));
      }
      SmallVector<AffineMap> maps = {
          step.builder.getMultiDimIdentityMap(rank),
          AffineMap::get(rank, 0, outExprs, step.context)};
      step.builder.create<linalg::GenericOp>(
          loc, source, *out, maps, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            b.create<linalg::YieldOp>(l, combine(b, l, args[0], args[1]));
          });
    }
    if (squares)
      step.emitLoop(loc, {}, {}, *out,
                    [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                      if (kind == OpKind::EuclideanNorm)
                        return b.create<math::SqrtOp>(l, args[0]);
                      return b.create<arith::MulFOp>(
                          l, args[0],
                          b.create<arith::ConstantOp>(
                              l, b.getFloatAttr(element, 0.5)));
                    });
    if (kind == OpKind::Mean) {
      int64_t count = 1;
      for (int64_t d : *axes)
        count *= in.getDimSize(d);
      step.emitLoop(
          loc, {}, {}, *out,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            if (complexType)
              return b.create<complex::DivOp>(
                  l, args[0], complexConstant(b, l, complexType, double(count)));
            if (isFloat)
              return b.create<arith::DivFOp>(
                  l, args[0],
                  b.create<arith::ConstantOp>(l,
                                              b.getFloatAttr(element, count)));
            Value n = b.create<arith::ConstantOp>(
                l, b.getIntegerAttr(storage, std::max<int64_t>(count, 1)));
            return isUnsigned ? Value(b.create<arith::DivUIOp>(l, args[0], n))
                              : Value(b.create<arith::DivSIOp>(l, args[0], n));
          });
    }
    return success();
  }
};

/// ArgMax/ArgMin, Cumsum/Cumprod: runtime kernels along one constant axis.
class AxisKernelPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    Value input = tfg::getDataOperands(node)[0];
    auto in = cast<RankedTensorType>(input.getType());
    FailureOr<SmallVector<int64_t>> axes =
        axesOf(node, 1, std::max<int64_t>(in.getRank(), 1),
               [&] { return step.error(node); });
    if (failed(axes))
      return failure();
    if (axes->size() != 1)
      return step.error(node) << "expects one axis";
    int dtype = tfg::typeToDataType(in.getElementType());
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    auto [outer, n, inner] = aroundAxis(in.getShape(), axes->front());
    Location loc = node->getLoc();
    bool isArg = kind == OpKind::ArgMax || kind == OpKind::ArgMin;
    if (!in.getElementType().isIntOrFloat() ||
        in.getElementType().isInteger(1) || in.getElementType().isF16() ||
        in.getElementType().isBF16())
      return step.error(node)
             << "no code generation for " << in.getElementType();
    if (isArg) {
      if (n == 0)
        return step.error(node) << "reduces an empty axis";
      int indexType = tfg::typeToDataType(
          cast<RankedTensorType>(tfg::getDataResults(node)[0].getType())
              .getElementType());
      step.callKernel(
          loc, step.kernelName("arg_reduce"),
          {step.pointerTo(step.memrefFor(input)), step.pointerTo(*out)},
          {kind == OpKind::ArgMax ? 0 : 1, dtype, indexType, outer, n, inner});
      return success();
    }
    step.callKernel(
        loc, step.kernelName("scan"),
        {step.pointerTo(step.memrefFor(input)), step.pointerTo(*out)},
        {kind == OpKind::Cumsum ? 0 : 1, dtype, outer, n, inner,
         boolAttr(node, "exclusive"), boolAttr(node, "reverse")});
    return success();
  }
};

/// TopKV2 on float32 rows.
class TopKPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = tfg::getDataOperands(node)[0];
    auto in = cast<RankedTensorType>(input.getType());
    if (!in.getElementType().isF32())
      return step.error(node) << "code generation supports float32 TopKV2 only";
    auto values =
        cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    int64_t n = in.getShape().back(), k = values.getShape().back();
    int64_t rows = n == 0 ? 0 : in.getNumElements() / n;
    FailureOr<Value> top = step.outputFor(node, 0),
                     indices = step.outputFor(node, 1);
    if (failed(top) || failed(indices))
      return failure();
    step.callKernel(node->getLoc(), step.kernelName("top_k_f32"),
                    {step.pointerTo(step.memrefFor(input)),
                     step.pointerTo(*top), step.pointerTo(*indices)},
                    {rows, n, k});
    return success();
  }
};

/// Unique of an int32/int64 vector, its values output bounded by the
/// input's length (padded with -1 where tfc-bound-unique claimed it for
/// updates that skip the padding, else with the first value: rows of
/// tfc-bound-dynamic-rows).
class UniquePattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Value input = step.memrefFor(tfg::getDataOperands(node)[0]);
    FailureOr<Value> values = step.outputFor(node, 0),
                     positions = step.outputFor(node, 1);
    if (!input || failed(values) || failed(positions))
      return step.error(node) << "an input or output has no buffer";
    auto inType = cast<MemRefType>(input.getType());
    auto positionType = cast<MemRefType>(positions->getType());
    if (inType.getRank() != 1 || !inType.getElementType().isSignlessInteger() ||
        (inType.getElementTypeBitWidth() != 32 &&
         inType.getElementTypeBitWidth() != 64))
      return step.error(node) << "code generation supports Unique of int32 or "
                                 "int64 vectors only";
    step.callKernel(node->getLoc(), step.kernelName("unique"),
                    {step.pointerTo(input), step.pointerTo(*values),
                     step.pointerTo(*positions)},
                    {inType.getNumElements(),
                     inType.getElementTypeBitWidth() / 8,
                     positionType.getElementTypeBitWidth() / 8,
                     node->hasAttr(kPadNegativeAttr) ? 1 : 0});
    return success();
  }
};

/// The segment ops (segmentFormOf): one call of the runtime's segment
/// reduction, or of its scatter back for the sparse gradients.
class SegmentsPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    SegmentForm form = *segmentFormOf(opKindOf(node));
    OperandRange operands = tfg::getDataOperands(node);
    Value ids = operands[form.idsOperand()];
    Value data = step.memrefFor(operands[0]), idsBuffer = step.memrefFor(ids);
    Value indices = form.sparse ? step.memrefFor(operands[1]) : Value();
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out) || !data || !idsBuffer || (form.sparse && !indices))
      return step.error(node) << "an input has no buffer";
    auto outType = cast<MemRefType>(out->getType());
    auto dataType = cast<MemRefType>(data.getType());
    if (!outType.getElementType().isF32())
      return step.error(node) << "supports float32 data only for now";
    if (outType.getRank() == 0 || dataType.getRank() == 0)
      return step.error(node) << "expects a segment dimension";
    auto idsType = cast<RankedTensorType>(ids.getType());
    Location loc = node->getLoc();
    auto [segments, rowSize] = rowsOf(outType);
    auto bytes = [](Type type) {
      return elementBytes(type);
    };
    Value none = step.nullPointer(loc);
    Value indicesPointer = form.sparse ? step.pointerTo(indices) : none;
    int64_t indexBytes = form.sparse ? bytes(indices.getType()) : 0;
    std::string label = tfg::nodeLabel(node);
    if (form.gradient) {
      step.callKernel(loc, step.kernelName("sparse_segment_grad_f32"),
                      {step.pointerTo(*out), step.pointerTo(data),
                       indicesPointer, step.pointerTo(idsBuffer),
                       step.stringPointer(loc, label)},
                      {segments, rowSize, idsType.getNumElements(),
                       bytes(idsType), indexBytes, dataType.getDimSize(0)},
                      form.reduction);
      return success();
    }
    step.callKernel(loc, step.kernelName("segment_reduce_f32"),
                    {step.pointerTo(*out), step.pointerTo(data), indicesPointer,
                     step.pointerTo(idsBuffer), step.stringPointer(loc, label)},
                    {segments, rowSize, idsType.getNumElements(),
                     bytes(idsType), indexBytes, dataType.getDimSize(0),
                     form.sorted ? 1 : 0},
                    form.reduction);
    return success();
  }
};

/// Bincount and DenseBincount: one call of the runtime's bincount, the
/// number of bins the constant size (the output's last dimension).
class BincountPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OperandRange operands = tfg::getDataOperands(node);
    auto values = cast<RankedTensorType>(operands[0].getType());
    auto weights = cast<RankedTensorType>(operands[2].getType());
    auto outType =
        cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
    Type element = outType.getElementType();
    if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
        !element.isInteger(64))
      return step.error(node) << "supports int32, int64, float and double counts";
    if (values.getRank() > 2)
      return step.error(node) << "counts rank-1 or rank-2 inputs, got " << values;
    bool weighted = weights.getNumElements() > 0;
    if (weighted && weights.getShape() != values.getShape())
      return step.error(node) << "weights " << weights
                              << " must be empty or shaped as the input "
                              << values;
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    int64_t bins = outType.getShape().back();
    int64_t rows = values.getRank() == 2 ? values.getDimSize(0) : 1;
    int64_t count = values.getRank() == 0 ? 1 : values.getShape().back();
    Location loc = node->getLoc();
    step.callKernel(
        loc, step.kernelName("bincount"),
        {step.pointerTo(step.memrefFor(operands[0])),
         weighted ? step.pointerTo(step.memrefFor(operands[2]))
                  : step.nullPointer(loc),
         step.pointerTo(*out), step.stringPointer(loc, tfg::nodeLabel(node))},
        {rows, count, bins, values.getElementTypeBitWidth() / 8,
         int64_t(tfg::typeToDataType(element))},
        boolAttr(node, "binary_output") ? 1 : 0);
    return success();
  }
};

/// LowerBound and UpperBound (tf.searchsorted): each row's values looked
/// up in its sorted inputs, the last dimension; one runtime call.
class SearchSortedPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OperandRange operands = tfg::getDataOperands(node);
    auto sorted = cast<RankedTensorType>(operands[0].getType());
    auto values = cast<RankedTensorType>(operands[1].getType());
    Type element = sorted.getElementType();
    if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
        !element.isInteger(64))
      return step.error(node) << "supports float32, float64, int32 and int64";
    if (sorted.getRank() < 1 || sorted.getRank() != values.getRank())
      return step.error(node) << "sorted inputs " << sorted << " and values "
                              << values << " must be rows alike";
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    int64_t n = sorted.getShape().back(), m = values.getShape().back();
    int64_t rows = m ? values.getNumElements() / m : 0;
    if (rows * n != sorted.getNumElements() && n)
      return step.error(node) << "sorted inputs " << sorted << " and values "
                              << values << " have different rows";
    Location loc = node->getLoc();
    step.callKernel(loc, step.kernelName("search_sorted"),
                    {step.pointerTo(step.memrefFor(operands[0])),
                     step.pointerTo(step.memrefFor(operands[1])),
                     step.pointerTo(*out)},
                    {rows, n, m, int64_t(tfg::typeToDataType(element)),
                     cast<MemRefType>(out->getType()).getElementTypeBitWidth() / 8},
                    opKindOf(node) == OpKind::UpperBound ? 1 : 0);
    return success();
  }
};

} // namespace

void populateReductionPatterns(CodegenPatterns &patterns) {
  patterns.add<SearchSortedPattern>("SearchSorted");
  patterns.add<BincountPattern>("Bincount");
  patterns.add<ReductionPattern>("Reduction");
  patterns.add<AxisKernelPattern>("AxisKernel");
  patterns.add<TopKPattern>("TopK");
  patterns.add<UniquePattern>("Unique");
  patterns.add<SegmentsPattern>("Segments");
}

} // namespace tfc
