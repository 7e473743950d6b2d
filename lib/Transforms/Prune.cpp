//===- Prune.cpp - partial execution: keep what a step needs --------------===//
//
// The rewrite of the white paper's §4.2 (Figure 6), done at compile time:
//
//  1. Each fed tensor "n:p" is replaced, for all its data consumers, by an
//     `_Arg` node (index = position in tfc.feeds); n itself stays only if
//     something else still needs it.
//  2. Each fetched tensor gets a `_Retval` node (index = position in
//     tfc.fetches). Fetching a fed tensor returns the fed value.
//  3. Everything not reachable backwards (data and control edges) from the
//     `_Retval`s and the targets is removed, stateful nodes included.
//
// Feeding a tensor computed inside a TF1 while loop is an error, as in
// TensorFlow. The init nodes (tfc.init) are pruned from a copy of the
// original graph into a second graph, the "init" entry, and each enqueue
// node of a queue runner (tfc.queue_runners) into one of its own, the
// entry "runner:NODE".
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/AttrConversion.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Queues.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PRUNEPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

SmallVector<std::string> getStrings(ModuleOp module, StringRef attr) {
  SmallVector<std::string> result;
  if (auto array = module->getAttrOfType<ArrayAttr>(attr))
    for (Attribute element : array)
      if (auto str = dyn_cast<StringAttr>(element))
        result.push_back(str.str());
  return result;
}

/// Nodes inside TF1 while loops: reachable from an Enter without passing an
/// Exit. Their tensors exist once per iteration and cannot be fed.
llvm::DenseSet<Operation *> nodesInLoops(Block &body) {
  llvm::DenseSet<Operation *> inLoop;
  SmallVector<Operation *> worklist;
  for (Operation &op : body)
    if (tfg::isNode(&op) &&
        plainOpKindOf(&op) == OpKind::Enter)
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!inLoop.insert(node).second)
      continue;
    if (plainOpKindOf(node) == OpKind::Exit)
      continue;
    for (Operation *user : node->getUsers())
      if (tfg::isNode(user) && !inLoop.contains(user))
        worklist.push_back(user);
  }
  // Exits produce values outside the loop.
  for (auto it = inLoop.begin(); it != inLoop.end();) {
    auto current = it++;
    if (plainOpKindOf(*current) == OpKind::Exit)
      inLoop.erase(current);
  }
  return inLoop;
}

/// Whether a shape given for a feed agrees with the declared one: same rank,
/// same size wherever both are known.
bool isCompatible(tfg::ShapeAttr given, tfg::ShapeAttr declared) {
  if (given.getUnranked() || declared.getUnranked())
    return true;
  if (given.getDims().size() != declared.getDims().size())
    return false;
  for (auto [a, b] : llvm::zip(given.getDims(), declared.getDims()))
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return false;
  return true;
}

class Pruner {
public:
  Pruner(ModuleOp module, tfg::GraphOp graph) : module(module), graph(graph) {
    for (Operation &op : graph.getBody())
      if (tfg::isNode(&op))
        byName[tfg::getNodeName(&op)] = &op;
  }

  /// Prunes the graph to the given feeds, fetches and targets.
  LogicalResult run(ArrayRef<std::string> feeds, ArrayAttr feedShapes,
                    ArrayRef<std::string> fetches,
                    ArrayRef<std::string> targets);

private:
  FailureOr<Value> lookup(StringRef flag, StringRef text);
  InFlightDiagnostic error() { return emitError(module.getLoc()); }

  ModuleOp module;
  tfg::GraphOp graph;
  llvm::StringMap<Operation *> byName;
};

FailureOr<Value> Pruner::lookup(StringRef flag, StringRef text) {
  std::optional<TensorName> name = parseTensorName(text);
  if (!name)
    return error() << flag << " '" << text << "': malformed tensor name";
  auto it = byName.find(name->node);
  if (it == byName.end())
    return error() << flag << " '" << text << "': no node '" << name->node
                   << "' in the graph";
  Operation *node = it->second;
  unsigned outputs = node->getNumResults() - 1;
  if (name->port >= outputs)
    return error() << flag << " '" << text << "': node '" << name->node
                   << "' has " << outputs << " output"
                   << (outputs == 1 ? "" : "s");
  return node->getResult(name->port);
}

