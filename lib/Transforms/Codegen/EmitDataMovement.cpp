//===- EmitDataMovement.cpp - ops that move elements ----------------------===//
//
// Transpose, slicing, concatenation, padding, tiling, broadcasting,
// gathers and the ops that make tensors from scalars (Fill, Range,
// OneHot), each as linalg.generic loops over the output. Where the element
// an output position reads is an affine function of the position (all but
// the gathers and mirror padding), it is the input's indexing map, with
// every constant (permutation, begin, stride, tile size) folded in at
// compile time; otherwise the body computes the index and loads it.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {

namespace {

RankedTensorType typeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// A StridedSlice whose begin and end are values of the step (x[i] in a
/// loop): its constant strides and masks resolved. A dimension the step's
/// indices slice is shrunk (one index), or a range that
/// tfc-bound-dynamic-rows planned for its bound (the output's dimension is
/// static), for a slice of a number of elements the data decides has no
/// static shape otherwise.
FailureOr<StridedSliceSpec> stridedSliceAtRunTime(StepEmitter &step,
                                                  Operation *node,
                                                  ArrayRef<int64_t> sliced,
                                                  ArrayRef<int64_t> outDims) {
  std::optional<SmallVector<int64_t>> strides =
      constantInts(tfg::getDataOperands(node)[3]);
  if (!strides)
    return step.error(node) << "strides must be a constant";
  OperandRange operands = tfg::getDataOperands(node);
  SliceIndices begin = sliceIndices(operands[1], strides->size()),
               end = sliceIndices(operands[2], strides->size());
  std::string message;
  FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
      sliced, begin.values, end.values, *strides, intAttr(node, "begin_mask"),
      intAttr(node, "end_mask"), intAttr(node, "ellipsis_mask"),
      intAttr(node, "new_axis_mask"), intAttr(node, "shrink_axis_mask"),
      message, begin.known, end.known);
  if (failed(spec))
    return step.error(node) << message;
  for (auto [k, d] : llvm::enumerate(spec->outputSource))
    if (d >= 0 && spec->dims[d].atRunTime &&
        (ShapedType::isDynamic(outDims[k]) || spec->dims[d].stride <= 0))
      return step.error(node)
             << "slices a range whose ends are computed in the step (begin "
                "and end not constants): its size only the data decides";
  return spec;
}

/// One end of a range of StridedSlice `node` that its begin or end
/// (operand 1 or 2) gives for a dimension of `size`, as TensorFlow takes
/// it: the whole dimension's where masked, from the end where negative,
/// then clamped to [0, size]; read in the step unless known.
Value rangeEnd(StepEmitter &step, Operation *node, Location loc,
               unsigned operand, const StridedSliceDim &dim, int64_t size) {
  OpBuilder &b = step.builder;
  auto index = [&](int64_t v) {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };
  bool isBegin = operand == 1;
  if (intAttr(node, isBegin ? "begin_mask" : "end_mask") >> dim.entry & 1)
    return index(isBegin ? 0 : size);
  Value vector = tfg::getDataOperands(node)[operand];
  auto vectorType = cast<RankedTensorType>(vector.getType());
  SliceIndices known = sliceIndices(vector, vectorType.getDimSize(0));
  if (known.known[dim.entry]) {
    int64_t v = known.values[dim.entry];
    return index(std::clamp<int64_t>(v < 0 ? v + size : v, 0, size));
  }
  Value raw = b.create<arith::IndexCastOp>(
      loc, b.getIndexType(),
      b.create<memref::LoadOp>(loc, step.memrefFor(vector),
                               ValueRange{index(dim.entry)}));
  Value negative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, raw, index(0));
  Value v = b.create<arith::SelectOp>(
      loc, negative, b.create<arith::AddIOp>(loc, raw, index(size)), raw);
  return b.create<arith::MinSIOp>(
      loc, b.create<arith::MaxSIOp>(loc, v, index(0)), index(size));
}

/// A StridedSlice whose range along one dimension the step computes,
/// planned for its bound (tfc-bound-dynamic-rows): each output element is
/// its input element while the range lasts, and zero past it (the rows
/// past the count, padding).
void emitRangeAtRunTime(StepEmitter &step, Operation *node, Location loc,
                        const StridedSliceSpec &spec, ArrayRef<Value> indexAt,
                        Value source, Value output) {
  auto sourceType = cast<MemRefType>(source.getType());
  // The output dimension that walks each input dimension.
  SmallVector<int64_t> walkedBy(spec.dims.size(), -1);
  for (auto [k, d] : llvm::enumerate(spec.outputSource))
    if (d >= 0)
      walkedBy[d] = k;
  SmallVector<Value> first(spec.dims.size()), last(spec.dims.size());
  for (auto [d, dim] : llvm::enumerate(spec.dims))
    if (dim.atRunTime && !dim.shrink) {
      int64_t size = sourceType.getDimSize(d);
      first[d] = rangeEnd(step, node, loc, 1, dim, size);
      last[d] = rangeEnd(step, node, loc, 2, dim, size);
    }
  Type element = sourceType.getElementType();
  step.emitLoop(loc, {}, {}, output,
                [&](OpBuilder &nb, Location l, ValueRange) -> Value {
    auto index = [&](int64_t v) {
      return nb.create<arith::ConstantIndexOp>(l, v);
    };
    SmallVector<Value> at;
    Value inside;
    for (auto [d, dim] : llvm::enumerate(spec.dims)) {
      if (dim.shrink) {
        at.push_back(indexAt[d] ? indexAt[d] : Value(index(dim.begin)));
        continue;
      }
      Value k = nb.create<linalg::IndexOp>(l, walkedBy[d]);
      Value offset = nb.create<arith::MulIOp>(l, k, index(dim.stride));
      if (!first[d]) {
        at.push_back(nb.create<arith::AddIOp>(l, index(dim.begin), offset));
        continue;
      }
      Value i = nb.create<arith::AddIOp>(l, first[d], offset);
      inside = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, last[d]);
      // (Padding reads the last element, whose value the select drops.)
      at.push_back(nb.create<arith::MinSIOp>(
          l, i, index(std::max<int64_t>(sourceType.getDimSize(d) - 1, 0))));
    }
    Value v = nb.create<memref::LoadOp>(l, source, at);
    return nb.create<arith::SelectOp>(l, inside, v,
                                      zeroElement(nb, l, element));
  });
}

/// The index begin[entry] of a StridedSlice computed in the step, for a
/// shrunk dimension `dim` of `size`: negative counts from the end, and one
/// outside the dimension stops the step naming the node, as TensorFlow
/// does (tfc_check_slice_index).
Value shrunkIndex(StepEmitter &step, Operation *node, Location loc,
                  int64_t entry, int64_t size, int64_t dim) {
  OpBuilder &b = step.builder;
  Value beginOperand = tfg::getDataOperands(node)[1];
  Value begin = step.memrefFor(beginOperand);
  step.callKernel(loc, "tfc_check_slice_index",
                  {step.pointerTo(begin),
                   step.stringPointer(loc, tfg::nodeLabel(node))},
                  {entry, elementBytes(beginOperand.getType()), dim, size});
  Value at = b.create<arith::ConstantIndexOp>(loc, entry);
  Value raw = b.create<arith::IndexCastOp>(
      loc, b.getIndexType(), b.create<memref::LoadOp>(loc, begin, at));
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value negative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, raw, zero);
  return b.create<arith::SelectOp>(
      loc, negative,
      b.create<arith::AddIOp>(loc, raw,
                              b.create<arith::ConstantIndexOp>(loc, size)),
      raw);
}

} // namespace

