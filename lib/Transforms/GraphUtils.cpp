//===- GraphUtils.cpp - helpers shared by the graph passes ----------------===//

#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "graph.pb.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <queue>

using namespace mlir;

namespace tfc {

std::optional<TensorName> parseTensorName(StringRef text) {
  auto [node, port] = text.rsplit(':');
  TensorName name;
  name.node = node.str();
  if (node.size() == text.size())
    return name.node.empty() ? std::nullopt : std::optional(name);
  if (node.empty() || port.empty() || !llvm::all_of(port, llvm::isDigit) ||
      port.getAsInteger(10, name.port))
    return std::nullopt;
  return name;
}

std::optional<SegmentForm> segmentFormOf(OpKind kind) {
  enum { Sum, Mean, Max, Min, Prod, SqrtN };
  // sparse, counted, sorted, gradient, reduction
  switch (kind) {
  case OpKind::UnsortedSegmentSum:
    return SegmentForm{false, true, false, false, Sum};
  case OpKind::UnsortedSegmentMax:
    return SegmentForm{false, true, false, false, Max};
  case OpKind::UnsortedSegmentMin:
    return SegmentForm{false, true, false, false, Min};
  case OpKind::UnsortedSegmentProd:
    return SegmentForm{false, true, false, false, Prod};
  case OpKind::SegmentSum:
    return SegmentForm{false, false, true, false, Sum};
  case OpKind::SegmentMean:
    return SegmentForm{false, false, true, false, Mean};
  case OpKind::SegmentMax:
    return SegmentForm{false, false, true, false, Max};
  case OpKind::SegmentMin:
    return SegmentForm{false, false, true, false, Min};
  case OpKind::SegmentProd:
    return SegmentForm{false, false, true, false, Prod};
  case OpKind::SparseSegmentSum:
    return SegmentForm{true, false, true, false, Sum};
  case OpKind::SparseSegmentMean:
    return SegmentForm{true, false, true, false, Mean};
  case OpKind::SparseSegmentSqrtN:
    return SegmentForm{true, false, true, false, SqrtN};
  case OpKind::SparseSegmentSumWithNumSegments:
    return SegmentForm{true, true, true, false, Sum};
  case OpKind::SparseSegmentMeanWithNumSegments:
    return SegmentForm{true, true, true, false, Mean};
  case OpKind::SparseSegmentSqrtNWithNumSegments:
    return SegmentForm{true, true, true, false, SqrtN};
  case OpKind::SparseSegmentSumGrad:
    return SegmentForm{true, true, false, true, Sum};
  case OpKind::SparseSegmentMeanGrad:
    return SegmentForm{true, true, false, true, Mean};
  case OpKind::SparseSegmentSqrtNGrad:
    return SegmentForm{true, true, false, true, SqrtN};
  default:
    return std::nullopt;
  }
}

std::optional<DiagonalForm> diagonalFormOf(OpKind kind) {
  using D = DiagonalForm;
  switch (kind) {
  case OpKind::Diag:
    return D{D::Make, -1, -1, false, true};
  case OpKind::DiagPart:
    return D{D::Part, -1, -1, false, true};
  case OpKind::MatrixDiag:
    return D{D::Make, -1, -1, false, false};
  case OpKind::MatrixDiagV2:
  case OpKind::MatrixDiagV3:
    return D{D::Make, 1, 4, kind == OpKind::MatrixDiagV3, false};
  case OpKind::MatrixDiagPart:
    return D{D::Part, -1, -1, false, false};
  case OpKind::MatrixDiagPartV2:
  case OpKind::MatrixDiagPartV3:
    return D{D::Part, 1, 2, kind == OpKind::MatrixDiagPartV3, false};
  case OpKind::MatrixSetDiag:
    return D{D::Set, -1, -1, false, false};
  case OpKind::MatrixSetDiagV2:
  case OpKind::MatrixSetDiagV3:
    return D{D::Set, 2, -1, kind == OpKind::MatrixSetDiagV3, false};
  default:
    return std::nullopt;
  }
}

std::optional<std::pair<int64_t, int64_t>> diagonalBand(Operation *node) {
  std::optional<DiagonalForm> form = diagonalFormOf(opKindOf(node));
  if (!form)
    return std::nullopt;
  if (form->kOperand < 0)
    return std::make_pair(int64_t(0), int64_t(0));
  std::optional<SmallVector<int64_t>> k =
      constantInts(tfg::getDataOperands(node)[form->kOperand]);
  if (!k || k->empty() || k->size() > 2 || k->front() > k->back())
    return std::nullopt;
  return std::make_pair(k->front(), k->back());
}

bool needsShape(Value value) {
  Type element = cast<TensorType>(value.getType()).getElementType();
  return !isa<tfg::ResourceType, tfg::VariantType, tfg::OpaqueType>(element);
}

Value skipIdentities(Value value) {
  while (Operation *producer = value.getDefiningOp()) {
    if (!tfg::isNode(producer) || opKindOf(producer) != OpKind::Identity)
      break;
    value = tfg::getDataOperands(producer)[0];
  }
  return value;
}

Operation *soleReader(Value value) {
  if (!value.hasOneUse())
    return nullptr;
  Operation *user = *value.getUsers().begin();
  return tfg::isNode(user) ? user : nullptr;
}

bool onlyIdleIdentitiesRead(Value value) {
  for (Operation *user : value.getUsers())
    if (opKindOf(user) != OpKind::Identity ||
        !onlyIdleIdentitiesRead(tfg::getDataResults(user)[0]))
      return false;
  return true;
}

bool sameDevice(Operation *a, Operation *b) {
  return tfg::getRequestedDevice(a) == tfg::getRequestedDevice(b) &&
         tfg::getAssignedDevice(a) == tfg::getAssignedDevice(b);
}

Operation *soleProducer(Value value, OpKind kind, Operation *reader) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !tfg::isNode(producer) || opKindOf(producer) != kind ||
      !value.hasOneUse() || !tfg::getControlOperands(producer).empty() ||
      !tfg::getControlToken(producer).use_empty() ||
      !sameDevice(producer, reader))
    return nullptr;
  return producer;
}

