//===- SyncReplicas.cpp - SyncReplicasOptimizer's parts in a graph --------===//
//
// What SyncReplicasOptimizer.apply_gradients and get_init_tokens_op build
// (tf.compat.v1, TensorFlow 2.21), and how each part is recognised here,
// by structure rather than by name (a user may name the optimizer):
//
//   token queue         a FIFOQueueV2 with shared_name "sync_token_q"
//   chief queue runner  the enqueue-many into it that depends on an
//                       accumulator's take (sync_op: the tokens of an update)
//   initial tokens      an enqueue-many into it that does not; or a NoOp
//                       named no_init_tokens (get_init_tokens_op(0))
//   local step          the variable a dequeued token is assigned to
//   local step init     the other assignment to it that reads a variable
//                       (the global step); the initializer assigns a Const
//   chief init          the NoOp group that, through NoOps, runs the local
//                       step init and every accumulator's SetGlobalStep
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/SyncReplicas.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Queues.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tfc {
namespace {

bool isTake(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::AccumulatorTakeGradient ||
         kind == OpKind::ResourceAccumulatorTakeGradient ||
         kind == OpKind::SparseAccumulatorTakeGradient;
}

bool isSetGlobalStep(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::AccumulatorSetGlobalStep ||
         kind == OpKind::ResourceAccumulatorSetGlobalStep;
}

bool isAssign(Operation *node) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::AssignVariableOp || kind == OpKind::Assign;
}

/// Whether `node` runs after an accumulator's take: some node it waits
/// for, through data or control inputs, is one.
bool dependsOnTake(Operation *node) {
  SmallVector<Operation *> work{node};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    if (!next || !seen.insert(next).second)
      continue;
    if (isTake(next))
      return true;
    for (Value operand : next->getOperands())
      work.push_back(operand.getDefiningOp());
  }
  return false;
}

/// The nodes other than NoOps that `group` runs through its control
/// inputs, following NoOps (tf.group's per-device NoOps).
llvm::DenseSet<Operation *> groupMembers(Operation *group) {
  llvm::DenseSet<Operation *> members, seen;
  SmallVector<Operation *> work{group};
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    for (Value control : tfg::getControlOperands(next))
      if (Operation *input = control.getDefiningOp()) {
        if (opKindOf(input) == OpKind::NoOp)
          work.push_back(input);
        else
          members.insert(input);
      }
  }
  return members;
}

/// The first integer of a Const (seen through Identity), if it is one.
std::optional<int64_t> constantInteger(Value value) {
  Operation *node = skipIdentities(value).getDefiningOp();
  if (!node || opKindOf(node) != OpKind::Const)
    return std::nullopt;
  auto elements = node->getAttrOfType<DenseIntElementsAttr>("value");
  if (!elements || elements.getNumElements() < 1)
    return std::nullopt;
  return (*elements.begin()).getSExtValue();
}

struct Finder {
  Block &body;
  Operation *queue;
  InFlightDiagnostic error() {
    return queue->emitError()
           << "SyncReplicasOptimizer's token queue '" << tfg::getNodeName(queue)
           << "': ";
  }
};

