//===- FoldScales.cpp - constant scales and shifts into weights -----------===//
//
// Inference graphs scale and shift the outputs of their convolutions and
// matrix products by constants: a batch norm, once decomposed, is
// `conv * s + b`, often after a bias `+ c`. This pass moves the constants
// onto the weights, as TensorFlow's constant folding does (its MulConvPush-
// Down and ConstantPushDown), so that one convolution with a bias is left:
//
//   A. Mul(Conv2D(x, W), s)      -> Conv2D(x, W * s)
//      (also DepthwiseConv2dNative, with s viewed as [C, multiplier], and
//      MatMul without transpose_b);
//   B. Mul(y + c, s)             -> y * s + c * s
//   C. (y + c1) + c2             -> y + (c1 + c2)
//
// where W, s, c, c1, c2 are constant (Consts, or computed from Consts
// only), s and the shifts vary along the last
// (channel) dimension only (shape [C], [1, ..., 1, C] or a scalar), the
// inner node's value has no other use, and every node is on one device.
// "+" is Add, AddV2 or BiasAdd (NHWC). The new constant expressions are
// left for tfc-fold-constants, which runs next. Products of the rewritten
// expressions round differently from the original ones (as in
// TensorFlow), within float rounding.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FOLDSCALESPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Whether `value` is a constant expression: a Const, or computed by
/// stateless nodes from Consts alone (what tfc-fold-constants will fold,
/// such as the c * s this pass writes). Memoized; a node on a cycle (a
/// loop) is not constant.
class ConstantExpressions {
public:
  bool contains(Value value) {
    Operation *producer = value.getDefiningOp();
    if (!producer || !tfg::isNode(producer))
      return false;
    auto [it, inserted] = known.try_emplace(producer, false);
    if (!inserted)
      return it->second; // Known, or on the current path: a cycle.
    bool constant;
    if (opKindOf(producer) == OpKind::Const)
      constant = true;
    else if (isStateful(producer) || !tfg::getControlOperands(producer).empty() ||
             tfg::getDataOperands(producer).empty())
      constant = false;
    else
      constant = llvm::all_of(tfg::getDataOperands(producer),
                              [&](Value input) { return contains(input); });
    known[producer] = constant;
    return constant;
  }
  /// Forgets what rewrites may have changed.
  void clear() { known.clear(); }

private:
  llvm::DenseMap<Operation *, bool> known;
};

bool isAdd(Operation *node) {
  OpKind kind = opKindOf(node);
  if (kind == OpKind::BiasAdd) {
    auto format = node->getAttrOfType<StringAttr>("data_format");
    return !format || format.getValue() == "NHWC";
  }
  return kind == OpKind::Add || kind == OpKind::AddV2;
}

RankedTensorType staticType(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() ? type : RankedTensorType();
}

/// Whether `value` is a Const varying along the last dim only, with
/// `channels` entries there (or a scalar), and no higher rank than `rank`.
bool isPerChannelConst(ConstantExpressions &constants, Value value,
                       int64_t channels, int64_t rank) {
  RankedTensorType type = staticType(value);
  if (!constants.contains(value) || !type || type.getRank() > rank)
    return false;
  if (type.getNumElements() == 1)
    return true;
  ArrayRef<int64_t> shape = type.getShape();
  return shape.back() == channels &&
         llvm::all_of(shape.drop_back(), [](int64_t d) { return d == 1; });
}

/// The only user of `node`'s data result, when the node has exactly one use
/// (data or control) in all.
bool hasSingleUse(Operation *node) {
  return node->hasOneUse() && tfg::getDataResults(node).size() == 1 &&
         tfg::getDataResults(node)[0].hasOneUse();
}

class ScaleFolder {
public:
  explicit ScaleFolder(Block &body) : names(body) {}

  /// Applies the first rule that fits `node`; the node that now computes
  /// its value, or null.
  Operation *rewrite(Operation *node) {
    if (!tfg::isNode(node) || tfg::getDataResults(node).size() != 1)
      return nullptr;
    if (opKindOf(node) == OpKind::Mul)
      for (unsigned side : {0u, 1u})
        if (Operation *done = pushScale(node, side))
          return done;
    if (isAdd(node))
      return mergeShifts(node);
    return nullptr;
  }

