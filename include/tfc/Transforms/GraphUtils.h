//===- GraphUtils.h - helpers shared by the graph passes --------*- C++ -*-===//
//
// The compile interface of a module (what a step feeds, fetches and runs),
// and the small graph queries every pass needs: statefulness, roots, unique
// node names, removal of node sets.
//
// The interface lives in the IR as module attributes, so that every stage of
// `tfc compile` can be replayed with `tfc-opt`:
//
//   tfc.feeds       ["x:0", ...]        tensors the caller provides
//   tfc.feed_shapes [#tfg.shape<..>|unit, ...]   shapes given on the command line
//   tfc.fetches     ["y:0", ...]        tensors the step returns
//   tfc.targets     ["train_op", ...]   nodes run for their side effects
//   tfc.init        ["init", ...]       nodes of the one-time init entry
//   tfc.local_init  [...]               nodes every worker runs once after it
//   tfc.chief_init  [...]               nodes the chief runs once after those
//
// After `tfc-prune`, feed i is the `_Arg` node with index i and fetch i the
// `_Retval` node with index i of the graph whose `tfg.entry` is "step".
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_GRAPHUTILS_H
#define TFC_TRANSFORMS_GRAPHUTILS_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/OpTable.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace tfc {

/// On tfg.graph: "step", "init", "local_init", "chief_init" or
/// "runner:NODE", once pruned to an entry.
/// A runner entry runs enqueue node NODE of a queue runner (tfc.queue_runners)
/// on threads of its own, again and again while the steps run.
inline constexpr llvm::StringLiteral kEntryAttr = "tfg.entry";
inline constexpr llvm::StringLiteral kRunnerEntryPrefix = "runner:";

/// The entries run once before the steps, in this order, with their roots'
/// module attribute and their number among a job's steps: the variables'
/// init (--init; a restore replaces it), then each worker's local init
/// (--local-init, TensorFlow's Scaffold.local_init_op: variables local to
/// a worker, which between-graph replication's other workers run too), then
/// the chief's (--chief-init: SyncReplicasOptimizer's chief_init_op and
/// init_tokens_op). Every program runs them, whether it restored or not,
/// but the init. Their step numbers grow in that order, below step 0, as a
/// job's step ids must.
struct OnceEntry {
  llvm::StringLiteral name, rootsAttr;
  int64_t step;
};
inline constexpr OnceEntry kOnceEntries[] = {
    {"init", kInitAttr, -3},
    {"local_init", kLocalInitAttr, -2},
    {"chief_init", kChiefInitAttr, -1}};
/// Whether `graph` is one of kOnceEntries.
inline bool isOnceEntry(mlir::Operation *graph) {
  auto entry = graph->getAttrOfType<mlir::StringAttr>(kEntryAttr);
  for (const OnceEntry &once : kOnceEntries)
    if (entry && entry.getValue() == once.name)
      return true;
  return false;
}

/// The enqueue node a graph's runner entry runs, or empty when the graph
/// is no runner entry.
inline llvm::StringRef runnerEntryNode(mlir::Operation *graph) {
  auto entry = graph->getAttrOfType<mlir::StringAttr>(kEntryAttr);
  if (!entry || !entry.getValue().starts_with(kRunnerEntryPrefix))
    return {};
  return entry.getValue().drop_front(kRunnerEntryPrefix.size());
}

/// A tensor name "node:port" (port 0 when omitted).
struct TensorName {
  std::string node;
  unsigned port = 0;
  std::string str() const { return node + ":" + std::to_string(port); }
};

/// Parses "node" or "node:port"; std::nullopt if malformed.
std::optional<TensorName> parseTensorName(llvm::StringRef text);

/// Whether code generation needs `value`'s shape: handles (resources,
/// variants, opaque values) need none.
bool needsShape(mlir::Value value);

/// How a segment op (Segment*, UnsortedSegment*, SparseSegment* and its
/// gradients) reads its operands, and what it reduces with.
struct SegmentForm {
  /// data (or grad), [indices], segment_ids, [num_segments or output_dim0].
  bool sparse;         // has indices: rows indices[i], not i
  bool counted;        // has num_segments (output_dim0)
  bool sorted;         // ids must increase; empty segments are 0
  bool gradient;       // SparseSegment*Grad: scatters grad rows back
  int32_t reduction;   // Segments.cpp's kind: sum, mean, max, min, prod, sqrt n
  unsigned idsOperand() const { return sparse ? 2 : 1; }
};
std::optional<SegmentForm> segmentFormOf(OpKind kind);