/// Makes get_init_tokens_op's enqueue: replicas_to_aggregate copies of the
/// global step, read where the chief queue runner's tokens read it.
FailureOr<std::string> makeInitTokens(Finder &finder, Operation *syncOp,
                                      int64_t count) {
  Value tokens = tfg::getDataOperands(syncOp)[1];
  Operation *fill = skipIdentities(tokens).getDefiningOp();
  if (!fill || opKindOf(fill) != OpKind::Fill)
    return finder.error() << "its chief queue runner '"
                          << tfg::getNodeName(syncOp)
                          << "' enqueues no Fill of the global step, so tfc "
                             "cannot make the initial tokens; give them "
                             "with --chief-init";
  Value step = tfg::getDataOperands(fill)[1];
  Operation *read = step.getDefiningOp();
  OpBuilder builder(syncOp);
  NameUniquer names(finder.body);
  std::string base = names.get(tfg::getNodeName(finder.queue).str() +
                               "_init_tokens");
  Builder b(syncOp->getContext());
  auto stepType = cast<TensorType>(step.getType());
  if (read && opKindOf(read) == OpKind::ReadVariableOp) {
    // A read of its own: the runner's waits for the update.
    step = createNodeLike(builder, read, "ReadVariableOp", base + "/read",
                          {stepType}, tfg::getDataOperands(read), {},
                          {b.getNamedAttr("dtype", read->getAttr("dtype"))})
               ->getResult(0);
  }
  Value dims =
      createConstLike(builder, fill, base + "/dims",
                      DenseIntElementsAttr::get(
                          RankedTensorType::get({1}, b.getI32Type()),
                          {int32_t(count)}))
          ->getResult(0);
  Type element = stepType.getElementType();
  Value filled =
      createNodeLike(builder, fill, "Fill", base + "/fill",
                     {RankedTensorType::get({count}, element)}, {dims, step},
                     {},
                     {b.getNamedAttr("T", TypeAttr::get(element)),
                      b.getNamedAttr("index_type", TypeAttr::get(b.getI32Type()))})
          ->getResult(0);
  createNodeLike(builder, syncOp, "QueueEnqueueManyV2", base,
                 TypeRange(), {tfg::getDataOperands(syncOp)[0], filled}, {},
                 {b.getNamedAttr("Tcomponents",
                                 b.getArrayAttr({TypeAttr::get(element)})),
                  b.getNamedAttr("timeout_ms", b.getI64IntegerAttr(-1))});
  return base;
}

} // namespace