std::pair<Value, AffineMap>
StepEmitter::sliceOf(Location loc, Value whole, ArrayRef<StridedSliceDim> dims,
                     ArrayRef<int64_t> outputSource, ArrayRef<Value> indexAt) {
  // The subview covers exactly the elements read, lowest index first, so
  // that its shape agrees with the loop (linalg checks it); a backwards
  // walk reads it backwards.
  SmallVector<OpFoldResult> offsets, sizes, steps;
  SmallVector<AffineExpr> exprs;
  for (auto [k, d] : llvm::enumerate(dims)) {
    int64_t step = std::abs(d.stride);
    if (k < indexAt.size() && indexAt[k])
      offsets.push_back(indexAt[k]);
    else
      offsets.push_back(builder.getIndexAttr(
          d.stride > 0 ? d.begin : d.begin + (d.count - 1) * d.stride));
    sizes.push_back(builder.getIndexAttr(d.count));
    steps.push_back(builder.getIndexAttr(step));
    exprs.push_back(builder.getAffineConstantExpr(0));
  }
  for (auto [k, d] : llvm::enumerate(outputSource)) {
    if (d < 0 || dims[d].shrink)
      continue;
    AffineExpr walk = builder.getAffineDimExpr(k);
    exprs[d] = dims[d].stride > 0 ? walk : dims[d].count - 1 - walk;
  }
  Value window = builder.create<memref::SubViewOp>(loc, whole, offsets, sizes, steps);
  return {window, AffineMap::get(outputSource.size(), 0, exprs, context)};
}

void StepEmitter::emitLoop(Location loc, ValueRange inputs,
                           ArrayRef<AffineMap> inputMaps, Value output,
                           BodyBuilder body) {
  auto outType = cast<MemRefType>(output.getType());
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(builder.getMultiDimIdentityMap(outType.getRank()));
  SmallVector<utils::IteratorType> iterators(outType.getRank(),
                                             utils::IteratorType::parallel);
  builder.create<linalg::GenericOp>(
      loc, inputs, output, maps, iterators,
      [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
        b.create<linalg::YieldOp>(nestedLoc, body(b, nestedLoc, args));
      });
}

/// ResizeBilinear and ResizeNearestNeighbor as TensorFlow's CPU kernels
/// compute them: each output position maps back to a source coordinate
/// (scale = in / out, or (in - 1) / (out - 1) with align_corners; with
/// half_pixel_centers, pixel centers are aligned: (y + 0.5) * scale, minus
/// 0.5 for bilinear), then takes the nearest pixel or interpolates the four
/// around it, in float.
static LogicalResult emitResize(StepEmitter &step, Operation *node,
                                Value source) {
  bool bilinear = opKindOf(node) == OpKind::ResizeBilinear;
  bool alignCorners = boolAttr(node, "align_corners");
  bool halfPixel = boolAttr(node, "half_pixel_centers");
  auto in = cast<RankedTensorType>(tfg::getDataOperands(node)[0].getType());
  auto out = cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  Type inElement = cast<MemRefType>(source.getType()).getElementType();
  if (!isa<FloatType>(inElement))
    return step.error(node)
           << "code generation supports float images only for now";
  FailureOr<Value> output = step.outputFor(node);
  if (failed(output))
    return failure();
  auto scaleOf = [&](int64_t inSize, int64_t outSize) {
    return alignCorners && outSize > 1 ? float(inSize - 1) / float(outSize - 1)
                                       : float(inSize) / float(outSize);
  };
  float scales[2] = {scaleOf(in.getDimSize(1), out.getDimSize(1)),
                     scaleOf(in.getDimSize(2), out.getDimSize(2))};
  Type outElement = cast<MemRefType>(output->getType()).getElementType();
  step.emitLoop(
      node->getLoc(), {}, {}, *output,
      [&](OpBuilder &b, Location l, ValueRange) -> Value {
        Type f32 = b.getF32Type();
        auto f = [&](float v) {
          return b.create<arith::ConstantOp>(l, b.getF32FloatAttr(v));
        };
        auto index = [&](int64_t v) {
          return b.create<arith::ConstantIndexOp>(l, v);
        };
        auto toFloat = [&](Value i) {
          return b.create<arith::SIToFPOp>(
              l, f32, b.create<arith::IndexCastOp>(l, b.getI64Type(), i));
        };
        auto toIndex = [&](Value v) {
          return b.create<arith::IndexCastOp>(
              l, b.getIndexType(),
              b.create<arith::FPToSIOp>(l, b.getI64Type(), v));
        };
        auto clamp = [&](Value i, int64_t hi) {
          return b.create<arith::MinSIOp>(
              l, b.create<arith::MaxSIOp>(l, i, index(0)), index(hi));
        };
        Value batch = b.create<linalg::IndexOp>(l, 0);
        Value channel = b.create<linalg::IndexOp>(l, 3);
        // The source coordinate of output dim 1 (rows) or 2 (columns).
        auto coordinate = [&](int64_t dim) -> Value {
          Value at = toFloat(b.create<linalg::IndexOp>(l, dim));
          if (halfPixel)
            at = b.create<arith::AddFOp>(l, at, f(0.5f));
          Value scaled = b.create<arith::MulFOp>(l, at, f(scales[dim - 1]));
          if (halfPixel && bilinear)
            scaled = b.create<arith::SubFOp>(l, scaled, f(0.5f));
          return scaled;
        };
        auto load = [&](Value y, Value x) -> Value {
          Value v = b.create<memref::LoadOp>(l, source,
                                             ValueRange{batch, y, x, channel});
          return inElement == f32 ? v
                 : inElement.getIntOrFloatBitWidth() > 32
                     ? Value(b.create<arith::TruncFOp>(l, f32, v))
                     : Value(b.create<arith::ExtFOp>(l, f32, v));
        };
        if (!bilinear) {
          auto nearest = [&](int64_t dim) {
            Value c = coordinate(dim);
            c = alignCorners ? Value(b.create<math::RoundOp>(l, c))
                             : Value(b.create<math::FloorOp>(l, c));
            return clamp(toIndex(c), in.getDimSize(dim) - 1);
          };
          Value v = b.create<memref::LoadOp>(
              l, source, ValueRange{batch, nearest(1), nearest(2), channel});
          return v;
        }
        // Bilinear: the two neighbours along each dim and the weight of
        // the upper one.
        auto neighbours = [&](int64_t dim) {
          Value c = coordinate(dim);
          Value low = b.create<math::FloorOp>(l, c);
          Value lerp = b.create<arith::SubFOp>(l, c, low);
          Value lower = clamp(toIndex(low), in.getDimSize(dim) - 1);
          Value upper = clamp(toIndex(b.create<math::CeilOp>(l, c)),
                              in.getDimSize(dim) - 1);
          return std::make_tuple(lower, upper, lerp);
        };
        auto [y0, y1, ly] = neighbours(1);
        auto [x0, x1, lx] = neighbours(2);
        auto mix = [&](Value a, Value c, Value t) {
          return b.create<arith::AddFOp>(
              l, a,
              b.create<arith::MulFOp>(l, b.create<arith::SubFOp>(l, c, a), t));
        };
        Value top = mix(load(y0, x0), load(y0, x1), lx);
        Value bottom = mix(load(y1, x0), load(y1, x1), lx);
        Value v = mix(top, bottom, ly);
        return outElement == f32
                   ? v
                   : Value(b.create<arith::TruncFOp>(l, outElement, v));
      });
  return success();
}

