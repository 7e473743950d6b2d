//===- StepEmitter.h - code generation of one step, by op family -*- C++ -*-===//
//
// The state of convert-tfg-to-memref while it writes `tfc_step_impl`: the
// builder, the memref of each tensor value, the runtime and arena
// parameters, and the helpers the lowering patterns write code with. The
// pass (ConvertTfgToMemref.cpp) walks the schedule and applies to each node
// the pattern of its op (PopulatePatterns.h), each family's in its own
// file of this directory. Private to the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_CODEGEN_STEPEMITTER_H
#define TFC_TRANSFORMS_CODEGEN_STEPEMITTER_H

#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Frames.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Target/DeviceTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <optional>
#include <type_traits>

namespace tfc {

/// The memref type of a statically shaped tensor value.
mlir::MemRefType memrefOf(mlir::Value value);
mlir::MemRefType memrefOf(mlir::Type tensorType);

/// A buffer seen as rows of its first dimension (a scalar: one row): the
/// number of rows and the elements per row (the embedding ops' view).
std::pair<int64_t, int64_t> rowsOf(mlir::MemRefType type);

/// Appends the bytes of `text` as a string object, tfc_runtime.h's layout:
/// its length (int64, little-endian), its bytes, a NUL.
void appendStringObject(llvm::SmallVectorImpl<int8_t> &bytes,
                        llvm::StringRef text);

/// The tensor type a variable node declares (its dtype and shape attrs,
/// static after tfc-plan-state) as a memref.
mlir::MemRefType variableType(mlir::Operation *variableNode);

/// What a convolution's or a dense layer's kernel applies to its output
/// as it writes it (see tfc-fuse-elementwise): a per-channel bias, a
/// residual tensor added, an activation (an enum tfc_activation); `root`
/// is the node whose value it writes.
struct Epilogue {
  mlir::Value bias, residual;
  int64_t activation = TFC_ACTIVATION_NONE;
  mlir::Operation *root = nullptr;
};

class StepEmitter {
public:
  /// Writes the step of `graph`, a partition for `target`'s devices.
  /// `tracePoints`: each node's code bracketed by the trace's (see
  /// `traced`).
  StepEmitter(mlir::ModuleOp module, tfg::GraphOp graph,
              const DeviceTarget &target, unsigned &globals,
              bool tracePoints = true)
      : module(module), graph(graph), context(module.getContext()),
        builder(context), target(target), tracePoints(tracePoints),
        globals(globals) {}
  ~StepEmitter();

  /// Writes `functionName`, whose parameters after the runtime and the
  /// arena are every input and then every output of the model (types by
  /// index, over all partitions of the step): each partition takes them
  /// all and uses its own.
  mlir::LogicalResult emit(llvm::StringRef functionName,
                           llvm::ArrayRef<mlir::Type> inputTypes,
                           llvm::ArrayRef<mlir::Type> outputTypes);