std::optional<double> scalarFloatConstant(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      opKindOf(producer) != OpKind::Const)
    return std::nullopt;
  auto dense = producer->getAttrOfType<DenseFPElementsAttr>("value");
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  return (*dense.getValues<APFloat>().begin()).convertToDouble();
}

bool isStateful(Operation *node) {
  const proto::OpDef *opDef = OpRegistry::get().lookup(tfg::getOpType(node));
  return !opDef || opDef->is_stateful();
}

llvm::StringSet<> getRootNames(ModuleOp module) {
  llvm::StringSet<> roots;
  for (StringRef attr : {StringRef(kTargetsAttr), StringRef(kInitAttr),
                         StringRef(kLocalInitAttr), StringRef(kChiefInitAttr)})
    if (auto names = module->getAttrOfType<ArrayAttr>(attr))
      for (Attribute name : names)
        if (auto str = dyn_cast<StringAttr>(name))
          roots.insert(str.getValue());
  for (StringRef node : queueRunnerNodes(module))
    roots.insert(node);
  return roots;
}

SmallVector<QueueRunnerSpec> queueRunnersOf(ModuleOp module) {
  SmallVector<QueueRunnerSpec> result;
  for (bool chief : {false, true})
    if (auto runners = module->getAttrOfType<ArrayAttr>(
            chief ? kChiefQueueRunnersAttr : kQueueRunnersAttr))
      for (Attribute runner : runners) {
        QueueRunnerSpec spec;
        spec.flag = cast<StringAttr>(runner).getValue();
        spec.flag.split(spec.nodes, ',');
        spec.chief = chief;
        result.push_back(std::move(spec));
      }
  return result;
}

SmallVector<StringRef> queueRunnerNodes(ModuleOp module) {
  SmallVector<StringRef> nodes;
  for (const QueueRunnerSpec &runner : queueRunnersOf(module))
    for (StringRef name : runner.nodes)
      if (!llvm::is_contained(nodes, name))
        nodes.push_back(name);
  return nodes;
}

