//===- FoldConstants.cpp - fold what shape inference computes -------------===//
//
// Shape inference knows the values of the small integer tensors graphs use
// to compute shapes: Shape, Size and Rank of static shapes, and the
// StridedSlice/Pack/ConcatV2/arithmetic built on them (Keras' reshapes,
// BroadcastGradientArgs in gradients). This pass replaces those nodes by
// Const nodes, so that later stages see literal shapes and the shape
// computations disappear.
//
// A single-output node is replaced by a Const of the same name, which takes
// over its control users; other outputs get Consts of their own and the
// node goes once unused. Inside TF1 conds and loops a tensor may be dead or
// belong to an iteration: there the Const keeps control edges from the
// node's inputs (and its control inputs), as TensorFlow's constant folding
// does, so that it runs exactly when the node would have.
//
// Then numeric subgraphs of constants: the nodes computable from Consts
// alone (stateless, outside conds and loops, with code generation, outputs
// of at most 10 MiB as in TensorFlow's constant folding) are copied into
// a module of their own, which the installed ConstantEvaluator compiles
// and runs; the values leaving the subgraph become Consts. The evaluator
// is the code generator itself, so a folded value is what the program
// would have computed. The subgraph's nodes go when nothing else uses
// them, and a Const of a node that went takes its name.
//
// First, though, float32 Mul, Add/AddV2, Sub and RealDiv of two Consts are
// computed here, element by element with broadcasting, and Neg, Sqrt and
// Rsqrt (1 / sqrt(x)) of one: each is one or two IEEE operations,
// correctly rounded, which the generated code does too (it contracts
// nothing into FMAs, and MathToLLVM lowers rsqrt to a square root and a
// division), so the bits are the same, without a compile, a link and a
// process. These are the large folds (a convolution's
// weights times a batch norm's scale, tfc-fold-scales' W * s), for which
// the evaluator's program carried every weight as a constant. So are the
// nodes whose output is their input's memory (Identity, Reshape, Squeeze,
// ExpandDims, ...) of a Const: their Const holds the same bytes with the
// output's type. In a frozen graph every weight reaches its user through
// one (a ReadVariableOp become an Identity), and the evaluator's program
// would otherwise carry each weight, write it out and read it back.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Transforms/ConstantEvaluator.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_FOLDCONSTANTSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// Nodes downstream of a Switch or Enter, up to the Merge or Exit that
/// ends the branch or loop: their tensors may be dead or per-iteration.
llvm::DenseSet<Operation *> nodesInControlFlow(Block &body) {
  llvm::DenseSet<Operation *> inside;
  SmallVector<Operation *> worklist;
  for (Operation &op : body) {
    OpKind kind = plainOpKindOf(&op);
    if (kind == OpKind::Switch || kind == OpKind::Enter)
      for (Operation *user : op.getUsers())
        worklist.push_back(user);
  }
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!tfg::isNode(node) || !inside.insert(node).second)
      continue;
    if (llvm::is_contained({OpKind::Merge, OpKind::Exit}, plainOpKindOf(node)))
      continue;
    for (Operation *user : node->getUsers())
      worklist.push_back(user);
  }
  return inside;
}

/// A Const node holding `values` with the type of `result`.
Operation *makeConst(OpBuilder &builder, Value result,
                     ArrayRef<int64_t> values, StringRef name,
                     ValueRange control, StringRef device) {
  auto type = cast<RankedTensorType>(result.getType());
  auto element = cast<IntegerType>(type.getElementType());
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(element.getWidth(), v, /*isSigned=*/true));
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(name)),
      builder.getNamedAttr("dtype", TypeAttr::get(element)),
      builder.getNamedAttr("value", DenseElementsAttr::get(type, ints))};
  if (!device.empty())
    attrs.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                         builder.getStringAttr(device)));
  return tfg::createNode(builder, result.getDefiningOp()->getLoc(), "Const",
                         type, {}, control, attrs);
}