/// How an op of diagonals (MatrixDiag*, MatrixDiagPart*, MatrixSetDiag*,
/// Diag, DiagPart) reads its operands (MatrixDiag.cpp has the geometry).
struct DiagonalForm {
  enum Mode { Make, Part, Set };
  Mode mode;
  int kOperand;       // the band of diagonals k; -1: the main diagonal
  int paddingOperand; // the value outside the band; -1: zeros
  bool aligned;       // the align attribute (V3); else all left-aligned
  bool ofTensor;      // Diag/DiagPart: of a tensor's flattened elements
};
std::optional<DiagonalForm> diagonalFormOf(OpKind kind);
/// The band lower..upper a constant k names (one value: one diagonal).
std::optional<std::pair<int64_t, int64_t>> diagonalBand(mlir::Operation *node);

/// Whether running `node` has effects beyond its outputs: stateful in the
/// registry, or of an op type the registry does not know.
bool isStateful(mlir::Operation *node);

/// `value` seen through Identity nodes: the first value no Identity made.
mlir::Value skipIdentities(mlir::Value value);

/// The value of a floating-point Const of one element that `value` is the
/// output of, or none.
std::optional<double> scalarFloatConstant(mlir::Value value);

/// The node that alone reads `value`, if one node does and nothing else.
mlir::Operation *soleReader(mlir::Value value);

/// Whether nothing reads `value` but Identity nodes that nothing reads in
/// turn (their control tokens aside): a value no kernel needs written.
bool onlyIdleIdentitiesRead(mlir::Value value);

/// Whether `a` and `b` are for the same device, requested and assigned:
/// what a rewrite that merges or moves work between them requires.
bool sameDevice(mlir::Operation *a, mlir::Operation *b);

/// The `kind` node that makes `value`, when `reader` alone reads it and it
/// has no control edges either way and `reader`'s device: a producer a
/// rewrite may fold into its reader. Null otherwise.
mlir::Operation *soleProducer(mlir::Value value, OpKind kind,
                              mlir::Operation *reader);

/// Names of the module's target, init and queue runner nodes: nodes that
/// must stay even though nothing uses them.
llvm::StringSet<> getRootNames(mlir::ModuleOp module);

/// A queue runner of the module: its enqueue nodes, one thread each, and
/// whether it is a chief's (tfc.chief_queue_runners) or not
/// (tfc.queue_runners).
struct QueueRunnerSpec {
  llvm::StringRef flag;
  llvm::SmallVector<llvm::StringRef> nodes;
  bool chief = false;
  /// The compile flag that gives one, for errors.
  llvm::StringRef flagName() const {
    return chief ? "--chief-queue-runner" : "--queue-runner";
  }
};
llvm::SmallVector<QueueRunnerSpec> queueRunnersOf(mlir::ModuleOp module);

/// The enqueue nodes of the module's queue runners, each once, in order.
llvm::SmallVector<llvm::StringRef> queueRunnerNodes(mlir::ModuleOp module);

/// Whether `node` must be kept even when unused: `_Retval`, sends, and the
/// nodes named in `roots`.
bool isRoot(mlir::Operation *node, const llvm::StringSet<> &roots);

/// Whether unused nodes of `body` may be erased: in function bodies always,
/// in graphs once pruned to an entry (before, any output may be fetched).
bool canEraseUnusedNodes(mlir::Block &body);

/// Whether `node` is unused and may go: not stateful, not a root.
bool isDead(mlir::Operation *node, const llvm::StringSet<> &roots);

/// The body block of each tfg.graph and tfg.func of the module.
llvm::SmallVector<mlir::Block *> getBodies(mlir::ModuleOp module);

/// Makes node names unique within a body: returns `base` or `base_N`.
class NameUniquer {
public:
  explicit NameUniquer(mlir::Block &body);
  std::string get(llvm::StringRef base);

private:
  llvm::StringSet<> used;
};

/// The bytes a tensor of `type` takes in memory (booleans one byte each),
/// or -1 unless it is statically shaped with integer or float elements
/// (handles, variants and strings have no size of their own).
int64_t tensorBytes(mlir::Type type);

/// The bytes of one element of `type` (an element type, or a shaped type's
/// elements): a bool's 1, a complex number's two parts, a string's handle.
int64_t elementBytes(mlir::Type type);

/// A new node `opType` named `name` where `like` is: its location, and the
/// device it asks for (if any).
mlir::Operation *createNodeLike(mlir::OpBuilder &builder, mlir::Operation *like,
                                llvm::StringRef opType, llvm::StringRef name,
                                mlir::TypeRange types, mlir::ValueRange data,
                                mlir::ValueRange control,
                                llvm::ArrayRef<mlir::NamedAttribute> attrs = {});