namespace {

/// Transpose, slices, concatenation, padding, gathers, Fill, Range, ...
class DataMovementPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    OpKind kind = opKindOf(node);
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    Value input = operands[0];
    auto in = typeOf(input);
    auto out = typeOf(tfg::getDataResults(node)[0]);
    int64_t rank = out.getRank();
    auto dim = [&](int64_t d) { return step.builder.getAffineDimExpr(d); };
    auto constant = [&](int64_t v) {
      return step.builder.getAffineConstantExpr(v);
    };
    auto mapOf = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(rank, 0, exprs, step.context);
    };
    auto copyBody = [](OpBuilder &, Location, ValueRange args) {
      return args[0];
    };
    auto constants = [&](unsigned i,
                         StringRef what) -> FailureOr<SmallVector<int64_t>> {
      std::optional<SmallVector<int64_t>> values = constantInts(operands[i]);
      if (!values)
        return step.error(node) << what << " must be a constant";
      return *values;
    };
    // The tensor read (Split and Fill read their second operand).
    Value source;
    if (kind != OpKind::Split && kind != OpKind::Fill &&
        kind != OpKind::StridedSliceGrad) {
      source = step.memrefFor(input);
      if (!source)
        return step.error(node) << "input has no buffer";
    }

    // Normalizes axis `a` of a rank-`r` tensor, or fails naming `what`.
    auto axisOf = [&](int64_t a, int64_t r, StringRef what) -> FailureOr<int64_t> {
      std::optional<int64_t> axis = normalizeAxis(a, r);
      if (!axis)
        return step.error(node) << what << " " << a << " is out of range";
      return *axis;
    };

    if (kind == OpKind::ReverseV2 || kind == OpKind::Roll) {
      // Output element d reads n-1-d along a reversed axis, and (d - shift)
      // mod n along a rolled one (shifts on one axis add up).
      FailureOr<SmallVector<int64_t>> axes =
          constants(kind == OpKind::Roll ? 2 : 1, "the axis");
      if (failed(axes))
        return failure();
      SmallVector<int64_t> shifts(axes->size(), 0);
      if (kind == OpKind::Roll) {
        FailureOr<SmallVector<int64_t>> given = constants(1, "the shift");
        if (failed(given))
          return failure();
        if (given->size() != axes->size())
          return step.error(node) << "shift and axis differ in length";
        shifts = *given;
      }
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d)
        exprs.push_back(dim(d));
      SmallVector<bool> reversed(rank, false);
      SmallVector<int64_t> shift(rank, 0);
      for (auto [a, by] : llvm::zip(*axes, shifts)) {
        FailureOr<int64_t> axis = axisOf(a, rank, "axis");
        if (failed(axis))
          return failure();
        if (kind == OpKind::ReverseV2) {
          if (reversed[*axis])
            return step.error(node) << "axis " << a << " is given twice";
          reversed[*axis] = true;
        }
        shift[*axis] += by;
      }
      for (int64_t d = 0; d < rank; ++d) {
        int64_t n = out.getDimSize(d);
        if (reversed[d])
          exprs[d] = constant(n - 1) - dim(d);
        else if (n > 0 && shift[d] % n)
          exprs[d] = (dim(d) + constant(((-shift[d]) % n + n) % n)) % n;
      }
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      step.emitLoop(loc, source, mapOf(exprs), *output, copyBody);
      return success();
    }

    if (kind == OpKind::DepthToSpace || kind == OpKind::SpaceToDepth) {
      // NHWC, blocks of b x b pixels against groups of channels:
      // DepthToSpace's out[n,h,w,c] = in[n, h/b, w/b, ((h%b)*b + w%b)*C + c]
      // with C its output depth; SpaceToDepth the inverse.
      int64_t b = intAttr(node, "block_size");
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      SmallVector<AffineExpr> exprs;
      if (kind == OpKind::DepthToSpace) {
        int64_t depth = out.getDimSize(3);
        exprs = {dim(0), dim(1).floorDiv(b), dim(2).floorDiv(b),
                 ((dim(1) % b) * b + dim(2) % b) * depth + dim(3)};
      } else {
        int64_t depth = in.getDimSize(3);
        AffineExpr block = dim(3).floorDiv(depth);
        exprs = {dim(0), dim(1) * b + block.floorDiv(b), dim(2) * b + block % b,
                 dim(3) % depth};
      }
      step.emitLoop(loc, source, mapOf(exprs), *output, copyBody);
      return success();
    }

    if (kind == OpKind::BatchToSpaceND) {
      // The batch holds the blocks of the spatial dims, the block offsets
      // outermost: out[n, y..., r...] reads in[o * N + n, (y + crop) / b...,
      // r...], where o is the offsets (y + crop) % b in row-major order and
      // N the output's batch.
      FailureOr<SmallVector<int64_t>> block = constants(1, "block_shape"),
                                      crops = constants(2, "crops");
      if (failed(block) || failed(crops))
        return failure();
      int64_t m = block->size();
      AffineExpr offset = constant(0);
      SmallVector<AffineExpr> exprs(rank, constant(0));
      for (int64_t i = 0; i < m; ++i) {
        AffineExpr y = dim(1 + i) + constant((*crops)[2 * i]);
        offset = offset * (*block)[i] + y % (*block)[i];
        exprs[1 + i] = y.floorDiv((*block)[i]);
      }
      exprs[0] = offset * out.getDimSize(0) + dim(0);
      for (int64_t d = 1 + m; d < rank; ++d)
        exprs[d] = dim(d);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      step.emitLoop(loc, source, mapOf(exprs), *output, copyBody);
      return success();
    }

    if (kind == OpKind::SpaceToBatchND) {
      // The inverse, on the padded input: out[q * N + n, y..., r...] is
      // padded[n, y * b + o...], o the offsets q in row-major order and N
      // the input's batch; zero in the padding.
      FailureOr<SmallVector<int64_t>> block = constants(1, "block_shape"),
                                      paddings = constants(2, "paddings");
      if (failed(block) || failed(paddings))
        return failure();
      int64_t m = block->size(), batch = in.getDimSize(0);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      Type element = cast<MemRefType>(output->getType()).getElementType();
      step.emitLoop(
          loc, ValueRange{}, ArrayRef<AffineMap>{}, *output,
          [&](OpBuilder &b, Location l, ValueRange) -> Value {
            auto index = [&](int64_t v) {
              return b.create<arith::ConstantIndexOp>(l, v);
            };
            Value q = b.create<linalg::IndexOp>(l, 0);
            Value n = b.create<arith::RemUIOp>(l, q, index(batch));
            Value rest = b.create<arith::DivUIOp>(l, q, index(batch));
            SmallVector<Value> at(in.getRank());
            at[0] = n;
            Value inside = b.create<arith::ConstantIntOp>(l, 1, 1);
            // Offsets in row-major order: the last block dim varies fastest.
            for (int64_t i = m - 1; i >= 0; --i) {
              Value o = b.create<arith::RemUIOp>(l, rest, index((*block)[i]));
              rest = b.create<arith::DivUIOp>(l, rest, index((*block)[i]));
              Value y = b.create<linalg::IndexOp>(l, 1 + i);
              Value padded = b.create<arith::AddIOp>(
                  l, b.create<arith::MulIOp>(l, y, index((*block)[i])), o);
              // The coordinate in the unpadded input, as a signed index.
              Value x = b.create<arith::SubIOp>(l, padded,
                                                index((*paddings)[2 * i]));
              Value valid = b.create<arith::AndIOp>(
                  l,
                  b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, x,
                                          index(0)),
                  b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, x,
                                          index(in.getDimSize(1 + i))));
              inside = b.create<arith::AndIOp>(l, inside, valid);
              at[1 + i] = b.create<arith::SelectOp>(l, valid, x, index(0));
            }
            for (int64_t d = 1 + m; d < in.getRank(); ++d)
              at[d] = b.create<linalg::IndexOp>(l, d);
            Value v = b.create<memref::LoadOp>(l, source, at);
            return b.create<arith::SelectOp>(
                l, inside, v,
                zeroElement(b, l, element));
          });
      return success();
    }

    if (kind == OpKind::Transpose) {
      FailureOr<SmallVector<int64_t>> perm = constants(1, "the permutation");
      if (failed(perm))
        return failure();
      // Output dim k walks input dim perm[k].
      SmallVector<AffineExpr> exprs(rank, constant(0));
      for (int64_t k = 0; k < rank; ++k)
        exprs[(*perm)[k]] = dim(k);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      step.emitLoop(loc, source, mapOf(exprs), *output, copyBody);
      return success();
    }

    // StridedSlice's begin, end and strides (inputs 1-3) and masks, on a
    // tensor of shape `sliced`.
    auto stridedSlice =
        [&](ArrayRef<int64_t> sliced) -> FailureOr<StridedSliceSpec> {
      FailureOr<SmallVector<int64_t>> begin = constants(1, "begin"),
                                      end = constants(2, "end"),
                                      strides = constants(3, "strides");
      if (failed(begin) || failed(end) || failed(strides))
        return failure();
      std::string message;
      FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
          sliced, *begin, *end, *strides, intAttr(node, "begin_mask"),
          intAttr(node, "end_mask"), intAttr(node, "ellipsis_mask"),
          intAttr(node, "new_axis_mask"), intAttr(node, "shrink_axis_mask"),
          message);
      if (failed(spec))
        return step.error(node) << message;
      return spec;
    };

    if (kind == OpKind::Slice || kind == OpKind::StridedSlice) {
      StridedSliceSpec spec;
      if (kind == OpKind::Slice) {
        FailureOr<SmallVector<int64_t>> begin = constants(1, "begin");
        if (failed(begin))
          return failure();
        for (int64_t d = 0; d < in.getRank(); ++d) {
          spec.dims.push_back({(*begin)[d], out.getDimSize(d), 1, false});
          spec.outputSource.push_back(d);
        }
      } else if (constantInts(operands[1]) && constantInts(operands[2])) {
        FailureOr<StridedSliceSpec> resolved = stridedSlice(in.getShape());
        if (failed(resolved))
          return failure();
        spec = *resolved;
      } else {
        FailureOr<StridedSliceSpec> resolved =
            stridedSliceAtRunTime(step, node, in.getShape(), out.getShape());
        if (failed(resolved))
          return failure();
        spec = *resolved;
      }
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      // The indices of the step's shrunk dimensions, checked.
      SmallVector<Value> indexAt(spec.dims.size());
      for (auto [d, dim] : llvm::enumerate(spec.dims))
        if (dim.atRunTime)
          indexAt[d] = dim.shrink ? shrunkIndex(step, node, loc, dim.entry,
                                                in.getDimSize(d), d)
                                  : Value();
      if (llvm::any_of(spec.dims, [](const StridedSliceDim &d) {
            return d.atRunTime && !d.shrink;
          })) {
        emitRangeAtRunTime(step, node, loc, spec, indexAt, source, *output);
        return success();
      }
      auto [window, map] =
          step.sliceOf(loc, source, spec.dims, spec.outputSource, indexAt);
      step.emitLoop(loc, window, map, *output, copyBody);
      return success();
    }

    if (kind == OpKind::StridedSliceGrad) {
      // Zeros of the sliced input's shape, then dy into the slice's window,
      // dy read as the window's sizes (shrunk and new axes are size 1). The
      // map from a dim of the window to its slice dim is its own inverse (a
      // backwards walk reads backwards), so the slice's serves.
      FailureOr<StridedSliceSpec> spec = stridedSlice(out.getShape());
      Value dy = step.memrefFor(operands[4]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(spec) || !dy || failed(output))
        return failure();
      Type element = out.getElementType();
      step.builder.create<linalg::FillOp>(
          loc,
          zeroElement(step.builder, loc, element),
          *output);
      SmallVector<int64_t> sizes;
      for (const StridedSliceDim &d : spec->dims)
        sizes.push_back(d.count);
      if (llvm::is_contained(sizes, 0))
        return success();
      auto [window, map] =
          step.sliceOf(loc, *output, spec->dims,
                       llvm::to_vector(llvm::seq<int64_t>(0, rank)));
      Value rows = step.reshapeOf(loc, dy, MemRefType::get(sizes, element));
      step.emitLoop(loc, rows, map, window, copyBody);
      return success();
    }

    if (kind == OpKind::Tile || kind == OpKind::BroadcastTo) {
      // Tile: index mod the input's size. BroadcastTo: right-aligned, size-1
      // dims read index 0.
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < in.getRank(); ++d) {
        int64_t k = rank - in.getRank() + d, size = in.getDimSize(d);
        if (size == out.getDimSize(k))
          exprs.push_back(dim(k));
        else if (kind == OpKind::Tile)
          exprs.push_back(dim(k) % size);
        else
          exprs.push_back(constant(0));
      }
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      step.emitLoop(loc, source, mapOf(exprs), *output, copyBody);
      return success();
    }

    if (kind == OpKind::ConcatV2 || kind == OpKind::Pack) {
      // Each input fills its part of the output.
      unsigned count =
          kind == OpKind::Pack ? operands.size() : operands.size() - 1;
      int64_t axisValue;
      if (kind == OpKind::Pack) {
        axisValue = intAttr(node, "axis");
      } else {
        FailureOr<SmallVector<int64_t>> axisList = constants(count, "the axis");
        if (failed(axisList))
          return failure();
        axisValue = axisList->front();
      }
      std::optional<int64_t> axis = normalizeAxis(axisValue, rank);
      if (!axis)
        return step.error(node) << "axis " << axisValue << " out of range";
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      // float32 along an axis past the first: the runtime's row-by-row
      // copy (tfc_cpu_concat_rows_f32), where a loop per piece would write
      // a strip of every output row in turn.
      if (kind == OpKind::ConcatV2 && *axis > 0 && out.hasStaticShape() &&
          out.getElementType().isF32() && out.getNumElements() > 0) {
        int64_t rows = 1;
        for (int64_t d = 0; d < *axis; ++d)
          rows *= out.getDimSize(d);
        SmallVector<Value> pieces;
        SmallVector<int64_t> widths;
        for (unsigned i = 0; i < count; ++i) {
          auto part = typeOf(operands[i]);
          if (part.getNumElements() == 0)
            continue;
          // A null piece: one tfc-plan-memory made in its place already.
          Value piece;
          if (!isInPlaceOperand(node, i) &&
              !(piece = step.memrefFor(operands[i])))
            return step.error(node) << "input " << i << " has no buffer";
          pieces.push_back(piece);
          widths.push_back(part.getNumElements() / rows);
        }
        // Rows a window of a wider concatenation's are further apart.
        int64_t outStride =
            getStridesAndOffset(cast<MemRefType>(output->getType()))
                .first[*axis - 1];
        step.callKernel(loc, step.kernelName("concat_rows_f32"),
                        {step.addressTable(loc, pieces),
                         step.pointerTo(step.constantTable(loc, widths)),
                         step.pointerTo(*output)},
                        {int64_t(pieces.size()), rows, outStride});
        return success();
      }
      int64_t offset = 0;
      for (unsigned i = 0; i < count; ++i) {
        auto part = typeOf(operands[i]);
        int64_t extent = kind == OpKind::Pack ? 1 : part.getDimSize(*axis);
        if (part.getNumElements() != 0 && !isInPlaceOperand(node, i)) {
          SmallVector<int64_t> offsets(rank, 0), sizes(out.getShape()),
              steps(rank, 1);
          offsets[*axis] = offset;
          sizes[*axis] = extent;
          Value window = step.builder.create<memref::SubViewOp>(
              loc, *output, offsets, sizes, steps);
          SmallVector<AffineExpr> exprs;
          for (int64_t d = 0; d < rank; ++d)
            if (kind != OpKind::Pack || d != *axis)
              exprs.push_back(dim(d));
          Value piece = step.memrefFor(operands[i]);
          if (!piece)
            return step.error(node) << "input " << i << " has no buffer";
          step.emitLoop(loc, piece, mapOf(exprs), window, copyBody);
        }
        offset += extent;
      }
      return success();
    }

    if (kind == OpKind::Unpack || kind == OpKind::Split ||
        kind == OpKind::SplitV) {
      // Output i reads its slice of the input.
      Value value = kind == OpKind::Split ? operands[1] : operands[0];
      auto valueType = typeOf(value);
      int64_t axisValue;
      if (kind == OpKind::Unpack) {
        auto attr = node->getAttrOfType<IntegerAttr>("axis");
        axisValue = attr ? attr.getInt() : 0;
      } else {
        FailureOr<SmallVector<int64_t>> axisList =
            constants(kind == OpKind::Split ? 0 : 2, "the axis");
        if (failed(axisList))
          return failure();
        axisValue = axisList->front();
      }
      std::optional<int64_t> axis = normalizeAxis(axisValue, valueType.getRank());
      if (!axis)
        return step.error(node) << "axis " << axisValue << " out of range";
      Value whole = step.memrefFor(value);
      if (!whole)
        return step.error(node) << "input has no buffer";
      int64_t offset = 0;
      for (auto [i, result] : llvm::enumerate(tfg::getDataResults(node))) {
        auto piece = typeOf(result);
        // The input's dims, the axis narrowed to this piece; the output
        // walks the others (and the axis too, unless unpacking).
        SmallVector<StridedSliceDim> dims;
        SmallVector<int64_t> walked;
        int64_t extent = kind == OpKind::Unpack ? 1 : piece.getDimSize(*axis);
        for (int64_t d = 0; d < valueType.getRank(); ++d) {
          if (d == *axis) {
            dims.push_back({offset, extent, 1, kind == OpKind::Unpack});
            if (kind != OpKind::Unpack)
              walked.push_back(d);
            continue;
          }
          dims.push_back({0, valueType.getDimSize(d), 1, false});
          walked.push_back(d);
        }
        offset += extent;
        if (piece.getNumElements() == 0 || result.use_empty())
          continue;
        FailureOr<Value> output = step.outputFor(node, i);
        if (failed(output))
          return failure();
        auto [window, map] = step.sliceOf(loc, whole, dims, walked);
        step.emitLoop(loc, window, map, *output, copyBody);
      }
      return success();
    }

    if (kind == OpKind::Pad || kind == OpKind::PadV2 ||
        kind == OpKind::MirrorPad) {
      FailureOr<SmallVector<int64_t>> paddings = constants(1, "the paddings");
      if (failed(paddings))
        return failure();
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      if (kind == OpKind::MirrorPad) {
        // Each output index maps back into the input by reflection, with
        // (SYMMETRIC) or without (REFLECT) repeating the edge.
        auto mode = node->getAttrOfType<StringAttr>("mode");
        bool symmetric = mode && mode.getValue() == "SYMMETRIC";
        step.emitLoop(loc, {}, {}, *output,
                      [&](OpBuilder &b, Location l, ValueRange) -> Value {
                        SmallVector<Value> indices;
                        auto index = [&](int64_t v) {
                          return b.create<arith::ConstantIndexOp>(l, v);
                        };
                        for (int64_t d = 0; d < rank; ++d) {
                          int64_t n = in.getDimSize(d);
                          Value i = b.create<arith::SubIOp>(
                              l, b.create<linalg::IndexOp>(l, d),
                              index((*paddings)[2 * d]));
                          Value negative = b.create<arith::CmpIOp>(
                              l, arith::CmpIPredicate::slt, i, index(0));
                          Value beyond = b.create<arith::CmpIOp>(
                              l, arith::CmpIPredicate::sge, i, index(n));
                          Value low = b.create<arith::SubIOp>(
                              l, index(symmetric ? -1 : 0), i);
                          Value high = b.create<arith::SubIOp>(
                              l, index(symmetric ? 2 * n - 1 : 2 * n - 2), i);
                          i = b.create<arith::SelectOp>(l, negative, low, i);
                          indices.push_back(
                              b.create<arith::SelectOp>(l, beyond, high, i));
                        }
                        return b.create<memref::LoadOp>(l, source, indices);
                      });
        return success();
      }
      // The padding value everywhere, then the input over its window.
      MemRefType outMemref = cast<MemRefType>(output->getType());
      if (kind == OpKind::PadV2) {
        Value padValue = step.memrefFor(operands[2]);
        if (!padValue)
          return step.error(node) << "the padding value has no buffer";
        step.emitLoop(loc, padValue, AffineMap::get(rank, 0, {}, step.context),
                      *output, copyBody);
      } else {
        Type element = outMemref.getElementType();
        step.emitLoop(loc, {}, {}, *output,
                      [&](OpBuilder &b, Location l, ValueRange) -> Value {
                        return zeroElement(b, l, element);
                      });
      }
      if (in.getNumElements() == 0)
        return success();
      SmallVector<int64_t> offsets, steps(rank, 1);
      for (int64_t d = 0; d < rank; ++d)
        offsets.push_back((*paddings)[2 * d]);
      Value window = step.builder.create<memref::SubViewOp>(
          loc, *output, offsets, in.getShape(), steps);
      step.emitLoop(loc, source, step.builder.getMultiDimIdentityMap(rank),
                    window, copyBody);
      return success();
    }

    if (kind == OpKind::GatherV2 || kind == OpKind::Gather) {
      // output[p..., i..., q...] = params[p..., indices[i...], q...]. An
      // index outside [0, n) is an error, as in TensorFlow: refused here
      // when the indices are a constant, else checked before the loop.
      // The first Gather's axis is 0.
      FailureOr<SmallVector<int64_t>> axisList =
          kind == OpKind::Gather ? FailureOr<SmallVector<int64_t>>(SmallVector<int64_t>{0})
                                 : constants(2, "the axis");
      if (failed(axisList))
        return failure();
      std::optional<int64_t> axis = normalizeAxis(axisList->front(), in.getRank());
      if (!axis)
        return step.error(node) << "axis out of range";
      auto indicesType = typeOf(operands[1]);
      int64_t indicesRank = indicesType.getRank();
      // The first batch_dims dimensions of params and indices go together:
      // output[b..., p..., i..., q...] = params[b..., p..., indices[b...,
      // i...], q...].
      int64_t batchDims = intAttr(node, "batch_dims", 0);
      if (batchDims < 0)
        batchDims += indicesRank;
      if (batchDims < 0 || batchDims > *axis || batchDims > indicesRank)
        return step.error(node) << "batch_dims " << intAttr(node, "batch_dims", 0)
                                << " must be in [0, " << std::min(*axis, indicesRank)
                                << "]";
      Value indices = step.memrefFor(operands[1]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !indices)
        return failure();
      SmallVector<AffineExpr> exprs;
      for (int64_t k = 0; k < indicesRank; ++k)
        exprs.push_back(dim(k < batchDims ? k : *axis + k - batchDims));
      int64_t n = in.getDimSize(*axis);
      if (std::optional<SmallVector<int64_t>> known = constantInts(operands[1])) {
        for (auto [at, index] : llvm::enumerate(*known))
          if (index < 0 || index >= n)
            return step.error(node) << "indices[" << at << "] = " << index
                                    << " is not in [0, " << n << ")";
      } else {
        std::string name = tfg::nodeLabel(node);
        step.callKernel(loc, "tfc_check_indices",
                        {step.pointerTo(indices), step.stringPointer(loc, name)},
                        {indicesType.getNumElements(),
                         indicesType.getElementTypeBitWidth() / 8, n});
      }
      step.emitLoop(
          loc, indices, mapOf(exprs), *output,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value i =
                b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
            SmallVector<Value> at;
            for (int64_t d = 0; d < in.getRank(); ++d)
              at.push_back(d == *axis
                               ? i
                               : Value(b.create<linalg::IndexOp>(
                                     l, d < *axis ? d
                                                  : d - 1 + indicesRank - batchDims)));
            return b.create<memref::LoadOp>(l, source, at);
          });
      return success();
    }

    if (kind == OpKind::GatherNd) {
      // output[i..., r...] = params[indices[i..., 0..k-1], r...]; each index
      // tuple checked before the loop, as TensorFlow's kernel does.
      Value indices = step.memrefFor(operands[1]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !indices)
        return failure();
      auto indicesType = typeOf(operands[1]);
      int64_t depth = indicesType.getDimSize(indicesType.getRank() - 1);
      int64_t lead = indicesType.getRank() - 1;
      std::string name = tfg::nodeLabel(node);
      step.callKernel(
          loc, "tfc_check_index_tuples",
          {step.pointerTo(indices), step.stringPointer(loc, name),
           step.pointerTo(step.constantTable(loc, in.getShape()))},
          {depth ? indicesType.getNumElements() / depth : 0, depth,
           indicesType.getElementTypeBitWidth() / 8, in.getRank()});
      step.emitLoop(
          loc, ValueRange{}, ArrayRef<AffineMap>{}, *output,
          [&](OpBuilder &b, Location l, ValueRange) -> Value {
            SmallVector<Value> tuple;
            for (int64_t d = 0; d < lead; ++d)
              tuple.push_back(b.create<linalg::IndexOp>(l, d));
            SmallVector<Value> at;
            for (int64_t j = 0; j < depth; ++j) {
              SmallVector<Value> where = tuple;
              where.push_back(b.create<arith::ConstantIndexOp>(l, j));
              Value i = b.create<memref::LoadOp>(l, indices, where);
              at.push_back(
                  b.create<arith::IndexCastOp>(l, b.getIndexType(), i));
            }
            for (int64_t d = depth; d < in.getRank(); ++d)
              at.push_back(b.create<linalg::IndexOp>(l, lead + d - depth));
            return b.create<memref::LoadOp>(l, source, at);
          });
      return success();
    }

    if (kind == OpKind::ReverseSequence) {
      // Along seq_dim, the first seq_lengths[b] elements of batch row b
      // reversed, the rest as they are (bidirectional RNNs with
      // sequence_length). Each length must be at most the dimension.
      FailureOr<int64_t> seqDim = axisOf(intAttr(node, "seq_dim"), rank, "seq_dim");
      FailureOr<int64_t> batchDim =
          axisOf(intAttr(node, "batch_dim"), rank, "batch_dim");
      if (failed(seqDim) || failed(batchDim))
        return failure();
      if (*seqDim == *batchDim)
        return step.error(node) << "seq_dim and batch_dim are the same";
      Value lengths = step.memrefFor(operands[1]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !lengths)
        return failure();
      auto lengthsType = typeOf(operands[1]);
      std::string name = tfg::nodeLabel(node) + " seq_lengths";
      step.callKernel(loc, "tfc_check_indices",
                      {step.pointerTo(lengths), step.stringPointer(loc, name)},
                      {lengthsType.getNumElements(),
                       lengthsType.getElementTypeBitWidth() / 8,
                       in.getDimSize(*seqDim) + 1});
      step.emitLoop(
          loc, ValueRange{}, ArrayRef<AffineMap>{}, *output,
          [&](OpBuilder &b, Location l, ValueRange) -> Value {
            SmallVector<Value> at;
            for (int64_t d = 0; d < rank; ++d)
              at.push_back(b.create<linalg::IndexOp>(l, d));
            Value length = b.create<arith::IndexCastOp>(
                l, b.getIndexType(),
                b.create<memref::LoadOp>(l, lengths, ValueRange{at[*batchDim]}));
            Value t = at[*seqDim];
            Value inside = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt,
                                                   t, length);
            Value mirrored = b.create<arith::SubIOp>(
                l, b.create<arith::SubIOp>(l, length,
                                           b.create<arith::ConstantIndexOp>(l, 1)),
                t);
            at[*seqDim] = b.create<arith::SelectOp>(l, inside, mirrored, t);
            return b.create<memref::LoadOp>(l, source, at);
          });
      return success();
    }

    if (kind == OpKind::MatrixBandPart) {
      // Element [..., i, j] stays when i - j <= num_lower and j - i <=
      // num_upper (a negative bound keeps the whole triangle), else 0:
      // causal attention masks are band_part(ones, -1, 0).
      FailureOr<SmallVector<int64_t>> lower = constants(1, "num_lower"),
                                      upper = constants(2, "num_upper");
      if (failed(lower) || failed(upper))
        return failure();
      if (rank < 2)
        return step.error(node) << "the input must have rank 2 or more";
      int64_t below = lower->front(), above = upper->front();
      int64_t rows = out.getDimSize(rank - 2), cols = out.getDimSize(rank - 1);
      if (below > rows || above > cols)
        return step.error(node) << "num_lower " << below << " or num_upper "
                                << above << " exceeds the matrix, " << rows
                                << "x" << cols;
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d)
        exprs.push_back(dim(d));
      Type element = cast<MemRefType>(output->getType()).getElementType();
      step.emitLoop(
          loc, source, mapOf(exprs), *output,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value i = b.create<linalg::IndexOp>(l, rank - 2);
            Value j = b.create<linalg::IndexOp>(l, rank - 1);
            Value keep = b.create<arith::ConstantIntOp>(l, 1, 1);
            auto within = [&](Value from, Value to, int64_t bound) {
              // to - from <= bound, in signed index arithmetic.
              Value distance = b.create<arith::SubIOp>(l, to, from);
              return b.create<arith::CmpIOp>(
                  l, arith::CmpIPredicate::sle, distance,
                  b.create<arith::ConstantIndexOp>(l, bound));
            };
            if (below >= 0)
              keep = b.create<arith::AndIOp>(l, keep, within(j, i, below));
            if (above >= 0)
              keep = b.create<arith::AndIOp>(l, keep, within(i, j, above));
            return b.create<arith::SelectOp>(
                l, keep, args[0],
                zeroElement(b, l, element));
          });
      return success();
    }

    if (kind == OpKind::OneHot) {
      auto axisAttr = node->getAttrOfType<IntegerAttr>("axis");
      int64_t axisValue = axisAttr ? axisAttr.getInt() : -1;
      int64_t axis = axisValue < 0 ? rank - 1 : axisValue;
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis)
          exprs.push_back(dim(d));
      Value on = step.memrefFor(operands[2]), off = step.memrefFor(operands[3]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !on || !off)
        return failure();
      AffineMap scalar = AffineMap::get(rank, 0, {}, step.context);
      step.emitLoop(
          loc, {source, on, off}, {mapOf(exprs), scalar, scalar}, *output,
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value i =
                b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
            Value hot =
                b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, i,
                                        b.create<linalg::IndexOp>(l, axis));
            return b.create<arith::SelectOp>(l, hot, args[1], args[2]);
          });
      return success();
    }

    if (kind == OpKind::Fill) {
      Value value = step.memrefFor(operands[1]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !value)
        return failure();
      step.emitLoop(loc, value, AffineMap::get(rank, 0, {}, step.context),
                    *output, copyBody);
      return success();
    }

    if (kind == OpKind::Empty) {
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output))
        return failure();
      // Without init, TensorFlow's Empty leaves the memory as it was: a
      // buffer every element of which is written before it is read (the
      // loop variable tfc-split-batch writes part by part) costs nothing.
      if (auto init = node->getAttrOfType<BoolAttr>("init");
          init && !init.getValue())
        return success();
      Type element = cast<MemRefType>(output->getType()).getElementType();
      step.emitLoop(loc, {}, {}, *output,
                    [&](OpBuilder &b, Location l, ValueRange) -> Value {
                      return zeroElement(b, l, element);
                    });
      return success();
    }

    if (kind == OpKind::Range) {
      // start + i * delta.
      Value delta = step.memrefFor(operands[2]);
      FailureOr<Value> output = step.outputFor(node);
      if (failed(output) || !delta)
        return failure();
      Type element = cast<MemRefType>(output->getType()).getElementType();
      bool isFloat = isa<FloatType>(element);
      AffineMap scalar = AffineMap::get(1, 0, {}, step.context);
      step.emitLoop(loc, {source, delta}, {scalar, scalar}, *output,
                    [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                      Value i = b.create<arith::IndexCastOp>(
                          l, b.getI64Type(), b.create<linalg::IndexOp>(l, 0));
                      if (isFloat) {
                        i = b.create<arith::SIToFPOp>(l, element, i);
                        return b.create<arith::AddFOp>(
                            l, args[0], b.create<arith::MulFOp>(l, i, args[1]));
                      }
                      if (element.getIntOrFloatBitWidth() < 64)
                        i = b.create<arith::TruncIOp>(l, element, i);
                      return b.create<arith::AddIOp>(
                          l, args[0], b.create<arith::MulIOp>(l, i, args[1]));
                    });
      return success();
    }
    if (kind == OpKind::ResizeBilinear || kind == OpKind::ResizeNearestNeighbor)
      return emitResize(step, node, source);
    return step.error(node) << "no code generation for this op yet";
  }
};

} // namespace