bool isRoot(Operation *node, const llvm::StringSet<> &roots) {
  OpKind kind = opKindOf(node);
  return kind == OpKind::InternalRetval || kind == OpKind::InternalSend ||
         kind == OpKind::InternalHostSend ||
         roots.contains(tfg::getNodeName(node));
}

bool canEraseUnusedNodes(Block &body) {
  auto graph = dyn_cast<tfg::GraphOp>(body.getParentOp());
  return !graph || graph->hasAttr(kEntryAttr);
}

bool isDead(Operation *node, const llvm::StringSet<> &roots) {
  return tfg::isNode(node) && node->use_empty() && !isStateful(node) &&
         !isRoot(node, roots);
}

SmallVector<Block *> getBodies(ModuleOp module) {
  SmallVector<Block *> bodies;
  for (Operation &op : *module.getBody()) {
    if (auto graph = dyn_cast<tfg::GraphOp>(op))
      bodies.push_back(&graph.getBody());
    else if (auto func = dyn_cast<tfg::FuncOp>(op))
      bodies.push_back(&func.getBody().front());
  }
  return bodies;
}

NameUniquer::NameUniquer(Block &body) {
  for (Operation &op : body)
    if (tfg::isNode(&op))
      used.insert(tfg::getNodeName(&op));
}

std::string NameUniquer::get(StringRef base) {
  std::string name = base.str();
  for (int i = 1; !used.insert(name).second; ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

int64_t fourierAxes(Operation *node) {
  StringRef type = tfg::getOpType(node);
  if (type.ends_with("2D"))
    return 2;
  if (type.ends_with("3D"))
    return 3;
  return 1;
}

int64_t elementBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  // A string tensor holds a handle per element (tfc_runtime.h).
  if (isa<tfg::StringType>(type))
    return 8;
  // A complex number is its two parts, real first.
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  if (!type.isIntOrFloat())
    return -1;
  return type.isInteger(1) ? 1 : (type.getIntOrFloatBitWidth() + 7) / 8;
}

int64_t tensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return -1;
  int64_t bytes = elementBytes(tensor.getElementType());
  return bytes < 0 ? -1 : tensor.getNumElements() * bytes;
}

Operation *createNodeLike(OpBuilder &builder, Operation *like, StringRef opType,
                          StringRef name, TypeRange types, ValueRange data,
                          ValueRange control, ArrayRef<NamedAttribute> attrs) {
  SmallVector<NamedAttribute> all(attrs);
  all.push_back(builder.getNamedAttr(tfg::kNameAttr, builder.getStringAttr(name)));
  if (StringRef device = tfg::getRequestedDevice(like); !device.empty())
    all.push_back(builder.getNamedAttr(tfg::kDeviceAttr,
                                       builder.getStringAttr(device)));
  return tfg::createNode(builder, like->getLoc(), opType, types, data, control,
                         all);
}

Operation *createConstLike(OpBuilder &builder, Operation *like, StringRef name,
                           ElementsAttr value, ValueRange control) {
  return createNodeLike(
      builder, like, "Const", name, value.getType(), {}, control,
      {builder.getNamedAttr("dtype", TypeAttr::get(value.getElementType())),
       builder.getNamedAttr("value", value)});
}

bool isTf1ControlFlow(Operation *node) {
  return llvm::is_contained({OpKind::Switch, OpKind::Merge, OpKind::Enter,
                             OpKind::Exit, OpKind::NextIteration,
                             OpKind::LoopCond},
                            plainOpKindOf(node));
}

bool isVariant(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<tfg::VariantType>(tensor.getElementType());
}

bool carriesVariant(OpKind kind) {
  return llvm::is_contained({OpKind::Enter, OpKind::Merge, OpKind::Switch,
                             OpKind::Identity, OpKind::NextIteration,
                             OpKind::Exit},
                            kind);
}

bool mapsVariant(OpKind kind) {
  return kind == OpKind::ZerosLike || kind == OpKind::AddN;
}

