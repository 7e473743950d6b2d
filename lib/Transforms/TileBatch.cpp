//===- TileBatch.cpp - one program for every batch size -------------------===//
//
// A feed whose first dimension is unknown (what Keras' SavedModels declare
// for the batch) makes a program whose other shapes are unknown too. When
// each row of every fetch depends only on the same row of the fed batches
// (inference models, as a rule: convolutions, products with weights,
// normalization over features), the step can run over a batch of any size
// a tile of T rows at a time and give what one run over the whole batch
// gives. This pass proves that, then fixes the batch feeds' first
// dimension to T (`tfc.batch_tile`, `tfc compile --batch-tile`, default 1)
// so that the rest of the compile sees static shapes, and records what the
// runtime needs (`tfc.batch`: the tile and the feeds and fetches that carry
// the batch). The program then loops over the tiles (tfc_run_batch).
//
// The proof is an abstract interpretation of the step's graph. Each data
// value is
//   Constant   the same whatever the rows and the batch size;
//   Rows(a)    dimension a is the batch, and its slice i depends only on
//              row i of the fed batches;
//              (With `blocks` B, dimension a is B times the batch and its
//              slice j depends only on row j mod N: SpaceToBatchND's
//              blocks, which BatchToSpaceND gathers back. With `run` R,
//              dimension a is R times the batch and its slice j depends
//              only on row j / R: a Reshape that folds other dimensions
//              into the batch's, as Keras' Dense on a 4-D input does
//              before its MatMul, until a Reshape unfolds them.)
//   BatchSize  a small integer tensor computed from shapes, whose elements
//              are constants or multiples of the batch size (Keras'
//              Shape -> StridedSlice -> Pack before a Reshape): allowed
//              only where a shape is expected;
// and a node with any other combination (a reduction over the batch, the
// batch size used as data, a loop carrying rows, a stateful op) refuses
// the tiling, naming itself. Shapes and the values of shape tensors come
// from shape inference run on copies of the graph at probe batch sizes
// (2, 3 and 5): a dimension that is k·N at every probe is k times the
// batch, one that does not change is a constant, anything else refuses.
// A result said to be Rows(a) must moreover have exactly one dimension
// that grows with the batch, a, growing as N: every rule is checked
// against the shapes.
//
// When the analysis refuses, the compile stops here with the feed, the
// node and the flag that fixes it (a static batch, --feed x=8,...).
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/ShapeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_TILEBATCHPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

/// The batch sizes the graph's shapes are inferred at.
constexpr int64_t kProbes[] = {2, 3, 5};
constexpr size_t kNumProbes = std::size(kProbes);

enum class Kind { Constant, Rows, BatchSize };

struct Fact {
  Kind kind = Kind::Constant;
  /// Rows: the batch dimension.
  int64_t axis = -1;
  /// Rows: the batch dimension is `blocks` times the batch, its slice j
  /// depending on row j mod N only (SpaceToBatchND's output, until a
  /// BatchToSpaceND gathers the blocks back).
  int64_t blocks = 1;
  /// Rows: the batch dimension is `run` times the batch, its slices j
  /// depending on row j / run only (a Reshape folded other dimensions in).
  int64_t run = 1;
  static Fact constant() { return {}; }
  static Fact rows(int64_t axis, int64_t blocks = 1, int64_t run = 1) {
    return {Kind::Rows, axis, blocks, run};
  }
  static Fact batchSize() { return {Kind::BatchSize, -1, 1, 1}; }
  bool operator==(const Fact &other) const {
    return kind == other.kind && axis == other.axis &&
           blocks == other.blocks && run == other.run;
  }
};

/// What a value that is one fact or the other on different paths (a
/// Merge) is: a constant joins anything; other facts only themselves.
std::optional<Fact> join(const Fact &a, const Fact &b) {
  if (a.kind == Kind::Constant)
    return b;
  if (b.kind == Kind::Constant || a == b)
    return a;
  return std::nullopt;
}

/// Sweeps over a graph with loops before the facts settle.
constexpr int kMaxRounds = 8;

/// How a dimension (or a shape tensor's element) varies with the batch:
/// 0 constant, k > 0 k times the batch size, -1 otherwise.
using Growth = SmallVector<int64_t>;

bool flag(Operation *node, StringRef name, bool otherwise = false) {
  auto attr = node->getAttrOfType<BoolAttr>(name);
  return attr ? attr.getValue() : otherwise;
}