LogicalResult Pruner::run(ArrayRef<std::string> feeds, ArrayAttr feedShapes,
                          ArrayRef<std::string> fetches,
                          ArrayRef<std::string> targets) {
  Block &body = graph.getBody();
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(&body);
  NameUniquer names(body);
  llvm::DenseSet<Operation *> inLoop = nodesInLoops(body);

  // Resolve everything before changing anything.
  SmallVector<Value> fedValues, fetchedValues;
  SmallVector<Operation *> targetNodes;
  for (const std::string &feed : feeds) {
    FailureOr<Value> value = lookup("--feed", feed);
    if (failed(value))
      return failure();
    if (inLoop.contains(value->getDefiningOp()))
      return error() << "--feed '" << feed
                     << "': the tensor is computed inside a while loop and "
                        "cannot be fed";
    if (llvm::is_contained(fedValues, *value))
      return error() << "--feed '" << feed << "' is given twice";
    fedValues.push_back(*value);
  }
  for (const std::string &fetch : fetches) {
    FailureOr<Value> value = lookup("--fetch", fetch);
    if (failed(value))
      return failure();
    fetchedValues.push_back(*value);
  }
  for (const std::string &target : targets) {
    auto it = byName.find(target);
    if (it == byName.end())
      return error() << "target '" << target << "': no node of that name";
    targetNodes.push_back(it->second);
  }

  // 1. Feeds: an _Arg per fed tensor replaces it for every data consumer.
  // Each stays, read or not: the program takes every feed given, as a
  // TensorFlow session accepts a feed that the step does not need.
  SmallVector<Operation *> args;
  for (auto [index, value] : llvm::enumerate(fedValues)) {
    auto type = cast<TensorType>(value.getType());
    Type element = type.getElementType();
    if (auto ref = dyn_cast<tfg::RefType>(element))
      element = ref.getElementType();
    // The shape: given with the feed, else the Placeholder's, else what the
    // IR knows.
    tfg::ShapeAttr shape;
    if (feedShapes && index < feedShapes.size())
      shape = dyn_cast<tfg::ShapeAttr>(feedShapes[index]);
    Operation *producer = value.getDefiningOp();
    bool placeholder =
        llvm::is_contained({OpKind::Placeholder, OpKind::PlaceholderV2,
                            OpKind::PlaceholderWithDefault},
                           opKindOf(producer));
    auto declared = placeholder
                        ? producer->getAttrOfType<tfg::ShapeAttr>("shape")
                        : tfg::ShapeAttr();
    if (shape && declared && !isCompatible(shape, declared))
      return error() << "--feed '" << feeds[index] << "': shape " << shape
                     << " does not match the placeholder's " << declared;
    if (!shape)
      shape = declared;
    TensorType argType =
        shape ? tfg::shapeToTensorType(shape, element)
              : cast<TensorType>(type.clone(element));
    // --max-dim: the dimension is planned for its bound.
    auto maxDims = module->getAttrOfType<ArrayAttr>(kFeedMaxDimsAttr);
    if (auto given = maxDims && index < maxDims.size()
                         ? dyn_cast<DenseI64ArrayAttr>(maxDims[index])
                         : DenseI64ArrayAttr();
        given && given.size() == 2) {
      auto ranked = dyn_cast<RankedTensorType>(argType);
      int64_t axis = given[0];
      if (!ranked || axis >= ranked.getRank())
        return error() << "--max-dim: feed '" << feeds[index] << "' has "
                       << (ranked ? "rank " + std::to_string(ranked.getRank())
                                  : std::string("an unknown rank"))
                       << ", no dimension " << axis;
      if (!ranked.isDynamicDim(axis))
        return error() << "--max-dim: dimension " << axis << " of feed '"
                       << feeds[index] << "' is " << ranked.getDimSize(axis)
                       << " already";
      SmallVector<int64_t> dims(ranked.getShape());
      dims[axis] = given[1];
      argType = RankedTensorType::get(dims, element);
    }
    // Named under the fed node; names may not start with '_'.
    std::string name = names.get((tfg::getNodeName(producer) + "/_arg_" +
                                  Twine(cast<OpResult>(value).getResultNumber()))
                                     .str());
    // Where the fed node is, before its readers: a block in the order its
    // edges allow stays so (topologicalOrder's quick path).
    OpBuilder::InsertionGuard atFedNode(builder);
    builder.setInsertionPoint(producer);
    Operation *arg = tfg::createNode(
        builder, producer->getLoc(), "_Arg", argType, {}, {},
        {builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(name)),
         builder.getNamedAttr("T", TypeAttr::get(element)),
         builder.getNamedAttr("index", builder.getI64IntegerAttr(index))});
    if (StringRef device = tfg::getRequestedDevice(producer); !device.empty())
      arg->setAttr(tfg::kDeviceAttr, builder.getStringAttr(device));
    args.push_back(arg);
    value.replaceAllUsesWith(arg->getResult(0));
    // A fetch of the fed tensor returns the fed value.
    for (Value &fetched : fetchedValues)
      if (fetched == value)
        fetched = arg->getResult(0);
  }

  // 2. Fetches: a _Retval per fetched tensor.
  SmallVector<Operation *> roots(targetNodes);
  roots.append(args);
  for (auto [index, value] : llvm::enumerate(fetchedValues)) {
    Operation *producer = value.getDefiningOp();
    Type element = cast<TensorType>(value.getType()).getElementType();
    if (auto ref = dyn_cast<tfg::RefType>(element))
      element = ref.getElementType();
    // Named after the fetch as given: "<node>/_retval_<port>".
    TensorName fetch = *parseTensorName(fetches[index]);
    std::string name = names.get(
        (fetch.node + "/_retval_" + Twine(fetch.port)).str());
    roots.push_back(tfg::createNode(
        builder, producer->getLoc(), "_Retval", {}, value, {},
        {builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(name)),
         builder.getNamedAttr("T", TypeAttr::get(element)),
         builder.getNamedAttr("index", builder.getI64IntegerAttr(index))}));
  }

  // 3. Keep what the roots need, through data and control edges.
  llvm::DenseSet<Operation *> live;
  SmallVector<Operation *> worklist(roots);
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!live.insert(node).second)
      continue;
    for (Value operand : node->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
  }
  SmallVector<Operation *> dead;
  for (Operation &op : body)
    if (!live.contains(&op))
      dead.push_back(&op);
  eraseNodes(dead);
  updateColocations(body);
  return success();
}