/// A control token that is dead exactly when `value` is, for a Const that
/// takes the place of a node in a branch: the token of `value`'s producer,
/// but for an output of a Switch (whose own token lives whichever output
/// does) the token of an Identity of that output: one the graph has with no
/// control inputs of its own (a TF1 cond's pivot), other than `folded`, the
/// node the Const replaces, else one made here. Null for a ref output,
/// which no Identity takes.
Value deadnessOf(OpBuilder &builder, NameUniquer &names, Value value,
                 Operation *folded) {
  Operation *producer = value.getDefiningOp();
  if (plainOpKindOf(producer) != OpKind::Switch)
    return tfg::getControlToken(producer);
  Type element = cast<TensorType>(value.getType()).getElementType();
  if (isa<tfg::RefType>(element))
    return nullptr;
  for (Operation *user : value.getUsers())
    if (user != folded && tfg::isNode(user) &&
        opKindOf(user) == OpKind::Identity &&
        tfg::getControlOperands(user).empty())
      return tfg::getControlToken(user);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfter(producer);
  unsigned port = cast<OpResult>(value).getResultNumber();
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr(
          tfg::kNameAttr,
          builder.getStringAttr(names.get(
              (tfg::getNodeName(producer) + "/_alive_" + Twine(port)).str()))),
      builder.getNamedAttr("T", TypeAttr::get(element))};
  if (StringRef device = tfg::getRequestedDevice(producer); !device.empty())
    attrs.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                         builder.getStringAttr(device)));
  Operation *identity =
      tfg::createNode(builder, producer->getLoc(), "Identity", value.getType(),
                      {value}, {}, attrs);
  return tfg::getControlToken(identity);
}

/// TensorFlow's limit on the size of a folded constant.
constexpr int64_t kMaxFoldedBytes = 10 << 20;

/// Whether a value may be computed at compile time and kept as a Const:
/// at most TensorFlow's limit, so that a large broadcast stays an op, or
/// no larger than an operand of the node that makes it (a filter scaled
/// by a batch norm's factors: the program holds as many bytes whether it
/// keeps the filter or the product, and the product saves a pass over the
/// filter at every step).
bool isFoldableValue(Value value) {
  // String tensors hold handles to memory of the run that made them.
  if (isa<tfg::StringType>(cast<TensorType>(value.getType()).getElementType()))
    return false;
  int64_t bytes = tensorBytes(value.getType());
  if (bytes < 0)
    return false;
  if (bytes <= kMaxFoldedBytes)
    return true;
  Operation *node = value.getDefiningOp();
  return node && llvm::any_of(tfg::getDataOperands(node), [&](Value operand) {
           return tensorBytes(operand.getType()) >= bytes;
         });
}

/// The float32 values of a Const, or nothing.
std::optional<ArrayRef<float>> floatsOf(Operation *node, SmallVector<float> &splat) {
  if (!node || !tfg::isNode(node) || opKindOf(node) != OpKind::Const)
    return std::nullopt;
  auto value = node->getAttrOfType<DenseElementsAttr>("value");
  auto type = value ? dyn_cast<RankedTensorType>(value.getType()) : nullptr;
  if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
    return std::nullopt;
  if (value.isSplat()) {
    splat.assign(type.getNumElements(), value.getSplatValue<float>());
    return ArrayRef<float>(splat);
  }
  ArrayRef<char> raw = value.getRawData();
  return ArrayRef<float>(reinterpret_cast<const float *>(raw.data()),
                         raw.size() / sizeof(float));
}

/// Replaces the single-output `node` by a Const of its name holding
/// `value`.
void replaceByConst(OpBuilder &builder, Operation *node, DenseElementsAttr value) {
  builder.setInsertionPoint(node);
  Operation *constant =
      createConstLike(builder, node, tfg::getNodeName(node), value);
  tfg::getDataResults(node)[0].replaceAllUsesWith(constant->getResult(0));
  tfg::getControlToken(node).replaceAllUsesWith(tfg::getControlToken(constant));
  node->erase();
}

/// The value of a node whose output is its input's memory, when that
/// input is a Const: the Const's elements with the output's type.
std::optional<DenseElementsAttr> forwardedValue(Operation *node,
                                                RankedTensorType type) {
  const OpInfo *op = lookupOp(node);
  OperandRange operands = tfg::getDataOperands(node);
  if (!op || !op->alias || isControlFlow(node) || operands.empty())
    return std::nullopt;
  Value input = operands[op->aliasOperand >= 0 ? op->aliasOperand : 0];
  Operation *producer = input.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      opKindOf(producer) != OpKind::Const)
    return std::nullopt;
  auto value = producer->getAttrOfType<DenseElementsAttr>("value");
  if (!value || value.getElementType() != type.getElementType() ||
      value.getNumElements() != type.getNumElements())
    return std::nullopt;
  return value.getType() == type ? value : value.reshape(type);
}

