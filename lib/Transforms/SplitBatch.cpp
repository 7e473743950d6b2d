//===- SplitBatch.cpp - a network's front in micro-batches ----------------===//
//
// At a large batch the first stages of a convolutional network make
// tensors far larger than the caches (ResNet-50 at batch 32: 103 MB for
// each block's 56 x 56 x 256 output), so each convolution streams its
// input, its residual and its output through memory while its weights are
// small. Run on a few images at a time, the same stages keep their tensors
// in the caches; past them the tensors are small and the weights large,
// and the whole batch is the better unit. This pass cuts the step there:
//
//   x_p = Slice(x, [p * T, 0, 0, 0], [T, -1, -1, -1])   for p < N / T
//   the front's nodes, once per part, on x_p
//   cut = ConcatV2(cut_0, ..., cut_{N/T-1}, 0)   for each carried tensor
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
// tensor take `micro-batch-bytes` or fewer. The parts' nodes are inserted
// part after part, and the schedule (topological, earliest first) runs
// them so: one part's tensors die before the next part's are made. A
// front cut at one tensor goes on from that tensor's concatenation as a
// front of its own, whose parts may take more images (its tensors are
// smaller).
//
// Each part reads the front's weights again, so the front also stops
// before a node whose weights outweigh what a part makes there (in a
// squeeze-and-excitation block, the image the block scales); and each
// part's nodes are compiled, so a cut is left whose parts' copies would take
// more than max-copied-nodes nodes (below). (ResNet-50 at
// batch 32, cut after conv3 in 16 parts of two images, on the AMD Zen 5
// machine: a step of 513 ms against 562, DenseNet121's 415 against 508;
// NASNetMobile's cut after its 28 x 28 cells in 8 parts of four images,
// on an Intel Xeon with AVX-512: 203 ms against 225; docs/benchmarks.md.)
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

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
        // A front cut at one tensor may go on from its concatenation in
        // parts of more images, where its tensors are smaller: a front's
        // largest tensor sets its parts' images, and the weights past it
        // may outweigh few images but not more. The parts' copies of the
        // fronts of one feed count together against max-copied-nodes.
        int64_t copied = 0;
        for (Operation *next = split(front, names, copied); next;) {
          SmallVector<Operation *> order = topologicalOrder(*body);
          size_t at = llvm::find(order, next) - order.begin();
          std::optional<Front> more = findFront(order, at, copied);
          next = more ? split(*more, names, copied) : nullptr;
        }
      }
    }
  }

  /// The front that starts at the feed (or a front's concatenation)
  /// order[start], if splitting it pays; `copied` nodes of the feed's
  /// fronts are copied already.
  std::optional<Front> findFront(ArrayRef<Operation *> order, size_t start,
                                 int64_t copied = 0) {
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
      // Each part's copies are compiled: at batch 32 InceptionResNetV2's
      // 270 nodes in 32 parts (8640) took 7.1-7.4 s to compile against
      // 2.4-2.8 at batch 1; NASNetLarge's 504 (to its 42 x 42 cells) in
      // 32 parts 52 s against 11 cut after its stem, for a step 4% faster
      // (6.22 s against 6.48). Within the default 10000 its cut comes
      // earlier: 34 s, a step 1.5% faster. (At 4096, InceptionResNetV2's
      // cut came earlier too, the sum of its nodes' times 2.6% more.)
      // The default is 24000 since EfficientNetV2M's front at batch 32
      // (626 nodes to its 30 x 30 stages, in 32 parts) paid for its
      // compile, 29 s against 6.5: a step 9% faster (4.8 s against 5.4;
      // EfficientNetB5's 11%, 29 s against 3.9). There NASNetLarge's cut
      // comes later again: 35 s against 24, the step within the noise.
      if (carriedBytes < microBatchBytes / 8 ||
          copied + int64_t(front.nodes.size()) *
                           (batch / partImages(largest)) >
              maxCopiedNodes)
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

  /// Splits `front`, adding its copies to `copied`; the concatenation of
  /// its cut where one tensor alone carries it on, or null.
  Operation *split(Front &front, NameUniquer &names, int64_t &copied) {
    Value images = tfg::getDataResults(front.feed)[0];
    auto feedType = cast<RankedTensorType>(images.getType());
    int64_t batch = feedType.getDimSize(0), partImages = front.partImages;
    int64_t parts = batch / partImages;
    // (A graph's nodes may come in any order; these after the front's.)
    Operation *cutNode = front.cut.back().getDefiningOp();
    OpBuilder b(front.nodes.back());
    b.setInsertionPointAfter(front.nodes.back());
    auto i32 = b.getI32Type();
    TypeAttr t = TypeAttr::get(feedType.getElementType());
    StringRef feedName = tfg::getNodeName(front.feed);
    auto vector = [&](StringRef name, ArrayRef<int32_t> values) {
      auto type = RankedTensorType::get({int64_t(values.size())}, i32);
      return createConstLike(b, front.feed, names.get(name.str()),
                             DenseElementsAttr::get(type, values))
          ->getResult(0);
    };
    auto partType = [&](Type type) -> Type {
      auto ranked = cast<RankedTensorType>(type);
      SmallVector<int64_t> shape(ranked.getShape());
      shape[0] = partImages;
      return RankedTensorType::get(shape, ranked.getElementType());
    };
    Value size = vector((feedName + "/micro_batch_size").str(),
                        {int32_t(partImages), -1, -1, -1});
    DenseSet<Operation *> inFront(front.nodes.begin(), front.nodes.end());
    // Each carried tensor's parts.
    SmallVector<SmallVector<Value>> cuts(front.cut.size());
    for (int64_t p = 0; p < parts; ++p) {
      std::string suffix = "/micro_batch_" + std::to_string(p);
      Value begin = vector((feedName + suffix + "/begin").str(),
                           {int32_t(p * partImages), 0, 0, 0});
      IRMapping mapping;
      mapping.map(images,
                  createNodeLike(b, front.feed, "Slice",
                                 names.get((feedName + suffix).str()),
                                 partType(feedType), {images, begin, size}, {},
                                 {b.getNamedAttr("T", t),
                                  b.getNamedAttr("Index", TypeAttr::get(i32))})
                      ->getResult(0));
      for (Operation *node : front.nodes) {
        std::string name = names.get((tfg::getNodeName(node) + suffix).str());
        // A Reshape's shape names the batch's size: each part's its own.
        Value partShape;
        if (opKindOf(node) == OpKind::Reshape) {
          auto shape = cast<RankedTensorType>(
                           partType(tfg::getDataResults(node)[0].getType()))
                           .getShape();
          partShape = vector(name + "/shape",
                             SmallVector<int32_t>(shape.begin(), shape.end()));
        }
        Operation *copy = b.clone(*node, mapping);
        copy->setAttr(tfg::kNameAttr, b.getStringAttr(name));
        for (Value result : tfg::getDataResults(copy))
          result.setType(partType(result.getType()));
        if (partShape) {
          copy->setOperand(1, partShape);
          copy->setAttr("Tshape", TypeAttr::get(i32));
        }
      }
      for (auto [carried, itsParts] : llvm::zip(front.cut, cuts))
        itsParts.push_back(mapping.lookup(carried));
    }
    Value axis =
        createConstLike(
            b, cutNode,
            names.get((tfg::getNodeName(cutNode) + "/micro_batch_axis").str()),
            DenseElementsAttr::get(RankedTensorType::get({}, i32), int32_t(0)))
            ->getResult(0);
    SmallVector<Operation *> concats;
    for (auto [carried, itsParts] : llvm::zip(front.cut, cuts)) {
      Operation *maker = carried.getDefiningOp();
      itsParts.push_back(axis);
      Operation *concat = createNodeLike(
          b, maker, "ConcatV2",
          names.get((tfg::getNodeName(maker) + "/micro_batches").str()),
          carried.getType(), itsParts, {},
          {b.getNamedAttr(
               "T", TypeAttr::get(getElementTypeOrSelf(carried.getType()))),
           b.getNamedAttr("N", b.getI64IntegerAttr(parts)),
           b.getNamedAttr("Tidx", TypeAttr::get(i32))});
      carried.replaceUsesWithIf(concat->getResult(0), [&](OpOperand &use) {
        return !inFront.contains(use.getOwner());
      });
      concats.push_back(concat);
    }
    // The whole-batch front is dead now: erase it, last node first.
    for (Operation *node : llvm::reverse(front.nodes))
      if (llvm::all_of(node->getResults(),
                       [](Value r) { return r.use_empty(); }))
        node->erase();
    ++numSplit;
    numParts += parts;
    copied += int64_t(front.nodes.size()) * parts;
    return concats.size() == 1 ? concats.front() : nullptr;
  }
};

} // namespace
} // namespace tfc
