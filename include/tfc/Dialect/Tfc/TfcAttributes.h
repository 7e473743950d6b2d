//===- TfcAttributes.h - the names of what passes hand each other -*- C++ -*-===//
//
// Every attribute tfc's passes write for later passes to read, by name. The
// tfc dialect (TfcDialect.td, which says who writes and reads each) verifies
// where each may appear and the kind of its value.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_TFCATTRIBUTES_H
#define TFC_DIALECT_TFC_TFCATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace tfc {

//===----------------------------------------------------------------------===//
// On the module: the compile's interface and configuration, and the plans
// that span partitions.
//===----------------------------------------------------------------------===//

inline constexpr llvm::StringLiteral kFeedsAttr = "tfc.feeds";
inline constexpr llvm::StringLiteral kFeedShapesAttr = "tfc.feed_shapes";
inline constexpr llvm::StringLiteral kFetchesAttr = "tfc.fetches";
inline constexpr llvm::StringLiteral kTargetsAttr = "tfc.targets";
inline constexpr llvm::StringLiteral kInitAttr = "tfc.init";
/// The once-run entries after the variables are ready (GraphUtils.h's
/// kOnceEntries): every worker's local init, and the chief's.
inline constexpr llvm::StringLiteral kLocalInitAttr = "tfc.local_init";
inline constexpr llvm::StringLiteral kChiefInitAttr = "tfc.chief_init";
/// The graph's queue runners, one string each: the enqueue nodes its
/// threads run, comma-separated, one thread per name (a name given twice
/// runs on two threads). tfc-prune makes an entry of each enqueue node.
inline constexpr llvm::StringLiteral kQueueRunnersAttr = "tfc.queue_runners";
/// The chief queue runners, alike: they run in the chief's job only, after
/// its chief init, until its steps end (SyncReplicasOptimizer's).
inline constexpr llvm::StringLiteral kChiefQueueRunnersAttr =
    "tfc.chief_queue_runners";
/// Under between-graph replication, the number of workers, each running
/// the template replica's step against the same ps state (an integer > 1;
/// absent: one). Bounds what the state may gather from all of them.
inline constexpr llvm::StringLiteral kReplicasAttr = "tfc.replicas";
inline constexpr llvm::StringLiteral kDevicesAttr = "tfc.devices";
inline constexpr llvm::StringLiteral kPlacementAttr = "tfc.placement";
inline constexpr llvm::StringLiteral kSoftPlacementAttr = "tfc.soft_placement";
inline constexpr llvm::StringLiteral kCostFileAttr = "tfc.cost_file";
/// Rows per run of the step when a batch's size is unknown (tfc-tile-batch;
/// 0: do not tile), and what the pass found: {tile, feeds, fetches}, the
/// indices of the feeds and fetches whose first dimension is the batch.
inline constexpr llvm::StringLiteral kBatchTileAttr = "tfc.batch_tile";
/// The module's budget for tfc-split-batch's micro-batches (`tfc compile
/// --micro-batch-bytes`), in bytes; 0 turns the pass off.
inline constexpr llvm::StringLiteral kMicroBatchBytesAttr = "tfc.micro_batch_bytes";
inline constexpr llvm::StringLiteral kBatchAttr = "tfc.batch";
/// Per fetch, -1, or the index of the int64 scalar fetch that holds how
/// many of its rows are TensorFlow's (the rest padding up to its bound:
/// the rows of a Where, tfc-bound-dynamic-rows).
inline constexpr llvm::StringLiteral kRowCountsAttr = "tfc.row_counts";
/// Per fetch, the dimension along which the rows tfc.row_counts counts
/// lie (0 where absent or none).
inline constexpr llvm::StringLiteral kRowAxesAttr = "tfc.row_axes";
/// Per feed, [dimension, bound] when --max-dim bounds a dimension of it,
/// else [] (set by setCompileInterface).
inline constexpr llvm::StringLiteral kFeedMaxDimsAttr = "tfc.feed_max_dims";
/// Per feed, -1, or the index of the int64 scalar feed that says how many
/// slices of its bounded dimension are given (tfc-bound-dynamic-rows).
inline constexpr llvm::StringLiteral kFeedRowCountsAttr = "tfc.feed_row_counts";
inline constexpr llvm::StringLiteral kCompressTransfersAttr =
    "tfc.compress_transfers";
inline constexpr llvm::StringLiteral kNoRecvSchedulingAttr =
    "tfc.no_recv_scheduling";
/// The checkpoint prefix whose values tfc-freeze-variables bakes in (set by
/// setCompileInterface for an inference compile of a SavedModel).
inline constexpr llvm::StringLiteral kFreezeVariablesAttr =
    "tfc.freeze_variables";