namespace {

/// The ops of diagonals (diagonalFormOf): one call of the runtime's
/// tfc_cpu_matrix_diag, the geometry from the types and the constant k.
class MatrixDiagPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    DiagonalForm form = *diagonalFormOf(opKindOf(node));
    OperandRange operands = tfg::getDataOperands(node);
    Location loc = node->getLoc();
    std::optional<std::pair<int64_t, int64_t>> band = diagonalBand(node);
    if (!band)
      return step.error(node) << "k must be a constant lower <= upper";
    auto [lower, upper] = *band;
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    auto outType = cast<MemRefType>(out->getType());
    // The matrices: the output's (Make), else the input's; a tensor's
    // diagonal is that of its elements as one square matrix.
    auto matrices = form.mode == DiagonalForm::Make
                        ? cast<ShapedType>(outType)
                        : cast<ShapedType>(operands[0].getType());
    int64_t rows, cols, batch;
    if (form.ofTensor) {
      int64_t n = 1;
      for (int64_t d : ArrayRef(matrices.getShape()).take_front(matrices.getRank() / 2))
        n *= d;
      rows = cols = n;
      batch = 1;
    } else {
      rows = matrices.getDimSize(matrices.getRank() - 2);
      cols = matrices.getDimSize(matrices.getRank() - 1);
      batch = matrices.getNumElements() / std::max<int64_t>(rows * cols, 1);
    }
    // The array of diagonals' rows.
    Value diagonals = form.mode == DiagonalForm::Make ? operands[0]
                      : form.mode == DiagonalForm::Set ? operands[1]
                                                       : Value();
    int64_t maxLength =
        form.ofTensor ? rows
        : diagonals   ? cast<ShapedType>(diagonals.getType()).getShape().back()
                      : outType.getShape().back();
    // align: bit 0 left-aligns superdiagonals, bit 1 subdiagonals.
    int64_t align = 3;
    if (form.aligned)
      if (auto attr = node->getAttrOfType<StringAttr>("align"))
        align = llvm::StringSwitch<int64_t>(attr.getValue())
                    .Case("LEFT_RIGHT", 1)
                    .Case("RIGHT_LEFT", 2)
                    .Case("RIGHT_RIGHT", 0)
                    .Default(3);
    Value none = step.nullPointer(loc);
    auto pointer = [&](Value value) { return step.pointerTo(step.memrefFor(value)); };
    step.callKernel(
        loc, step.kernelName("matrix_diag"),
        {step.pointerTo(*out),
         form.mode == DiagonalForm::Make ? none : pointer(operands[0]),
         diagonals ? pointer(diagonals) : none,
         form.paddingOperand >= 0 ? pointer(operands[form.paddingOperand]) : none},
        {batch, rows, cols, lower, upper, maxLength,
         elementBytes(outType), align},
        int32_t(form.mode));
    return success();
  }
};