void retypeVariantCarriers(ArrayRef<Value> dense) {
  llvm::SetVector<Value> worklist(dense.begin(), dense.end());
  for (size_t k = 0; k < worklist.size(); ++k) {
    Value value = worklist[k];
    auto tensor = cast<TensorType>(value.getType());
    for (Operation *user : value.getUsers()) {
      if (!tfg::isNode(user))
        continue;
      OpKind kind = opKindOf(user);
      if (!carriesVariant(kind) && !mapsVariant(kind))
        continue;
      for (Value result : tfg::getDataResults(user)) {
        if (!isVariant(result.getType()))
          continue;
        result.setType(UnrankedTensorType::get(tensor.getElementType()));
        worklist.insert(result);
      }
      user->setAttr("T", TypeAttr::get(tensor.getElementType()));
    }
  }
}

bool growsList(Operation *node) {
  if (opKindOf(node) != OpKind::TensorListSetItem)
    return false;
  auto resize = node->getAttrOfType<BoolAttr>("resize_if_index_out_of_bounds");
  return resize && resize.getValue();
}

Operation *reserveOf(Value list) {
  while (Operation *producer = list.getDefiningOp()) {
    if (!tfg::isNode(producer))
      return nullptr;
    if (opKindOf(producer) == OpKind::TensorListReserve)
      return producer;
    OperandRange in = tfg::getDataOperands(producer);
    if (in.empty() || !isVariant(in[0].getType()))
      return nullptr;
    list = in[0];
  }
  return nullptr;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

bool boolAttr(Operation *node, StringRef name, bool otherwise) {
  auto attr = node->getAttrOfType<BoolAttr>(name);
  return attr ? attr.getValue() : otherwise;
}

int64_t intAttr(Operation *node, StringRef name, int64_t otherwise) {
  auto attr = node->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

SmallVector<int64_t> intListAttr(Operation *node, StringRef name) {
  SmallVector<int64_t> values;
  if (auto list = node->getAttrOfType<ArrayAttr>(name))
    for (Attribute entry : list)
      if (auto value = dyn_cast<IntegerAttr>(entry))
        values.push_back(value.getInt());
  return values;
}

int64_t samePaddingBefore(int64_t in, int64_t out, int64_t window,
                          int64_t stride, int64_t dilation) {
  int64_t total = (out - 1) * stride + (window - 1) * dilation + 1 - in;
  return std::max<int64_t>(total, 0) / 2;
}

double floatAttr(Operation *node, StringRef name, double otherwise) {
  auto attr = node->getAttrOfType<FloatAttr>(name);
  return attr ? attr.getValueAsDouble() : otherwise;
}

std::optional<SmallVector<int64_t>> constantInts(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || !tfg::isNode(producer) ||
      opKindOf(producer) != OpKind::Const)
    return std::nullopt;
  auto dense = producer->getAttrOfType<DenseIntElementsAttr>("value");
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

std::optional<int64_t> concatAxis(Operation *node) {
  if (!tfg::isNode(node) || opKindOf(node) != OpKind::ConcatV2)
    return std::nullopt;
  auto type =
      dyn_cast<RankedTensorType>(tfg::getDataResults(node)[0].getType());
  std::optional<SmallVector<int64_t>> axis =
      constantInts(tfg::getDataOperands(node).back());
  if (!type || !axis || axis->size() != 1)
    return std::nullopt;
  int64_t rank = type.getRank(), value = axis->front();
  if (value < -rank || value >= rank)
    return std::nullopt;
  return value < 0 ? value + rank : value;
}

bool isInPlaceOperand(Operation *node, unsigned index) {
  auto inPlace = node->getAttrOfType<DenseI64ArrayAttr>(kInPlaceOperandsAttr);
  return inPlace && llvm::is_contained(inPlace.asArrayRef(), int64_t(index));
}

int64_t concatOffset(Operation *node, unsigned index, int64_t axis) {
  int64_t offset = 0;
  for (Value piece : tfg::getDataOperands(node).take_front(index))
    offset += cast<RankedTensorType>(piece.getType()).getDimSize(axis);
  return offset;
}

bool isNodeOrGroup(Operation *op) {
  return tfg::isNode(op) || isa<FusionGroupOp>(op);
}

SmallVector<Operation *> nodesComputedBy(Operation *op) {
  auto group = dyn_cast<FusionGroupOp>(op);
  if (!group)
    return {op};
  SmallVector<Operation *> members;
  for (Operation &member : group.getMembers().without_terminator())
    members.push_back(&member);
  return members;
}

SmallVector<Operation *> topologicalOrder(Block &body) {
  auto isBackEdge = [](Operation *producer) {
    return tfg::isNode(producer) &&
           plainOpKindOf(producer) == OpKind::NextIteration;
  };
  // The producer of `operand` whose edge the order respects: one in the
  // block, other than a loop's back edge; null for the rest.
  auto orderedProducer = [&](Value operand) -> Operation * {
    Operation *producer = operand.getDefiningOp();
    return producer && producer->getBlock() == &body && !isBackEdge(producer)
               ? producer
               : nullptr;
  };
  // A block already in an order the edges allow is its own earliest-first
  // order (each next op in it is ready then, and the earliest left): one
  // walk instead of a priority queue, for the passes that ask again after
  // one put the block in order.
  bool inOrder = llvm::all_of(body, [&](Operation &op) {
    return llvm::all_of(op.getOperands(), [&](Value operand) {
      Operation *producer = orderedProducer(operand);
      return !producer || producer->isBeforeInBlock(&op);
    });
  });
  if (inOrder)
    return llvm::to_vector(llvm::map_range(
        body, [](Operation &op) { return &op; }));
  // Otherwise Kahn's algorithm, the ready ops by position, earliest first.
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation &op : body) {
    position[&op] = ops.size();
    ops.push_back(&op);
  }
  SmallVector<unsigned> pending(ops.size(), 0);
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (auto [i, op] : llvm::enumerate(ops)) {
    pending[i] = llvm::count_if(op->getOperands(), orderedProducer);
    if (pending[i] == 0)
      ready.push(i);
  }
  SmallVector<Operation *> order;
  order.reserve(ops.size());
  llvm::BitVector ordered(ops.size());
  while (!ready.empty()) {
    unsigned i = ready.top();
    ready.pop();
    order.push_back(ops[i]);
    ordered.set(i);
    if (isBackEdge(ops[i]))
      continue;
    for (Value result : ops[i]->getResults())
      for (OpOperand &use : result.getUses())
        if (use.getOwner()->getBlock() == &body) {
          unsigned user = position.lookup(use.getOwner());
          if (--pending[user] == 0)
            ready.push(user);
        }
  }
  // What is on a cycle (other than a loop's back edge), or after one,
  // comes last, in block order.
  for (auto [i, op] : llvm::enumerate(ops))
    if (!ordered.test(i))
      order.push_back(op);
  return order;
}

void updateColocations(Block &body,
                       const llvm::StringMap<std::string> &replacements) {
  llvm::StringSet<> names;
  for (Operation &op : body)
    if (tfg::isNode(&op))
      names.insert(tfg::getNodeName(&op));
  Builder builder(body.getParentOp()->getContext());
  for (Operation &op : body) {
    auto classes = op.getAttrOfType<ArrayAttr>("_class");
    if (!classes)
      continue;
    SmallVector<Attribute> kept;
    bool changed = false;
    for (Attribute entry : classes) {
      auto text = dyn_cast<StringAttr>(entry);
      StringRef name;
      if (!text || !text.getValue().starts_with("loc:@")) {
        kept.push_back(entry);
        continue;
      }
      name = text.getValue().drop_front(5);
      if (names.contains(name)) {
        kept.push_back(entry);
        continue;
      }
      changed = true;
      auto it = replacements.find(name);
      if (it != replacements.end() && names.contains(it->second)) {
        Attribute replacement = builder.getStringAttr("loc:@" + it->second);
        if (!llvm::is_contained(kept, replacement))
          kept.push_back(replacement);
      }
    }
    if (!changed)
      continue;
    if (kept.empty())
      op.removeAttr("_class");
    else
      op.setAttr("_class", builder.getArrayAttr(kept));
  }
}

void eraseNodes(ArrayRef<Operation *> nodes) {
  // Nodes may use each other in cycles: drop every reference first.
  for (Operation *node : nodes)
    node->dropAllReferences();
  for (Operation *node : nodes)
    node->erase();
}

} // namespace tfc
