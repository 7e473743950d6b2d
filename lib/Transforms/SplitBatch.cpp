//===- SplitBatch.cpp - a network's front in micro-batches ----------------===//
//
// At a large batch the first stages of a convolutional network make
// tensors far larger than the caches (ResNet-50 at batch 32: 103 MB for
// each block's 56 x 56 x 256 output), so each convolution streams its
// input, its residual and its output through memory while its weights are
// small. Run on a few images at a time, the same stages keep their tensors
// in the caches; past them the tensors are small and the weights large,
// and the whole batch is the better unit. This pass cuts the step there,
// and runs the front in a TF1 while loop over the parts (a frame,
// Frames.h), so that its nodes are compiled once however many parts:
//
//   for p < N / T:
//     x_p = x viewed as [N / T, T, H, W, C], at [p]   (a StridedSlice)
//     the front's nodes, on x_p
//     carried_c[p] = the part's carried tensor c       (TensorScatterUpdate)
//   cut_c = carried_c viewed as [N, ...]               (a Reshape)
//
// Each carried tensor is a loop variable of shape [N / T, T, ...] that
// starts as an Empty and whose rows the parts write in place (the memory
// plan puts the update over the variable); the views are Reshapes, which
// copy nothing. One part's tensors die before the next part's are made,
// in the same buffers.
//
// The front is the nodes from a fed batch (an `_Arg` of shape [N, H, W,
// C]) in topological order, as long as each computes every image from the
// same image alone (convolutions, pooling, elementwise arithmetic with
// weights, which inference batch norms are by now, or with a vector of
// the same image's, as a squeeze-and-excitation block scales each image by
// a function of its mean, concatenations and means along other axes,
// reshapes and slices that keep the batch whole); it ends at a
// cut: a point of the order where the tensors its nodes made that later
// nodes still read (the carried ones) are one or two and together still
// take an eighth of `micro-batch-bytes` or more an image (1 MiB of the
// default 8), the last such point. A chain of layers carries one tensor
// between them; a NASNet cell reads the two cells before it, so two carry
// its stages on (each read on by convolutions), and with one its front
// would end at its stem. T is the
// largest divisor of N below it whose T images of the front's largest
// tensor take `micro-batch-bytes` or fewer. A front cut at one tensor
// goes on from that tensor's whole batch as a front of its own, whose
// parts may take more images (its tensors are smaller).
//
// Each part reads the front's weights again, so the front also stops
// before a node whose weights outweigh what a part makes there (in a
// squeeze-and-excitation block, the image the block scales). (ResNet-50 at
// batch 32, cut after conv3 in 16 parts of two images, on the AMD Zen 5
// machine: a step of 513 ms against 562, DenseNet121's 415 against 508;
// NASNetMobile's cut after its 28 x 28 cells in 8 parts of four images,
// on an Intel Xeon with AVX-512: 203 ms against 225; docs/benchmarks.md.)
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_SPLITBATCHPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// A constant, possibly through Identity nodes: a weight, the same for
/// every image.
bool isConstant(Value value) {
  Operation *producer = skipIdentities(value).getDefiningOp();
  return producer && opKindOf(producer) == OpKind::Const;
}

/// Whether `value` is an [N, ...] tensor of static shape.
bool isBatch(Value value, int64_t batch) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getRank() > 0 &&
         type.getDimSize(0) == batch;
}

/// Whether the constant axis operand `axis` (of a tensor of `rank`) leaves
/// the batch's dimension alone.
bool sparesBatchAxis(Value axis, int64_t rank) {
  std::optional<SmallVector<int64_t>> axes = constantInts(axis);
  return axes &&
         llvm::none_of(*axes, [&](int64_t a) { return a == 0 || a == -rank; });
}