FailureOr<std::optional<SyncReplicasParts>>
findSyncReplicas(ModuleOp module, bool addInitTokens) {
  auto graphs = module.getOps<tfg::GraphOp>();
  if (graphs.empty())
    return std::optional<SyncReplicasParts>();
  Block &body = (*graphs.begin()).getBody();
  SmallVector<Operation *> queues;
  for (Operation &node : body)
    if (tfg::isNode(&node) && opKindOf(&node) == OpKind::FIFOQueueV2)
      if (auto shared = node.getAttrOfType<StringAttr>("shared_name"))
        if (shared.getValue() == "sync_token_q")
          queues.push_back(&node);
  if (queues.empty())
    return std::optional<SyncReplicasParts>();
  Finder finder{body, queues.front()};
  if (queues.size() > 1)
    return finder.error() << "the graph has " << queues.size()
                          << " (several SyncReplicasOptimizers); give their "
                             "parts with --local-init, --chief-init and "
                             "--chief-queue-runner";

  // The queue's enqueues and dequeues.
  SmallVector<Operation *> syncOps, initEnqueues, dequeues;
  for (Operation &node : body) {
    if (!tfg::isNode(&node))
      continue;
    OpKind kind = opKindOf(&node);
    if (kind != OpKind::QueueEnqueueManyV2 && kind != OpKind::QueueDequeueV2)
      continue;
    if (queueNodeOf(tfg::getDataOperands(&node)[0]) != finder.queue)
      continue;
    if (kind == OpKind::QueueDequeueV2)
      dequeues.push_back(&node);
    else if (dependsOnTake(&node))
      syncOps.push_back(&node);
    else
      initEnqueues.push_back(&node);
  }
  if (syncOps.size() != 1)
    return finder.error() << syncOps.size()
                          << " enqueues into it follow an accumulator's take, "
                             "not one (the chief queue runner's)";
  if (initEnqueues.size() > 1)
    return finder.error() << initEnqueues.size()
                          << " enqueues of initial tokens, not one";
  if (dequeues.size() != 1)
    return finder.error() << dequeues.size()
                          << " dequeues, not one (each worker's token)";
  SyncReplicasParts parts;
  parts.chiefQueueRunner = tfg::getNodeName(syncOps.front()).str();
  if (auto count = constantInteger([&] {
        Operation *fill = skipIdentities(tfg::getDataOperands(syncOps.front())[1])
                              .getDefiningOp();
        return fill && opKindOf(fill) == OpKind::Fill
                   ? tfg::getDataOperands(fill)[0]
                   : Value();
      }()))
    parts.tokensPerStep = *count;

  // The local step: what the dequeued token is assigned to.
  Value token = tfg::getDataResults(dequeues.front())[0];
  Value localStep;
  for (Operation *user : token.getUsers())
    if (isAssign(user) && tfg::getDataOperands(user)[1] == token)
      localStep = skipIdentities(tfg::getDataOperands(user)[0]);
  if (!localStep)
    return finder.error() << "no variable is assigned the token its dequeue '"
                          << tfg::getNodeName(dequeues.front())
                          << "' takes (the worker's local step)";
  // Its init: the assignment of a variable's value (the global step's).
  SmallVector<Operation *> localInits;
  for (Operation &node : body) {
    if (!tfg::isNode(&node) || !isAssign(&node) ||
        skipIdentities(tfg::getDataOperands(&node)[0]) != localStep)
      continue;
    Operation *value =
        skipIdentities(tfg::getDataOperands(&node)[1]).getDefiningOp();
    OpKind kind = value ? opKindOf(value) : OpKind::Const;
    if (kind == OpKind::ReadVariableOp || kind == OpKind::VariableV2 ||
        kind == OpKind::Variable)
      localInits.push_back(&node);
  }
  if (localInits.size() != 1)
    return finder.error() << localInits.size()
                          << " assignments of a variable's value to the "
                             "local step '"
                          << tfg::getNodeName(localStep.getDefiningOp())
                          << "', not one (its local_step_init_op)";
  parts.localInit = tfg::getNodeName(localInits.front()).str();

  // The chief's init: the group that runs the local step init and every
  // SetGlobalStep; the outermost such group.
  llvm::SetVector<Operation *> required;
  required.insert(localInits.front());
  for (Operation &node : body)
    if (tfg::isNode(&node) && isSetGlobalStep(&node))
      required.insert(&node);
  SmallVector<Operation *> groups;
  for (Operation &node : body)
    if (tfg::isNode(&node) && opKindOf(&node) == OpKind::NoOp) {
      llvm::DenseSet<Operation *> members = groupMembers(&node);
      if (llvm::all_of(required, [&](Operation *n) { return members.contains(n); }))
        groups.push_back(&node);
    }
  Operation *chiefInit = nullptr;
  for (Operation *group : groups)
    if (llvm::none_of(groups, [&](Operation *other) {
          return other != group &&
                 llvm::is_contained(tfg::getControlOperands(other),
                                    tfg::getControlToken(group));
        }))
      chiefInit = chiefInit ? chiefInit : group;
  if (!chiefInit)
    return finder.error() << "no NoOp groups its local step init '"
                          << parts.localInit
                          << "' with the accumulators' SetGlobalStep (its "
                             "chief_init_op)";
  parts.chiefInit = tfg::getNodeName(chiefInit).str();

  // How many gradients an update takes.
  for (Operation &node : body)
    if (tfg::isNode(&node) && isTake(&node))
      if (auto required = constantInteger(tfg::getDataOperands(&node)[1]))
        parts.replicasToAggregate = *required;
  if (parts.replicasToAggregate < 1)
    return finder.error() << "its accumulators' takes have no constant "
                             "num_required (replicas_to_aggregate)";

  // The initial tokens: the graph's, its no_init_tokens, or made here.
  if (!initEnqueues.empty()) {
    parts.initTokens = tfg::getNodeName(initEnqueues.front()).str();
  } else {
    for (Operation &node : body)
      if (tfg::isNode(&node) && opKindOf(&node) == OpKind::NoOp &&
          tfg::getNodeName(&node).starts_with("no_init_tokens"))
        parts.initTokens = tfg::getNodeName(&node).str();
    if (parts.initTokens.empty() && addInitTokens) {
      FailureOr<std::string> made =
          makeInitTokens(finder, syncOps.front(), parts.replicasToAggregate);
      if (failed(made))
        return failure();
      parts.initTokens = *made;
      parts.madeInitTokens = true;
    }
  }
  return std::optional<SyncReplicasParts>(parts);
}

} // namespace tfc
