//===- Partition.cpp - one graph per device, with _Send/_Recv -------------===//
//
// White paper §3.2.2 (Figure 4): once every node has a device, each
// cross-device edge x -> y is replaced by x -> _Send on x's device and
// _Recv -> y on y's device. There is exactly one _Recv per (tensor,
// destination device), shared by every consumer there, so a tensor crosses
// a link once. A control edge across devices travels as a small dummy
// tensor: a Const (float, shape [0]) that waits on the source node is sent,
// and the consumer waits on its _Recv. The _Send/_Recv pair carries the
// rendezvous key parts as attrs, named as in TensorFlow's partition graphs:
// tensor_name ("edge_N_<producer>"), send_device, send_device_incarnation,
// recv_device, client_terminated.
//
// Each device's nodes then move to a graph of their own (same entry, the
// device in `tfc.device`), in one global topological order of the whole
// step. Each partition's schedule (its block order) is that order
// restricted to its nodes, which is what keeps static schedules free of
// deadlock: the earliest unfinished node of the step can always run, since
// everything before it (a _Recv's _Send included) has run.
//
// A TF1 loop whose nodes are on several devices (model parallelism, white
// paper §4.4) is cut too, and each device's part becomes a loop of its
// own, as TensorFlow's partitioner builds "control loops":
//  - the device of the LoopCond (the loop's home) sends the predicate to
//    every other device of the loop each iteration, the last (false) one
//    included; there a LoopCond of the received predicate drives the
//    device's Switches;
//  - a device holding none of the loop's variables gets a control loop: a
//    variable of no data (Enter, Merge, Switch on its LoopCond, Identity,
//    NextIteration) whose Merge anchors the device's part in the frame;
//  - each _Recv of a value made in the loop waits on its device's anchor,
//    which puts it in the frame: it runs every iteration, under a key that
//    ends in the iteration's number (tfc_send_in_frame);
//  - a constant Enter read on another device is entered there too, from
//    its input, sent once before the loop instead of every iteration;
//  - a control edge from another device's loop plumbing (which says only
//    "in this frame") becomes one from the device's anchor;
//  - the _Sends of what the home's LoopCond needs (the condition's values)
//    run before each device's LoopCond, so that the last iteration's
//    condition, which runs without a body, has what it needs.
// Each device's loop then runs its part of every iteration in the global
// order's order, so the argument above holds for the loop unrolled
// (docs/Placement.md). A loop inside a loop must stay on one device.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/DeviceName.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Partition.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_PARTITIONPASS
#include "tfc/Transforms/Passes.h.inc"

std::string partitionDeviceType(Operation *graph) {
  auto device = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
  std::optional<DeviceName> name =
      device ? DeviceName::parse(device.getValue()) : std::nullopt;
  return name && name->type ? *name->type : "CPU";
}

int64_t deviceIncarnation(StringRef device) {
  // FNV-1a: stable across compiles, so that the tasks compiled from one
  // graph agree on every key; positive, as TensorFlow's are.
  uint64_t hash = 14695981039346656037ull;
  for (char c : device) {
    hash ^= uint8_t(c);
    hash *= 1099511628211ull;
  }
  return int64_t(hash >> 1) | 1;
}

std::string rendezvousKey(Operation *sendOrRecv) {
  auto text = [&](StringRef name) {
    return sendOrRecv->getAttrOfType<StringAttr>(name).getValue();
  };
  int64_t incarnation =
      sendOrRecv->getAttrOfType<IntegerAttr>("send_device_incarnation").getInt();
  std::string hex;
  llvm::raw_string_ostream(hex) << llvm::format_hex_no_prefix(uint64_t(incarnation), 16);
  return (text("send_device") + ";" + hex + ";" + text("recv_device") + ";" +
          text("tensor_name") + ";0:0")
      .str();
}

