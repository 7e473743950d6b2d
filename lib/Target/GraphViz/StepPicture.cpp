//===- StepPicture.cpp - what a picture of the step shows -----------------===//

#include "StepPicture.h"

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Partition.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {

PictureItem *PictureItem::add(Kind kind, std::string label, Operation *op) {
  children.push_back(std::make_unique<PictureItem>());
  PictureItem *child = children.back().get();
  child->kind = kind;
  child->label = std::move(label);
  child->op = op;
  child->device = device;
  child->parent = this;
  if (kind == Kind::Scope)
    scopes[child->label] = child;
  return child;
}

std::string PictureItem::path() const {
  if (op)
    return tfg::getNodeName(op).str();
  if (kind != Kind::Scope)
    return label;
  std::string above = parent->path();
  return parent->kind == Kind::Scope ? above + "/" + label : label;
}

unsigned PictureItem::countNodes() const {
  unsigned count = kind == Kind::Node;
  for (const auto &child : children)
    count += child->countNodes();
  return count;
}

std::string nodeTooltip(Operation *node) {
  std::string text =
      (tfg::getNodeName(node) + " (" + tfg::getOpType(node) + ")").str();
  if (StringRef device = tfg::getAssignedDevice(node); !device.empty())
    text += "\non " + device.str();
  for (Value result : tfg::getDataResults(node))
    text += "\n" + tfg::tensorTypeName(result.getType());
  return text;
}

namespace {

/// The last part of a node's name.
std::string lastNamePart(Operation *node) {
  StringRef name = tfg::getNodeName(node);
  auto [scope, last] = name.rsplit('/');
  return (last.empty() ? name : last).str();
}

class PictureBuilder {
public:
  explicit PictureBuilder(StepPicture &picture) : picture(picture) {}

  void graph(tfg::GraphOp graph) {
    auto partition = graph->getAttrOfType<StringAttr>(kPartitionDeviceAttr);
    for (Operation &op : graph.getBody().getOperations()) {
      if (!isNodeOrGroup(&op))
        continue;
      auto group = dyn_cast<FusionGroupOp>(&op);
      Operation *node = group ? group.getRoot() : &op;
      StringRef device = partition ? partition.getValue()
                                   : tfg::getAssignedDevice(node);
      PictureItem *scope = scopeOf(deviceBox(device), tfg::getNodeName(node));
      if (!group) {
        addNode(scope, &op);
        continue;
      }
      PictureItem *box = scope->add(PictureItem::Kind::Fused,
                                    lastNamePart(node), group);
      for (Operation *member : nodesComputedBy(group))
        addNode(box, member);
    }
  }

  /// The edges, once every graph's nodes are items.
  void edges() {
    for (auto &[op, item] : items) {
      auto group = dyn_cast<FusionGroupOp>(op->getParentOp());
      for (Value operand : op->getOperands())
        edge(operand, item);
      // A group's members' control inputs are the group's, after its data
      // inputs: drawn to its root.
      if (group && op == group.getRoot())
        for (Value operand : group->getOperands().drop_front(
                 group.getMembers().getNumArguments()))
          edge(operand, item);
    }
    llvm::StringMap<PictureItem *> sends;
    std::vector<PictureItem *> recvs;
    for (auto &[op, item] : items) {
      if (opKindOf(op) == OpKind::InternalSend)
        sends[rendezvousKey(op)] = item;
      else if (opKindOf(op) == OpKind::InternalRecv)
        recvs.push_back(item);
    }
    for (PictureItem *recv : recvs)
      if (PictureItem *send = sends.lookup(rendezvousKey(recv->op)))
        picture.edges.push_back({send, recv, PictureEdge::Kind::Transfer});
  }

private:
  PictureItem *deviceBox(StringRef device) {
    std::string label = device.empty() ? "graph" : device.str();
    auto it = devices.find(label);
    if (it != devices.end())
      return it->second;
    PictureItem *box = picture.root.add(PictureItem::Kind::Device, label, nullptr);
    box->device = picture.devices++;
    return devices[label] = box;
  }

  /// The scope box of a node called `name` (created as needed).
  PictureItem *scopeOf(PictureItem *box, StringRef name) {
    SmallVector<StringRef> parts;
    name.split(parts, '/');
    for (StringRef part : ArrayRef<StringRef>(parts).drop_back()) {
      auto it = box->scopes.find(part.str());
      box = it != box->scopes.end()
                ? it->second
                : box->add(PictureItem::Kind::Scope, part.str(), nullptr);
    }
    return box;
  }

  void addNode(PictureItem *box, Operation *node) {
    PictureItem *item = box->add(PictureItem::Kind::Node, lastNamePart(node), node);
    items.push_back({node, item});
    itemOf[node] = item;
  }

  /// The item whose value `value` is: a group's input is the value outside
  /// it, a group's result its root's.
  PictureItem *producerOf(Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      auto group = dyn_cast<FusionGroupOp>(argument.getOwner()->getParentOp());
      return group ? producerOf(group->getOperand(argument.getArgNumber()))
                   : nullptr;
    }
    Operation *producer = value.getDefiningOp();
    if (auto group = dyn_cast_or_null<FusionGroupOp>(producer)) {
      Operation *yield = group.getMembers().getTerminator();
      unsigned number = cast<OpResult>(value).getResultNumber();
      return number < yield->getNumOperands()
                 ? producerOf(yield->getOperand(number))
                 : itemOf.lookup(group.getRoot());
    }
    return itemOf.lookup(producer);
  }

  void edge(Value operand, PictureItem *consumer) {
    if (PictureItem *producer = producerOf(operand))
      picture.edges.push_back({producer, consumer,
                               tfg::isControl(operand.getType())
                                   ? PictureEdge::Kind::Control
                                   : PictureEdge::Kind::Data});
  }

  StepPicture &picture;
  std::map<std::string, PictureItem *> devices;
  std::vector<std::pair<Operation *, PictureItem *>> items;
  llvm::DenseMap<Operation *, PictureItem *> itemOf;
};

} // namespace

StepPicture pictureStep(ModuleOp module) {
  StepPicture picture;
  PictureBuilder builder(picture);
  for (auto graph : module.getOps<tfg::GraphOp>()) {
    auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
    if (entry && entry.getValue() != "step")
      continue;
    builder.graph(graph);
  }
  builder.edges();
  return picture;
}

} // namespace tfc
