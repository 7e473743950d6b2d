//===- TfcDialect.td - what tfc's passes hand each other ---*- tablegen -*-===//
//
// The `tfc` dialect declares the attributes tfc's passes write on the
// module, its graphs and their nodes for later passes to read (feeds and
// fetches, placements, the memory and state plans, ...), and verifies each
// wherever it appears: after every pass, the pass manager's
// verifier checks that every `tfc.*` attribute is one this dialect
// declares, on the kind of operation that may hold it, with a value of its
// kind. The names live in include/tfc/Dialect/Tfc/TfcAttributes.h. Its
// operations (the fusion group) are in TfcOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_TFCDIALECT_TD
#define TFC_DIALECT_TFC_TFCDIALECT_TD

include "mlir/IR/OpBase.td"

def Tfc_Dialect : Dialect {
  let name = "tfc";
  let cppNamespace = "::tfc";
  let summary = "What tfc's passes hand each other: attributes, fusion groups";
  let description = [{
    tfc's passes communicate through discardable attributes named `tfc.*`.
    This dialect owns that namespace: every such attribute is declared here,
    with the operations that may hold it and the kind of its value, and the
    verifier refuses any other (`unknown tfc attribute`), a misplaced one,
    or a value of the wrong kind, naming the attribute.

    Its one operation, `tfc.fusion_group`, holds nodes code generation
    computes as one (written by `tfc-fuse-elementwise`): what is fused is
    the IR's structure, which memory planning and code generation read,
    rather than an attribute on each member naming its group.

    | attribute | on | value | written by, read by |
    | --- | --- | --- | --- |
    | `tfc.feeds`, `tfc.fetches`, `tfc.targets`, `tfc.init` | module | array of strings | `tfc compile`'s interface; tfc-prune |
    | `tfc.feed_shapes` | module | array of shapes (or unit) | `--feed x=D0,D1`; tfc-prune |
    | `tfc.devices` | module | array of strings | `--devices`; tfc-place |
    | `tfc.replicas` | module | integer >= 0 | `--cluster` under between-graph replication: its workers; tfc-bound-dynamic-rows (a sparse accumulator's take) |
    | `tfc.placement`, `tfc.cost_file` | module | string | `--placement`, `--cost-file`; tfc-place |
    | `tfc.soft_placement` | module | unit | `--soft-placement`; tfc-place |
    | `tfc.compress_transfers` | module | string | `--compress-transfers`; tfc-compress-transfers |
    | `tfc.no_recv_scheduling` | module | unit | `--no-recv-scheduling`; tfc-schedule-recvs |
    | `tfc.freeze_variables` | module | string | the SavedModel's variables; tfc-freeze-variables |
    | `tfc.checkpoint_object_graph` | module | string | tfc-freeze-variables; the program's checkpoints |
    | `tfc.state_bytes` | module | integer >= 0 | tfc-plan-state; code generation |
    | `tfc.variables` | module | array of dictionaries | tfc-plan-state; the program's descriptor |
    | `tfc.batch_tile` | module | integer >= 0 | `--batch-tile`; tfc-tile-batch |
    | `tfc.micro_batch_bytes` | module | integer >= 0 | `--micro-batch-bytes`; tfc-split-batch's budget (0: none) |
    | `tfc.batch` | module | `{tile, feeds, fetches}` | tfc-tile-batch: the tile and the feeds and fetches that carry the batch; the program's descriptor |
    | `tfc.row_counts` | module | i64 array, one per fetch | tfc-bound-dynamic-rows: the fetch that counts each fetch's data-dependent rows (-1: none); the program's descriptor |
    | `tfc.row_axes` | module | i64 array, one per fetch | tfc-bound-dynamic-rows: the dimension of those rows (absent: the first of each); the program's descriptor |
    | `tfc.feed_max_dims` | module | one `array<i64: dim, bound>` or `array<i64>` per feed | `--max-dim`; tfc-prune, tfc-bound-dynamic-rows |
    | `tfc.feed_row_counts` | module | i64 array, one per feed | tfc-bound-dynamic-rows (feeds): the feed that counts each feed's bounded dimension (-1: none); the program's descriptor |
    | `tfc.task` | module | string | `tfc compile --cluster`: the cluster task whose partitions the module keeps (its step may have none) |
    | `tfc.device` | graph | string | tfc-partition: the partition's device |
    | `tfc.arena_bytes` | graph | integer >= 0 | tfc-plan-memory |
    | `tfc.num_inputs` | graph | integer >= 0 | convert-tfg-to-memref |
    | `tfc.step_function` | graph | string | convert-tfg-to-memref; the program's descriptor |
    | `tfc.activation` | node | `"Relu"` or `"Relu6"` | tfc-fuse-elementwise: a batch norm's fused activation (on its gradient: the activation's gradient, applied first) |
    | `tfc.max_pool` | node | i64 array: kh, kw, stride_h, stride_w, pad_top, pad_left | tfc-fuse-elementwise: a training batch norm whose last data result is the max pooling of its y |
    | `tfc.max_pool_gradient` | node | i64 array, as `tfc.max_pool` | tfc-fuse-elementwise: a batch norm gradient reading the gradient of a max pooling of y, y its last data operand (a folded MaxPoolGrad, and ReluGrad with `tfc.activation`) |
    | `tfc.max_pool_positions` | node | unit | tfc-fuse-elementwise: a training batch norm with `tfc.max_pool` whose last data result records where each window's maximum of y is (int8; the pooled result one before it), and the batch norm gradient that reads that record as its last data operand instead of y |
    | `tfc.zero_padding` | node | unit | tfc-fold-pads: a MaxPool whose explicit padding is zeros (a folded Pad of a value that may be negative) |
    | `tfc.input_gradient_sum` | node | unit | tfc-fuse-elementwise: a batch norm gradient whose last data result is its x gradient summed over N, H and W (a folded BiasAddGrad) |
    | `tfc.filter_gradient` | node | [3, 3, stride_h, stride_w, pad_top, pad_left] | tfc-fuse-elementwise: a pooled batch norm gradient whose last data result is the filter gradient of the convolution (over 1-3 channels) whose output gradient its x gradient is, from that convolution's input, its last data operand (a folded Conv2DBackpropFilter) |
    | `tfc.variance` | node | unit | tfc-fuse-elementwise: a Mean whose second data result is the variance around it (a folded SquaredDifference and Mean) |
    | `tfc.offsets` | node or fusion group | i64 array, one per data result | tfc-plan-memory: arena offsets (-1: no buffer) |
    | `tfc.in_place_operands` | ConcatV2 node | i64 array of operand indices | tfc-plan-memory: operands that are parts of the concatenation's own buffer (written there by their producers), not copied |
    | `tfc.frame` | node | string | tfc-raise-frames: the node's loop frame |
    | `tfc.state_offset`, `tfc.flag_offset` | node | integer >= 0 | tfc-plan-state: a variable's place in the state area |
    | `tfc.checkpoint_key` | node | string | tfc-freeze-variables |
    | `tfc.snapshot` | node | unit | tfc-order-variable-accesses: a read that copies |
    | `tfc.skip_negative_indices` | node | unit | tfc-bound-unique |
    | `tfc.pad_negative` | node | unit | tfc-bound-unique: a Unique whose padding is -1 for those updates |
    | `tfc.list_capacity` | node | integer >= 0 | tfc-bound-growable-lists: the capacity of a TensorListReserve's growing list, or of a TensorArrayV3 of dynamic size |
    | `tfc.stack_slot`, `tfc.tensor_array_slot` | node | integer >= 0 | convert-tfg-to-memref: runtime numbers |
  }];
  let hasOperationAttrVerify = 1;
}

#endif // TFC_DIALECT_TFC_TFCDIALECT_TD