int64_t integer(Operation *node, StringRef name, int64_t otherwise = 0) {
  auto attr = node->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

class Analysis {
public:
  Analysis(ModuleOp module, tfg::GraphOp graph) : module(module), graph(graph) {}
  ~Analysis() {
    for (Probe &probe : probes)
      if (probe.copy)
        probe.copy->erase();
  }

  /// Infers the shapes at each probe size with the batch feeds' first
  /// dimension set to it; the reason on failure.
  LogicalResult infer(ArrayRef<Operation *> batchFeeds, std::string &why);

  /// Runs the analysis over the step; the refusal on failure.
  LogicalResult run(ArrayRef<Operation *> batchFeeds, std::string &why);

  Fact factOf(Value value) const { return facts.lookup(value); }

private:
  struct Probe {
    Operation *copy = nullptr;
    IRMapping mapping;
    KnownValues values;
    ListShapes lists;
  };

  /// A value's shape at a probe; a TensorList's is the dense tensor's it
  /// holds, so that the rules below treat lists as those tensors.
  Shape shapeAt(size_t probe, Value value) const {
    Value copy = probes[probe].mapping.lookup(value);
    if (isVariant(copy.getType()))
      if (auto it = probes[probe].lists.find(copy);
          it != probes[probe].lists.end())
        return it->second;
    return Shape::fromType(copy.getType());
  }
  const SmallVector<int64_t> *valueAt(size_t probe, Value value) const {
    auto it = probes[probe].values.find(probes[probe].mapping.lookup(value));
    return it == probes[probe].values.end() ? nullptr : &it->second;
  }
  /// How each dimension of `value` grows; empty if its rank is unknown or
  /// differs between probes.
  Growth dimsGrowth(Value value) const;
  /// How each element of an integer value grows; empty if unknown.
  Growth valueGrowth(Value value) const;
  /// The one dimension of `value` that grows, growing as `blocks` times
  /// the batch; -1 if there is none or more than one.
  int64_t batchAxis(Value value, int64_t blocks = 1) const;
  /// A constant dimension's size (the first probe's).
  int64_t dimAt(Value value, int64_t d) const {
    return shapeAt(0, value).dims[d];
  }
  std::optional<SmallVector<int64_t>> probeInts(size_t probe, Value value) const {
    if (const SmallVector<int64_t> *v = valueAt(probe, value))
      return *v;
    return std::nullopt;
  }

  /// An integer operand's value when it is the same at every probe (a
  /// constant, or computed from constants and shapes without the batch).
  std::optional<SmallVector<int64_t>> knownInts(Value value) const {
    Growth growth = valueGrowth(value);
    const SmallVector<int64_t> *first = valueAt(0, value);
    if (!first || (growth.empty() && !first->empty()))
      return constantInts(value);
    if (llvm::any_of(growth, [](int64_t g) { return g != 0; }))
      return std::nullopt;
    return *first;
  }

  /// The facts of a node's results, or a refusal.
  /// Sets the facts of a node's results (`changed` if any changed), or
  /// refuses.
  LogicalResult transfer(Operation *node, bool &changed, std::string &why);
  LogicalResult rowsRule(Operation *node, ArrayRef<Fact> in,
                         SmallVectorImpl<Fact> &out, std::string &why);
  LogicalResult controlFlowRule(Operation *node, ArrayRef<Fact> in,
                                SmallVectorImpl<Fact> &out, std::string &why);

  ModuleOp module;
  tfg::GraphOp graph;
  SmallVector<Probe, kNumProbes> probes;
  llvm::DenseMap<Value, Fact> facts;
};

LogicalResult Analysis::infer(ArrayRef<Operation *> batchFeeds,
                              std::string &why) {
  OpBuilder builder(module.getBody(), module.getBody()->end());
  for (int64_t size : kProbes) {
    Probe &probe = probes.emplace_back();
    probe.copy = builder.clone(*graph, probe.mapping);
    for (Operation *feed : batchFeeds) {
      Value result = probe.mapping.lookup(feed->getResult(0));
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> dims(type.getShape());
      dims[0] = size;
      result.setType(type.clone(dims));
    }
    std::string message;
    ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    unsigned refined = 0;
    if (failed(inferShapes(cast<tfg::GraphOp>(probe.copy).getBody(), refined,
                           &probe.values, &probe.lists))) {
      why = "at a batch of " + std::to_string(size) + ": " + message;
      return failure();
    }
  }
  return success();
}

/// How one number seen at each probe grows: 0 the same at every probe, k
/// k times the probe's batch at every probe, -1 otherwise.
int64_t growthOf(ArrayRef<int64_t> at) {
  if (llvm::all_equal(at))
    return 0;
  int64_t k = at[0] / kProbes[0];
  for (size_t p = 0; p < kNumProbes; ++p)
    if (k <= 0 || at[p] != k * kProbes[p])
      return -1;
  return k;
}

Growth Analysis::dimsGrowth(Value value) const {
  SmallVector<Shape, kNumProbes> shapes;
  for (size_t p = 0; p < kNumProbes; ++p) {
    shapes.push_back(shapeAt(p, value));
    if (!shapes.back().ranked || shapes.back().rank() != shapes[0].rank())
      return {};
  }
  Growth growth;
  for (int64_t d = 0; d < shapes[0].rank(); ++d) {
    SmallVector<int64_t, kNumProbes> at;
    for (const Shape &s : shapes)
      at.push_back(s.dims[d]);
    growth.push_back(llvm::any_of(at, ShapedType::isDynamic) ? -1
                                                              : growthOf(at));
  }
  return growth;
}

Growth Analysis::valueGrowth(Value value) const {
  SmallVector<const SmallVector<int64_t> *, kNumProbes> values;
  for (size_t p = 0; p < kNumProbes; ++p) {
    values.push_back(valueAt(p, value));
    if (!values.back() || values.back()->size() != values[0]->size())
      return {};
  }
  Growth growth;
  for (size_t i = 0; i < values[0]->size(); ++i) {
    SmallVector<int64_t, kNumProbes> at;
    for (const SmallVector<int64_t> *v : values)
      at.push_back((*v)[i]);
    growth.push_back(growthOf(at));
  }
  return growth;
}

int64_t Analysis::batchAxis(Value value, int64_t blocks) const {
  Growth growth = dimsGrowth(value);
  int64_t axis = -1;
  for (int64_t d = 0; d < int64_t(growth.size()); ++d) {
    if (growth[d] == 0)
      continue;
    if (growth[d] != blocks || axis >= 0)
      return -1;
    axis = d;
  }
  return axis;
}

LogicalResult Analysis::run(ArrayRef<Operation *> batchFeeds,
                            std::string &why) {
  for (Operation *feed : batchFeeds)
    facts[feed->getResult(0)] = Fact::rows(0);
  // Loops: a Merge first joins its forward inputs' facts, and the sweep is
  // repeated with what its back edges brought until no fact changes. Facts
  // only move from Constant to one other fact, so this settles within a
  // round per loop nesting level; a refusal counts only in the sweep where
  // nothing changed, whose facts are final.
  SmallVector<Operation *> order = topologicalOrder(graph.getBody());
  for (int round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    std::string refusal;
    for (Operation *node : order) {
      if (!tfg::isNode(node) || llvm::is_contained(batchFeeds, node))
        continue;
      std::string reason;
      if (failed(transfer(node, changed, reason)) && refusal.empty())
        refusal = tfg::nodeLabel(node) + " " + reason;
    }
    if (!changed) {
      why = refusal;
      return success(refusal.empty());
    }
  }
  why = "the rows of the batch carried through its loops do not settle";
  return failure();
}

/// Ops whose every result depends on the same rows of operand 0 (batch
/// first, as TensorFlow's NHWC kernels take it), the other operands
/// being constants or, for the ones named, shapes.
bool isRowKernel(OpKind kind) {
  switch (kind) {
  case OpKind::Conv2D:
  case OpKind::DepthwiseConv2dNative:
  case OpKind::MaxPool:
  case OpKind::AvgPool:
  case OpKind::Conv3D:
  case OpKind::MaxPool3D:
  case OpKind::AvgPool3D:
  case OpKind::FusedBatchNorm:
  case OpKind::FusedBatchNormV2:
  case OpKind::FusedBatchNormV3:
  case OpKind::LRN:
  case OpKind::DepthToSpace:
  case OpKind::SpaceToDepth:
  case OpKind::ResizeBilinear:
  case OpKind::ResizeNearestNeighbor:
    return true;
  default:
    return false;
  }
}

/// The frame and branch ops of TF1 control flow, less Merge (see run).
bool isControlFlow(OpKind kind) {
  return llvm::is_contained({OpKind::Enter, OpKind::Exit, OpKind::NextIteration,
                             OpKind::Switch, OpKind::LoopCond},
                            kind);
}

/// Ops that compute on shapes: with BatchSize and Constant operands, a
/// BatchSize result (when its elements are multiples of the batch).
bool isShapeArithmetic(OpKind kind) {
  switch (kind) {
  case OpKind::StridedSlice:
  case OpKind::Slice:
  case OpKind::Pack:
  case OpKind::ConcatV2:
  case OpKind::Cast:
  case OpKind::Identity:
  case OpKind::Reshape:
  case OpKind::Squeeze:
  case OpKind::ExpandDims:
  case OpKind::GatherV2:
  case OpKind::Mul:
  case OpKind::Prod:
  case OpKind::Unpack:
  case OpKind::SplitV:
    return true;
  default:
    return false;
  }
}

LogicalResult Analysis::transfer(Operation *node, bool &changed,
                                 std::string &why) {
  SmallVector<Fact> in;
  bool anyRows = false, anySize = false;
  for (Value operand : tfg::getDataOperands(node)) {
    in.push_back(factOf(operand));
    anyRows |= in.back().kind == Kind::Rows;
    anySize |= in.back().kind == Kind::BatchSize;
  }
  OpKind kind = opKindOf(node);
  const OpInfo *info = lookupOp(node);
  // A side effect would happen once per tile.
  bool reads = kind == OpKind::ReadVariableOp || kind == OpKind::VarHandleOp ||
               kind == OpKind::VariableV2 || kind == OpKind::Variable ||
               kind == OpKind::Const || kind == OpKind::NoOp ||
               kind == OpKind::InternalRetval ||
               // Tables of constants (tfc-bind-tables): read only.
               kind == OpKind::HashTableV2 ||
               kind == OpKind::LookupTableFindV2 ||
               kind == OpKind::LookupTableSizeV2;
  if ((isStateful(node) && !reads) || (info && info->writesVariable)) {
    why = "has a side effect, which would happen once per tile of the batch";
    return failure();
  }
  ResultRange results = tfg::getDataResults(node);
  SmallVector<Fact> out(results.size(), Fact::constant());

  if (kind == OpKind::InternalRetval) {
    return success();
  } else if (kind == OpKind::Merge) {
    // Its back edges' facts once a sweep has reached them (see run).
    std::optional<Fact> joined;
    for (Value operand : tfg::getDataOperands(node)) {
      auto it = facts.find(operand);
      if (it == facts.end())
        continue;
      joined = joined ? join(*joined, it->second) : it->second;
      if (!joined) {
        why = "merges values that hold the batch differently";
        return failure();
      }
    }
    out[0] = joined.value_or(Fact::constant());
  } else if (!anyRows && !anySize) {
    // Nothing that depends on the batch.
  } else if (isControlFlow(kind)) {
    if (failed(controlFlowRule(node, in, out, why)))
      return failure();
  } else if (kind == OpKind::Shape || kind == OpKind::ShapeN ||
             kind == OpKind::Size || kind == OpKind::TensorListElementShape) {
    for (Fact &f : out)
      f = Fact::batchSize();
  } else if (kind == OpKind::Rank || kind == OpKind::TensorListLength) {
  } else if (!anyRows && isShapeArithmetic(kind)) {
    for (auto [i, result] : llvm::enumerate(results)) {
      // An empty piece (a split's) holds nothing of the batch.
      if (const SmallVector<int64_t> *value = valueAt(0, result);
          value && value->empty())
        continue;
      Growth growth = valueGrowth(result);
      if (growth.empty() || llvm::is_contained(growth, -1)) {
        why = "computes with the batch size other than as a shape";
        return failure();
      }
      out[i] = llvm::all_equal(growth) && (growth.empty() || growth[0] == 0)
                   ? Fact::constant()
                   : Fact::batchSize();
    }
  } else if (failed(rowsRule(node, in, out, why))) {
    return failure();
  }

  for (auto [i, result] : llvm::enumerate(results)) {
    if (out[i].kind == Kind::Rows &&
        batchAxis(result, out[i].blocks * out[i].run) != out[i].axis) {
      why = "has output shape " + shapeAt(0, result).str() +
            " at a batch of " + std::to_string(kProbes[0]) +
            ", where the batch should be dimension " +
            std::to_string(out[i].axis);
      return failure();
    }
    auto [it, inserted] = facts.try_emplace(result, out[i]);
    changed |= inserted || !(it->second == out[i]);
    it->second = out[i];
  }
  return success();
}

LogicalResult Analysis::controlFlowRule(Operation *node, ArrayRef<Fact> in,
                                        SmallVectorImpl<Fact> &out,
                                        std::string &why) {
  // Each iteration and branch runs for the whole tile, so what decides
  // them must not depend on the rows.
  switch (opKindOf(node)) {
  case OpKind::Switch:
    if (in[1].kind != Kind::Constant) {
      why = "chooses a branch by the rows of the batch";
      return failure();
    }
    out[0] = out[1] = in[0];
    return success();
  case OpKind::LoopCond:
    if (in[0].kind != Kind::Constant) {
      why = "decides whether a loop goes on by the rows of the batch";
      return failure();
    }
    return success();
  default: // Enter, Exit, NextIteration: the value, in another frame.
    out[0] = in[0];
    return success();
  }
}

LogicalResult Analysis::rowsRule(Operation *node, ArrayRef<Fact> in,
                                 SmallVectorImpl<Fact> &out,
                                 std::string &why) {
  OpKind kind = opKindOf(node);
  auto operands = tfg::getDataOperands(node);
  ResultRange results = tfg::getDataResults(node);
  auto isConstant = [&](unsigned i) { return in[i].kind == Kind::Constant; };
  auto othersConstant = [&](unsigned first, ArrayRef<unsigned> shapes = {}) {
    for (unsigned i = 0; i < in.size(); ++i)
      if (i != first && !isConstant(i) &&
          !(in[i].kind == Kind::BatchSize && llvm::is_contained(shapes, i)))
        return false;
    return true;
  };
  auto rankOf = [&](Value v) { return shapeAt(0, v).rank(); };
  auto axesOf = [&](Value axes, int64_t rank)
      -> std::optional<SmallVector<int64_t>> {
    std::optional<SmallVector<int64_t>> values = knownInts(axes);
    if (!values)
      return std::nullopt;
    for (int64_t &a : *values) {
      std::optional<int64_t> n = normalizeAxis(a, rank);
      if (!n)
        return std::nullopt;
      a = *n;
    }
    return values;
  };
  auto refuse = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  const char *mixes = "combines rows of the batch";
  // Blocks of rows (SpaceToBatchND's) and runs (folded by a Reshape) pass
  // through the ops below that keep the batch dimension whole; the others
  // refuse them.
  int64_t blocks = 0, run = 0;
  for (const Fact &f : in) {
    if (f.kind != Kind::Rows)
      continue;
    if ((blocks && f.blocks != blocks) || (run && f.run != run))
      return refuse(mixes);
    blocks = f.blocks;
    run = f.run;
  }
  blocks = std::max<int64_t>(blocks, 1);
  run = std::max<int64_t>(run, 1);
  // Elementwise ops and the identities that keep their input's shape.
  bool elementwise =
      isPerElement(node) || kind == OpKind::Identity ||
      kind == OpKind::Snapshot || kind == OpKind::StopGradient ||
      kind == OpKind::PreventGradient || kind == OpKind::EnsureShape ||
      kind == OpKind::CheckNumerics;
  bool keepsBlocks =
      elementwise || isRowKernel(kind) ||
      kind == OpKind::ExpandDims || kind == OpKind::Squeeze ||
      kind == OpKind::Reshape || kind == OpKind::MatMul ||
      kind == OpKind::SpaceToBatchND ||
      kind == OpKind::BatchToSpaceND;
  if (blocks != 1 && !keepsBlocks)
    return refuse("moves the blocks SpaceToBatchND made of the rows");
  bool keepsRuns = elementwise || isRowKernel(kind) ||
                   kind == OpKind::ExpandDims || kind == OpKind::Squeeze ||
                   kind == OpKind::Reshape || kind == OpKind::MatMul;
  if (run != 1 && (!keepsRuns || blocks != 1))
    return refuse("moves the rows a Reshape folded into the batch dimension");
  auto allRows = [&](int64_t axis) {
    for (Fact &f : out)
      f = Fact::rows(axis, blocks, run);
    return success();
  };

  if (elementwise) {
    // Broadcasting aligns dimensions from the right.
    int64_t rank = rankOf(results[0]), axis = -1;
    for (auto [i, operand] : llvm::enumerate(operands)) {
      if (in[i].kind == Kind::BatchSize)
        return refuse("uses the batch size as data");
      if (in[i].kind != Kind::Rows)
        continue;
      int64_t at = in[i].axis + rank - rankOf(operand);
      if (axis >= 0 && at != axis)
        return refuse(mixes);
      axis = at;
    }
    return allRows(axis);
  }
  if (kind == OpKind::InternalTfcDenseStringSplit ||
      kind == OpKind::InternalTfcDenseUnicodeDecode) {
    // A row of tokens (code points) per string.
    if (in[0].kind != Kind::Rows || !othersConstant(0))
      return refuse(mixes);
    return allRows(0);
  }
  if (kind == OpKind::IdentityN) {
    for (auto [i, f] : llvm::enumerate(in))
      out[i] = f;
    return success();
  }
  if (isRowKernel(kind)) {
    if (in[0].kind != Kind::Rows || in[0].axis != 0 || !othersConstant(0))
      return refuse(mixes);
    // Inference batch norm's other results are its inputs' statistics.
    (void)allRows(0);
    if (isBatchNorm(node)) {
      if (flag(node, "is_training", true))
        return refuse("normalizes over the batch (is_training)");
      out.resize(1);
      out.resize(results.size(), Fact::constant());
      for (unsigned i = 1; i < results.size(); ++i)
        if (!results[i].use_empty())
          return refuse("has a statistics output in use");
    }
    return success();
  }

  // The Fourier transforms keep apart every dimension they do not
  // transform (fft_length is constant).
  if (const OpInfo *op = lookupOp(node); op && op->family == OpFamily::Spectral) {
    if (in[0].kind != Kind::Rows || !othersConstant(0) ||
        in[0].axis >= rankOf(operands[0]) - fourierAxes(node))
      return refuse(mixes);
    return allRows(in[0].axis);
  }

  switch (kind) {
  case OpKind::Softmax:
  case OpKind::LogSoftmax: {
    if (in[0].axis == rankOf(operands[0]) - 1)
      return refuse(mixes);
    return allRows(in[0].axis);
  }
  case OpKind::MatMul: {
    bool ta = flag(node, "transpose_a"), tb = flag(node, "transpose_b");
    if (in[0].kind == Kind::Rows && isConstant(1) && in[0].axis == (ta ? 1 : 0))
      return allRows(0);
    if (in[1].kind == Kind::Rows && isConstant(0) && in[1].axis == (tb ? 0 : 1))
      return allRows(1);
    return refuse(mixes);
  }
  case OpKind::BatchMatMul:
  case OpKind::BatchMatMulV2:
  case OpKind::BatchMatMulV3: {
    // A batch dimension (not one of the matrices') of either operand.
    int64_t rank = rankOf(results[0]), axis = -1;
    for (unsigned i = 0; i < 2; ++i) {
      if (in[i].kind != Kind::Rows)
        continue;
      int64_t r = rankOf(operands[i]);
      if (in[i].axis >= r - 2)
        return refuse(mixes);
      int64_t at = in[i].axis + rank - r;
      if (axis >= 0 && at != axis)
        return refuse(mixes);
      axis = at;
    }
    return allRows(axis);
  }
  case OpKind::Einsum: {
    // The batch's label must be the same in every operand that has rows,
    // absent from the others, and kept in the output.
    auto equation = node->getAttrOfType<StringAttr>("equation");
    if (!equation || equation.getValue().contains("..."))
      return refuse("has an equation this analysis does not read");
    auto [inputs, output] = equation.getValue().split("->");
    SmallVector<StringRef> terms;
    inputs.split(terms, ',');
    if (terms.size() != in.size())
      return refuse("has an equation this analysis does not read");
    std::optional<char> batchLabel;
    for (auto [i, term] : llvm::enumerate(terms)) {
      if (in[i].kind != Kind::Rows)
        continue;
      char l = term[in[i].axis];
      if (batchLabel && *batchLabel != l)
        return refuse(mixes);
      batchLabel = l;
    }
    for (auto [i, term] : llvm::enumerate(terms))
      if (in[i].kind != Kind::Rows && term.contains(*batchLabel))
        return refuse(mixes);
    size_t at = output.find(*batchLabel);
    if (at == StringRef::npos)
      return refuse("sums over the batch");
    return allRows(at);
  }
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Max:
  case OpKind::Min:
  case OpKind::Prod:
  case OpKind::All:
  case OpKind::Any:
  case OpKind::EuclideanNorm:
  case OpKind::ArgMax:
  case OpKind::ArgMin:
  case OpKind::Cumsum:
  case OpKind::Cumprod: {
    std::optional<SmallVector<int64_t>> axes =
        axesOf(operands[1], rankOf(operands[0]));
    if (in[0].kind != Kind::Rows || !isConstant(1) || !axes)
      return refuse(mixes);
    if (llvm::is_contained(*axes, in[0].axis))
      return refuse("reduces over the batch");
    bool keeps = kind == OpKind::Cumsum || kind == OpKind::Cumprod ||
                 flag(node, "keep_dims");
    int64_t axis = in[0].axis;
    if (!keeps)
      axis -= llvm::count_if(*axes, [&](int64_t a) { return a < in[0].axis; });
    return allRows(axis);
  }
  case OpKind::TopKV2:
    if (in[0].kind != Kind::Rows || !isConstant(1) ||
        in[0].axis == rankOf(operands[0]) - 1)
      return refuse(mixes);
    return allRows(in[0].axis);
  case OpKind::Transpose: {
    std::optional<SmallVector<int64_t>> perm = knownInts(operands[1]);
    if (in[0].kind != Kind::Rows || !perm)
      return refuse(mixes);
    return allRows(llvm::find(*perm, in[0].axis) - perm->begin());
  }
  case OpKind::ConcatV2: {
    std::optional<SmallVector<int64_t>> axis =
        axesOf(operands.back(), rankOf(results[0]));
    if (!axis || !isConstant(in.size() - 1))
      return refuse(mixes);
    int64_t rows = -1;
    for (unsigned i = 0; i + 1 < in.size(); ++i) {
      if (in[i].kind != Kind::Rows || (rows >= 0 && in[i].axis != rows))
        return refuse(mixes);
      rows = in[i].axis;
    }
    if ((*axis)[0] == rows)
      return refuse("concatenates along the batch");
    return allRows(rows);
  }
  case OpKind::Pack: {
    std::optional<int64_t> axis =
        normalizeAxis(integer(node, "axis"), rankOf(results[0]));
    int64_t rows = -1;
    for (const Fact &f : in) {
      if (f.kind != Kind::Rows || (rows >= 0 && f.axis != rows))
        return refuse(mixes);
      rows = f.axis;
    }
    if (!axis)
      return refuse(mixes);
    return allRows(rows < *axis ? rows : rows + 1);
  }
  case OpKind::Unpack: {
    std::optional<int64_t> axis =
        normalizeAxis(integer(node, "axis"), rankOf(operands[0]));
    if (!axis || *axis == in[0].axis)
      return refuse("splits the batch");
    return allRows(in[0].axis < *axis ? in[0].axis : in[0].axis - 1);
  }
  case OpKind::Split:
  case OpKind::SplitV: {
    unsigned data = kind == OpKind::Split ? 1 : 0;
    Value axisOperand = kind == OpKind::Split ? operands[0] : operands[2];
    std::optional<SmallVector<int64_t>> axis =
        axesOf(axisOperand, rankOf(operands[data]));
    if (in[data].kind != Kind::Rows || !othersConstant(data) || !axis)
      return refuse(mixes);
    if ((*axis)[0] == in[data].axis)
      return refuse("splits the batch");
    return allRows(in[data].axis);
  }
  case OpKind::GatherV2: {
    std::optional<SmallVector<int64_t>> axis =
        axesOf(operands[2], rankOf(operands[0]));
    if (!axis || !isConstant(2))
      return refuse(mixes);
    int64_t a = (*axis)[0];
    if (int64_t batchDims = integer(node, "batch_dims")) {
      // Leading dimensions of params and indices that go together
      // (take_along_axis: DeBERTa's relative positions): the batch among
      // them in both keeps rows apart.
      if (batchDims < 0)
        batchDims += rankOf(operands[1]);
      if (in[0].kind == Kind::Rows && in[1].kind == Kind::Rows &&
          in[0].axis == in[1].axis && in[0].axis < batchDims)
        return allRows(in[0].axis);
      return refuse(mixes);
    }
    if (in[0].kind == Kind::Constant && in[1].kind == Kind::Rows)
      return allRows(a + in[1].axis);
    if (in[0].kind == Kind::Rows && isConstant(1) && in[0].axis != a)
      return allRows(in[0].axis < a ? in[0].axis
                                    : in[0].axis + rankOf(operands[1]) - 1);
    return refuse(mixes);
  }
  case OpKind::GatherNd:
    if (isConstant(0) && in[1].kind == Kind::Rows &&
        in[1].axis < rankOf(operands[1]) - 1)
      return allRows(in[1].axis);
    return refuse(mixes);
  case OpKind::Pad:
  case OpKind::PadV2:
  case OpKind::MirrorPad: {
    std::optional<SmallVector<int64_t>> pads = knownInts(operands[1]);
    if (in[0].kind != Kind::Rows || !othersConstant(0) || !pads ||
        (*pads)[2 * in[0].axis] != 0 || (*pads)[2 * in[0].axis + 1] != 0)
      return refuse(mixes);
    return allRows(in[0].axis);
  }
  case OpKind::Tile: {
    // A constant repeated batch times (DeBERTa's relative embeddings, one
    // per row): every row alike, as a Fill's.
    if (isConstant(0) && in[1].kind == Kind::BatchSize) {
      int64_t axis = batchAxis(results[0]);
      Shape input = Shape::fromType(operands[0].getType());
      if (axis < 0 || !input.ranked || input.dims[axis] != 1)
        return refuse(mixes);
      return allRows(axis);
    }
    std::optional<SmallVector<int64_t>> multiples = knownInts(operands[1]);
    if (in[0].kind != Kind::Rows || !multiples ||
        (*multiples)[in[0].axis] != 1)
      return refuse(mixes);
    return allRows(in[0].axis);
  }
  case OpKind::ReverseV2:
  case OpKind::Roll: {
    Value axesOperand = kind == OpKind::ReverseV2 ? operands[1] : operands[2];
    std::optional<SmallVector<int64_t>> axes =
        axesOf(axesOperand, rankOf(operands[0]));
    if (in[0].kind != Kind::Rows || !othersConstant(0) || !axes ||
        llvm::is_contained(*axes, in[0].axis))
      return refuse(mixes);
    return allRows(in[0].axis);
  }
  case OpKind::MatrixBandPart:
    if (in[0].kind != Kind::Rows || !othersConstant(0) ||
        in[0].axis >= rankOf(operands[0]) - 2)
      return refuse(mixes);
    return allRows(in[0].axis);
  case OpKind::OneHot: {
    int64_t axis = integer(node, "axis", -1);
    if (in[0].kind != Kind::Rows || !othersConstant(0))
      return refuse(mixes);
    return allRows(axis == -1 || axis > in[0].axis ? in[0].axis
                                                   : in[0].axis + 1);
  }
  case OpKind::Reshape:
  case OpKind::Squeeze:
  case OpKind::ExpandDims: {
    // Row i is the same elements before and after when as many elements
    // come before the batch dimension in both: within each of those outer
    // slices, its elements are one contiguous range. The batch dimension
    // may fold in (or unfold) the dimensions after it: a run of rows.
    int64_t axis = -1;
    if (blocks != 1) {
      axis = batchAxis(results[0], blocks);
    } else {
      Growth growth = dimsGrowth(results[0]);
      for (int64_t d = 0; d < int64_t(growth.size()); ++d)
        if (growth[d] != 0) {
          if (growth[d] < 0 || axis >= 0)
            return refuse(mixes);
          axis = d;
          run = growth[d];
        }
    }
    if (in[0].kind != Kind::Rows || !othersConstant(0, {1}) || axis < 0)
      return refuse(mixes);
    auto outer = [&](Value v, int64_t upTo) {
      int64_t n = 1;
      for (int64_t d = 0; d < upTo; ++d)
        n *= dimAt(v, d);
      return n;
    };
    if (outer(operands[0], in[0].axis) != outer(results[0], axis))
      return refuse(mixes);
    return allRows(axis);
  }
  case OpKind::SpaceToBatchND:
  case OpKind::BatchToSpaceND: {
    // SpaceToBatchND makes prod(block_shape) blocks of the batch, block b
    // of row n being row b * N + n; BatchToSpaceND gathers them back.
    std::optional<SmallVector<int64_t>> block = knownInts(operands[1]);
    if (in[0].kind != Kind::Rows || in[0].axis != 0 || !othersConstant(0) ||
        !block || run != 1)
      return refuse(mixes);
    int64_t product = 1;
    for (int64_t b : *block)
      product *= b;
    if (product < 1)
      return refuse(mixes);
    if (kind == OpKind::SpaceToBatchND)
      blocks *= product;
    else if (blocks % product != 0)
      return refuse(mixes);
    else
      blocks /= product;
    return allRows(0);
  }
  case OpKind::Fill:
  case OpKind::BroadcastTo: {
    // Every row alike (a zero state), or rows broadcast along the others.
    unsigned shape = kind == OpKind::Fill ? 0 : 1, data = 1 - shape;
    int64_t axis = batchAxis(results[0]);
    if (axis < 0 || !(isConstant(shape) || in[shape].kind == Kind::BatchSize))
      return refuse(mixes);
    if (isConstant(data))
      return allRows(axis);
    if (in[data].kind == Kind::Rows &&
        in[data].axis + rankOf(results[0]) - rankOf(operands[data]) == axis)
      return allRows(axis);
    return refuse(mixes);
  }
  // TensorLists are the dense tensors [length, element...] they hold
  // (shapeAt), so a list of rows has the batch at axis 1 or later: axis 0
  // picks the element, and must not be the batch.
  case OpKind::TensorListFromTensor:
  case OpKind::TensorListScatter:
  case OpKind::TensorListScatterV2:
  case OpKind::TensorListStack:
    if (in[0].kind != Kind::Rows || in[0].axis == 0 ||
        !othersConstant(0, {1, 2, 3}))
      return refuse(mixes);
    return allRows(in[0].axis);
  case OpKind::TensorListReserve:
  case OpKind::EmptyTensorList: {
    // Zeros whose element shape holds the batch (as Fill's).
    int64_t axis = batchAxis(results[0]);
    if (axis < 1)
      return refuse(mixes);
    return allRows(axis);
  }
  case OpKind::TensorListSetItem:
  case OpKind::TensorListPushBack:
  case OpKind::TensorListScatterIntoExistingList: {
    // The written element (or rows of elements) and the list hold the
    // batch alike; the index is a constant.
    unsigned written = kind == OpKind::TensorListSetItem ? 2 : 1;
    int64_t shift = kind == OpKind::TensorListScatterIntoExistingList ? 0 : 1;
    int64_t axis = -1;
    if (in[0].kind == Kind::Rows)
      axis = in[0].axis;
    if (in[written].kind == Kind::Rows) {
      int64_t at = in[written].axis + shift;
      if (axis >= 0 && at != axis)
        return refuse(mixes);
      axis = at;
    }
    for (unsigned i = 1; i < in.size(); ++i)
      if (i != written && !isConstant(i))
        return refuse(mixes);
    if (axis < 1 || in[0].kind == Kind::BatchSize ||
        in[written].kind == Kind::BatchSize)
      return refuse(mixes);
    return allRows(axis);
  }
  case OpKind::TensorListGetItem:
  case OpKind::TensorListPopBack:
  case OpKind::TensorListGather: {
    if (in[0].kind != Kind::Rows || in[0].axis == 0 ||
        !othersConstant(0, {kind == OpKind::TensorListPopBack ? 1u : 2u}))
      return refuse(mixes);
    int64_t element = in[0].axis - 1;
    if (kind == OpKind::TensorListPopBack) {
      out[0] = Fact::rows(in[0].axis, blocks);
      out[1] = Fact::rows(element, blocks);
      return success();
    }
    if (kind == OpKind::TensorListGather)
      return allRows(element + rankOf(operands[1]));
    return allRows(element);
  }
  case OpKind::Conv2DBackpropInput:
    // A transposed convolution: its output's shape is given.
    if (in[2].kind == Kind::Rows && in[2].axis == 0 && isConstant(1) &&
        in[0].kind != Kind::Rows)
      return allRows(0);
    return refuse(mixes);
  case OpKind::Slice:
  case OpKind::StridedSlice: {
    // The slice takes the whole batch, forwards, at every probe.
    if (in[0].kind != Kind::Rows || !othersConstant(0, {1, 2, 3}))
      return refuse(mixes);
    int64_t rows = in[0].axis, outAxis = -1;
    for (size_t p = 0; p < kNumProbes; ++p) {
      Shape input = shapeAt(p, operands[0]);
      auto begin = probeInts(p, operands[1]), end = probeInts(p, operands[2]);
      if (!begin || !end)
        return refuse("slices the batch at a place unknown at compile time");
      if (kind == OpKind::Slice) {
        int64_t size = (*end)[rows];
        if ((*begin)[rows] != 0 || (size != -1 && size != kProbes[p]))
          return refuse("slices the batch");
        outAxis = rows;
        continue;
      }
      auto strides = probeInts(p, operands[3]);
      std::string error;
      FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
          input.dims, *begin, *end, strides ? *strides : SmallVector<int64_t>(),
          integer(node, "begin_mask"), integer(node, "end_mask"),
          integer(node, "ellipsis_mask"), integer(node, "new_axis_mask"),
          integer(node, "shrink_axis_mask"), error);
      if (!strides || failed(spec))
        return refuse("slices the batch at a place unknown at compile time");
      const StridedSliceDim &dim = spec->dims[rows];
      if (dim.shrink || dim.begin != 0 || dim.stride != 1 ||
          dim.count != kProbes[p])
        return refuse("slices the batch");
      outAxis = llvm::find(spec->outputSource, rows) - spec->outputSource.begin();
    }
    return allRows(outAxis);
  }
  default:
    break;
  }
  if (llvm::any_of(in, [](const Fact &f) { return f.kind == Kind::BatchSize; }))
    return refuse("uses the batch size in a way this analysis does not follow");
  return refuse("is not known to keep the rows of the batch apart");
}