  unsigned folded = 0;

private:
  /// Rules A and B: node = Mul(inner, s) with inner on operand `side`.
  Operation *pushScale(Operation *node, unsigned side) {
    Value inner = tfg::getDataOperands(node)[side];
    Value scale = tfg::getDataOperands(node)[1 - side];
    Operation *producer = inner.getDefiningOp();
    RankedTensorType type = staticType(tfg::getDataResults(node)[0]);
    if (!producer || !tfg::isNode(producer) || !hasSingleUse(producer) ||
        !type || type.getRank() == 0 || !sameDevice(node, producer) ||
        staticType(inner) != type)
      return nullptr;
    int64_t channels = type.getShape().back();
    if (!isPerChannelConst(constants, scale, channels, type.getRank()))
      return nullptr;
    OpKind kind = opKindOf(producer);
    OpBuilder b(node);
    if (kind == OpKind::Conv2D || kind == OpKind::DepthwiseConv2dNative ||
        kind == OpKind::MatMul) {
      // Rule A.
      Value weights = tfg::getDataOperands(producer)[1];
      auto format = producer->getAttrOfType<StringAttr>("data_format");
      auto transposeB = producer->getAttrOfType<BoolAttr>("transpose_b");
      if (!constants.contains(weights) || !staticType(weights) ||
          (format && format.getValue() != "NHWC") ||
          (transposeB && transposeB.getValue()))
        return nullptr;
      Value factor = scale;
      RankedTensorType weightsType = staticType(weights);
      if (kind == OpKind::DepthwiseConv2dNative &&
          staticType(scale).getNumElements() != 1) {
        // Output channel c * multiplier + m scales filter [.., c, m].
        ArrayRef<int64_t> w = weightsType.getShape();
        factor = reshape(b, node, scale, {w[2], w[3]});
      }
      Value scaled = binary(b, node, "Mul", "scaled_weights", weights, factor,
                            weightsType);
      SmallVector<Value> operands(tfg::getDataOperands(producer));
      operands[1] = scaled;
      // The product keeps its name; the Mul's goes.
      Operation *product = cloneWith(b, producer, operands);
      return replace(node, product, /*takeName=*/false);
    }
    if (isAdd(producer)) {
      // Rule B.
      OperandRange terms = tfg::getDataOperands(producer);
      unsigned shiftSide = isPerChannelConst(constants, terms[1], channels, type.getRank()) ? 1
                           : isPerChannelConst(constants, terms[0], channels, type.getRank()) &&
                                   opKindOf(producer) != OpKind::BiasAdd
                               ? 0
                               : 2;
      if (shiftSide == 2 || staticType(terms[1 - shiftSide]) != type)
        return nullptr;
      Value shift = terms[shiftSide];
      Value scaledTerm = binary(b, node, "Mul", "scaled", terms[1 - shiftSide],
                                scale, type);
      Value scaledShift = binary(b, node, "Mul", "scaled_shift", shift, scale,
                                 broadcastType(shift, scale));
      Operation *sum = binary(b, node, "AddV2", "", scaledTerm, scaledShift, type)
                           .getDefiningOp();
      return replace(node, sum);
    }
    return nullptr;
  }

  /// Rule C: node = (y + c1) + c2.
  Operation *mergeShifts(Operation *node) {
    RankedTensorType type = staticType(tfg::getDataResults(node)[0]);
    if (!type || type.getRank() == 0)
      return nullptr;
    int64_t channels = type.getShape().back();
    OperandRange terms = tfg::getDataOperands(node);
    for (unsigned side : {0u, 1u}) {
      Value inner = terms[side], outerShift = terms[1 - side];
      Operation *producer = inner.getDefiningOp();
      if (!producer || !tfg::isNode(producer) || !isAdd(producer) ||
          !hasSingleUse(producer) || !sameDevice(node, producer) ||
          staticType(inner) != type ||
          !isPerChannelConst(constants, outerShift, channels, type.getRank()) ||
          (side == 1 && opKindOf(node) == OpKind::BiasAdd))
        continue;
      OperandRange innerTerms = tfg::getDataOperands(producer);
      Value y = innerTerms[0], innerShift = innerTerms[1];
      if (!isPerChannelConst(constants, innerShift, channels, type.getRank()) ||
          staticType(y) != type)
        continue;
      OpBuilder b(node);
      Value shift = binary(b, node, "AddV2", "merged_shift", innerShift,
                           outerShift, broadcastType(innerShift, outerShift));
      Operation *sum = binary(b, node, "AddV2", "", y, shift, type).getDefiningOp();
      return replace(node, sum);
    }
    return nullptr;
  }

  /// The broadcast type of two per-channel constants: the higher rank.
  RankedTensorType broadcastType(Value a, Value b) {
    RankedTensorType ta = staticType(a), tb = staticType(b);
    if (ta.getRank() != tb.getRank())
      return ta.getRank() > tb.getRank() ? ta : tb;
    return ta.getNumElements() >= tb.getNumElements() ? ta : tb;
  }