/// Whether the StridedSlice `node` keeps every image of a batch of `batch`:
/// from the first (or a masked begin) to at least the last (or a masked
/// end) by steps of 1 along the first axis, which no ellipsis or new axis
/// moves. A part's slice then keeps each of its images (its end is
/// clamped to the part, as TensorFlow clamps an end past the dimension).
/// NASNet crops its inputs so (Cropping2D), and tfc-fold-subsamples reads
/// a pooling's subsample so.
bool slicesKeepBatch(Operation *node, int64_t batch) {
  OperandRange inputs = tfg::getDataOperands(node);
  std::optional<SmallVector<int64_t>> begin = constantInts(inputs[1]),
                                      end = constantInts(inputs[2]),
                                      strides = constantInts(inputs[3]);
  if (!begin || !end || !strides || begin->empty() || end->empty() ||
      strides->empty() || intAttr(node, "ellipsis_mask", 0) != 0 ||
      intAttr(node, "new_axis_mask", 0) != 0 ||
      (intAttr(node, "shrink_axis_mask", 0) & 1))
    return false;
  bool fromFirst = (intAttr(node, "begin_mask", 0) & 1) || (*begin)[0] == 0;
  bool toLast = (intAttr(node, "end_mask", 0) & 1) || (*end)[0] >= batch;
  return fromFirst && toLast && (*strides)[0] == 1;
}

/// Whether `node`, whose data operands in `rows` are [N, ...] tensors of
/// images, makes each image of each result from the same image of them
/// alone, the other operands being constants that apply to every image.
bool computesImagesApart(Operation *node, const DenseSet<Value> &rows,
                         int64_t batch) {
  if (!tfg::getControlOperands(node).empty() ||
      !tfg::getControlToken(node).use_empty())
    return false;
  OperandRange inputs = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  if (results.empty() ||
      llvm::any_of(results, [&](Value r) { return !isBatch(r, batch); }))
    return false;
  int64_t rank = cast<RankedTensorType>(results[0].getType()).getRank();
  // Every operand is an image tensor or a constant; `weights` the operand
  // indices that may be constants of any shape.
  auto operandsAre = [&](ArrayRef<unsigned> images,
                         ArrayRef<unsigned> weights) {
    for (auto [i, operand] : llvm::enumerate(inputs)) {
      bool image = llvm::is_contained(images, i),
           weight = llvm::is_contained(weights, i);
      if (rows.contains(operand) ? !image : !(weight && isConstant(operand)))
        return false;
    }
    return true;
  };
  switch (opKindOf(node)) {
  case OpKind::Conv2D:
  case OpKind::DepthwiseConv2dNative:
  case OpKind::BiasAdd:
    return operandsAre({0}, {1});
  case OpKind::MaxPool:
  case OpKind::AvgPool:
  case OpKind::Identity:
    return operandsAre({0}, {});
  case OpKind::Pad:
  case OpKind::PadV2:
  case OpKind::MirrorPad: {
    std::optional<SmallVector<int64_t>> pads = constantInts(inputs[1]);
    return pads && pads->size() >= 2 && (*pads)[0] == 0 && (*pads)[1] == 0 &&
           operandsAre({0}, {1, 2});
  }
  case OpKind::StridedSlice:
    return slicesKeepBatch(node, batch) && operandsAre({0}, {1, 2, 3});
  case OpKind::Mean:
    return operandsAre({0}, {1}) &&
           sparesBatchAxis(
               inputs[1],
               cast<RankedTensorType>(inputs[0].getType()).getRank());
  case OpKind::Reshape:
    // Of a batch to a batch of static shape (above): images kept apart.
    // Each part's copy is given its own shape (split).
    return operandsAre({0}, {1});
  case OpKind::ConcatV2: {
    SmallVector<unsigned> pieces;
    for (unsigned i = 0; i + 1 < inputs.size(); ++i)
      pieces.push_back(i);
    return operandsAre(pieces, {unsigned(inputs.size() - 1)}) &&
           sparesBatchAxis(inputs.back(), rank);
  }
  default:
    break;
  }
  const OpInfo *info = lookupOp(node);
  if (!info || info->family != OpFamily::Elementwise || isStateful(node))
    return false;
  // Elementwise: image operands of the result's shape or that broadcast
  // within each image (a squeeze-and-excitation's [N, 1, 1, C] scale of
  // an [N, H, W, C] tensor); constants that broadcast over the batch (of
  // lower rank, or one image).
  auto resultType = cast<RankedTensorType>(results[0].getType());
  for (Value operand : inputs) {
    if (rows.contains(operand)) {
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getElementType() != resultType.getElementType() ||
          type.getRank() != rank)
        return false;
      for (int64_t d = 1; d < rank; ++d)
        if (type.getDimSize(d) != resultType.getDimSize(d) &&
            type.getDimSize(d) != 1)
          return false;
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!isConstant(operand) || !type || !type.hasStaticShape() ||
        (type.getRank() == rank && type.getDimSize(0) != 1))
      return false;
  }
  return true;
}