/// Folds the float32 arithmetic of two Consts and the forwarding of one
/// (see the file comment); counts the nodes folded.
void foldHere(Block &body, const llvm::DenseSet<Operation *> &inControlFlow,
              unsigned &folded) {
  OpBuilder builder(body.getParentOp()->getContext());
  for (Operation *node : topologicalOrder(body)) {
    if (inControlFlow.contains(node) || !tfg::getControlOperands(node).empty() ||
        tfg::getDataResults(node).size() != 1)
      continue;
    Value result = tfg::getDataResults(node)[0];
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || !isFoldableValue(result))
      continue;
    if (std::optional<DenseElementsAttr> value = forwardedValue(node, type)) {
      replaceByConst(builder, node, *value);
      ++folded;
      continue;
    }
    OpKind kind = opKindOf(node);
    OperandRange operands = tfg::getDataOperands(node);
    if (llvm::is_contained({OpKind::Rsqrt, OpKind::Sqrt, OpKind::Neg}, kind) &&
        type.getElementType().isF32() && operands.size() == 1) {
      SmallVector<float> splat;
      std::optional<ArrayRef<float>> x =
          floatsOf(operands[0].getDefiningOp(), splat);
      if (!x || int64_t(x->size()) != type.getNumElements())
        continue;
      // As the generated code computes them: MathToLLVM lowers rsqrt to
      // 1 / sqrt(x), two correctly rounded operations.
      SmallVector<float> out;
      for (float v : *x)
        out.push_back(kind == OpKind::Neg    ? -v
                      : kind == OpKind::Sqrt ? std::sqrt(v)
                                             : 1.0f / std::sqrt(v));
      replaceByConst(builder, node,
                     DenseElementsAttr::get(type, ArrayRef<float>(out)));
      ++folded;
      continue;
    }
    if (!llvm::is_contained({OpKind::Mul, OpKind::Add, OpKind::AddV2,
                             OpKind::Sub, OpKind::RealDiv},
                            kind) ||
        !type.getElementType().isF32())
      continue;
    SmallVector<float> splatA, splatB;
    std::optional<ArrayRef<float>> a =
        floatsOf(operands[0].getDefiningOp(), splatA);
    std::optional<ArrayRef<float>> b =
        floatsOf(operands[1].getDefiningOp(), splatB);
    if (!a || !b)
      continue;
    // Broadcast strides: each operand's dims aligned right, 0 where 1.
    ArrayRef<int64_t> dims = type.getShape();
    int64_t rank = dims.size();
    auto stridesOf = [&](Value operand) -> std::optional<SmallVector<int64_t>> {
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(operand.getType()).getShape();
      if (int64_t(shape.size()) > rank)
        return std::nullopt;
      SmallVector<int64_t> strides(rank, 0);
      int64_t stride = 1;
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        int64_t at = d + rank - shape.size();
        if (shape[d] != 1 && shape[d] != dims[at])
          return std::nullopt;
        strides[at] = shape[d] == 1 ? 0 : stride;
        stride *= shape[d];
      }
      return strides;
    };
    std::optional<SmallVector<int64_t>> sa = stridesOf(operands[0]),
                                        sb = stridesOf(operands[1]);
    if (!sa || !sb)
      continue;
    SmallVector<float> out(type.getNumElements());
    SmallVector<int64_t> index(rank, 0);
    int64_t ia = 0, ib = 0;
    for (float &element : out) {
      float x = (*a)[ia], y = (*b)[ib];
      switch (kind) {
      case OpKind::Mul:
        element = x * y;
        break;
      case OpKind::Sub:
        element = x - y;
        break;
      case OpKind::RealDiv:
        element = x / y;
        break;
      default:
        element = x + y;
      }
      // The next index, odometer-wise, and the operands' offsets with it.
      for (int64_t d = rank - 1; d >= 0; --d) {
        ia += (*sa)[d];
        ib += (*sb)[d];
        if (++index[d] < dims[d])
          break;
        ia -= (*sa)[d] * dims[d];
        ib -= (*sb)[d] * dims[d];
        index[d] = 0;
      }
    }
    replaceByConst(builder, node,
                   DenseElementsAttr::get(type, ArrayRef<float>(out)));
    ++folded;
  }
}