std::string rendezvousKeyPrefixInFrame(Operation *sendOrRecv,
                                       StringRef framePath) {
  std::string key = rendezvousKey(sendOrRecv);
  key.resize(key.size() - 3); // "0:0"
  llvm::raw_string_ostream(key)
      << llvm::format_hex_no_prefix(uint64_t(deviceIncarnation(framePath)), 16)
      << ":";
  return key;
}

namespace {

class Partitioner {
public:
  Partitioner(tfg::GraphOp graph, NameUniquer &names)
      : graph(graph), names(names), builder(graph.getContext()) {}

  LogicalResult run(unsigned &edges);

private:
  /// When `value` is a constant's (a Const without control inputs), its
  /// copy on `device`, made on first use: a constant is copied, not sent,
  /// so that its consumers still see it as a constant (an axis, a shape)
  /// and nothing crosses for it. Null for any other value.
  Operation *constantCopyFor(Value value, StringRef device);
  /// The _Recv on `device` of `value` (a tensor, or a control token sent as
  /// a dummy tensor), made with its _Send on first use.
  Operation *recvFor(Value value, StringRef device);
  NamedAttribute attr(StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  NamedAttribute named(const Twine &base) {
    return attr(tfg::kNameAttr, builder.getStringAttr(names.get(base.str())));
  }
  NamedAttribute assigned(StringRef device) {
    return attr(tfg::kAssignedDeviceAttr, builder.getStringAttr(device));
  }

  /// A loop whose nodes are on several devices (see the file comment).
  struct SpanningLoop {
    /// Each device's Merge in the loop: a variable's, or its control
    /// loop's.
    llvm::DenseMap<StringRef, Operation *> anchors;
    /// Each device's LoopCond: the home's own, elsewhere the predicate's.
    llvm::DenseMap<StringRef, Operation *> loopConds;
    /// What the home's LoopCond needs in the loop: the condition's nodes
    /// and the variables' Merges.
    llvm::DenseSet<Operation *> condition;
  };
  /// Before cutting: each spanning loop's LoopConds, control loops and
  /// Enters on its other devices.
  LogicalResult prepareLoops(Block &body);
  /// A variable of no data on `device`, driven by `loopCond`: its Merge.
  Operation *makeControlLoop(const Frame *frame, StringRef device,
                             Operation *loopCond);
  /// After cutting: puts each _Recv of a loop's value in the loop, and
  /// the condition's _Sends before each device's LoopCond.
  void finishLoops(ArrayRef<Operation *> order);
  /// The spanning loop a value made by `producer` is in, if any.
  SpanningLoop *loopOfValue(Operation *producer);

  std::unique_ptr<FrameInfo> frames;
  llvm::MapVector<const Frame *, SpanningLoop> loops;
  /// The loop plumbing that may cross devices: spanning loops'.
  llvm::DenseSet<Operation *> loopPlumbing;
  /// The nodes prepareLoops made, after the node they go after in the
  /// global order.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> addedAfter;

  tfg::GraphOp graph;
  NameUniquer &names;
  OpBuilder builder;
  llvm::DenseMap<std::pair<Value, StringRef>, Operation *> recvs,
      constantCopies;
  /// Nodes added after a node: its sends and their receives.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> after;
  unsigned nextEdge = 0;
};

Operation *Partitioner::constantCopyFor(Value value, StringRef device) {
  Operation *producer = value.getDefiningOp();
  if (tfg::isControl(value) || opKindOf(producer) != OpKind::Const ||
      !tfg::getControlOperands(producer).empty())
    return nullptr;
  auto key = std::make_pair(value, device);
  if (Operation *known = constantCopies.lookup(key))
    return known;
  builder.setInsertionPointAfter(producer);
  Operation *copy = builder.clone(*producer);
  copy->setAttr(tfg::kNameAttr,
                builder.getStringAttr(names.get(
                    (tfg::getNodeName(producer) + "/_copy").str())));
  copy->setAttr(tfg::kAssignedDeviceAttr, builder.getStringAttr(device));
  after[producer].push_back(copy);
  constantCopies[key] = copy;
  return copy;
}

Operation *Partitioner::recvFor(Value value, StringRef device) {
  auto key = std::make_pair(value, device);
  if (Operation *known = recvs.lookup(key))
    return known;
  Operation *producer = value.getDefiningOp();
  StringRef from = tfg::getAssignedDevice(producer);
  StringRef producerName = tfg::getNodeName(producer);
  Location loc = producer->getLoc();
  builder.setInsertionPointAfter(producer);
  // A control token goes as an empty float tensor computed after it.
  Value tensor = value;
  if (tfg::isControl(value)) {
    auto type = RankedTensorType::get({0}, builder.getF32Type());
    Operation *dummy = tfg::createNode(
        builder, loc, "Const", type, {}, {value},
        {named(producerName + "/_dummy"), assigned(from),
         attr("dtype", TypeAttr::get(builder.getF32Type())),
         attr("value", DenseElementsAttr::get(type, ArrayRef<float>{}))});
    after[producer].push_back(dummy);
    tensor = dummy->getResult(0);
  }
  Type element = cast<TensorType>(tensor.getType()).getElementType();
  SmallVector<NamedAttribute> keyParts = {
      attr("tensor_name", builder.getStringAttr("edge_" + Twine(nextEdge++) +
                                                "_" + producerName)),
      attr("send_device", builder.getStringAttr(from)),
      attr("send_device_incarnation",
           builder.getI64IntegerAttr(deviceIncarnation(from))),
      attr("recv_device", builder.getStringAttr(device)),
      attr("client_terminated", builder.getBoolAttr(false))};
  SmallVector<NamedAttribute> sendAttrs = keyParts;
  sendAttrs.append({named(producerName + "/_send"), assigned(from),
                    attr("T", TypeAttr::get(element))});
  Operation *send = tfg::createNode(builder, loc, "_Send", {}, {tensor}, {},
                                    sendAttrs);
  after[producer].push_back(send);
  SmallVector<NamedAttribute> recvAttrs = keyParts;
  recvAttrs.append({named(producerName + "/_recv"), assigned(device),
                    attr("tensor_type", TypeAttr::get(element))});
  Operation *recv = tfg::createNode(builder, loc, "_Recv", tensor.getType(),
                                    {}, {}, recvAttrs);
  // As early as the tensor exists (TensorFlow's executor starts a _Recv at
  // once); tfc-schedule-recvs delays it to when it is needed.
  after[producer].push_back(recv);
  recvs[key] = recv;
  return recv;
}

LogicalResult Partitioner::run(unsigned &edges) {
  Block &body = graph.getBody();
  SmallVector<Operation *> order;
  for (Operation *node : topologicalOrder(body))
    if (tfg::isNode(node))
      order.push_back(node);
  llvm::MapVector<StringRef, SmallVector<Operation *>> byDevice;
  for (Operation *node : order) {
    StringRef device = tfg::getAssignedDevice(node);
    if (device.empty())
      return node->emitError() << "node '" << tfg::getNodeName(node)
                               << "' has no assigned device; run tfc-place first";
    byDevice[device];
  }
  // One device: nothing crosses.
  if (byDevice.size() > 1) {
    if (failed(prepareLoops(body)))
      return failure();
    // One global order in which each loop runs whole, as its structured
    // loop will (Frames.h): the order every device's part of a loop keeps
    // with the rest of the step.
    if (!loops.empty()) {
      order.clear();
      for (Operation *node : frames->flatten()) {
        order.push_back(node);
        llvm::append_range(order, addedAfter.lookup(node));
      }
    }
    // Dead tensors do not cross: a conditional stays on one device, and so
    // does a loop but for the plumbing of spanning loops.
    auto crosses = [&](Operation *node) {
      return !isTf1ControlFlow(node) || loopPlumbing.contains(node);
    };
    for (Operation *node : order) {
      StringRef device = tfg::getAssignedDevice(node);
      for (OpOperand &operand : node->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        if (!producer || tfg::getAssignedDevice(producer) == device)
          continue;
        if (!crosses(node) || !crosses(producer))
          return node->emitError()
                 << "node '" << tfg::getNodeName(node) << "' on " << device
                 << " takes an input from '" << tfg::getNodeName(producer)
                 << "' on " << tfg::getAssignedDevice(producer)
                 << ": a TF1 conditional across devices is not supported "
                    "yet; place the cond on one device";
        if (Operation *copy = constantCopyFor(operand.get(), device)) {
          operand.set(copy->getResult(0));
          continue;
        }
        Operation *recv = recvFor(operand.get(), device);
        operand.set(tfg::isControl(operand.get()) ? tfg::getControlToken(recv)
                                                  : recv->getResult(0));
      }
    }
  }
  edges = recvs.size();
  finishLoops(order);

  // The global order: each node's sends and their receives right after it.
  for (Operation *node : order) {
    byDevice[tfg::getAssignedDevice(node)].push_back(node);
    for (Operation *added : after.lookup(node))
      byDevice[tfg::getAssignedDevice(added)].push_back(added);
  }
  auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
  builder.setInsertionPointAfter(graph);
  for (auto [index, device] : llvm::enumerate(byDevice)) {
    tfg::GraphOp partition = graph;
    if (index > 0) {
      partition = builder.create<tfg::GraphOp>(graph.getLoc(), graph.getVersion());
      for (NamedAttribute a : graph->getAttrs())
        if (a.getName() != "version")
          partition->setAttr(a.getName(), a.getValue());
      partition.getNodes().emplaceBlock();
      builder.setInsertionPointAfter(partition);
    }
    partition->setAttr(kEntryAttr, entry);
    partition->setAttr(kPartitionDeviceAttr, builder.getStringAttr(device.first));
    Block &target = partition.getBody();
    for (Operation *node : device.second)
      node->moveBefore(&target, target.end());
  }
  return success();
}

LogicalResult Partitioner::prepareLoops(Block &body) {
  FailureOr<std::unique_ptr<FrameInfo>> analyzed = FrameInfo::analyze(body);
  if (failed(analyzed))
    return failure();
  frames = std::move(*analyzed);
  for (const std::unique_ptr<Frame> &owned : frames->getFrames()) {
    const Frame *frame = owned.get();
    llvm::SetVector<StringRef> devices;
    for (Operation *node : frame->allNodes)
      devices.insert(tfg::getAssignedDevice(node));
    if (devices.size() < 2)
      continue;
    if (frame->parent)
      return frame->loopCond->emitError()
             << "frame '" << frame->name << "': a loop inside another loop "
             << "has nodes on several devices ("
             << llvm::join(devices.getArrayRef(), ", ")
             << "), which is not supported yet; place the inner loop on one "
                "device";
    SpanningLoop &loop = loops[frame];
    loopPlumbing.insert(frame->loopCond);
    loopPlumbing.insert(frame->enters.begin(), frame->enters.end());
    for (const LoopVariable &v : frame->variables) {
      for (Operation *node : {v.merge, v.switchNode, v.nextIteration})
        loopPlumbing.insert(node);
      loopPlumbing.insert(v.exits.begin(), v.exits.end());
      loop.condition.insert(v.merge);
      loop.anchors.try_emplace(tfg::getAssignedDevice(v.merge), v.merge);
    }
    for (FrameItem item : frame->condition)
      if (auto *node = dyn_cast<Operation *>(item))
        loop.condition.insert(node);

    Value predicate = tfg::getDataResults(frame->loopCond)[0];
    StringRef home = tfg::getAssignedDevice(frame->loopCond);
    builder.setInsertionPointAfter(frame->loopCond);
    for (StringRef device : devices) {
      Operation *loopCond = frame->loopCond;
      if (device != home) {
        loopCond = tfg::createNode(
            builder, frame->loopCond->getLoc(), "LoopCond",
            predicate.getType(), {predicate}, {},
            {named(tfg::getNodeName(frame->loopCond) + "/_predicate"),
             assigned(device)});
        loopPlumbing.insert(loopCond);
        addedAfter[frame->loopCond].push_back(loopCond);
      }
      loop.loopConds[device] = loopCond;
      if (!loop.anchors.count(device))
        loop.anchors[device] = makeControlLoop(frame, device, loopCond);
    }
    for (const LoopVariable &v : frame->variables)
      v.switchNode->setOperand(
          1, tfg::getDataResults(
                 loop.loopConds[tfg::getAssignedDevice(v.switchNode)])[0]);

    for (Operation *enter : frame->enters) {
      auto constant = enter->getAttrOfType<BoolAttr>("is_constant");
      if (!constant || !constant.getValue())
        continue;
      StringRef from = tfg::getAssignedDevice(enter);
      llvm::MapVector<StringRef, SmallVector<OpOperand *>> usesByDevice;
      for (Value result : enter->getResults())
        for (OpOperand &use : result.getUses())
          if (tfg::isNode(use.getOwner()) &&
              tfg::getAssignedDevice(use.getOwner()) != from)
            usesByDevice[tfg::getAssignedDevice(use.getOwner())].push_back(&use);
      for (auto &[device, uses] : usesByDevice) {
        builder.setInsertionPointAfter(enter);
        Operation *copy = builder.clone(*enter);
        copy->setAttr(tfg::kNameAttr,
                      builder.getStringAttr(names.get(
                          (tfg::getNodeName(enter) + "/_on_device").str())));
        copy->setAttr(tfg::kAssignedDeviceAttr, builder.getStringAttr(device));
        loopPlumbing.insert(copy);
        addedAfter[enter].push_back(copy);
        for (OpOperand *use : uses)
          use->set(copy->getResult(cast<OpResult>(use->get()).getResultNumber()));
      }
    }

    // A control edge that only says "in this loop" comes from the
    // device's own anchor: what another device's plumbing or a Switch's
    // pivot (the Identity of its taken output) sends.
    auto inLoopOnly = [&](Operation *producer) {
      if (loopPlumbing.contains(producer))
        return true;
      if (plainOpKindOf(producer) != OpKind::Identity)
        return false;
      Operation *source = tfg::getDataOperands(producer)[0].getDefiningOp();
      return source && plainOpKindOf(source) == OpKind::Switch &&
             loopPlumbing.contains(source);
    };
    for (Operation *node : frame->allNodes) {
      if (frames->frameOf(node) != frame)
        continue;
      StringRef device = tfg::getAssignedDevice(node);
      for (OpOperand &operand : node->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        if (!tfg::isControl(operand.get()) || !producer ||
            tfg::getAssignedDevice(producer) == device ||
            frames->frameOf(producer) != frame || !inLoopOnly(producer))
          continue;
        operand.set(tfg::getControlToken(loop.anchors[device]));
      }
    }
  }
  return success();
}

Operation *Partitioner::makeControlLoop(const Frame *frame, StringRef device,
                                        Operation *loopCond) {
  Location loc = loopCond->getLoc();
  auto type = RankedTensorType::get({0}, builder.getF32Type());
  auto index = RankedTensorType::get({}, builder.getI32Type());
  NamedAttribute t = attr("T", TypeAttr::get(builder.getF32Type()));
  std::string base = (tfg::getNodeName(frame->loopCond) + "/_control").str();
  Operation *start = tfg::createNode(
      builder, loc, "Const", type, {}, {},
      {named(base + "/start"), assigned(device),
       attr("dtype", TypeAttr::get(builder.getF32Type())),
       attr("value", DenseElementsAttr::get(type, ArrayRef<float>{}))});
  auto iterations = frame->enters.front()->getAttrOfType<IntegerAttr>(
      "parallel_iterations");
  Operation *enter = tfg::createNode(
      builder, loc, "Enter", type, {start->getResult(0)}, {},
      {named(base + "/enter"), assigned(device), t,
       attr("frame_name", builder.getStringAttr(frame->name)),
       attr("is_constant", builder.getBoolAttr(false)),
       attr("parallel_iterations",
            iterations ? Attribute(iterations) : builder.getI64IntegerAttr(10))});
  Value entered = enter->getResult(0);
  Operation *merge = tfg::createNode(
      builder, loc, "Merge", {type, index}, {entered, entered}, {},
      {named(base + "/merge"), assigned(device), t,
       attr("N", builder.getI64IntegerAttr(2))});
  Operation *switchNode = tfg::createNode(
      builder, loc, "Switch", {type, type},
      {merge->getResult(0), tfg::getDataResults(loopCond)[0]}, {},
      {named(base + "/switch"), assigned(device), t});
  Operation *pivot = tfg::createNode(
      builder, loc, "Identity", type, {switchNode->getResult(1)}, {},
      {named(base + "/pivot"), assigned(device), t});
  Operation *next = tfg::createNode(
      builder, loc, "NextIteration", type, {pivot->getResult(0)}, {},
      {named(base + "/next_iteration"), assigned(device), t});
  merge->setOperand(1, next->getResult(0));
  for (Operation *node : {enter, merge, switchNode, next})
    loopPlumbing.insert(node);
  llvm::append_range(addedAfter[frame->loopCond],
                     ArrayRef<Operation *>{start, enter, merge, switchNode,
                                           pivot, next});
  return merge;
}

Partitioner::SpanningLoop *Partitioner::loopOfValue(Operation *producer) {
  const Frame *frame = frames ? frames->frameOf(producer) : nullptr;
  if (frame && plainOpKindOf(producer) == OpKind::Exit)
    frame = frame->parent;
  auto it = frame ? loops.find(frame) : loops.end();
  return it == loops.end() ? nullptr : &it->second;
}

void Partitioner::finishLoops(ArrayRef<Operation *> order) {
  if (loops.empty())
    return;
  for (auto &[key, recv] : recvs)
    if (SpanningLoop *loop = loopOfValue(key.first.getDefiningOp()))
      recv->insertOperands(recv->getNumOperands(),
                           tfg::getControlToken(loop->anchors[key.second]));
  for (Operation *producer : order) {
    SpanningLoop *loop = loopOfValue(producer);
    if (!loop || !loop->condition.contains(producer))
      continue;
    for (Operation *node : after.lookup(producer)) {
      if (opKindOf(node) != OpKind::InternalSend)
        continue;
      Operation *loopCond = loop->loopConds[tfg::getAssignedDevice(node)];
      loopCond->insertOperands(loopCond->getNumOperands(),
                               tfg::getControlToken(node));
    }
  }
}

struct PartitionPass : public impl::PartitionPassBase<PartitionPass> {
  PassCounter numPartitions{this, "partitions", "device partitions made"};
  PassCounter numTransfers{this, "transfers", "_Send/_Recv pairs inserted"};

  void runOnOperation() override {
    numPartitions = 0;
    numTransfers = 0;
    ModuleOp module = getOperation();
    for (auto graph : llvm::to_vector(module.getOps<tfg::GraphOp>())) {
      if (!graph->hasAttr(kEntryAttr) || graph->hasAttr(kPartitionDeviceAttr))
        continue;
      NameUniquer names(graph.getBody());
      unsigned edges = 0;
      if (failed(Partitioner(graph, names).run(edges)))
        return signalPassFailure();
      numTransfers += edges;
    }
    for (auto graph : module.getOps<tfg::GraphOp>())
      if (graph->hasAttr(kPartitionDeviceAttr))
        ++numPartitions;
  }
};

} // namespace
} // namespace tfc