/// Whether `value` is a batch of pooled vectors: [N, C], [N, 1, 1, C].
bool isPooled(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2)
    return false;
  for (int64_t d = 1; d + 1 < type.getRank(); ++d)
    if (type.getDimSize(d) != 1)
      return false;
  return true;
}

/// The most tensors a cut carries on (each a ConcatV2 of its parts).
constexpr size_t kMaxCarried = 2;

struct Front {
  Operation *feed = nullptr;
  /// The front's nodes, in topological order, up to the cut.
  SmallVector<Operation *> nodes;
  /// The tensors that carry the front on, in the order of their nodes.
  SmallVector<Value> cut;
  /// Images a part.
  int64_t partImages = 0;
};

struct SplitBatchPass : public impl::SplitBatchPassBase<SplitBatchPass> {
  using SplitBatchPassBase::SplitBatchPassBase;
  PassCounter numSplit{this, "split", "fronts split into micro-batches"};
  PassCounter numParts{this, "parts", "micro-batches made"};

  void runOnOperation() override {
    numSplit = 0;
    numParts = 0;
    if (auto budget =
            getOperation()->getAttrOfType<IntegerAttr>(kMicroBatchBytesAttr))
      microBatchBytes = budget.getInt();
    if (microBatchBytes <= 0)
      return;
    for (Block *body : getBodies(getOperation())) {
      SmallVector<Operation *> order = topologicalOrder(*body);
      SmallVector<Front> fronts;
      for (auto [i, node] : llvm::enumerate(order))
        if (tfg::isNode(node) && opKindOf(node) == OpKind::InternalArg)
          if (std::optional<Front> front = findFront(order, i))
            fronts.push_back(*front);
      if (fronts.empty())
        continue;
      NameUniquer names(*body);
      for (Front &front : fronts) {
        // A front cut at one tensor may go on from that tensor's whole
        // batch in parts of more images, where its tensors are smaller: a
        // front's largest tensor sets its parts' images, and the weights
        // past it may outweigh few images but not more.
        for (Operation *next = split(front, names); next;) {
          SmallVector<Operation *> order = topologicalOrder(*body);
          size_t at = llvm::find(order, next) - order.begin();
          std::optional<Front> more = findFront(order, at);
          next = more ? split(*more, names) : nullptr;
        }
      }
    }
  }