struct TileBatchPass : public impl::TileBatchPassBase<TileBatchPass> {
  using TileBatchPassBase::TileBatchPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tfg::GraphOp step;
    for (auto graph : module.getOps<tfg::GraphOp>())
      if (auto entry = graph->getAttrOfType<StringAttr>(kEntryAttr);
          entry && entry.getValue() == "step")
        step = graph;
    auto feeds = module->getAttrOfType<ArrayAttr>(kFeedsAttr);
    auto fetches = module->getAttrOfType<ArrayAttr>(kFetchesAttr);
    if (!step || !feeds)
      return;

    // The feeds of unknown batch: rank known, only dimension 0 unknown.
    // Any other unknown dimension is tfc-verify-static-shapes' to report.
    SmallVector<Operation *> batchFeeds;
    for (Operation &node : step.getBody()) {
      if (opKindOf(&node) != OpKind::InternalArg)
        continue;
      Shape shape = Shape::fromType(node.getResult(0).getType());
      if (shape.isStatic() || !needsShape(node.getResult(0)))
        continue;
      if (!shape.ranked || shape.rank() == 0 ||
          llvm::any_of(ArrayRef(shape.dims).drop_front(),
                       ShapedType::isDynamic))
        return;
      if (!ShapedType::isDynamic(shape.dims[0]))
        return;
      batchFeeds.push_back(&node);
    }
    if (batchFeeds.empty())
      return;