/// The object graph (a serialized TrackableObjectGraph) of the TF2
/// checkpoint the variables came from, which the program's checkpoints
/// carry too (set by tfc-freeze-variables).
inline constexpr llvm::StringLiteral kObjectGraphAttr =
    "tfc.checkpoint_object_graph";
/// The state area's size and its table of variables (tfc-plan-state).
inline constexpr llvm::StringLiteral kStateBytesAttr = "tfc.state_bytes";
inline constexpr llvm::StringLiteral kVariablesAttr = "tfc.variables";
/// The cluster task ("/job:ps/replica:0/task:0") whose program the module
/// is: it keeps that task's partitions only, and may have none
/// (extractTaskModule, ClusterProgram.h).
inline constexpr llvm::StringLiteral kTaskAttr = "tfc.task";

//===----------------------------------------------------------------------===//
// On a graph (a partition of an entry).
//===----------------------------------------------------------------------===//

/// The device a partition graph runs on (set by tfc-partition).
inline constexpr llvm::StringLiteral kPartitionDeviceAttr = "tfc.device";
/// The size of the partition's arena (tfc-plan-memory).
inline constexpr llvm::StringLiteral kArenaBytesAttr = "tfc.arena_bytes";
/// The step function's number of inputs and its name
/// (convert-tfg-to-memref).
inline constexpr llvm::StringLiteral kNumInputsAttr = "tfc.num_inputs";
inline constexpr llvm::StringLiteral kStepFunctionAttr = "tfc.step_function";

//===----------------------------------------------------------------------===//
// On a node.
//===----------------------------------------------------------------------===//

/// The activation a training batch norm applies as it writes y, "Relu" or
/// "Relu6"; on a batch norm gradient with kMaxPoolGradientAttr, "Relu":
/// the ReLU's gradient applies to the pooling's (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kActivationAttr = "tfc.activation";
/// On a training batch norm that also max-pools y into one more data
/// result (its last): the window as [kh, kw, stride_h, stride_w, pad_top,
/// pad_left] (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kMaxPoolAttr = "tfc.max_pool";
/// On a batch norm gradient whose first data operand is the gradient of a
/// max pooling of y, its last data operand (a MaxPoolGrad, and its
/// ReluGrad where `tfc.activation` is "Relu", folded in by
/// tfc-fuse-elementwise): the window, as kMaxPoolAttr's.
inline constexpr llvm::StringLiteral kMaxPoolGradientAttr =
    "tfc.max_pool_gradient";
/// On a training batch norm with kMaxPoolAttr whose windows tile y: one
/// more data result, its last (after the pooled one), records per pooled
/// element where its window's first maximum is and whether it is positive
/// (int8); on the batch norm gradient (with kMaxPoolGradientAttr) that
/// reads that record as its last data operand in y's place
/// (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kMaxPoolPositionsAttr =
    "tfc.max_pool_positions";
/// On a MaxPool: its explicit padding is zeros, which a window's maximum
/// counts, where MaxPool's own padding is skipped (a Pad of zeros
/// tfc-fold-pads folded in, of a value that may be negative).
inline constexpr llvm::StringLiteral kZeroPaddingAttr = "tfc.zero_padding";
/// On a batch norm gradient that also sums x's gradient over the rows into
/// one more data result, its last (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kInputGradientSumAttr =
    "tfc.input_gradient_sum";
/// On a pooled batch norm gradient that also computes the filter gradient
/// of the convolution whose output gradient its x gradient is (a network's
/// first, over an image of one to three channels), into one more data
/// result, its last, from that convolution's input, one more data
/// operand, its last; the value is the convolution's window, [3, 3,
/// stride_h, stride_w, pad_top, pad_left] (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kFilterGradientAttr = "tfc.filter_gradient";
/// On a Mean over contiguous axes that also computes the variance (the
/// Mean of the SquaredDifference of its input and its result) into one more
/// data result, its second (tfc-fuse-elementwise).
inline constexpr llvm::StringLiteral kVarianceAttr = "tfc.variance";
/// The arena offset of each data result, -1 for none (tfc-plan-memory; on
/// nodes and fusion groups).
inline constexpr llvm::StringLiteral kOffsetsAttr = "tfc.offsets";
/// On a ConcatV2 whose listed data operands are parts of its own output
/// buffer, written there by their producers, which the concatenation
/// then does not copy (tfc-plan-memory's concatenations in place).
inline constexpr llvm::StringLiteral kInPlaceOperandsAttr =
    "tfc.in_place_operands";