  /// The front that starts at the feed (or a front's concatenation)
  /// order[start], if splitting it pays.
  std::optional<Front> findFront(ArrayRef<Operation *> order, size_t start) {
    Operation *feed = order[start];
    Value images = tfg::getDataResults(feed)[0];
    auto feedType = dyn_cast<RankedTensorType>(images.getType());
    if (!feedType || !feedType.hasStaticShape() || feedType.getRank() != 4 ||
        !feedType.getElementType().isF32() || feedType.getDimSize(0) < 2)
      return std::nullopt;
    int64_t batch = feedType.getDimSize(0);
    DenseSet<Value> rows = {images};
    // Image tensors not yet read by every reader (all of which come later
    // in the order): the front is cut where few are left.
    DenseMap<Value, unsigned> unread;
    auto addReaders = [&](Value value) {
      if (!value.use_empty())
        unread[value] = std::distance(value.use_begin(), value.use_end());
    };
    addReaders(images);
    Front front;
    front.feed = feed;
    // The nodes up to the best cut so far, and its largest tensor.
    size_t cutNodes = 0;
    int64_t largest = tensorBytes(feedType) / batch, cutLargest = 0;
    // The largest divisor of the batch below it whose images of the
    // largest tensor fit the budget (1 when none does).
    auto partImages = [&](int64_t largest) {
      for (int64_t images = batch / 2; images > 1; --images)
        if (batch % images == 0 && images * largest <= microBatchBytes)
          return images;
      return int64_t(1);
    };
    bool convolves = false;
    DenseMap<Operation *, size_t> nodeIndex; // A front node's in `order`.
    // What a squeeze-and-excitation block's tensors stand for in the
    // weights' test below, bytes an image: its pooled vectors (the mean,
    // the scales), the image they were pooled from; the image they scale,
    // itself.
    DenseMap<Value, int64_t> standsFor;
    for (size_t i = start + 1; i < order.size(); ++i) {
      Operation *node = order[i];
      bool readsImages = llvm::any_of(
          node->getOperands(), [&](Value v) { return rows.contains(v); });
      if (!readsImages)
        continue;
      if (!computesImagesApart(node, rows, batch))
        break;
      // Each part reads the node's weights again: past the point where
      // they outweigh what a part makes, whole batches pay better
      // (ResNet-50's 1x1 convolutions from 1024 channels on 14 x 14,
      // Xception's middle flow). In a squeeze-and-excitation block the
      // scales' small convolutions make a few bytes an image, and the
      // projection after it less than it reads, but each part keeps the
      // image they are for in the caches, which the block's mean, its
      // scaling and the projection would otherwise each stream through
      // memory: there a node's weights are weighed against that image.
      int64_t weights = 0;
      for (Value operand : tfg::getDataOperands(node))
        if (!rows.contains(operand))
          weights += std::max<int64_t>(tensorBytes(operand.getType()), 0);
      Value result = tfg::getDataResults(node)[0];
      int64_t made = tensorBytes(result.getType()) / batch;
      bool pooled = isPooled(result), scaled = false;
      int64_t stands = made;
      for (Value operand : tfg::getDataOperands(node)) {
        if (!rows.contains(operand))
          continue;
        auto it = standsFor.find(operand);
        if (it != standsFor.end())
          stands = std::max(stands, it->second);
        else if (pooled)
          stands = std::max(stands, tensorBytes(operand.getType()) / batch);
        scaled |= !pooled && isPooled(operand);
      }
      if (weights > partImages(std::max(largest, made)) * stands)
        break;
      if (pooled || scaled)
        standsFor[result] = stands;
      front.nodes.push_back(node);
      nodeIndex[node] = i;
      OpKind kind = opKindOf(node);
      convolves |=
          kind == OpKind::Conv2D || kind == OpKind::DepthwiseConv2dNative;
      for (Value operand : tfg::getDataOperands(node))
        if (rows.contains(operand)) {
          auto it = unread.find(operand);
          if (it != unread.end() && it->second > 0 && --it->second == 0)
            unread.erase(it);
        }
      for (Value result : tfg::getDataResults(node)) {
        rows.insert(result);
        largest = std::max(largest, tensorBytes(result.getType()) / batch);
        addReaders(result);
      }
      // The feed itself carried on (read past the front) would be sliced
      // and put together again: no cut there.
      if (unread.size() > kMaxCarried || !convolves ||
          unread.contains(images))
        continue;
      // Several tensors read past the cut by elementwise nodes alone are
      // the middle of one expression (MobileNetV3's hard swish, x *
      // relu6(x + 3) / 6, after its first convolution: a step of 40 ms
      // against 31 at batch 32 when cut there), not a stage's outputs.
      auto readByNonElementwise = [&](auto &carried) {
        return llvm::any_of(carried.first.getUsers(), [&](Operation *user) {
          return !nodeIndex.contains(user) && !isElementwise(user);
        });
      };
      if (unread.size() > 1 && !llvm::all_of(unread, readByNonElementwise))
        continue;
      int64_t carriedBytes = 0;
      for (auto &[value, readers] : unread)
        carriedBytes += tensorBytes(value.getType()) / batch;
      // The loop's body is compiled once, whatever the parts: the cut may
      // come as late as the front goes. (Copied once per part, as it was
      // before the loop, the front's nodes were compiled once per part:
      // NASNetLarge's front to its 42 x 42 cells, 504 nodes in 32 parts,
      // took 52 s to compile, for a step 4% faster than cut after its
      // stem; EfficientNetV2M's, 626 nodes in 32 parts, 29 s, for a step
      // 9% faster, and so a budget of copied nodes kept such cuts.)
      if (carriedBytes < microBatchBytes / 8)
        continue;
      front.cut.clear();
      for (auto &[value, readers] : unread)
        front.cut.push_back(value);
      // In the order of their nodes (the map's is its hashes').
      llvm::sort(front.cut, [&](Value a, Value b) {
        return std::make_pair(nodeIndex.lookup(a.getDefiningOp()),
                              cast<OpResult>(a).getResultNumber()) <
               std::make_pair(nodeIndex.lookup(b.getDefiningOp()),
                              cast<OpResult>(b).getResultNumber());
      });
      cutNodes = front.nodes.size();
      cutLargest = largest;
    }
    if (front.cut.empty())
      return std::nullopt;
    // The nodes past the cut are not part of the front.
    front.nodes.resize(cutNodes);
    front.partImages = partImages(cutLargest);
    return front;
  }