    int64_t tile = 1;
    if (auto requested = module->getAttrOfType<IntegerAttr>(kBatchTileAttr))
      tile = requested.getInt();
    Operation *feed = batchFeeds.front();
    auto refuse = [&](const std::string &why) {
      Shape shape = Shape::fromType(feed->getResult(0).getType());
      SmallVector<std::string> hint;
      for (int64_t d : shape.dims)
        hint.push_back(ShapedType::isDynamic(d) ? "1" : std::to_string(d));
      std::string name =
          cast<StringAttr>(feeds[feed->getAttrOfType<IntegerAttr>("index")
                                     .getInt()])
              .str();
      module.emitError() << "feed '" << name << "' has shape "
                         << shape.str()
                         << ", unknown at compile time, and one program "
                            "cannot serve every batch: "
                         << why << "; give its shape, e.g. --feed " << name
                         << "=" << llvm::join(hint, ",");
      signalPassFailure();
    };
    if (tile <= 0)
      return refuse("this compile does not tile the batch (--batch-tile 0, "
                    "or the tasks of a cluster)");

    Analysis analysis(module, step);
    std::string why;
    if (failed(analysis.infer(batchFeeds, why)) ||
        failed(analysis.run(batchFeeds, why)))
      return refuse(why);

    SmallVector<int64_t> batchFetches;
    for (Operation &node : step.getBody()) {
      if (opKindOf(&node) != OpKind::InternalRetval)
        continue;
      Fact fact = analysis.factOf(node.getOperand(0));
      int64_t index = node.getAttrOfType<IntegerAttr>("index").getInt();
      std::string name = cast<StringAttr>(fetches[index]).str();
      if (fact.kind == Kind::BatchSize)
        return refuse("fetch '" + name + "' is computed from the batch size");
      if (fact.kind == Kind::Rows && fact.axis != 0)
        return refuse("fetch '" + name + "' has the batch as dimension " +
                      std::to_string(fact.axis) + ", not the first");
      if (fact.kind == Kind::Rows && (fact.blocks != 1 || fact.run != 1))
        return refuse("fetch '" + name + "' has " +
                      std::to_string(fact.blocks * fact.run) +
                      " slices per row of the batch, not one");
      if (fact.kind == Kind::Rows)
        batchFetches.push_back(index);
    }

    // Fixed at the tile: shape inference refines the rest.
    Builder builder(module.getContext());
    SmallVector<int64_t> feedIndices;
    for (Operation *node : batchFeeds) {
      Value result = node->getResult(0);
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> dims(type.getShape());
      dims[0] = tile;
      result.setType(type.clone(dims));
      feedIndices.push_back(node->getAttrOfType<IntegerAttr>("index").getInt());
    }
    llvm::sort(feedIndices);
    llvm::sort(batchFetches);
    module->setAttr(
        kBatchAttr,
        builder.getDictionaryAttr(
            {builder.getNamedAttr("tile", builder.getI64IntegerAttr(tile)),
             builder.getNamedAttr("feeds", builder.getI64ArrayAttr(feedIndices)),
             builder.getNamedAttr("fetches",
                                  builder.getI64ArrayAttr(batchFetches))}));
    unsigned refined = 0;
    if (failed(inferShapes(step.getBody(), refined)))
      signalPassFailure();
  }
};

} // namespace
} // namespace tfc