/// Each queue runner's nodes are enqueues into one queue, as a
/// TensorFlow QueueRunner's are.
LogicalResult checkQueueRunners(ModuleOp module, tfg::GraphOp graph) {
  SmallVector<QueueRunnerSpec> runners = queueRunnersOf(module);
  if (runners.empty())
    return success();
  llvm::StringMap<Operation *> byName;
  for (Operation &op : graph.getBody())
    if (tfg::isNode(&op))
      byName[tfg::getNodeName(&op)] = &op;
  for (const QueueRunnerSpec &runner : runners) {
    Operation *queue = nullptr;
    for (StringRef name : runner.nodes) {
      auto error = [&]() {
        return emitError(module.getLoc()) << runner.flagName() << " '"
                                          << runner.flag << "': '" << name
                                          << "' ";
      };
      Operation *node = byName.lookup(name);
      if (!node)
        return error() << "is no node of the graph";
      OpKind kind = opKindOf(node);
      if (kind != OpKind::QueueEnqueueV2 && kind != OpKind::QueueEnqueueManyV2)
        return error() << "is a " << tfg::getOpType(node)
                       << ", not a QueueEnqueueV2 or QueueEnqueueManyV2";
      Operation *its = queueNodeOf(tfg::getDataOperands(node)[0]);
      if (!its)
        return error() << "enqueues into a queue tfc cannot trace to its node";
      if (queue && queueName(its) != queueName(queue))
        return error() << "enqueues into '" << queueName(its)
                       << "', not '" << queueName(queue)
                       << "': one runner feeds one queue";
      queue = its;
    }
  }
  return success();
}

struct PrunePass : public impl::PrunePassBase<PrunePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::string> fetches = getStrings(module, kFetchesAttr);
    SmallVector<std::string> targets = getStrings(module, kTargetsAttr);
    SmallVector<std::string> init = getStrings(module, kInitAttr);
    // Without an interface there is nothing to prune to.
    if (fetches.empty() && targets.empty() && init.empty() &&
        getStrings(module, kLocalInitAttr).empty() &&
        getStrings(module, kChiefInitAttr).empty())
      return;

    SmallVector<tfg::GraphOp> graphs;
    for (auto graph : module.getOps<tfg::GraphOp>())
      graphs.push_back(graph);
    if (graphs.size() != 1 || graphs.front()->hasAttr(kEntryAttr)) {
      emitError(module.getLoc(), "tfc-prune expects one unpruned tfg.graph");
      return signalPassFailure();
    }
    tfg::GraphOp step = graphs.front();
    OpBuilder builder(module.getContext());

    // The init entry and each queue runner's starts as a copy of the
    // whole graph.
    builder.setInsertionPointAfter(step);
    auto entryOf = [&](StringRef name, ArrayRef<std::string> roots) {
      auto graph = cast<tfg::GraphOp>(builder.clone(*step));
      graph->setAttr(kEntryAttr, builder.getStringAttr(name));
      return Pruner(module, graph).run({}, {}, {}, roots);
    };
    for (const OnceEntry &once : kOnceEntries) {
      SmallVector<std::string> roots = getStrings(module, once.rootsAttr);
      if (!roots.empty() && failed(entryOf(once.name, roots)))
        return signalPassFailure();
    }
    if (failed(checkQueueRunners(module, step)))
      return signalPassFailure();
    for (StringRef node : queueRunnerNodes(module))
      if (failed(entryOf((kRunnerEntryPrefix + node).str(), {node.str()})))
        return signalPassFailure();
    step->setAttr(kEntryAttr, builder.getStringAttr("step"));
    if (failed(Pruner(module, step).run(
            getStrings(module, kFeedsAttr),
            module->getAttrOfType<ArrayAttr>(kFeedShapesAttr), fetches,
            targets)))
      return signalPassFailure();
  }
};

} // namespace
} // namespace tfc