  /// Runs `front` in a loop over its parts (see the file comment); the
  /// node whose result is the whole batch of the one tensor that carries
  /// the front on, or null where two do.
  Operation *split(Front &front, NameUniquer &names) {
    Value images = tfg::getDataResults(front.feed)[0];
    auto feedType = cast<RankedTensorType>(images.getType());
    int64_t batch = feedType.getDimSize(0), partImages = front.partImages;
    int64_t parts = batch / partImages;
    // (A graph's nodes may come in any order; these after the front's.)
    OpBuilder b(front.nodes.back());
    b.setInsertionPointAfter(front.nodes.back());
    Type i32 = b.getI32Type(), i1 = b.getI1Type();
    auto scalar = [](Type element) {
      return RankedTensorType::get({}, element);
    };
    std::string loopName =
        names.get((tfg::getNodeName(front.feed) + "/micro_batches").str());
    auto node = [&](StringRef opType, StringRef what, TypeRange types,
                    ValueRange data, ArrayRef<NamedAttribute> attrs) {
      return createNodeLike(b, front.feed, opType,
                            names.get(loopName + "/" + what.str()), types, data,
                            {}, attrs);
    };
    auto ints = [&](StringRef what, ArrayRef<int64_t> shape,
                    ArrayRef<int32_t> values) {
      return createConstLike(b, front.feed,
                             names.get(loopName + "/" + what.str()),
                             DenseElementsAttr::get(
                                 RankedTensorType::get(shape, i32), values))
          ->getResult(0);
    };
    auto typeAttr = [&](StringRef name, Type type) {
      return b.getNamedAttr(name, TypeAttr::get(getElementTypeOrSelf(type)));
    };
    auto reshape = [&](StringRef what, Value value, RankedTensorType to) {
      SmallVector<int32_t> dims(to.getShape().begin(), to.getShape().end());
      Value shape = ints((what + "/shape").str(), {to.getRank()}, dims);
      return node("Reshape", what, {to}, {value, shape},
                  {typeAttr("T", to), typeAttr("Tshape", i32)})
          ->getResult(0);
    };
    // A batch's type with `leading` dimensions for its first.
    auto withLeading = [](Type type, ArrayRef<int64_t> leading) {
      auto ranked = cast<RankedTensorType>(type);
      SmallVector<int64_t> shape(leading);
      llvm::append_range(shape, ranked.getShape().drop_front());
      return RankedTensorType::get(shape, ranked.getElementType());
    };
    auto partType = [&](Type type) { return withLeading(type, {partImages}); };
    auto partsType = [&](Type type) {
      return withLeading(type, {parts, partImages});
    };

    auto variable = [](unsigned k) { return "variable_" + std::to_string(k); };
    // The loop's variables: the part's index, then each carried tensor as
    // [parts, part images, ...], its parts' rows written as they are made
    // (its initial value is never read).
    SmallVector<Value> initial = {ints(variable(0) + "/initial", {}, {0})};
    for (auto [k, carried] : llvm::enumerate(front.cut)) {
      RankedTensorType type = partsType(carried.getType());
      SmallVector<int32_t> dims(type.getShape().begin(), type.getShape().end());
      std::string name = variable(k + 1) + "/initial";
      initial.push_back(
          node("Empty", name, {type},
               {ints(name + "/shape", {type.getRank()}, dims)},
               {typeAttr("dtype", type),
                b.getNamedAttr("init", b.getBoolAttr(false))})
              ->getResult(0));
    }
    LoopBuilder loop(b, front.feed, loopName, /*parallelIterations=*/1,
                     [&](LoopBuilder::Role role, unsigned k) {
                       using Role = LoopBuilder::Role;
                       std::string what = variable(k); // The Identity's name.
                       switch (role) {
                       case Role::ConstantEnter:
                         what = "invariant_" + std::to_string(k);
                         break;
                       case Role::LoopCond:
                         what = "condition";
                         break;
                       case Role::Identity:
                         break;
                       case Role::Enter:
                       case Role::Merge:
                       case Role::Switch:
                       case Role::NextIteration:
                       case Role::Exit:
                         what += "/" + llvm::convertToSnakeFromCamelCase(
                                           LoopBuilder::opTypeOf(role));
                         break;
                       }
                       return names.get(loopName + "/" + what);
                     });
    SmallVector<Value> head = loop.start(initial);
    Value more = node("Less", "more", {scalar(i1)},
                      {head[0], ints("parts", {}, {int32_t(parts)})},
                      {typeAttr("T", i32)})
                     ->getResult(0);
    SmallVector<Value> current = loop.decide(more);
    // What the loop reads from outside but constants, through Enters that
    // hold it for every iteration (Frames.h).
    DenseMap<Value, Value> entered;
    auto invariant = [&](Value value) {
      Operation *producer = value.getDefiningOp();
      if (producer && opKindOf(producer) == OpKind::Const)
        return value;
      Value &held = entered[value];
      if (!held)
        held = loop.enterConstant(value);
      return held;
    };
    Value index = current[0];
    Value next = node("AddV2", "next", {scalar(i32)},
                      {index, ints("one", {}, {1})}, {typeAttr("T", i32)})
                     ->getResult(0);
    auto pack = [&](StringRef what, Value value) {
      return node("Pack", what, {RankedTensorType::get({1}, i32)}, {value},
                  {typeAttr("T", i32),
                   b.getNamedAttr("N", b.getI64IntegerAttr(1)),
                   b.getNamedAttr("axis", b.getI64IntegerAttr(0))})
          ->getResult(0);
    };
    // The part's images: x[index] of the batch seen as [parts, part
    // images, ...].
    Value part =
        node("StridedSlice", "images", {partType(feedType)},
             {invariant(reshape("batch", images, partsType(feedType))),
              pack("begin", index), pack("end", next),
              ints("strides", {1}, {1})},
             {typeAttr("T", feedType), typeAttr("Index", i32),
              b.getNamedAttr("begin_mask", b.getI64IntegerAttr(0)),
              b.getNamedAttr("end_mask", b.getI64IntegerAttr(0)),
              b.getNamedAttr("ellipsis_mask", b.getI64IntegerAttr(0)),
              b.getNamedAttr("new_axis_mask", b.getI64IntegerAttr(0)),
              b.getNamedAttr("shrink_axis_mask", b.getI64IntegerAttr(1))})
            ->getResult(0);
    IRMapping mapping;
    mapping.map(images, part);
    // The front's nodes, once, on the part: named as they were, with
    // "/micro_batch".
    for (Operation *original : front.nodes) {
      std::string name =
          names.get((tfg::getNodeName(original) + "/micro_batch").str());
      // A Reshape's shape names the batch's size: the part's.
      Value partShape;
      if (opKindOf(original) == OpKind::Reshape) {
        ArrayRef<int64_t> shape =
            partType(tfg::getDataResults(original)[0].getType()).getShape();
        SmallVector<int32_t> dims(shape.begin(), shape.end());
        partShape = createConstLike(
                        b, original, names.get(name + "/shape"),
                        DenseElementsAttr::get(
                            RankedTensorType::get({int64_t(dims.size())}, i32),
                            ArrayRef<int32_t>(dims)))
                        ->getResult(0);
      }
      for (Value operand : tfg::getDataOperands(original))
        if (!mapping.contains(operand))
          mapping.map(operand, invariant(operand));
      Operation *copy = b.clone(*original, mapping);
      copy->setAttr(tfg::kNameAttr, b.getStringAttr(name));
      for (Value result : tfg::getDataResults(copy))
        result.setType(partType(result.getType()));
      if (partShape) {
        copy->setOperand(1, partShape);
        copy->setAttr("Tshape", TypeAttr::get(i32));
      }
    }
    // Each carried tensor's part into its row `index`, in place (a
    // TensorScatterUpdate of the loop variable, tfc-plan-memory).
    Value row = reshape("row", index, RankedTensorType::get({1, 1}, i32));
    SmallVector<Value> nexts = {next};
    for (auto [k, carried] : llvm::enumerate(front.cut)) {
      Value updates =
          reshape(variable(k + 1) + "/part", mapping.lookup(carried),
                  withLeading(carried.getType(), {1, partImages}));
      nexts.push_back(
          node("TensorScatterUpdate", variable(k + 1) + "/update",
               {current[k + 1].getType()}, {current[k + 1], row, updates},
               {typeAttr("T", carried.getType()), typeAttr("Tindices", i32)})
              ->getResult(0));
    }
    loop.close(nexts);
    DenseSet<Operation *> inFront(front.nodes.begin(), front.nodes.end());
    SmallVector<Operation *> wholes;
    for (auto [k, carried] : llvm::enumerate(front.cut)) {
      // (The index's last value is not needed: its variable has no Exit.)
      Value whole = reshape(variable(k + 1) + "/whole", loop.exit(k + 1),
                            cast<RankedTensorType>(carried.getType()));
      carried.replaceUsesWithIf(whole, [&](OpOperand &use) {
        return !inFront.contains(use.getOwner());
      });
      wholes.push_back(whole.getDefiningOp());
    }
    // The whole-batch front is dead now: erase it, last node first.
    for (Operation *original : llvm::reverse(front.nodes))
      if (llvm::all_of(original->getResults(),
                       [](Value r) { return r.use_empty(); }))
        original->erase();
    ++numSplit;
    numParts += parts;
    return wholes.size() == 1 ? wholes.front() : nullptr;
  }
};

} // namespace
} // namespace tfc
