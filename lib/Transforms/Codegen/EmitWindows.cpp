//===- EmitWindows.cpp - convolutions and pooling ---------------------------===//
//
// Conv2D, DepthwiseConv2dNative, MaxPool and AvgPool on NHWC tensors as
// calls of the runtime's window kernels, with TensorFlow's padding rules
// resolved at compile time.
//
//===----------------------------------------------------------------------===//

#include "StepEmitter.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tfc {

/// Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool on NHWC float32; a
/// convolution with an epilogue writes the value of the epilogue's root.
LogicalResult StepEmitter::emitWindow(Operation *node,
                                      const ConvEpilogue *epilogue) {
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
  Value outMemref =
      memrefFor(epilogue ? tfg::getDataResults(epilogue->root)[0] : result);
  if (!outMemref)
    return error(node) << "output has no buffer";
  Location loc = node->getLoc();
  if (isConv || isDepthwise) {
    auto filter = cast<RankedTensorType>(tfg::getDataOperands(node)[1].getType());
    if (isConv && filter.getDimSize(2) != c)
      return error(node) << "grouped convolutions are not supported";
    Value filterValue = tfg::getDataOperands(node)[1];
    Operation *filterNode = filterValue.getDefiningOp();
    bool constantFilter = filterNode && tfg::isNode(filterNode) &&
                          tfg::getOpType(filterNode) == "Const";
    // The epilogue's operands, or null pointers.
    Value none = builder.create<LLVM::ZeroOp>(loc, LLVM::LLVMPointerType::get(context));
    auto pointerOrNull = [&](Value value) -> FailureOr<Value> {
      if (!value)
        return none;
      Value memref = memrefFor(value);
      if (!memref)
        return error(node) << "an epilogue operand has no buffer";
      return pointerTo(memref);
    };
    FailureOr<Value> bias = pointerOrNull(epilogue ? epilogue->bias : Value());
    FailureOr<Value> residual =
        pointerOrNull(epilogue ? epilogue->residual : Value());
    if (failed(bias) || failed(residual))
      return failure();
    // A residual planned in the output's buffer is accumulated onto in
    // place (2); otherwise it is read as a second input (1).
    int64_t residualMode = 0;
    if (epilogue && epilogue->residual) {
      auto placeOf = [&](Value memref) {
        auto it = views.find(memref);
        return it == views.end() ? std::make_pair(Value(), int64_t(-1))
                                 : it->second;
      };
      auto at = placeOf(memrefFor(epilogue->residual));
      residualMode = at.first && at == placeOf(outMemref) ? 2 : 1;
    }
    // The parameter table (see tfc_cpu_conv2d_dnnl_f32); its address also
    // keys the call site's cached oneDNN primitive.
    Value table = constantTable(
        loc, {n, h, w, c, kh, kw, filter.getDimSize(3), oh, ow, strides[1],
              strides[2], dilations[1], dilations[2], padTop, padLeft,
              isDepthwise ? 1 : 0, constantFilter ? 1 : 0,
              epilogue ? epilogue->activation : 0,
              epilogue && epilogue->bias ? 1 : 0, residualMode});
    callKernel(loc, "tfc_cpu_conv2d_dnnl_f32",
               {pointerTo(memrefFor(input)), pointerTo(memrefFor(filterValue)),
                *bias, *residual, pointerTo(outMemref), pointerTo(table)},
               {});
    return success();
  }
  callKernel(loc, "tfc_cpu_pool2d_f32",
             {pointerTo(memrefFor(input)), pointerTo(outMemref)},
             {n, h, w, c, kh, kw, oh, ow, strides[1], strides[2], padTop,
              padLeft},
             type == "MaxPool" ? 0 : 1);
  return success();
}

} // namespace tfc