  // The families' lowerings that other families call too (the others are
  // patterns of their family's file only).
  mlir::LogicalResult emitWindow(mlir::Operation *node,
                                 const Epilogue *epilogue = nullptr);
  /// A product by a constant matrix (denseLayerOf), with its epilogue:
  /// one call of the dense kernel.
  mlir::LogicalResult emitDense(mlir::Operation *node,
                                const Epilogue *epilogue = nullptr);
  /// A 1x1 convolution and the depthwise convolution that alone reads its
  /// output (tfc-fuse-elementwise's expansion groups), each with its
  /// epilogue (a bias and an activation): one call of the
  /// pointwise-depthwise kernel, which never writes the expansion.
  mlir::LogicalResult emitPointwiseDepthwise(mlir::Operation *pointwise,
                                             const Epilogue &first,
                                             mlir::Operation *depthwise,
                                             const Epilogue &second);
  /// A depthwise convolution and the 1x1 convolution that alone reads its
  /// output (tfc-fuse-elementwise's separable groups), each with its
  /// epilogue (the 1x1's may add a residual), and `inputActivation`, the
  /// ReLU or ReLU6 whose value only the depthwise reads, or null. With
  /// `pool`, the MaxPool of the group's output the group took (no residual
  /// then), which the kernel computes as it goes.
  struct SeparableGroup {
    mlir::Operation *inputActivation = nullptr, *depthwise = nullptr;
    Epilogue first;
    mlir::Operation *pointwise = nullptr;
    Epilogue second;
    mlir::Operation *pool = nullptr;
  };
  /// One call of the depthwise-pointwise kernel, which never writes the
  /// depthwise output.
  mlir::LogicalResult emitDepthwisePointwise(const SeparableGroup &group);
  /// Two separable groups, the second reading the first's output alone
  /// (tfc-fuse-elementwise's pairs): one call of the pair kernel, which
  /// never writes the first's output either.
  mlir::LogicalResult emitSeparablePair(const SeparableGroup &first,
                                        const SeparableGroup &second);
  /// The operands a kernel call takes for an epilogue whose root writes
  /// `out`: pointers to the bias and the residual (null pointers where
  /// there are none), and how the residual is read (0 none, 1 from its
  /// buffer, 2 already in `out`, where the memory plan put it).
  struct EpilogueOperands {
    mlir::Value bias, residual;
    int64_t residualMode = 0;
  };
  mlir::FailureOr<EpilogueOperands>
  epilogueOperands(mlir::Operation *node, const Epilogue *epilogue,
                   mlir::Value out);
  /// A fusion group of attention (tfc-fuse-elementwise: the scores'
  /// product, an optional scaling Mul, Softmax, the context's product; the
  /// last is the root): one call of the attention kernel.
  mlir::LogicalResult emitAttention(llvm::ArrayRef<mlir::Operation *> members);
  /// Conv2DBackpropInput/Filter (and depthwise), MaxPoolGrad, AvgPoolGrad;
  /// with `reluGrad`, the ReluGrad a MaxPoolGrad's kernel applies as it
  /// writes (the group's root, whose buffer it writes).
  mlir::LogicalResult emitWindowGradient(mlir::Operation *node,
                                         mlir::Operation *reluGrad = nullptr);

private:
  /// A separable group's kernel parameters and operands (EmitWindows.cpp),
  /// for its output `out` (null for a pair's first group).
  struct SeparableCall;
  mlir::FailureOr<SeparableCall> separableCall(const SeparableGroup &group,
                                               mlir::Value out);
  /// Lowers a node with the pattern of its op.
  mlir::LogicalResult emitNode(mlir::Operation *node);
  /// Writes `node`'s code by `emitCode`, between the trace's clock read
  /// and record (tfc_trace_now, tfc_trace_node), each under `tracing`
  /// (Trace.h: one predictable branch each when the program is not
  /// tracing).
  mlir::LogicalResult traced(mlir::Operation *node,
                             llvm::function_ref<mlir::LogicalResult()> emitCode);
  /// emitNode under an scf.if when the node may be dead (TF1 Switch/Merge).
  mlir::LogicalResult emitPredicated(mlir::Operation *node);
  /// Nodes and whole loops, in order (see Frames.h).
  mlir::LogicalResult emitItems(llvm::ArrayRef<FrameItem> items);
  /// A TF1 while loop as an scf.while.
  mlir::LogicalResult emitLoop(Frame *frame);
  /// Records whether `node` (and each of its outputs) is alive: null when
  /// it always is, else an i1 computed in the step.
  mlir::LogicalResult computeAlive(mlir::Operation *node);
  /// a AND b (all) or a OR b, where null means true.
  mlir::Value combineAlive(mlir::Location loc, mlir::Value a, mlir::Value b,
                           bool all);

  /// The patterns, frozen once per step, and their applicator. The
  /// applicator moves its rewriter's insertion point to the node it
  /// matches, so it gets a rewriter of its own: patterns write with
  /// `builder`, at the point the walk has reached in the step.
  std::unique_ptr<mlir::FrozenRewritePatternSet> patterns;
  std::unique_ptr<mlir::PatternApplicator> applicator;

public:
  // Helpers shared by the families' patterns.