/// Where: the coordinates of the input's nonzero elements, planned for
/// their bound (every element; tfc-bound-dynamic-rows gave the output that
/// many rows) and padded with zeros past the true ones.
class WherePattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    Value input = step.memrefFor(tfg::getDataOperands(node)[0]);
    FailureOr<Value> out = step.outputFor(node);
    if (!input || failed(out))
      return failure();
    auto inType = cast<MemRefType>(input.getType());
    auto outType = cast<MemRefType>(out->getType());
    Type element = inType.getElementType();
    if (!element.isIntOrFloat() || element.isBF16())
      return step.error(node) << "code generation supports Where of numbers "
                                 "and booleans only";
    if (outType.getDimSize(0) != inType.getNumElements())
      return step.error(node) << "its output is not bounded by its input "
                                 "(tfc-bound-dynamic-rows did not run)";
    Value dims = step.constantTable(loc, inType.getShape());
    step.callKernel(loc, step.kernelName("where"),
                    {step.pointerTo(input), step.pointerTo(*out),
                     step.pointerTo(dims)},
                    {inType.getRank(), inType.getNumElements(),
                     int64_t(tfg::typeToDataType(element))});
    return success();
  }
};

/// DynamicPartition: one call that sends each row of data to the output its
/// partition names, each output planned for every row.
class DynamicPartitionPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    Value data = step.memrefFor(operands[0]),
          partitions = step.memrefFor(operands[1]);
    if (!data || !partitions)
      return step.error(node) << "an input has no buffer";
    auto dataType = cast<MemRefType>(data.getType());
    auto partitionType = cast<MemRefType>(partitions.getType());
    SmallVector<Value> outputs;
    for (unsigned i = 0; i < tfg::getDataResults(node).size(); ++i) {
      FailureOr<Value> out = step.outputFor(node, i);
      if (failed(out))
        return failure();
      if (cast<MemRefType>(out->getType()).getDimSize(0) !=
          partitionType.getNumElements())
        return step.error(node) << "its outputs are not bounded by the rows "
                                   "(tfc-bound-dynamic-rows did not run)";
      outputs.push_back(*out);
    }
    int64_t rows = partitionType.getNumElements();
    int64_t rowBytes =
        rows ? dataType.getNumElements() / rows *
                   elementBytes(dataType)
             : 0;
    Value dims = step.constantTable(loc, partitionType.getShape());
    step.callKernel(loc, step.kernelName("dynamic_partition"),
                    {step.pointerTo(data), step.pointerTo(partitions),
                     step.addressTable(loc, outputs), step.pointerTo(dims),
                     step.stringPointer(loc, tfg::nodeLabel(node))},
                    {partitionType.getRank(), rows, rowBytes,
                     int64_t(outputs.size())});
    return success();
  }
};

} // namespace

