//===- Passes.td - tfc graph passes ------------------------*- tablegen -*-===//

#ifndef TFC_TRANSFORMS_PASSES_TD
#define TFC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifySupportedPass : Pass<"tfc-verify-supported", "mlir::ModuleOp"> {
  let summary = "Rejects graphs that use op types nothing lowers";
  let description = [{
    Every op type imports and exports without loss, but only those the op
    table (OpTable.td) declares with a lowering compile. This pass checks
    the nodes of the module's graphs (function bodies are checked once
    tfc-inline has put them in a graph) and fails with one error that names
    every unsupported op type, in the order they first appear, with its
    nodes (the first five, then a count). `tfc compile` runs it as soon as
    the graph is cut down to what the step runs, before any other work.
  }];
}

def VerifyAcyclicPass : Pass<"tfc-verify-acyclic", "mlir::ModuleOp"> {
  let summary = "Rejects cycles that do not pass through NextIteration";
  let description = [{
    A TensorFlow graph may only contain cycles that close through a
    `NextIteration` node (the back edge of a TF1 while loop). Any other cycle
    of data or control edges can never run. This pass fails on the first such
    cycle in the graph or a function body and prints it as a chain of node
    names.
  }];
}

def BindTablesPass : Pass<"tfc-bind-tables", "mlir::ModuleOp"> {
  let summary = "Static tables' keys and values from their initializers";
  let description = [{
    Before pruning, on the whole graph: each static lookup table
    (HashTableV2) that a LookupTableImportV2 or InitializeTableV2 fills with
    constants (in the graph, or in a function a call of the graph runs, as
    a SavedModel's init op does) gets them as tfc.table_keys and
    tfc.table_values, so that its lookups search constants of the program.
    An InitializeTableFromTextFileV2 (a vocabulary file) is read when
    compiling, where a Const or a SavedModel's asset names the file; a file
    TensorFlow would not read is an error with TensorFlow's message. Two
    initializers of a table, or a key with two values, are errors.
  }];
}

def DensifyRaggedPass : Pass<"tfc-densify-ragged", "mlir::ModuleOp"> {
  let summary = "Ragged splits that to_tensor() pads, dense from the start";
  let description = [{
    A StringSplitV2 whose tokens, after ops on each token alone (lookups,
    comparisons, selections), only a RaggedTensorToTensor of a constant
    number of columns reads (Keras' TextVectorization with
    output_sequence_length) becomes a _TfcDenseStringSplit of that many
    columns: the ops on the tokens apply to the dense tokens, and the
    RaggedTensorToTensor becomes a selection of the default past each
    string's own tokens. A UnicodeDecode (UTF-8) padded likewise becomes a
    _TfcDenseUnicodeDecode. Any other use of a split's tokens, whose number
    only the data decides, is an error naming the split.
  }];
}

def PrunePass : Pass<"tfc-prune", "mlir::ModuleOp"> {
  let summary = "Keeps what one step needs: feeds, fetches, targets, init";
  let description = [{
    Partial execution (white paper §4.2, Figure 6) at compile time. The
    module's `tfc.feeds` tensors are replaced, for all their data consumers,
    by `_Arg` nodes (index = feed position, shape from `tfc.feed_shapes`, the
    Placeholder's `shape`, or the IR); each `tfc.fetches` tensor gets a
    `_Retval` node (index = fetch position); then every node that the
    `_Retval`s and the `tfc.targets` do not need, through data and control
    edges, is removed, stateful nodes included. A fetch of a fed tensor
    returns the fed value. Feeding a tensor computed inside a TF1 while loop
    is an error, as in TensorFlow.

    If `tfc.init` names nodes, they are pruned from a copy of the original
    graph into a second `tfg.graph` whose `tfg.entry` is "init" (run once
    before the first step); likewise each enqueue node of a queue runner
    (`tfc.queue_runners`) into a graph whose `tfg.entry` is "runner:NODE",
    which the runtime runs on threads of its own while the steps run. Each
    runner's nodes must be enqueues into one queue. The main graph's
    `tfg.entry` becomes "step". Without feeds, fetches, targets or init the
    pass does nothing.
  }];
}

def RemoveDeadNodesPass : Pass<"tfc-remove-dead-nodes", "mlir::ModuleOp"> {
  let summary = "Erases nodes whose results nobody uses";
  let description = [{
    Dead code elimination, run after each rewrite: a node none of whose
    results (data or control) is used is erased, unless it is stateful (or
    of an op type the registry does not know), or a root: `_Retval`,
    `_Send`, `_HostSend`, a target or an init node. Graphs are cleaned only
    once pruned to an entry (`tfg.entry`); function bodies always.
  }];
}

def CommonSubexpressionEliminationPass : Pass<"tfc-cse", "mlir::ModuleOp"> {
  let summary = "Merges nodes that compute the same thing";
  let description = [{
    Click-style value numbering (white paper §5.1) over each graph and
    function body in topological order (loop back edges through
    NextIteration ignored). Nodes with the same op type, attrs (the name
    aside), data inputs in order, set of control inputs, requested and
    assigned device, and result types collapse to the first one; its name
    survives. Never merged, as in TensorFlow: stateful nodes (random ops,
    variables, unknown op types), nodes reading refs, placeholders, `_Arg`
    and receives, and roots (`_Retval`, sends, targets, init nodes).
  }];
}

def CanonicalizePass : Pass<"tfc-canonicalize", "mlir::ModuleOp"> {
  let summary = "Graph simplifications that TensorFlow treats as safe";
  let description = [{
    Applied to a fixed point, each only where no control, device or
    dataflow semantics can change:

    1. *Identity forwarding*: consumers of Identity, IdentityN,
       StopGradient and PreventGradient read the input directly, and control
       uses move to the producer. Not when the node has control inputs, is a
       root, reads a ref, is on another device than its producer, or reads a
       Switch (the pivots of TF1 conds).
    2. *NoOp forwarding*: a NoOp gathering control edges is bypassed when
       that does not add edges (inputs x users <= inputs + users, as
       TensorFlow's dependency optimizer) and it has no device. Not roots.
    3. *Duplicate control inputs* are dropped.
    4. *Control inputs implied by a data input* from the same node are
       dropped, except on control-flow ops, whose edges carry deadness.
    5. *Control inputs from stateless sources* (nodes without inputs, such
       as constants and arguments) are dropped: they are ready at the start
       of a step and never dead.
    6. *Computations only waited for*: a stateless node whose data outputs
       are unused but whose control output is used becomes a NoOp of the
       same name and device, ordered after its inputs' producers, as
       TensorFlow's dependency optimizer does (gradient `tuple`s wait for
       input gradients nothing reads). Not ops that can fail at run time,
       control-flow ops or roots; only where unused nodes may go.

    Where tfc-remove-dead-nodes may erase unused nodes (pruned graphs,
    function bodies), nodes the rewrites leave unused are erased as they
    appear, which can enable further NoOp forwarding.
  }];
}

def InlinePass : Pass<"tfc-inline", "mlir::ModuleOp"> {
  let summary = "Inlines PartitionedCall and StatefulPartitionedCall";
  let description = [{
    Each call node of a graph is replaced by the called function's body,
    its nodes named `<call>/<node>`, keeping TensorFlow's control semantics:
    the call's control inputs gate the body through a NoOp
    `<call>/input_control_node` and one Identity per argument; users of the
    call's control token wait for a NoOp `<call>/output_control_node` that
    depends on the function's control outputs and result producers (named
    like the call itself when the call is a target or init node); body
    nodes without a device take the call's. While/StatelessWhile and
    If/StatelessIf are lowered as TensorFlow lowers functional control flow:
    a While becomes a TF1 frame named like it (per loop variable an Enter, a
    Merge with its NextIteration, a Switch on the LoopCond of the inlined
    condition, an Identity feeding the inlined body, an Exit for its
    users); an If switches every input on the predicate, inlines each
    branch on its side (branch nodes without inputs wait for the side's
    pivot) and merges each result; a Case/StatelessCase becomes a chain of
    such conditionals on index == k (the last branch for any other index).
    Calls in inlined bodies are inlined in
    turn, and functions nothing refers to any more are removed.
  }];
}

def FreezeVariablesPass : Pass<"tfc-freeze-variables", "mlir::ModuleOp"> {
  let summary = "Takes a SavedModel's variables from its checkpoint";
  let description = [{
    For a compile of a SavedModel without --init (the module carries
    tfc.freeze_variables, the checkpoint prefix, and the saver's restore op
    is the init entry), each variable the init entry restores
    (AssignVariableOp or Assign of a RestoreV2 output) gets its value from
    the checkpoint. When the step only reads its variables (inference),
    their reads (ReadVariableOp, or Identity of a reference variable)
    become Consts and the init entry goes. When the step writes one
    (training), the init entry assigns the values as Consts instead of the
    RestoreV2 outputs, every variable node gets its checkpoint key
    (tfc.checkpoint_key), and a TF2 checkpoint's object graph goes on the
    module (tfc.checkpoint_object_graph), so the program's checkpoints have
    TensorFlow's keys.
  }];
}

def PlacePass : Pass<"tfc-place", "mlir::ModuleOp"> {
  let summary = "Chooses a device for every node (white paper 3.2.1)";
  let description = [{
    Sets `tfg.assigned_device` on every node of every graph to one of the
    available devices: the pass's `devices` option, else the module's
    `tfc.devices`, else one CPU; names are completed with
    /job:localhost/replica:0/task:0. A node may go only where its op has a
    kernel (CPU: every op; GPU: the op types TensorFlow has GPU kernels
    for) and where its requested device (`tfg.device`, full or partial)
    matches. Colocation groups (`_class` "loc:@name" entries; edges that
    carry references or resource handles) go to one device, feasible for
    all members; an empty intersection is one error naming the group and
    the conflicting constraints, unless `soft-placement` (or the module's
    `tfc.soft_placement`) relaxes requests.

    Strategies: `cost` (default), the paper's greedy simulated execution
    with the static cost model (a `cost-file` overrides its figures or
    gives measured per-node times); `first` and `round-robin`, naive
    baselines. The statistic makespan-us reports the simulated step time.
  }];
  let options = [
    ListOption<"devices", "devices", "std::string",
               "Devices placement may use (full or partial names)">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"\"",
           "cost (default), first, round-robin or parameter-server">,
    Option<"softPlacement", "soft-placement", "bool", /*default=*/"false",
           "Relax device requests that no available device meets">,
    Option<"costFile", "cost-file", "std::string", /*default=*/"\"\"",
           "A JSON file overriding the cost model">,
  ];
}

def PartitionPass : Pass<"tfc-partition", "mlir::ModuleOp"> {
  let summary = "One graph per device, with _Send/_Recv on cut edges";
  let description = [{
    After tfc-place: every edge between nodes on different devices is cut
    and replaced by a `_Send` on the producer's device and a `_Recv` on the
    consumer's (white paper 3.2.2, Figure 4). There is one `_Recv` per
    (tensor, destination device), shared by all consumers there. A control
    edge across devices becomes a dummy Const (float, shape [0]) sent after
    its source. The pair carries TensorFlow's rendezvous key parts as attrs
    (tensor_name "edge_N_<producer>", send_device, send_device_incarnation,
    recv_device, client_terminated). Each device's nodes then form a graph
    of their own with the same `tfg.entry` and the device in `tfc.device`,
    ordered by one global topological order of the step, which keeps the
    partitions' static schedules free of deadlock. TF1 control flow whose
    edges cross devices is rejected for now.
  }];
}

def CompressTransfersPass : Pass<"tfc-compress-transfers", "mlir::ModuleOp"> {
  let summary = "Sends float32 between tasks as 16 bits (paper 5.5)";
  let description = [{
    With `format=bf16` (or the module's `tfc.compress_transfers`), every
    float32 `_Send`/`_Recv` pair between different tasks sends the high 16
    bits of each float: a Cast to bfloat16 with Truncate=true (mantissa
    truncation; NaN stays NaN) before the `_Send`, and a Cast back to
    float32 (the low bits zero) after the `_Recv`. Transfers within a task
    and of other dtypes are left alone.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"\"",
           "bf16, or none">,
  ];
}

def OrderVariableAccessesPass
    : Pass<"tfc-order-variable-accesses", "mlir::ModuleOp"> {
  let summary = "Orders reads of a variable before the writes they do not depend on";
  let description = [{
    A variable read (Identity of a ref, ReadVariableOp) is the variable's
    buffer itself, and writes update that buffer in place. For each read
    and each write of the same variable that is not an ancestor of the
    read, the read and every node that sees its memory (its aliases and
    their users) get a control edge to the write: reads see the value from
    before the writes they do not depend on, as a training step expects
    (the loss and the gradients use the step's starting weights). When a
    node seeing the read depends on the write itself, the read is marked
    `tfc.snapshot` and copies the value instead; then only the read
    precedes the write. ResourceGather and VarIsInitializedOp precede the
    writes they do not depend on too.
  }];
}

def PlanStatePass : Pass<"tfc-plan-state", "mlir::ModuleOp"> {
  let summary = "Lays out the state that persists across steps: variables and generators";
  let description = [{
    Gives every variable of the module's entries (one per container and
    shared name, over the step, the init entry and their partitions) a
    buffer in the program's state area, 64-byte aligned, and an
    initialized flag byte; random ops get their generator's position.
    Nodes get `tfc.state_offset` (and variables `tfc.flag_offset`); the
    module gets `tfc.state_bytes` and `tfc.variables`, one dictionary per
    variable (`name`, checkpoint `key`, `type`, `offset`, `flag`) in order
    of first appearance, which the program's checkpoints follow. Two nodes
    of one variable that disagree on dtype or shape are an error naming
    both; so is a variable without a static shape.
  }];
}

def ScheduleRecvsPass : Pass<"tfc-schedule-recvs", "mlir::ModuleOp"> {
  let summary = "Delays each _Recv to just before it is needed (paper 5.2)";
  let description = [{
    On partitioned entries: ASAP and ALAP start times of every node of the
    step from the cost model (over all partitions, a _Send -> _Recv edge
    costing its transfer); each `_Recv` gets a control edge from the
    latest-finishing node of its partition that finishes by the `_Recv`'s
    ALAP start (and after its ASAP start, and does not depend on it), so it
    no longer starts, and holds memory, long before its consumers run,
    without delaying the critical path. The partitions' schedules are then
    re-derived from one global topological order. The module's
    `tfc.no_recv_scheduling` (`tfc compile --no-recv-scheduling`) turns it
    off.
  }];
}

def BoundDynamicRowsPass : Pass<"tfc-bound-dynamic-rows", "mlir::ModuleOp"> {
  let summary = "Plans Where's data-dependent rows for their bound";
  let description = [{
    Where's output has as many rows as its input has nonzero elements. This
    pass gives it the bound, every element of the input (the kernel pads
    with zeros), and computes the true count in the graph; an unpadded
    NonMaxSuppressionV2-V5 selection gets max_output_size (at most every
    box) as its bound and V4's count (V2 and V3 become V4); an unclaimed
    Unique's values and each output of DynamicPartition are bounded by the
    input's rows, counted by idx's largest position + 1 and by the
    partitions equal to the output's number; a QueueDequeueUpToV2 by its n
    and a SparseAccumulatorTakeGradient by twice its accumulator's applies
    times `tfc.replicas` times the largest gradient's rows, both counted
    by their kernels (a last result the pass adds). It carries the
    fact "rows along axis a, of which the first count are TensorFlow's"
    through the ops that keep such rows apart (elementwise ops, identities,
    reshapes that keep the axis whole, transposes, gathers, MatMul,
    softmax, concatenation and stacking), rewrites Shape and Size of rows
    and reductions over them (the padding replaced by the reduction's
    identity; Mean divides by the count), fetches the count of fetched
    rows beside them (`NAME/rows`, recorded in `tfc.row_counts`), and
    refuses any other use, naming the node and the Where: rows fetched
    along another dimension than the first, a count used as a shape, an op
    that mixes rows.

    With `feeds`, it bounds instead the feed dimensions that `--max-dim`
    names (`tfc.feed_max_dims`), after tfc-tile-batch has given the batch
    its tile: the feed's dimension is planned for its bound and counted by
    a feed added after the others (`NAME/dimD`, `tfc.feed_row_counts`);
    the padding is zeroed, and the rows are followed as above, along
    several dimensions at once (self-attention's scores), through
    contractions (Einsum, MatMul, BatchMatMul: summed rows are masked to
    zero first), softmax along them (masked to -inf first), and shapes of
    rows: a value computed from one keeps the bound where used as a shape
    (a Reshape's, a Fill's, a slice's end) and reads the count where used
    as data.
  }];
  let options = [
    Option<"feeds", "feeds", "bool", /*default=*/"false",
           "Bound the feed dimensions --max-dim names">,
  ];
}

def BoundUniquePass : Pass<"tfc-bound-unique", "mlir::ModuleOp"> {
  let summary = "Bounds Unique's data-dependent size where that is exact";
  let description = [{
    A Unique whose values are used only as the deduplicated sparse updates
    of TF1 optimizers use them (as the indices of scatters and sparse
    optimizer updates, and through Shape or Size as num_segments of
    UnsortedSegmentSum whose rows reach only elementwise ops and those
    updates' values) is claimed (tfc.pad_negative): its values get the
    input's length, padded with -1 past the distinct values, and the
    updates skip negative indices (tfc.skip_negative_indices), which gives
    TensorFlow's updates exactly. Any other Unique is left to
    tfc-bound-dynamic-rows.
  }];
}

def BoundGrowableListsPass : Pass<"tfc-bound-growable-lists", "mlir::ModuleOp"> {
  let summary = "Plans growing TensorLists for the most elements their loops write";
  let description = [{
    A TensorList that TensorListSetItem grows (resize_if_index_out_of_bounds,
    what `tf.TensorArray(dynamic_size=True)` writes in a loop) gets a
    capacity: the largest of its made length and every growing write's
    largest index + 1, which the write's loop bounds (a condition comparing
    a counting loop variable with a constant, or a LogicalAnd of
    conditions; the index a counting variable or a constant). When the
    list's final length is that capacity for certain (one write per
    iteration of a loop that runs exactly its bound), the Reserve makes a
    list of the capacity and the writes no longer resize. Otherwise the
    Reserve is marked (tfc.list_capacity) for tfc-lower-tensor-lists, which
    follows its length, and tfc-bound-dynamic-rows, which makes its
    TensorListStack rows counted by that length. A growing write at an
    index no constant bounds is an error naming the node. A TF1
    TensorArrayV3 of dynamic size written so (TensorArrayWriteV3, once per
    iteration of a loop that runs exactly its bound, its size read after
    the loop) becomes the fixed array of its capacity, its sizes that
    constant; any other gets its capacity (tfc.list_capacity), the runtime
    keeping its length, and tfc-bound-dynamic-rows makes its stack rows of
    that count.
  }];
}

def InferShapesPass : Pass<"tfc-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Propagates static shapes through the graph";
  let description = [{
    Refines the result types of every node, in topological order, with the
    shapes its op's shape function infers from the input types, the attrs
    and the values of small integer inputs known at compile time (a
    Reshape's target, reduction axes, shapes computed with Shape,
    StridedSlice, Pack, ConcatV2 and integer arithmetic). Types only become
    more precise; an inferred shape that contradicts a known one (a feed
    shape, `_output_shapes`) is an error naming the node. TF1 loops: Merge
    nodes take their forward inputs' shapes first and are generalized when
    the back edge disagrees, until a fixed point. Op types without a shape
    function keep their imported types.
  }];
}

def VerifyStaticShapesPass : Pass<"tfc-verify-static-shapes", "mlir::ModuleOp"> {
  let summary = "Requires every tensor shape of the entries to be known";
  let description = [{
    Code generation needs static shapes. The first node (in topological
    order) of a pruned entry with a data output of unknown shape is reported
    with the feeds of unknown shape it depends on and the flag that fixes
    it, e.g. `give its shape, e.g. --feed x:0=1,784`. Resource, variant and
    string outputs need no shape. Run after tfc-infer-shapes.
  }];
}

def FoldConstantsPass : Pass<"tfc-fold-constants", "mlir::ModuleOp"> {
  let summary = "Replaces shape computations of known value by constants";
  let description = [{
    Outputs whose values shape inference knows (Shape, Size and Rank of
    static shapes and the StridedSlice, Pack, ConcatV2, Cast, Gather and
    integer arithmetic built on them, BroadcastGradientArgs) become Const
    nodes. A single-output node is replaced by a Const of the same name that
    takes over its control users. Inside TF1 conds and loops the Const keeps
    control edges from the node's inputs and control inputs, as in
    TensorFlow, so that it is dead or per-iteration exactly when the node
    was. Only stateless nodes are folded.

    Then numeric subgraphs of constants, outside conds and loops. The pass
    computes two kinds itself: float32 Mul, Add, Sub and RealDiv of two
    Consts and Neg, Sqrt and Rsqrt (1 / sqrt) of one (correctly rounded
    operations per element, as the generated code does), and nodes whose output is their input's memory (Identity,
    Reshape, Squeeze, ExpandDims, ...) of a Const, which become a Const of
    the same elements. The rest (outputs up to 10 MiB, or up to an
    operand's size) go to the constant evaluator, which compiles them with
    the code generator, runs the program once and reads its outputs back.
    The statistic `evaluated` counts those outputs.
  }];
}

def DecomposeBatchNormPass : Pass<"tfc-decompose-batch-norm", "mlir::ModuleOp"> {
  let summary = "Writes inference batch norms as per-channel arithmetic";
  let description = [{
    FusedBatchNorm/V2/V3 with is_training = false becomes y = x * s + b
    with s = scale * rsqrt(variance + epsilon) and b = offset - mean * s
    (AddV2, Rsqrt, Mul, Sub nodes; s and b reshaped to [C, 1, 1] for NCHW).
    The result keeps the node's name. The per-channel vectors are small,
    and x * s + b fuses with the elementwise ops that follow. The
    statistics outputs are the mean and variance inputs, as TensorFlow's
    kernel gives them (reserve_space_3 an empty constant): their users (a
    frozen batch norm's gradient, in fine-tuning) read those instead.
  }];
}

def TileBatchPass : Pass<"tfc-tile-batch", "mlir::ModuleOp"> {
  let summary = "Compiles an unknown batch as tiles of rows the program "
                "loops over";
  let description = [{
    A feed whose first dimension alone is unknown is a batch. When every
    fetch's rows depend only on the same rows of the fed batches (shown by
    an analysis of the step, its shapes inferred at batches of 2, 3 and 5
    rows), the batch feeds' first dimension becomes the tile
    (`tfc.batch_tile`, default 1) and `tfc.batch` records the tile and the
    feeds and fetches that carry the batch: the program runs the step over
    a batch of any size, a tile at a time. A graph whose rows mix (a
    reduction over the batch, the batch size used as data, a stateful op,
    a loop) is an error naming the feed and the node, and asking for the
    feed's shape.
  }];
}

def SplitBatchPass : Pass<"tfc-split-batch", "mlir::ModuleOp"> {
  let summary = "Runs a convolutional network's front in micro-batches";
  let description = [{
    At a large batch a network's first stages make tensors far larger than
    the caches. The front, from a fed [N, H, W, C] batch through the nodes
    that compute each image from the same image alone (convolutions,
    pooling, elementwise arithmetic with constants or with each image's
    own vector, concatenations and means along other axes, reshapes and
    slices that keep the batch whole) and whose weights weigh less than
    what a part makes (in a squeeze-and-excitation block, the image the
    block scales), up to the
    last point where one or two tensors of an eighth of `micro-batch-bytes`
    or more an image together carry it on (1 MiB by default; two only
    where each is read on by more than elementwise nodes, as a NASNet
    cell's two inputs are), runs in a TF1 while loop over micro-batches of
    T images: each iteration takes its part of the feed (a StridedSlice of
    the feed viewed as [N / T, T, ...]), runs the front's nodes on it, and
    writes each carried tensor's part into its row of a loop variable (a
    TensorScatterUpdate, in place), which the rest reads as a whole batch
    (a Reshape). The front's nodes are compiled once. T is the largest
    divisor of N below it whose T images of the front's largest tensor
    take `micro-batch-bytes` or fewer; 0 turns the pass off. A front cut
    at one tensor goes on from that tensor's whole batch as a front of its
    own, in parts of more images where its tensors are smaller.
  }];
  let options = [
    Option<"microBatchBytes", "micro-batch-bytes", "int64_t",
           /*default=*/"8 << 20",
           "The most bytes a micro-batch of the front's largest tensor takes">,
  ];
}

def SplitGroupedConvolutionsPass
    : Pass<"tfc-split-grouped-convolutions", "mlir::ModuleOp"> {
  let summary = "Writes a grouped Conv2D as one Conv2D per group";
  let description = [{
    A Conv2D whose filter has fewer input channels (Cf) than its input (C)
    is grouped: G = C / Cf groups of channels, each convolved with its
    share of the filter's output channels. It becomes Split of the input
    and of the filter along channels, G Conv2Ds and their ConcatV2, which
    keeps the node's name. With one input channel per group (Cf = 1, as in
    ConvNeXt) and no dilation, it is a depthwise convolution instead: a
    DepthwiseConv2dNative of the filter reshaped to [kh, kw, C, O/C]. A
    grouping the shapes do not allow is an error naming the node.
  }];
}

def FoldScalesPass : Pass<"tfc-fold-scales", "mlir::ModuleOp"> {
  let summary = "Moves constant per-channel scales and shifts onto weights";
  let description = [{
    As TensorFlow's constant folding (MulConvPushDown, ConstantPushDown):
    Mul(Conv2D(x, W), s) -> Conv2D(x, W * s) (also DepthwiseConv2dNative,
    and MatMul without transpose_b); Mul(y + c, s) -> y * s + c * s;
    (y + c1) + c2 -> y + (c1 + c2), where W, s, c are Consts, s and the
    shifts vary along the channel (last) dimension only, the inner value has
    no other use and all nodes share a device. A decomposed inference batch
    norm after a convolution so becomes the convolution's filter and bias.
    The new constant expressions are for tfc-fold-constants to compute.
  }];
}

def FoldPadsPass : Pass<"tfc-fold-pads", "mlir::ModuleOp"> {
  let summary = "Makes a zero Pad the padding of the window op reading it";
  let description = [{
    Conv2D, DepthwiseConv2dNative or MaxPool (NHWC, VALID or EXPLICIT
    padding) reading a Pad of constant paddings on the spatial dimensions
    only, at most the dilated window's extent minus one on a side, that
    nothing else reads: the op reads the Pad's input with EXPLICIT padding,
    its own plus the Pad's (Keras' ZeroPadding2D before a strided VALID
    convolution, or before ResNet's first max pooling). A MaxPool skips its
    padding where the Pad wrote zeros: that is the same when the Pad's input
    is a Relu's or Relu6's output (never below zero); of any other value
    (ResNetV2's first convolution's), a MaxPool without padding of its own
    takes the Pad and the attribute tfc.zero_padding, and counts its
    padding as zeros. The Pad is left for tfc-remove-dead-nodes.
  }];
}

def FoldSubsamplesPass : Pass<"tfc-fold-subsamples", "mlir::ModuleOp"> {
  let summary = "Makes a 1x1 pooling of a crop or a Pad one strided read";
  let description = [{
    A MaxPool or AvgPool of 1x1 windows (VALID, NHWC) keeps every
    stride-th pixel. Reading a crop (a StridedSlice of unit strides and
    constant bounds on the spatial dimensions), a Pad of zeros on the
    spatial dimensions, or a crop of such a Pad, each read only there, it
    becomes a StridedSlice of the image with the pooling's strides and a
    Pad for the kept pixels that fall in the padding: NASNet's shifted
    subsample (ZeroPadding2D, Cropping2D, AveragePooling2D((1, 1),
    strides=2)) without its two copies of the whole image. The last new
    node takes the pooling's name; the crop and the Pad are left for
    tfc-remove-dead-nodes.
  }];
}

def SinkActivationsPass : Pass<"tfc-sink-activations", "mlir::ModuleOp"> {
  let summary = "Moves the ReLU of a concatenation onto its pieces";
  let description = [{
    Relu(ConcatV2(a, b, ..., axis)) becomes ConcatV2(Relu(a), Relu(b), ...,
    axis), and the same for Relu6, when every reader of the concatenation
    is a ReLU of one kind, none a root or with control inputs, all on the
    concatenation's device, and the concatenation is not a root (NASNet's
    cells end in a concatenation that the next cells' ReLUs read). Each
    piece's ReLU can then join the kernel or loop computing the piece (a
    convolution's epilogue) or merge with an equal ReLU under tfc-cse, so
    the ReLU's own pass over the whole tensor goes. Nodes waiting on the
    concatenation or a ReLU wait on the new concatenation, which takes the
    first ReLU's name. A piece that is such a concatenation is rewritten in
    turn.
  }];
}

def FuseElementwisePass : Pass<"tfc-fuse-elementwise", "mlir::ModuleOp"> {
  let summary = "Groups convolution and dense-layer epilogues and elementwise chains";
  let description = [{
    First, a training FusedBatchNorm (NHWC, float32) takes in the ReLU or
    ReLU6 that alone reads its y: the ReLU is removed, its users read y,
    and the batch norm gets `tfc.activation`. It also takes in a MaxPool
    (VALID or SAME) of its y, and a FusedBatchNormGrad the BiasAddGrad of
    its x gradient, on the same device: the node is rebuilt with one more
    data result, last, that op's (the MaxPool's users read it, and so on),
    marked `tfc.max_pool` (the window, padding resolved) or
    `tfc.input_gradient_sum`, and the op goes. Before that, a
    FusedBatchNormGrad whose output gradient is a MaxPoolGrad's, or that
    MaxPoolGrad's ReluGrad by the pooled tensor y, each read by nothing
    else, takes them in: it reads the pooled gradient in place of its
    first operand and y as one more, last, with `tfc.max_pool_gradient`
    (the window) and, for the ReluGrad, `tfc.activation` = "Relu"; both
    ops go. When such a gradient's y is read by nothing else and is the
    y of a training batch norm that pools it with the same windows, and
    those windows tile y, the batch norm records where each window's
    maximum is (and whether it is positive) in one more data result, last,
    int8 of the pooled shape, which the gradient reads in y's place; both
    carry `tfc.max_pool_positions` (y is then not written). Such a pooled
    gradient whose x gradient only a Conv2DBackpropFilter reads (through
    Identity nodes besides), of a 3x3 filter over an image of one to three
    channels (NHWC, no dilation, SAME or VALID: a network's first
    convolution), takes it in: the image is one more data operand, last,
    the filter gradient one more data result, last, marked
    `tfc.filter_gradient` (the window, padding resolved), and the op goes;
    the kernel makes each image's share of it while the image's x gradient
    is in the cache. A Mean over contiguous
    axes with keep_dims takes in the variance around it (tf.nn.moments,
    Keras' LayerNormalization): the Mean over the same axes of the
    SquaredDifference of its input and its result, that SquaredDifference
    read by nothing else; the Mean gets the variance as a second data
    result and `tfc.variance`, and both ops go. Then a Conv2D or
    DepthwiseConv2dNative (NHWC, float32) claims the
    elementwise ops its kernel applies as it writes: a per-channel bias,
    then a residual of the output's shape, then ReLU, ReLU6, swish
    (x * sigmoid(x), or Keras' x * sigmoid(beta * x) with beta a constant
    1: the Sigmoid, the Mul by beta and the Mul by x are x's only users)
    or hard swish (x * relu6(x + 3) / 6: the AddV2, Relu6, RealDiv and Mul,
    or the division after the product, or a Mul by 1/6 for it), each the
    only user of the value before it (where two convolutions reach one
    add, the second's epilogue stops before it). An expansion (a 1x1
    Conv2D, stride 1, unpadded, by a Const filter of at most 64 input
    channels, 128 with swish, to at least twice as many) whose epilogue's
    value only a DepthwiseConv2dNative (multiplier 1, dilation 1, by a
    Const filter) reads joins the depthwise's group with the depthwise's
    epilogue, when neither adds a residual: one kernel computes both
    without writing the expansion. A dense layer (a float32
    MatMul without transpose_a, or a BatchMatMul or Einsum whose batches
    all read one matrix and are only more rows, by a Const) claims the
    same epilogue, or GELU (tf.nn.gelu's 0.5 * x * erfc(-x / sqrt(2)):
    the Mul by 0.5, the Neg, the Mul by 1/sqrt(2), the Erfc and the
    product), after a Reshape that keeps each of its rows whole in the
    last dims, when one follows; its bias may have the shape of those
    last dims. A MaxPoolGrad claims the ReluGrad
    after it whose features are the pooling's input; a batched product
    (BatchMatMul, Einsum) claims attention's chain after it, each node the
    only user of the one before: an optional Mul by a one-element float,
    a Softmax, and a second batched product that reads the softmax as its
    first operand with the first product's batch dims and strides, its
    rows as rows and its columns as the sum (the softmax's axis, the
    first's contiguous columns): one kernel computes the chain without
    writing the scores. Then an elementwise
    node (arithmetic, comparison, activation, Cast, BiasAdd, Select) is
    fused into its consumer when that consumer is elementwise, has the same
    output shape and the same device, and is its only user, or its users
    are all members of one group already (GELU reads its input twice).
    Each group's root alone is used outside, and the group becomes one
    `tfc.fusion_group` where its root was: the members move into the
    group's region (in dependency order, the root last, yielded), their
    inputs from outside become the group's operands and block arguments,
    their control inputs the group's; the root's users read the group.
    Values inside a group are never materialized. Control edges do not
    keep a node out of a group: a node outside that waited on a member
    other than the root waits instead on what the member waited on (the
    producers of its inputs from outside the group), since waiting on the
    group could close a cycle (tfc-schedule-recvs makes a bias's _Recv
    wait on the convolution whose epilogue adds the bias). A group takes
    at most `max-members` nodes: its loop body is one basic block, and
    LLVM's vectorizer and register allocator take time superlinear in a
    block's length, so a graph of thousands of elementwise nodes sharing
    values would otherwise become one loop that takes minutes to compile.
    A node that would join a full group starts a group of its own.
  }];
  let options = [
    Option<"maxMembers", "max-members", "unsigned", /*default=*/"128",
           "The most nodes one elementwise group takes">,
  ];
}

def LowerOptionalsPass : Pass<"tfc-lower-optionals", "mlir::ModuleOp"> {
  let summary = "Rewrites the Optionals of TF2 cond gradients into their values";
  let description = [{
    A TF2 cond's gradient (control flow v2) receives the intermediates of
    the branch that ran as Optional outputs of the forward If: the branch
    wraps each intermediate it has (OptionalFromValue) and an empty
    Optional for the other branch's (OptionalNone); the gradient branch
    unwraps them (OptionalGetValue). Once the If is a conditional, only
    the branch that ran produces values, so an Optional is its value:
    OptionalFromValue and OptionalGetValue of one component become
    Identities, OptionalNone a zero Const of the type of the values it is
    merged with, and the nodes that carry an Optional take that type. An
    Optional of several components, OptionalHasValue, or an OptionalNone
    whose type nothing decides is an error naming the node.
  }];
}

def ForwardInvariantPushesPass : Pass<"tfc-forward-invariant-pushes", "mlir::ModuleOp"> {
  let summary = "Gradient loops read a variable instead of popping its pushed copies";
  let description = [{
    Before tfc-lower-tensor-lists: a TensorListPopBack in an outermost loop
    whose list only it changes, entering from the Exit of another outermost
    loop's list that starts empty and that one push of a ReadVariableOp of
    a variable V changes, gets its element from a read of V in its own loop
    (an Enter of V's handle and a ReadVariableOp) when every node writing V
    is downstream of the gradient loop, outside it. TensorFlow's while_v2 gradient accumulates
    the kernels a Keras RNN cell reads in its loop: every element is the
    variable's unchanged value.
  }];
}

def LowerTensorListsPass : Pass<"tfc-lower-tensor-lists", "mlir::ModuleOp"> {
  let summary = "Rewrites TensorLists of known capacity into dense tensors";
  let description = [{
    A TensorList whose element shape and capacity are constants is a dense
    tensor [capacity, element...]: Reserve and EmptyTensorList become a
    zero Const, FromTensor and Stack an Identity, GetItem a GatherV2 on
    axis 0, SetItem and PushBack a TensorScatterUpdate of the row, PopBack
    a GatherV2 of the last row; Length and ElementShape their values;
    Gather a GatherV2 of the rows, the Scatters TensorScatterUpdates of the
    rows, Split into equal parts and Concat reshapes.
    A list that pushes and pops change gets an int32 length of its own,
    carried through loops and conds by copies of the Enter, Merge, Switch,
    Identity, NextIteration and Exit nodes that carry the list; those
    nodes, and AddN and ZerosLike of lists, take the dense type. A pop
    from an accumulator that only ever held one constant is that constant.
    An accumulator of unknown capacity (a loop without maximum_iterations)
    that is only pushed and popped becomes a stack (StackV2, StackPushV2,
    StackPopV2).
    A list that cannot be made dense (a capacity or element shape unknown
    at compile time, the stack of a list whose length changes) is an error
    naming the node.
  }];
}

def RaiseFramesPass : Pass<"tfc-raise-frames", "mlir::ModuleOp"> {
  let summary = "Recognises TF1 while loops and lays each out as a loop";
  let description = [{
    Finds the frames of each entry (an Enter starts one; an Exit leaves it)
    and checks that each is the loop `tf.while_loop` builds: Enter nodes
    that are constant or start a loop variable; per variable a Merge of its
    Enter and its NextIteration, one Switch on the frame's LoopCond, and
    Exits reading the Switch's false output (directly or through
    Identities); one LoopCond. A frame that
    differs is an error naming the frame and the node. Then it orders the
    nodes as the loop runs (the variables, the nodes computing the
    condition, the body with inner loops contiguous, the NextIterations,
    the Exits), so that the memory plan and code generation see each loop
    as one stretch of the schedule, and records each node's frame path as
    `tfc.frame`.
  }];
}

def PlanMemoryPass : Pass<"tfc-plan-memory", "mlir::ModuleOp"> {
  let summary = "Assigns every materialized tensor an offset in one arena";
  let description = [{
    The static memory plan of each entry. Schedule: topological order, fused
    nodes at their root. Buffers: one per materialized output; `_Arg`,
    Const and handle outputs need none; Identity, StopGradient, Snapshot,
    Reshape, Squeeze and ExpandDims alias their input; an elementwise group
    writes in place over a same-shape input buffer nothing reads later (a
    convolution's group, only over the residual it adds); a ConcatV2's
    operand made by a ConcatV2 along the same axis, by elementwise loops,
    or by a Conv2D (and its epilogue) along the channels, and read
    otherwise only by elementwise loops lives in its part of the
    concatenation's buffer, a strided window, and is not copied (`tfc.in_place_operands` on the
    concatenation: a DenseNet block's chain of concatenations is one
    buffer its convolutions write into). Liveness from first definition to last read; a buffer read inside a
    loop (tfc-raise-frames) but made before it, and a loop variable's,
    live through the whole loop; placement greedy by size
    at 64-byte-aligned offsets. Records `tfc.offsets` (per data output, -1
    when not in the arena) on nodes and `tfc.arena_bytes` on the graph.
  }];
}

def ConvertTfgToMemrefPass : Pass<"convert-tfg-to-memref", "mlir::ModuleOp"> {
  let summary = "Emits the step entry as loops and kernel calls on memrefs";
  let description = [{
    After tfc-fuse-elementwise and tfc-plan-memory: adds
    `func.func @tfc_step_impl(%runtime, %arena, %inputs..., %outputs...)`
    computing the step in schedule order. Materialized tensors are views of
    the arena at their planned offsets, `_Arg` outputs are the input
    parameters, constants are private memref.globals; each elementwise group
    is one linalg.generic with broadcasting indexing maps; MatMul and
    Softmax call the runtime's C ABI kernels; `_Retval` copies into its
    output parameter. An op without code generation is an error naming it.

    Each node's code is bracketed by trace points (tfc_runtime.h): the step
    asks once whether the program records a trace (--trace), and under
    that one predictable branch reads the clock before the node and
    records it after. `trace-points=false` leaves them out (to measure
    what they cost).
  }];
  let options = [
    Option<"tracePoints", "trace-points", "bool", /*default=*/"true",
           "Bracket each node's code by the trace's clock reads">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::complex::ComplexDialect",
                           "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::math::MathDialect", "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def StripGraphsPass : Pass<"tfc-strip-graphs", "mlir::ModuleOp"> {
  let summary = "Drops the graphs once the step functions are written";
  let description = [{
    After convert-tfg-to-memref the tfg graphs and functions, and the
    module's `tfg.*` and `tfc.*` attributes, have served (the model's
    interface is read from them first, see lib/Target/LLVM): this pass
    erases them, leaving the step functions to lower to LLVM. It begins
    the tfc-lower-to-llvm pipeline.
  }];
}

def SplitStepsPass : Pass<"tfc-split-steps", "mlir::ModuleOp"> {
  let summary = "Cuts long step functions into calls of parts of bounded size";
  let description = [{
    After tfc-strip-graphs: each step (a function whose first argument is
    the runtime's context) with one block and no results that holds more
    than `max-ops` operations (nested ones counted) becomes
    a sequence of calls to `NAME_partN(runtime, the arguments it uses...,
    frame)`, noinline functions each holding a run of consecutive top-level
    operations, so that LLVM, whose time grows faster than a function's
    size, optimizes functions of bounded size. A run ends at the first
    top-level operation after it reached `max-ops` operations at which no
    value derived from its own stack (memref.alloca) is still to be used.
    Values a part computes and a later part reads travel in a struct on the
    function's stack; constants, views and the pointers taken of them are
    recomputed where they are used.
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"1000",
           "Operations (nested ones counted) after which a part ends">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def CollapseLoopsPass : Pass<"tfc-collapse-loops", "mlir::ModuleOp"> {
  let summary = "Merges a generated loop nest's short innermost loop with the next";
  let description = [{
    On the step functions' elementwise linalg.generic ops (every loop
    parallel, static shapes, no linalg.index): while the innermost loop is
    shorter than 64 (3 channels of an image, say), it is merged with the
    loop outside it, so that LLVM's vectorizer, which works on the innermost
    loop, gets a long one. Operands indexed by both loops and contiguous in
    them are read through memref.collapse_shape; operands indexed by
    neither keep their maps; an input indexed by the innermost loop alone
    and broadcast along every other (a per-channel constant) is copied, as
    many times as the outer loop runs, into a buffer of at most 4096
    elements allocated on the stack at the function's entry, filled just
    before the nest. A nest with any other operand is left as it is.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def ParallelizeLoopsPass : Pass<"tfc-parallelize-loops", "mlir::ModuleOp"> {
  let summary = "Splits large generated loops over the runtime's threads";
  let description = [{
    After tfc-strip-graphs, on the step functions' linalg.generic ops (the
    elementwise groups and row reductions): each whose iterations times
    body operations reach 2^15, whose first dimension longer than 1 is
    parallel and indexes every output, and whose body calls nothing of the
    runtime, becomes loops whose loop over that dimension is outlined into
    `NAME_loopN(captures, begin, end)` and run by `tfc_parallel_for` on the
    runtime's OpenMP team, which sizes the team by Eigen's cost model (the
    op's bytes and operations per iteration are passed along). The values
    the loop uses travel in a struct on the caller's stack: memrefs as
    their LLVM descriptors, through unrealized casts that
    reconcile-unrealized-casts folds. Loops whose outlined functions are
    the same but for locations (a computation a graph repeats on the same
    planned buffers) call one function, the first outlined.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect", "mlir::scf::SCFDialect"];
}

#endif // TFC_TRANSFORMS_PASSES_TD
