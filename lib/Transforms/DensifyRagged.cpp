//===- DensifyRagged.cpp - splits that to_tensor() pads, dense at once ----===//
//
// tf.strings.split makes a ragged tensor: StringSplitV2's tokens, of a
// number only the data decides, with each token's row. Models that feed
// text to a network pad them to a constant width first (Keras'
// TextVectorization with output_sequence_length: .to_tensor(shape=[None,
// L]), a RaggedTensorToTensor), after ops on each token alone (the
// vocabulary's lookup, a comparison, a selection). That is a dense
// computation from the start: this pass makes the split a
// _TfcDenseStringSplit of L columns (each string's first L tokens, "" past
// its own, and how many it has), lets the ops on tokens apply to the dense
// tokens as they are (elementwise, their other operands scalars), and
// replaces the RaggedTensorToTensor by a SelectV2 of the default past each
// string's own tokens.
//
// tf.strings.unicode_decode(x, "UTF-8").to_tensor(shape=[None, L]) (a
// character-level model's input) is the same with UnicodeDecode's code
// points, rows from its row_splits: a _TfcDenseUnicodeDecode.
//
// The RaggedTensorToTensor must take its rows as TensorFlow's ragged
// construction from a split gives them (the split's shape[0] as
// FIRST_DIM_SIZE, its indices[:, 0] as VALUE_ROWIDS), a shape [-1, L] of
// constants and a scalar default. A split whose tokens anything else
// reads is an error naming it: their number is the data's.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_DENSIFYRAGGEDPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Ops that compute each output element from the token at its position
/// (and scalars): what may lie between a split and its to_tensor().
bool isPerToken(Operation *node) {
  return opKindOf(node) == OpKind::Identity || isPerElement(node);
}

/// Whether `value` is a scalar, by its type or its Const's value (shape
/// inference has not run yet).
bool isScalar(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return type.getRank() == 0;
  Operation *node = value.getDefiningOp();
  auto constant = node && tfg::isNode(node) && opKindOf(node) == OpKind::Const
                      ? node->getAttrOfType<ElementsAttr>("value")
                      : ElementsAttr();
  return constant && constant.getShapedType().getRank() == 0;
}

Value throughIdentities(Value value) {
  while (Operation *node = value.getDefiningOp()) {
    OpKind kind = opKindOf(node);
    if (!tfg::isNode(node) || (kind != OpKind::Identity && kind != OpKind::Cast))
      break;
    value = tfg::getDataOperands(node)[0];
  }
  return value;
}

/// The ops that make ragged tensors of strings' pieces: StringSplitV2's
/// tokens (output 1, rows from its indices and shape), UnicodeDecode's
/// code points (output 1, rows from its row_splits).
bool isRaggedSource(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::StringSplitV2 || kind == OpKind::UnicodeDecode;
}

/// Whether `value` is StridedSlice(output `port` of `split`) whose first
/// entry begins at 0 and whose `shrink` mask is exactly `shrink`: the
/// split's shape[0] (port 2, shrink 1) or indices[:, 0] (port 0, shrink 2).
bool slicesSplit(Value value, Operation *split, unsigned port, int64_t shrink) {
  Operation *slice = throughIdentities(value).getDefiningOp();
  if (!slice || !tfg::isNode(slice) || opKindOf(slice) != OpKind::StridedSlice)
    return false;
  OperandRange operands = tfg::getDataOperands(slice);
  auto source = dyn_cast<OpResult>(operands[0]);
  std::optional<SmallVector<int64_t>> begin = constantInts(operands[1]);
  std::optional<SmallVector<int64_t>> strides = constantInts(operands[3]);
  if (!source || source.getOwner() != split || source.getResultNumber() != port ||
      !begin || !strides || intAttr(slice, "shrink_axis_mask") != shrink ||
      intAttr(slice, "ellipsis_mask") || intAttr(slice, "new_axis_mask") ||
      llvm::any_of(*strides, [](int64_t s) { return s != 1; }))
    return false;
  // indices[:, 0]: the whole first dimension, column 0.
  if (port == 0)
    return begin->size() == 2 && (*begin)[1] == 0 &&
           (intAttr(slice, "begin_mask") & 1) && (intAttr(slice, "end_mask") & 1);
  return begin->size() == 1 && (*begin)[0] == 0;
}