/// Folds the numeric subgraphs of constants of `body` (see the file
/// comment); counts the outputs folded.
LogicalResult foldNumericSubgraphs(Block &body,
                                   const llvm::DenseSet<Operation *> &inControlFlow,
                                   unsigned &folded) {
  const ConstantEvaluatorInterface *evaluator =
      getConstantEvaluator(body.getParentOp()->getContext());
  auto isConst = [](Operation *op) {
    return op && tfg::isNode(op) && opKindOf(op) == OpKind::Const;
  };
  // Foldable nodes, producers first.
  SmallVector<Operation *> order;
  llvm::DenseSet<Operation *> foldable;
  for (Operation *node : topologicalOrder(body)) {
    const OpInfo *op = lookupOp(node);
    if (!op || !op->folds || isConst(node) || isStateful(node) ||
        inControlFlow.contains(node) || isControlFlow(node) ||
        !tfg::getControlOperands(node).empty())
      continue;
    if (llvm::is_contained(
            {OpKind::InternalArg, OpKind::InternalRetval, OpKind::NoOp},
            opKindOf(node)))
      continue;
    bool fromConstants = llvm::all_of(tfg::getDataOperands(node), [&](Value v) {
      Operation *producer = v.getDefiningOp();
      return isConst(producer) || foldable.contains(producer);
    });
    if (fromConstants && !tfg::getDataResults(node).empty() &&
        llvm::all_of(tfg::getDataResults(node), isFoldableValue)) {
      foldable.insert(node);
      order.push_back(node);
    }
  }
  // The values leaving the subgraph.
  SmallVector<Value> outputs;
  for (Operation *node : order)
    for (Value result : tfg::getDataResults(node))
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !foldable.contains(user);
          }))
        outputs.push_back(result);
  if (outputs.empty())
    return success();
  if (!evaluator) {
    Operation *node = outputs.front().getDefiningOp();
    return node->emitError()
           << "node '" << tfg::getNodeName(node)
           << "' computes from constants only, and folding it needs a "
              "constant evaluator, which this tool does not provide (tfc "
              "and tfc-opt do)";
  }

  // The evaluation module: the Consts read, the subgraph, a _Retval per
  // output.
  MLIRContext *context = body.getParentOp()->getContext();
  Location loc = body.getParentOp()->getLoc();
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  SmallVector<Attribute> fetchNames;
  for (Value output : outputs)
    fetchNames.push_back(builder.getStringAttr(
        (tfg::getNodeName(output.getDefiningOp()) + ":" +
         Twine(cast<OpResult>(output).getResultNumber()))
            .str()));
  (*module)->setAttr(kFeedsAttr, builder.getArrayAttr({}));
  (*module)->setAttr(kFetchesAttr, builder.getArrayAttr(fetchNames));
  builder.setInsertionPointToEnd(module->getBody());
  auto graph = builder.create<tfg::GraphOp>(
      loc, cast<tfg::GraphOp>(body.getParentOp()).getVersion());
  graph->setAttr(kEntryAttr, builder.getStringAttr("step"));
  builder.setInsertionPointToEnd(&graph.getNodes().emplaceBlock());
  IRMapping mapping;
  // The Consts read, without their control inputs (nodes of the graph, not
  // of the module; outside conds and loops they only order).
  for (Operation *node : order)
    for (Value input : tfg::getDataOperands(node))
      if (isConst(input.getDefiningOp()) && !mapping.contains(input)) {
        Operation *constant = input.getDefiningOp();
        Operation *copy = tfg::createNode(
            builder, constant->getLoc(), "Const", input.getType(), {}, {},
            llvm::to_vector(constant->getAttrs()));
        mapping.map(input, copy->getResult(0));
      }
  for (Operation *node : order)
    builder.clone(*node, mapping);
  for (auto [index, output] : llvm::enumerate(outputs)) {
    auto element = cast<RankedTensorType>(output.getType()).getElementType();
    tfg::createNode(
        builder, loc, "_Retval", {}, mapping.lookup(output), {},
        {builder.getNamedAttr(tfg::kNameAttr,
                              builder.getStringAttr("_retval_" + Twine(index))),
         builder.getNamedAttr("T", TypeAttr::get(element)),
         builder.getNamedAttr("index", builder.getI64IntegerAttr(index))});
  }
  FailureOr<SmallVector<DenseElementsAttr>> values = evaluator->evaluate(*module);
  if (failed(values))
    return failure();

  // Consts in place of the outputs, named after their node for now.
  NameUniquer names(body);
  SmallVector<std::pair<Operation *, std::string>> renames;
  for (auto [output, value] : llvm::zip(outputs, *values)) {
    Operation *node = output.getDefiningOp();
    builder.setInsertionPoint(node);
    StringRef name = tfg::getNodeName(node);
    Operation *constant = createConstLike(
        builder, node, names.get((name + "/_folded").str()), value);
    output.replaceAllUsesWith(constant->getResult(0));
    if (tfg::getDataResults(node).size() == 1)
      renames.push_back({constant, name.str()});
    ++folded;
  }
  // The subgraph goes where unused; a Const takes the name of its node.
  llvm::StringSet<> freed;
  for (Operation *node : llvm::reverse(order))
    if (node->use_empty()) {
      freed.insert(tfg::getNodeName(node));
      node->erase();
    }
  for (auto &[constant, name] : renames)
    if (freed.contains(name))
      constant->setAttr(tfg::kNameAttr, builder.getStringAttr(name));
  return success();
}