  SmallVector<NamedAttribute> attrsFor(OpBuilder &b, Operation *at,
                                       StringRef suffix, Type element) {
    std::string base = tfg::getNodeName(at).str();
    if (!suffix.empty())
      base += "/" + suffix.str();
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr(tfg::kNameAttr, b.getStringAttr(names.get(base)))};
    if (element)
      attrs.push_back(b.getNamedAttr("T", TypeAttr::get(element)));
    if (!tfg::getRequestedDevice(at).empty())
      attrs.push_back(b.getNamedAttr(tfg::kDeviceAttr,
                                     b.getStringAttr(tfg::getRequestedDevice(at))));
    return attrs;
  }

  Value binary(OpBuilder &b, Operation *at, StringRef op, StringRef suffix,
               Value lhs, Value rhs, RankedTensorType result) {
    return tfg::createNode(b, at->getLoc(), op, result, {lhs, rhs}, {},
                           attrsFor(b, at, suffix, result.getElementType()))
        ->getResult(0);
  }

  Value reshape(OpBuilder &b, Operation *at, Value value,
                ArrayRef<int64_t> shape) {
    auto shapeType = RankedTensorType::get({int64_t(shape.size())}, b.getI64Type());
    SmallVector<NamedAttribute> attrs = attrsFor(b, at, "channel_shape", {});
    attrs.push_back(b.getNamedAttr("dtype", TypeAttr::get(b.getI64Type())));
    attrs.push_back(b.getNamedAttr("value", DenseElementsAttr::get(shapeType, shape)));
    Value shapeValue =
        tfg::createNode(b, at->getLoc(), "Const", shapeType, {}, {}, attrs)->getResult(0);
    Type element = staticType(value).getElementType();
    SmallVector<NamedAttribute> reshapeAttrs = attrsFor(b, at, "channel_scale", element);
    reshapeAttrs.push_back(b.getNamedAttr("Tshape", TypeAttr::get(b.getI64Type())));
    return tfg::createNode(b, at->getLoc(), "Reshape",
                           RankedTensorType::get(shape, element),
                           {value, shapeValue}, {}, reshapeAttrs)
        ->getResult(0);
  }

  /// A copy of `node` (name, attrs, device) reading `operands`.
  Operation *cloneWith(OpBuilder &b, Operation *node, ArrayRef<Value> operands) {
    SmallVector<NamedAttribute> attrs(node->getAttrs());
    return tfg::createNode(b, node->getLoc(), tfg::getOpType(node),
                           tfg::getDataResults(node)[0].getType(), operands,
                           tfg::getControlOperands(node), attrs);
  }

  /// `replacement` computes `node`'s value from now on and takes its
  /// control users (and its name, with `takeName`); the node goes, and so
  /// do the nodes it alone used.
  Operation *replace(Operation *node, Operation *replacement,
                     bool takeName = true) {
    tfg::getDataResults(node)[0].replaceAllUsesWith(replacement->getResult(0));
    tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(replacement));
    if (!tfg::getControlOperands(node).empty()) {
      SmallVector<Value> operands(replacement->getOperands());
      llvm::append_range(operands, tfg::getControlOperands(node));
      replacement->setOperands(operands);
    }
    if (takeName)
      replacement->setAttr(tfg::kNameAttr, node->getAttr(tfg::kNameAttr));
    SmallVector<Operation *> producers;
    for (Value operand : tfg::getDataOperands(node))
      if (Operation *producer = operand.getDefiningOp())
        producers.push_back(producer);
    worklist.remove(node);
    node->erase();
    // (Each rule's inner node had this single use: it must go now, or its
    // own inputs would seem used twice to the next rule.)
    for (Operation *producer : producers)
      if (tfg::isNode(producer) && producer->use_empty() &&
          opKindOf(producer) != OpKind::Const) {
        worklist.remove(producer);
        producer->erase();
      }
    ++folded;
    constants.clear();
    return replacement;
  }

  NameUniquer names;
  ConstantExpressions constants;

public:
  llvm::SetVector<Operation *> worklist;
};

struct FoldScalesPass : public impl::FoldScalesPassBase<FoldScalesPass> {
  PassCounter numFolded{this, "folded", "scales and shifts moved onto constants"};

  void runOnOperation() override {
    numFolded = 0;
    for (Block *body : getBodies(getOperation())) {
      ScaleFolder folder(*body);
      for (Operation &op : *body)
        folder.worklist.insert(&op);
      while (!folder.worklist.empty()) {
        Operation *node = folder.worklist.pop_back_val();
        Operation *replacement = folder.rewrite(node);
        if (!replacement)
          continue;
        // The rules may now fit the new node, its users, and the nodes it
        // reads (Rule B leaves y * s for Rule A).
        folder.worklist.insert(replacement);
        for (Operation *user : replacement->getUsers())
          folder.worklist.insert(user);
        for (Value operand : tfg::getDataOperands(replacement))
          if (Operation *producer = operand.getDefiningOp())
            folder.worklist.insert(producer);
      }
      numFolded += folder.folded;
    }
  }
};

} // namespace
} // namespace tfc