/// The step output parameter that holds each data result instead of the
/// arena, -1 for none (tfc-plan-memory; only where one is held so).
inline constexpr llvm::StringLiteral kInOutputsAttr = "tfc.in_outputs";
/// The path of the TF1 loop frame the node runs in (tfc-raise-frames).
inline constexpr llvm::StringLiteral kFrameAttr = "tfc.frame";
/// On variable nodes loaded from a SavedModel's checkpoint: the key of
/// their tensor there (tfc-freeze-variables).
inline constexpr llvm::StringLiteral kCheckpointKeyAttr = "tfc.checkpoint_key";
/// On a variable node that is a part of a partitioned variable: the full
/// variable's checkpoint key (kSliceOfAttr) and the part's slice of it
/// (kCheckpointSliceAttr), a saver's shape_and_slices spec ("10 4
/// 0,5:0,4"); checkpoints save and restore the part as that slice, as
/// TensorFlow's savers do. The part stays a variable of its own.
inline constexpr llvm::StringLiteral kSliceOfAttr = "tfc.slice_of";
inline constexpr llvm::StringLiteral kCheckpointSliceAttr = "tfc.checkpoint_slice";
/// On the scatters and sparse optimizer updates whose indices come from a
/// bounded Unique: negative indices, its padding, select no row
/// (tfc-bound-unique); on a DynamicStitch of rows of data-dependent
/// number, the padding indices made -1 (tfc-bound-dynamic-rows).
inline constexpr llvm::StringLiteral kSkipNegativeIndicesAttr =
    "tfc.skip_negative_indices";
/// On a Unique whose values only those updates use: its values are padded
/// with -1, which they skip (tfc-bound-unique); any other Unique pads with
/// its first value, a valid index (tfc-bound-dynamic-rows).
inline constexpr llvm::StringLiteral kPadNegativeAttr = "tfc.pad_negative";
/// On a TensorListReserve whose list grows (TensorListSetItem's
/// resize_if_index_out_of_bounds), or a TensorArrayV3 of dynamic size, to
/// a length the loop decides: the most elements it can hold
/// (tfc-bound-growable-lists).
inline constexpr llvm::StringLiteral kListCapacityAttr = "tfc.list_capacity";
/// On a static lookup table (HashTableV2) whose initializer the graph
/// gives constants: its keys and values, in the initializer's order
/// (tfc-bind-tables).
inline constexpr llvm::StringLiteral kTableKeysAttr = "tfc.table_keys";
inline constexpr llvm::StringLiteral kTableValuesAttr = "tfc.table_values";
/// A variable read marked by tfc-order-variable-accesses to copy the value
/// (a snapshot), because a write may run before all its users.
inline constexpr llvm::StringLiteral kSnapshotAttr = "tfc.snapshot";
/// On variable nodes and random ops after tfc-plan-state: the byte offset
/// of their state (a variable's value; a random op's generator position),
/// and for variables the offset of the byte saying it is initialized.
inline constexpr llvm::StringLiteral kStateOffsetAttr = "tfc.state_offset";
inline constexpr llvm::StringLiteral kFlagOffsetAttr = "tfc.flag_offset";
/// On each StackV2 node: the number of its stack in the runtime, unique in
/// the program (given by convert-tfg-to-memref).
inline constexpr llvm::StringLiteral kStackSlotAttr = "tfc.stack_slot";
/// On each TensorArrayV3 and TensorArrayGradV3 node: the number of its
/// array in the runtime, unique in the program (a gradient array's per
/// forward array and source; given by convert-tfg-to-memref).
inline constexpr llvm::StringLiteral kTensorArraySlotAttr =
    "tfc.tensor_array_slot";
/// On each queue node (FIFOQueueV2, PaddingFIFOQueueV2): the number of its
/// queue in the runtime, one per queue in the program (the init entry's
/// node and the step's of one queue share it; given by
/// convert-tfg-to-memref).
inline constexpr llvm::StringLiteral kQueueSlotAttr = "tfc.queue_slot";
/// On each accumulator node (ConditionalAccumulator and its Resource
/// form): the number of its accumulator, likewise.
inline constexpr llvm::StringLiteral kAccumulatorSlotAttr =
    "tfc.accumulator_slot";
/// On each SummaryWriter node: the number of its writer in the runtime,
/// likewise (by shared_name, so that the init's CreateSummaryFileWriter and
/// the step's writes reach one writer).
inline constexpr llvm::StringLiteral kSummaryWriterSlotAttr =
    "tfc.summary_writer_slot";

} // namespace tfc

#endif // TFC_DIALECT_TFC_TFCATTRIBUTES_H