  /// Computes each element of `output` by `body` from the elements of
  /// `inputs` read through `inputMaps` (a parallel linalg.generic).
  using BodyBuilder = llvm::function_ref<mlir::Value(
      mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;
  /// The window of `whole` a slice reads (one StridedSliceDim per dim of
  /// `whole`) and the map from the output's dims into it; output dim k
  /// walks dim outputSource[k] of `whole` (-1: a new axis). A non-null
  /// `indexAt[d]` is the index of shrunk dim d, computed in the step.
  std::pair<mlir::Value, mlir::AffineMap>
  sliceOf(mlir::Location loc, mlir::Value whole,
          llvm::ArrayRef<StridedSliceDim> dims,
          llvm::ArrayRef<int64_t> outputSource,
          llvm::ArrayRef<mlir::Value> indexAt = {});
  void emitLoop(mlir::Location loc, mlir::ValueRange inputs,
                llvm::ArrayRef<mlir::AffineMap> inputMaps, mlir::Value output,
                BodyBuilder body);

  /// The memref holding a tensor value: an input parameter, a constant
  /// global, a view of the arena at the value's planned offset, or a
  /// strided window of a concatenation's (concatWindowFor); null when the
  /// value has no buffer.
  mlir::Value memrefFor(mlir::Value value);
  /// A concatenation's operand planned in place (`tfc.in_place_operands`):
  /// its part of the concatenation's output, a subview with the offset
  /// recorded for pointerTo. Null for other values.
  mlir::Value concatWindowFor(mlir::Value value);
  /// The memref of a node's data result `port`, or an error naming the
  /// node when it has none.
  mlir::FailureOr<mlir::Value> outputFor(mlir::Operation *node,
                                         unsigned port = 0);
  /// The raw pointer of a memref's first element (views: their base plus
  /// the planned offset).
  mlir::Value pointerTo(mlir::Value memref);
  /// A null pointer, for a kernel's absent optional input.
  mlir::Value nullPointer(mlir::Location loc);
  /// `pointer` advanced by `offset` bytes.
  mlir::Value bytePointer(mlir::Location loc, mlir::Value pointer,
                          int64_t offset);
  /// Whether two memrefs are the same memory: one value, or views at the
  /// same offset of the same base.
  bool sameMemory(mlir::Value a, mlir::Value b) const;
  /// Makes the memref of every data operand and result of `nodes` at the
  /// builder's point (before a region that uses them, so that what
  /// follows the region sees them too).
  void makeBuffers(llvm::ArrayRef<mlir::Operation *> nodes);
  /// NOT of an i1.
  mlir::Value negate(mlir::Location loc, mlir::Value condition);
  /// Whether `value` is alive (see computeAlive); public for Merge's pattern.
  mlir::Value aliveOf(mlir::Value value);
  /// `memref`'s elements seen as the row-major `type`: another view at
  /// the same offset of a view's base, or a reinterpretation of a
  /// parameter or global. (pointerTo, the address a kernel gets, adds the
  /// offsets of views it made; through a reinterpretation of a view the
  /// aligned pointer folds to the base's and the offset would be lost.)
  mlir::Value reshapeOf(mlir::Location loc, mlir::Value memref,
                        mlir::MemRefType type);
  /// A view of `type` at byte `offset` of `base` (the arena or the state),
  /// or all of an output parameter `base` seen as `type`.
  mlir::Value viewOf(mlir::Location loc, mlir::Value base, int64_t offset,
                     mlir::MemRefType type);
  /// The step's output parameter `index` (a _Retval's index).
  mlir::Value outputParameter(int64_t index);
  /// A private constant global `prefix`N holding `value`; its name.
  std::string addGlobal(mlir::Location loc, llvm::StringRef prefix,
                        mlir::MemRefType type, mlir::DenseElementsAttr value,
                        mlir::IntegerAttr alignment);
  /// A pointer to `text` as a NUL-terminated private global.
  mlir::Value stringPointer(mlir::Location loc, llvm::StringRef text);
  /// A pointer to `text` as a string object (tfc_runtime.h's layout) in a
  /// private global, and the i64 handle of a pointer.
  mlir::Value stringObject(mlir::Location loc, llvm::StringRef text);
  mlir::Value handleOf(mlir::Location loc, mlir::Value pointer);
  /// The handles of a string Const, stored by the code this emits.
  mlir::Value stringConstant(mlir::Location loc,
                             mlir::DenseStringElementsAttr value,
                             mlir::MemRefType type);
  /// A pointer to a stack table of the addresses of `memrefs` (the kernels
  /// that take a variable number of tensors); a null memref is a null
  /// address.
  mlir::Value addressTable(mlir::Location loc,
                           llvm::ArrayRef<mlir::Value> memrefs);
  /// Fails at run time, naming the variable, unless the variable behind
  /// `reference` is initialized.
  void checkInitialized(mlir::Location loc, mlir::Value reference);
  /// Sets (or, for DestroyResourceOp, clears) a variable's initialized flag.
  void setInitialized(mlir::Location loc, mlir::Value reference, bool value);
  /// Takes and releases the lock of the variable whose buffer is
  /// `variable`, around an update (tfc_variable_lock).
  void lockVariable(mlir::Location loc, mlir::Value variable);
  void unlockVariable(mlir::Location loc, mlir::Value variable);
  /// The symbol of the target's kernel `kernel` ("matmul_f32" is the CPU
  /// target's tfc_cpu_matmul_f32).
  std::string kernelName(llvm::StringRef kernel) const {
    return target.kernelSymbol(kernel);
  }
  /// The declaration of an external function (a runtime kernel).
  mlir::func::FuncOp kernel(llvm::StringRef name, mlir::TypeRange inputs,
                            mlir::TypeRange results = {});
  /// A call of kernel `name` with the runtime first; integer arguments
  /// become i64 constants (i32 for the `kind` selectors given as int32_t).
  void callKernel(mlir::Location loc, llvm::StringRef name,
                  llvm::ArrayRef<mlir::Value> pointers,
                  llvm::ArrayRef<int64_t> sizes,
                  std::optional<int32_t> kind = {});
  /// A private constant global holding `values`, and its memref.
  mlir::Value constantTable(mlir::Location loc, llvm::ArrayRef<int64_t> values);
  /// A private constant global holding a kernel's parameter struct
  /// (tfc_runtime.h: fields of 8 bytes, int64 or double, the layout the
  /// kernel reads; the global holds their bytes as int64s), and the
  /// pointer a kernel takes.
  template <typename Params>
  mlir::Value constantParams(mlir::Location loc, const Params &params) {
    static_assert(std::is_trivially_copyable_v<Params> &&
                      std::is_standard_layout_v<Params> &&
                      sizeof(Params) % sizeof(int64_t) == 0,
                  "kernel parameters are a struct of 8-byte fields");
    llvm::SmallVector<int64_t> fields(sizeof(Params) / sizeof(int64_t));
    std::memcpy(fields.data(), &params, sizeof(Params));
    return pointerTo(constantTable(loc, fields));
  }
  mlir::InFlightDiagnostic error(mlir::Operation *node) {
    return node->emitError() << tfg::nodeLabel(node) << ": ";
  }

  // The step being written: patterns write at the builder's point and
  // pass the runtime first to every kernel.
  mlir::ModuleOp module;
  tfg::GraphOp graph;
  mlir::MLIRContext *context;
  mlir::OpBuilder builder;
  const DeviceTarget &target;
  mlir::func::FuncOp step;
  mlir::Value runtime, arena, state;
  /// Whether this call of the step records a trace (an i1 of the entry;
  /// null without trace points).
  bool tracePoints;
  mlir::Value tracing;
  /// The memref of each tensor value memrefFor knows (public for the
  /// patterns whose result is their input's memory: StackPushV2).
  llvm::DenseMap<mlir::Value, mlir::Value> memrefs;
  /// The iteration (i64, from 0) of each loop the builder's point is in,
  /// the outermost first.
  llvm::SmallVector<mlir::Value> loopIterations;

private:
  /// The base (arena or state) and byte offset of each view (pointerTo).
  llvm::DenseMap<mlir::Value, std::pair<mlir::Value, int64_t>> views;
  /// Liveness (see computeAlive): absent means always alive.
  llvm::DenseMap<mlir::Operation *, mlir::Value> aliveNodes;
  llvm::DenseMap<mlir::Value, mlir::Value> aliveValues;
  /// The global holding each text stringPointer was asked for.
  llvm::StringMap<std::string> strings;
  /// The global holding each string object stringObject was asked for.
  llvm::StringMap<std::string> stringObjects;
  /// The kernels `kernel` declared or found: looking a symbol up in the
  /// module walks all of its ops (thousands of globals in a large graph),
  /// once per node otherwise.
  llvm::StringMap<mlir::func::FuncOp> kernels;
  /// Numbers the private globals; shared by the partitions of a module.
  unsigned &globals;
  /// The applicator's rewriter (see `applicator`).
  mlir::PatternRewriter matcher{context};
};

} // namespace tfc

#endif // TFC_TRANSFORMS_CODEGEN_STEPEMITTER_H