/// A new Const node holding `value` (of its type), named `name`, where
/// `like` is, waiting for `control`.
mlir::Operation *createConstLike(mlir::OpBuilder &builder, mlir::Operation *like,
                                 llvm::StringRef name, mlir::ElementsAttr value,
                                 mlir::ValueRange control = {});

/// Whether `node` is TF1 control flow: Switch, Merge, Enter, Exit,
/// NextIteration or LoopCond (and the Ref forms). Partitioning cuts its
/// edges only in a loop whose nodes are on several devices (Partition.cpp),
/// so placement keeps the rest with its neighbours.
bool isTf1ControlFlow(mlir::Operation *node);

/// Whether values of `type` are variants (TensorLists, Optionals).
bool isVariant(mlir::Type type);

/// Nodes that pass a variant on unchanged (to each data output): Enter,
/// Merge, Switch, Identity, NextIteration, Exit.
bool carriesVariant(OpKind kind);

/// Ops that TensorFlow applies to the elements of variants (the zeros and
/// sums of gradients): on a dense value, the same op.
bool mapsVariant(OpKind kind);

/// Once variants have become the dense values `dense`, gives the nodes
/// that carry or map them on (transitively) their dense element type.
void retypeVariantCarriers(llvm::ArrayRef<mlir::Value> dense);

/// Whether `node` is a TensorListSetItem that grows its list to reach the
/// index (resize_if_index_out_of_bounds).
bool growsList(mlir::Operation *node);

/// The TensorListReserve that made `list`, followed back through its
/// first variant input (the nodes that carry or write a list), or null.
mlir::Operation *reserveOf(mlir::Value list);

/// Row-major element strides of a shape (the innermost dimension's is 1).
llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// A node's bool, int or float attr, or `otherwise` when it has none (the
/// OpDef default).
bool boolAttr(mlir::Operation *node, llvm::StringRef name,
              bool otherwise = false);
int64_t intAttr(mlir::Operation *node, llvm::StringRef name,
                int64_t otherwise = 0);
double floatAttr(mlir::Operation *node, llvm::StringRef name,
                 double otherwise);
/// A node's int list attr (strides, dilations, explicit_paddings, ...):
/// its integers in order, none when it has no such attr.
llvm::SmallVector<int64_t> intListAttr(mlir::Operation *node,
                                       llvm::StringRef name);

/// SAME padding's share before a window op's spatial dimension of `in`
/// elements giving `out`: half the total, the smaller half (TensorFlow's
/// rule).
int64_t samePaddingBefore(int64_t in, int64_t out, int64_t window,
                          int64_t stride, int64_t dilation = 1);

/// The integer values of a Const node's output, or nullopt.
std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value);

/// The axis of a ConcatV2 node, from 0, where it is a constant and the
/// result is ranked; nullopt for other nodes.
std::optional<int64_t> concatAxis(mlir::Operation *node);

/// Whether tfc-plan-memory made data operand `index` of a ConcatV2 node in
/// its part of the node's output (`tfc.in_place_operands`).
bool isInPlaceOperand(mlir::Operation *node, unsigned index);

/// Where data operand `index` of a ConcatV2 node starts along its `axis`:
/// the sum of the earlier operands' extents (static shapes).
int64_t concatOffset(mlir::Operation *node, unsigned index, int64_t axis);

/// How many innermost dimensions a Fourier transform node (FFT, IFFT,
/// RFFT, IRFFT and their 2D and 3D forms) transforms: 1, 2 or 3.
int64_t fourierAxes(mlir::Operation *node);

/// Whether `op` is one step of a graph's schedule: a node, or a fusion
/// group (tfc.fusion_group, which runs its members as one node, where its
/// root ran; tfg's node helpers read its operands and results).
bool isNodeOrGroup(mlir::Operation *op);

/// The nodes a step of the schedule computes: a fusion group's members in
/// dependency order (its root last), or the node itself.
llvm::SmallVector<mlir::Operation *> nodesComputedBy(mlir::Operation *op);

/// The operations of `body`, producers first and otherwise in block order.
/// Edges leaving NextIteration (loop back edges) are ignored; operations on
/// other cycles come last, in block order.
llvm::SmallVector<mlir::Operation *> topologicalOrder(mlir::Block &body);

/// Keeps colocation constraints (`_class = ["loc:@name", ...]`) valid after
/// nodes were erased: a reference to a node named in `replacements` points
/// to its replacement; one to a node that no longer exists is dropped.
void updateColocations(mlir::Block &body,
                       const llvm::StringMap<std::string> &replacements = {});

/// Erases `nodes` (which only each other may use).
void eraseNodes(llvm::ArrayRef<mlir::Operation *> nodes);

} // namespace tfc

#endif // TFC_TRANSFORMS_GRAPHUTILS_H