/// DynamicStitch and ParallelDynamicStitch: one call that copies each
/// data row to the output row its index names (later inputs win, as in
/// TensorFlow's CPU kernel, which ParallelDynamicStitch may also be).
class DynamicStitchPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

protected:
  LogicalResult lower(Operation *node) const override {
    Location loc = node->getLoc();
    OperandRange operands = tfg::getDataOperands(node);
    unsigned n = operands.size() / 2;
    FailureOr<Value> out = step.outputFor(node);
    if (failed(out))
      return failure();
    auto outType = cast<MemRefType>(out->getType());
    int64_t rows = outType.getDimSize(0);
    int64_t rowBytes =
        rows ? outType.getNumElements() / rows * elementBytes(outType) : 0;
    SmallVector<Value> indices, data;
    SmallVector<int64_t> counts;
    for (unsigned i = 0; i < n; ++i) {
      Value index = step.memrefFor(operands[i]), rowsOf = step.memrefFor(operands[n + i]);
      if (!index || !rowsOf)
        return step.error(node) << "an input has no buffer";
      int64_t count = cast<MemRefType>(index.getType()).getNumElements();
      if (tensorBytes(cast<TensorType>(operands[n + i].getType())) !=
          count * rowBytes)
        return step.error(node) << "data " << operands[n + i].getType()
                                << " does not hold a row of the output per "
                                   "index of "
                                << operands[i].getType();
      indices.push_back(index);
      data.push_back(rowsOf);
      counts.push_back(count);
    }
    step.callKernel(loc, step.kernelName("dynamic_stitch"),
                    {step.addressTable(loc, indices), step.addressTable(loc, data),
                     step.pointerTo(*out),
                     step.pointerTo(step.constantTable(loc, counts)),
                     step.stringPointer(loc, tfg::nodeLabel(node))},
                    {int64_t(n), rows, rowBytes,
                     node->hasAttr(kSkipNegativeIndicesAttr) ? 1 : 0});
    return success();
  }
};

void populateDataMovementPatterns(CodegenPatterns &patterns) {
  patterns.add<DynamicPartitionPattern>("DynamicPartition");
  patterns.add<DynamicStitchPattern>("DynamicStitch");
  patterns.add<DataMovementPattern>("DataMovement");
  patterns.add<WherePattern>("Where");
  patterns.add<MatrixDiagPattern>("MatrixDiag");
}

} // namespace tfc
