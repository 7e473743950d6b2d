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
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/DeviceName.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Partition.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
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
  auto assigned = [&](StringRef d) {
    return attr(tfg::kAssignedDeviceAttr, builder.getStringAttr(d));
  };
  auto named = [&](const Twine &base) {
    return attr(tfg::kNameAttr, builder.getStringAttr(names.get(base.str())));
  };
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
    for (Operation *node : order) {
      StringRef device = tfg::getAssignedDevice(node);
      for (OpOperand &operand : node->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        if (!producer || tfg::getAssignedDevice(producer) == device)
          continue;
        if (isTf1ControlFlow(node) || isTf1ControlFlow(producer))
          return node->emitError()
                 << "node '" << tfg::getNodeName(node) << "' on " << device
                 << " takes an input from '" << tfg::getNodeName(producer)
                 << "' on " << tfg::getAssignedDevice(producer)
                 << ": TF1 control flow across devices is not supported yet; "
                    "place the loop or cond on one device";
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