struct DensifyRaggedPass
    : public impl::DensifyRaggedPassBase<DensifyRaggedPass> {
  PassCounter numDensified{this, "densified",
                           "splits padded to a constant width made dense"};

  void runOnOperation() override {
    numDensified = 0;
    for (auto graph : getOperation().getOps<tfg::GraphOp>()) {
      Block &body = graph.getBody();
      NameUniquer names(body);
      SmallVector<Operation *> padded;
      for (Operation &node : body)
        if (tfg::isNode(&node) &&
            opKindOf(&node) == OpKind::RaggedTensorToTensor)
          padded.push_back(&node);
      for (Operation *node : padded)
        if (failed(densify(node, names)))
          return signalPassFailure();
      // A split (or decode) that is still needed: something reads its
      // tokens, or the rows it made, otherwise than as to_tensor() did.
      llvm::StringSet<> roots = getRootNames(getOperation());
      SmallVector<Operation *> splits;
      for (Operation &node : body)
        if (tfg::isNode(&node) && isRaggedSource(&node))
          splits.push_back(&node);
      for (Operation *split : splits) {
        std::string name = tfg::getNodeName(split).str();
        if (failed(eraseIfUnneeded(split, roots)))
          return signalPassFailure();
        // The dense node takes the name of the one it replaces: its
        // run-time errors name the user's node.
        if (Operation *dense = denseOf.lookup(split))
          dense->setAttr(tfg::kNameAttr, StringAttr::get(&getContext(), name));
      }
      denseOf.clear();
    }
  }

  /// Erases `split` and everything computed from it (the rows of the
  /// ragged tensor it made, for the to_tensor() that is gone), or fails
  /// naming it when a fetch, a target or an effect needs any of that.
  LogicalResult eraseIfUnneeded(Operation *split, const llvm::StringSet<> &roots) {
    llvm::SetVector<Operation *> computed;
    computed.insert(split);
    for (size_t i = 0; i < computed.size(); ++i)
      for (Value result : computed[i]->getResults())
        for (Operation *user : result.getUsers())
          computed.insert(user);
    // (Every user of what it computes is in `computed`: what needs it is
    // an effect, a result or a function's return among them.)
    auto needed = [&](Operation *node) {
      return !tfg::isNode(node) || isStateful(node) || isRoot(node, roots);
    };
    if (llvm::any_of(computed, needed))
      return split->emitError()
             << tfg::nodeLabel(split)
             << (opKindOf(split) == OpKind::StringSplitV2
                     ? " splits strings into tokens"
                     : " decodes strings into code points")
             << " of a number only the data decides; tfc compiles one whose "
                "pieces (after ops on each piece) only .to_tensor() of a "
                "constant number of columns reads, e.g. TextVectorization "
                "with output_sequence_length";
    eraseNodes(computed.getArrayRef());
    return success();
  }

  /// The StringSplitV2 whose tokens `value` is computed from, through
  /// per-token ops, or null.
  static Operation *splitOf(Value value) {
    SmallVector<Value> work{value};
    llvm::SmallPtrSet<Operation *, 8> seen;
    while (!work.empty()) {
      Operation *node = work.pop_back_val().getDefiningOp();
      if (!node || !tfg::isNode(node) || !seen.insert(node).second)
        continue;
      if (isRaggedSource(node))
        return node;
      if (isPerToken(node))
        for (Value operand : tfg::getDataOperands(node))
          work.push_back(operand);
    }
    return nullptr;
  }

  /// The dense node made for each split.
  llvm::DenseMap<Operation *, Operation *> denseOf;

  LogicalResult densify(Operation *toTensor, NameUniquer &names) {
    OperandRange operands = tfg::getDataOperands(toTensor);
    Value values = operands[1], fill = operands[2];
    Operation *split = splitOf(values);
    if (!split)
      return toTensor->emitError()
             << tfg::nodeLabel(toTensor)
             << " pads a ragged tensor that no StringSplitV2 or UnicodeDecode "
                "makes; tfc compiles .to_tensor(shape=[None, L]) of a split, "
                "with L a constant";
    auto refuse = [&](const Twine &why) {
      return toTensor->emitError()
             << tfg::nodeLabel(toTensor) << " pads the tokens of "
             << tfg::nodeLabel(split) << " " << why
             << "; tfc compiles .to_tensor(shape=[None, L]) of a split, "
                "with L a constant (TextVectorization's "
                "output_sequence_length)";
    };
    // The rows as TensorFlow builds them: a split's from its shape[0] and
    // indices[:, 0], a decode's its row_splits.
    auto types = toTensor->getAttrOfType<ArrayAttr>("row_partition_types");
    auto typeIs = [&](unsigned i, StringRef type) {
      return cast<StringAttr>(types[i]).getValue() == type;
    };
    bool decode = opKindOf(split) == OpKind::UnicodeDecode;
    bool splitRows = !decode && types && types.size() == 2 &&
                     operands.size() == 5 && typeIs(0, "FIRST_DIM_SIZE") &&
                     typeIs(1, "VALUE_ROWIDS") &&
                     slicesSplit(operands[3], split, 2, 1) &&
                     slicesSplit(operands[4], split, 0, 2);
    bool decodeRows = decode && types && types.size() == 1 &&
                      operands.size() == 4 && typeIs(0, "ROW_SPLITS") &&
                      throughIdentities(operands[3]) ==
                          tfg::getDataResults(split)[0];
    if (!splitRows && !decodeRows)
      return refuse("by rows other than the split's");
    std::optional<SmallVector<int64_t>> shape = constantInts(operands[0]);
    if (!shape || shape->size() != 2 || (*shape)[0] != -1 || (*shape)[1] < 1)
      return refuse("to a shape other than [-1, L]");
    if (!isScalar(fill))
      return refuse("with a default that is not a scalar");
    int64_t columns = (*shape)[1];

    // The ops on tokens: every node the tokens reach, up to to_tensor().
    Value tokens = tfg::getDataResults(split)[1];
    llvm::SetVector<Operation *> perToken;
    SmallVector<Value> work{tokens};
    while (!work.empty()) {
      Value value = work.pop_back_val();
      for (Operation *user : value.getUsers()) {
        if (user == toTensor && values == value)
          continue;
        if (!tfg::isNode(user) || !isPerToken(user))
          return refuse("after " + tfg::nodeLabel(user) +
                        ", which does not compute each token alone");
        if (perToken.insert(user))
          for (Value result : tfg::getDataResults(user))
            work.push_back(result);
      }
    }
    // Their other operands are scalars, the same for every token.
    for (Operation *node : perToken)
      for (Value operand : tfg::getDataOperands(node)) {
        Operation *producer = operand.getDefiningOp();
        bool table = opKindOf(node) == OpKind::LookupTableFindV2 &&
                     operand == tfg::getDataOperands(node)[0];
        if (operand != tokens && !perToken.contains(producer) && !table &&
            !isScalar(operand))
          return refuse("after " + tfg::nodeLabel(node) +
                        ", whose other operand is not a scalar");
      }

    // The dense split, the ops on its tokens, the default past them.
    MLIRContext *context = toTensor->getContext();
    OpBuilder b(toTensor);
    Type i64 = b.getIntegerType(64);
    auto input = cast<TensorType>(tfg::getDataOperands(split)[0].getType());
    int64_t rows = input.hasRank() && input.getRank() == 1 ? input.getDimSize(0)
                                                           : ShapedType::kDynamic;
    Type pieceType = decode ? Type(b.getI32Type())
                            : Type(tfg::StringType::get(context));
    std::string name = tfg::getNodeName(split).str();
    SmallVector<NamedAttribute> attrs{
        b.getNamedAttr("columns", b.getI64IntegerAttr(columns))};
    if (decode) {
      for (StringRef attr :
           {"errors", "replacement_char", "replace_control_characters"})
        if (Attribute value = split->getAttr(attr))
          attrs.push_back(b.getNamedAttr(attr, value));
    } else {
      attrs.push_back(b.getNamedAttr(
          "maxsplit", b.getI64IntegerAttr(intAttr(split, "maxsplit", -1))));
    }
    Operation *dense = createNodeLike(
        b, split, decode ? "_TfcDenseUnicodeDecode" : "_TfcDenseStringSplit",
        names.get(name + "/dense"),
        {RankedTensorType::get({rows, columns}, pieceType),
         RankedTensorType::get({rows}, i64)},
        tfg::getDataOperands(split), {}, attrs);
    if (denseOf.count(split))
      return refuse("a second time");
    denseOf[split] = dense;
    tokens.replaceUsesWithIf(tfg::getDataResults(dense)[0], [&](OpOperand &use) {
      return perToken.contains(use.getOwner()) || use.getOwner() == toTensor;
    });
    // (Shape inference gives them their dense shapes.)
    for (Operation *node : perToken)
      for (Value result : tfg::getDataResults(node))
        result.setType(UnrankedTensorType::get(
            cast<TensorType>(result.getType()).getElementType()));

    std::string base = tfg::getNodeName(toTensor).str();
    Value lengths = tfg::getDataResults(dense)[1];
    Value minusOne = createConstLike(
        b, toTensor, names.get(base + "/last_axis"),
        DenseElementsAttr::get(RankedTensorType::get({}, b.getI32Type()),
                               int32_t(-1)))->getResult(0);
    Value lengthColumn =
        createNodeLike(b, toTensor, "ExpandDims", names.get(base + "/lengths"),
                       RankedTensorType::get({rows, 1}, i64),
                       {lengths, minusOne}, {},
                       {b.getNamedAttr("T", TypeAttr::get(i64)),
                        b.getNamedAttr("Tdim", TypeAttr::get(b.getI32Type()))})
            ->getResult(0);
    SmallVector<int64_t> iota(columns);
    std::iota(iota.begin(), iota.end(), 0);
    Value positions = createConstLike(
        b, toTensor, names.get(base + "/positions"),
        DenseElementsAttr::get(RankedTensorType::get({1, columns}, i64),
                               ArrayRef<int64_t>(iota)))->getResult(0);
    Value own =
        createNodeLike(b, toTensor, "Less", names.get(base + "/own"),
                       RankedTensorType::get({rows, columns}, b.getI1Type()),
                       {positions, lengthColumn}, {},
                       {b.getNamedAttr("T", TypeAttr::get(i64))})
            ->getResult(0);
    Value result = tfg::getDataResults(toTensor)[0];
    values = tfg::getDataOperands(toTensor)[1]; // Dense now.
    Type element = cast<TensorType>(result.getType()).getElementType();
    Operation *select = createNodeLike(
        b, toTensor, "SelectV2", names.get(base + "/padded"),
        RankedTensorType::get({rows, columns}, element), {own, values, fill},
        tfg::getControlOperands(toTensor),
        {b.getNamedAttr("T", TypeAttr::get(element))});
    result.replaceAllUsesWith(select->getResult(0));
    tfg::getControlToken(toTensor).replaceAllUsesWith(
        tfg::getControlToken(select));
    // The padded tensor keeps its name: fetches and errors name it.
    toTensor->erase();
    select->setAttr(tfg::kNameAttr, b.getStringAttr(base));
    ++numDensified;
    return success();
  }
};

} // namespace
} // namespace tfc