struct FoldConstantsPass
    : public impl::FoldConstantsPassBase<FoldConstantsPass> {
  PassCounter numFolded{this, "folded", "outputs replaced by constants"};
  PassCounter numEvaluated{this, "evaluated",
                           "of them, outputs the evaluator's program computed"};
  void runOnOperation() override {
    numFolded = 0; // Reported even when nothing happens.
    numEvaluated = 0;
    for (Block *body : getBodies(getOperation())) {
      KnownValues values;
      unsigned refined = 0;
      if (failed(inferShapes(*body, refined, &values)))
        return signalPassFailure();
      llvm::DenseSet<Operation *> inControlFlow = nodesInControlFlow(*body);
      NameUniquer names(*body);
      OpBuilder builder(&getContext());

      // (VariableShape is stateful in TensorFlow, where a variable may be
      // assigned a new shape; a tfc variable's shape is fixed.) Control
      // flow nodes stay: a Const cannot be dead as a Switch's output is.
      SmallVector<Operation *> nodes;
      for (Operation &op : *body)
        if (tfg::isNode(&op) && opKindOf(&op) != OpKind::Const &&
            !isControlFlow(&op) &&
            (!isStateful(&op) || opKindOf(&op) == OpKind::VariableShape))
          nodes.push_back(&op);
      for (Operation *node : nodes) {
        // The outputs whose values are known, with static integer types.
        SmallVector<Value> folded;
        for (Value result : tfg::getDataResults(node)) {
          auto type = dyn_cast<RankedTensorType>(result.getType());
          if (type && type.hasStaticShape() &&
              isa<IntegerType>(type.getElementType()) &&
              !type.getElementType().isInteger(1) && values.count(result) &&
              !result.use_empty())
            folded.push_back(result);
        }
        if (folded.empty())
          continue;
        // In a branch or loop, the Const is dead when an input was.
        llvm::SetVector<Value> control;
        bool deadnessKept = true;
        if (inControlFlow.contains(node)) {
          for (Value input : tfg::getDataOperands(node))
            if (input.getDefiningOp()) {
              Value token = deadnessOf(builder, names, input, node);
              deadnessKept = deadnessKept && token;
              control.insert(token);
            }
          for (Value token : tfg::getControlOperands(node))
            control.insert(token);
        }
        if (!deadnessKept)
          continue;
        builder.setInsertionPoint(node);
        bool whole = tfg::getDataResults(node).size() == 1;
        for (Value result : folded) {
          unsigned port = cast<OpResult>(result).getResultNumber();
          std::string name =
              whole ? tfg::getNodeName(node).str()
                    : names.get((tfg::getNodeName(node) + "/_folded_" +
                                 Twine(port))
                                    .str());
          Operation *constant =
              makeConst(builder, result, values[result], name,
                        control.getArrayRef(), tfg::getRequestedDevice(node));
          result.replaceAllUsesWith(constant->getResult(0));
          // The Const of a single-output node takes its place entirely.
          if (whole) {
            tfg::getControlToken(node).replaceAllUsesWith(
                tfg::getControlToken(constant));
            node->erase();
          }
          ++numFolded;
        }
      }
    }
    // Numeric subgraphs, in the entry graphs.
    for (Block *body : getBodies(getOperation())) {
      if (!isa<tfg::GraphOp>(body->getParentOp()))
        continue;
      unsigned here = 0, evaluated = 0;
      llvm::DenseSet<Operation *> inControlFlow = nodesInControlFlow(*body);
      foldHere(*body, inControlFlow, here);
      if (failed(foldNumericSubgraphs(*body, inControlFlow, evaluated)))
        return signalPassFailure();
      numFolded += here + evaluated;
      numEvaluated += evaluated;
    }
  }
};

} // namespace
} // namespace tfc
