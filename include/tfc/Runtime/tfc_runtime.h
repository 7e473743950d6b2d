/*===- tfc_runtime.h - the C ABI of tfc's runtime -------------------------===*
 *
 * The one interface between code that `tfc compile` generates and the
 * runtime and kernel libraries it links against. Plain C, versioned: a
 * compiled model records TFC_RUNTIME_ABI_VERSION and the runtime refuses a
 * model built for another version.
 *
 * A compiled model is a tfc_model: the description of its inputs (feeds)
 * and outputs (fetches), the size of its scratch arena, and its step
 * function. The step reads the inputs, writes the outputs, and keeps every
 * intermediate tensor at an offset of the arena fixed at compile time.
 * What outlives a step (variables, random generators) lives in the state
 * area, also at fixed offsets; a training model has an init function too.
 * Heavy operations call the kernels declared below.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TFC_RUNTIME_H
#define TFC_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TFC_RUNTIME_ABI_VERSION 26

/* The layout of the parameter structs below is checked where both the
 * compiler (which writes them as constants of the program) and the kernels
 * (which read them) include this header. */
#ifdef __cplusplus
#define TFC_ASSERT_LAYOUT(condition, message) static_assert(condition, message)
#else
#define TFC_ASSERT_LAYOUT(condition, message) _Static_assert(condition, message)
#endif

/* Element types, numbered as TensorFlow's DataType enum. */
enum tfc_dtype {
  TFC_FLOAT = 1,
  TFC_DOUBLE = 2,
  TFC_INT32 = 3,
  TFC_UINT8 = 4,
  TFC_INT16 = 5,
  TFC_INT8 = 6,
  TFC_STRING = 7, /* Handles: see "Strings" below. */
  TFC_COMPLEX64 = 8, /* Two floats, real part first (C's float _Complex). */
  TFC_INT64 = 9,
  TFC_BOOL = 10,
  TFC_UINT16 = 17,
  TFC_COMPLEX128 = 18, /* Two doubles, real part first. */
  TFC_HALF = 19,
  TFC_UINT32 = 22,
  TFC_UINT64 = 23,
};

/* The activation a kernel applies to each value as it writes it: a
 * convolution's epilogue (tfc_conv2d_params' `activation`) and a training
 * batch norm's y. */
enum tfc_activation {
  TFC_ACTIVATION_NONE = 0,
  TFC_ACTIVATION_RELU = 1,
  TFC_ACTIVATION_RELU6 = 2, /* min(max(x, 0), 6) */
  TFC_ACTIVATION_SWISH = 3, /* x * sigmoid(x); convolutions only */
  TFC_ACTIVATION_HARD_SWISH = 4, /* x * min(max(x + 3, 0), 6) / 6;
                                    convolutions only */
  TFC_ACTIVATION_GELU = 5, /* x / 2 * erfc(-x / sqrt(2)); dense layers
                              only */
};

/* One input or output of a model: "node:port", dtype, shape. The shape is
 * static but for the batch: dims[0] is -1 in a model compiled for any
 * batch size (tfc_model.batch_tile > 0) when the tensor's first dimension
 * is the batch. */
typedef struct tfc_tensor_info {
  const char *name;
  int32_t dtype;
  int32_t rank;
  const int64_t *dims;
} tfc_tensor_info;

/* What the runtime provides to a running step (the thread count, ...). */
typedef struct tfc_runtime tfc_runtime;
/* Where _Send meets _Recv: a C++ interface, tfc/Runtime/Rendezvous.h. */
typedef struct tfc_rendezvous tfc_rendezvous;

/* The step: `inputs[i]` and `outputs[i]` point to dense, C-ordered buffers
 * of the declared dtypes and shapes (a batch of `batch_tile` rows where
 * dims[0] is -1), no output overlapping another output or an input (a
 * step may compute a fetched tensor in its output, reading it back while
 * the step runs); `arena` to `arena_bytes` bytes aligned
 * to `arena_alignment`; `state` to `state_bytes` bytes with the same
 * alignment, zeroed before the first call and kept across calls. */
typedef void (*tfc_step_fn)(tfc_runtime *runtime, void *arena, void *state,
                            void *const *inputs, void *const *outputs);

/* A variable in the state area: its identity (container/shared name),
 * the key checkpoints store it under, dtype and static shape, the byte
 * offset of its value, and the offset of the byte that is nonzero once it
 * is initialized (assigned or restored). A part of a partitioned variable
 * is saved as a slice of the full variable's tensor, `key`: `slice` is
 * the part's, as a saver's shape_and_slices spec says it ("10 4 0,5:0,4");
 * empty (or NULL) for a whole variable. */
typedef struct tfc_variable_info {
  const char *name;
  const char *key;
  int32_t dtype;
  int32_t rank;
  const int64_t *dims;
  int64_t offset;
  int64_t flag_offset;
  const char *slice;
} tfc_variable_info;

/* A thread of a queue runner (tfc compile --queue-runner): the enqueue
 * node it runs, and its entry, which runs that node and what it needs
 * (no inputs or outputs) with an arena of `arena_bytes` of its own. */
typedef struct tfc_runner_thread {
  const char *node;
  tfc_step_fn entry;
  int64_t arena_bytes;
} tfc_runner_thread;

/* A queue runner: the queue its threads fill (its name and number, as the
 * queue functions below take it) and the threads, each running its entry
 * again and again while the steps run (tfc_queue_runners_start). A chief
 * queue runner (--chief-queue-runner, SyncReplicasOptimizer's) runs only
 * in the chief's job, and stops when the chief's steps end. */
typedef struct tfc_queue_runner {
  const char *queue;
  int64_t queue_slot;
  int32_t num_threads;
  const tfc_runner_thread *threads;
  int32_t chief;
} tfc_queue_runner;

typedef struct tfc_model {
  int32_t abi_version;
  const char *name;
  int32_t num_inputs;
  const tfc_tensor_info *inputs;
  int32_t num_outputs;
  const tfc_tensor_info *outputs;
  int64_t arena_bytes;
  int64_t arena_alignment;
  tfc_step_fn step;
  /* The --init entry (NULL if none): run once, with no inputs or outputs,
   * before the first step unless the variables were restored. */
  tfc_step_fn init;
  int64_t state_bytes;
  int32_t num_variables;
  const tfc_variable_info *variables;
  /* For a model from a TF2 SavedModel: its checkpoints' object graph (a
   * serialized TrackableObjectGraph, saved with every checkpoint so that
   * tf.train.Checkpoint restores them); NULL and 0 otherwise. */
  const char *object_graph;
  int64_t object_graph_bytes;
  /* A model compiled for any batch size: its step computes this many rows
   * of the batch (the tensors with dims[0] == -1), and runs once per tile
   * of the batch (tfc/Runtime/Batch.h). 0 when every shape is static. */
  int64_t batch_tile;
  /* Outputs whose first dimension only the data decides (the rows of a
   * Where): NULL when there are none; else, per output, -1, or the index
   * of the int64 scalar output in which each step leaves how many of the
   * output's rows are TensorFlow's. Its dims[0] is then their bound, the
   * rows its buffer holds, and the rows past the count are padding. */
  const int32_t *rows_outputs;
  /* Per output, the dimension of those rows: NULL when it is the first
   * for every one. */
  const int32_t *rows_output_axes;
  /* Inputs one dimension of which --max-dim bounds: NULL when there are
   * none; else, per input, -1, or the index of the int64 scalar input
   * that says how many slices along dimension rows_input_axes[i] are
   * given. dims[rows_input_axes[i]] is then their bound, the slices the
   * buffer holds; the step ignores those past the count. */
  const int32_t *rows_inputs;
  const int32_t *rows_input_axes;
  /* The graph's queue runners (none: 0). */
  int32_t num_queue_runners;
  const tfc_queue_runner *queue_runners;
  /* The --local-init entry (NULL if none): run once by every worker after
   * the variables are ready (after the init, or a restore; by the other
   * workers of between-graph replication once they join), TensorFlow's
   * Scaffold.local_init_op. Then, by the chief only, the --chief-init
   * entry (SyncReplicasOptimizer's chief_init_op and init_tokens_op). */
  tfc_step_fn local_init;
  tfc_step_fn chief_init;
  /* NULL when no output is a summary; else, per output, 1 when it is a
   * serialized Summary (a summary op's output, which a program run with
   * --logdir writes to an event file after each step), else 0. */
  const int32_t *summary_outputs;
  /* How many summary writers (TF2's SummaryWriter resources) the entries
   * write to: a program with one takes --logdir even without a summary
   * output. */
  int32_t num_summary_writers;
} tfc_model;

/*===--- The runtime ---------------------------------------------------===*/

/* How to make a runtime. Zero-initialized options are the defaults. */
typedef struct tfc_runtime_options {
  /* Threads for intra-op parallelism (0: one per core). */
  int32_t threads;
  /* Makes the rendezvous the step's _Send and _Recv use, given
   * `rendezvous_context`; the runtime owns (and deletes) what it returns.
   * NULL: the in-process rendezvous of one program's partitions. A
   * transport between processes plugs in here. */
  tfc_rendezvous *(*create_rendezvous)(void *rendezvous_context);
  void *rendezvous_context;
  /* Where summary writers write (a program's --logdir): each in the
   * subdirectory named after the last component of the logdir its
   * CreateSummaryFileWriter gives. NULL: in that logdir itself. */
  const char *summary_logdir;
} tfc_runtime_options;

/* A runtime made as `options` say (NULL: the defaults); NULL if the
 * rendezvous factory returned NULL. */
tfc_runtime *tfc_runtime_create(const tfc_runtime_options *options);
/* A runtime of a task whose steps other tasks' steps run with (a ps
 * serving several workers' steps at once, a runtime per worker): its
 * queues and accumulators are those of `shared`, another made so (NULL:
 * new ones), and a wait in them that every thread of this process shares
 * is not taken for a deadlock, since another task's step may end it. */
tfc_runtime *tfc_runtime_create_shared(const tfc_runtime_options *options,
                                       tfc_runtime *shared);
void tfc_runtime_destroy(tfc_runtime *runtime);
int32_t tfc_runtime_threads(const tfc_runtime *runtime);

/* Memory for an arena: `bytes` bytes aligned to `alignment` (a power of
 * two); NULL if it cannot be had. Free with tfc_arena_free. */
void *tfc_arena_alloc(int64_t bytes, int64_t alignment);
void tfc_arena_free(void *arena);

/*===--- State and errors ----------------------------------------------===*/

/* A failure while a step runs (an uninitialized variable, a label out of
 * range): prints "error: MESSAGE" and ends the process with status 1. */
void tfc_fail(tfc_runtime *runtime, const char *message);

/* The exit status of a step that failed because a peer of a distributed
 * job was lost (a rendezvous status Unavailable): the job can go on after
 * a restart from its latest checkpoint (Kubeflow retries it). */
#define TFC_EXIT_CLUSTER_FAILURE 138

/* Fails unless each of the `count` indices (signed integers of
 * `index_bytes` bytes) is in [0, limit), as TensorFlow's gathers do:
 * "NODE: indices[I] = V is not in [0, LIMIT)", `node` naming the node. */
void tfc_check_indices(tfc_runtime *runtime, const void *indices,
                       const char *node, int64_t count, int64_t index_bytes,
                       int64_t limit);

/* Fails unless begin[entry] (a signed integer of `index_bytes` bytes; a
 * negative one counts from the end) indexes a dimension `dim` of `size`,
 * as TensorFlow's StridedSlice does for an index the step computes:
 * "NODE: slice index V of dimension D out of bounds." */
void tfc_check_slice_index(tfc_runtime *runtime, const void *begin,
                           const char *node, int64_t entry,
                           int64_t index_bytes, int64_t dim, int64_t size);

/* Fails, as TensorFlow's CheckNumerics does, when one of the `count`
 * floats (tfc_dtype `dtype`: half, bfloat16, float or double) is NaN or
 * infinite: "MESSAGE : Tensor had NaN values" (Inf, Inf and NaN). */
void tfc_check_numerics(tfc_runtime *runtime, const void *data,
                        const char *message, int64_t count, int64_t dtype);

/* The same for `count` index tuples of `depth` indices each (GatherNd):
 * index j of a tuple must be in [0, limits[j]), else "NODE: indices[I] =
 * [A, B] does not index into param shape [L0,L1,...]". */
void tfc_check_index_tuples(tfc_runtime *runtime, const void *indices,
                            const char *node, const int64_t *limits,
                            int64_t count, int64_t depth, int64_t index_bytes,
                            int64_t limits_rank);

/* Fails, naming the variable, unless its initialized flag is set. */
void tfc_check_initialized(tfc_runtime *runtime, const uint8_t *flag,
                           const char *name);

/* An update of the variable whose buffer is at `variable` holds its lock
 * (TensorFlow's use_locking): executions of one task that run at once, a
 * parameter server serving several workers' steps, update it one at a
 * time. Locks are striped by address and held one at a time. */
void tfc_variable_lock(tfc_runtime *runtime, void *variable);
void tfc_variable_unlock(tfc_runtime *runtime, void *variable);

/*===--- Strings -------------------------------------------------------===*/

/* A string tensor holds one 8-byte handle per element: the address of the
 * element's length (an int64_t) followed by its bytes and a NUL. Constant
 * strings are in the program's data; the strings a step makes are the
 * runtime's until tfc_strings_release, which whoever runs the steps calls
 * before each step (so a step's string outputs stay valid until then). */
const void *tfc_string_new(tfc_runtime *runtime, const char *data,
                           int64_t size);
void tfc_strings_release(tfc_runtime *runtime);

/* The stacks of TF1 loop gradients (StackV2, StackPushV2, StackPopV2),
 * numbered by code generation: clear makes stack `slot` empty (StackV2
 * runs once per step), push copies `bytes` bytes onto it, pop copies the
 * last `bytes` bytes pushed to `out` and removes them; popping more than
 * was pushed stops the step with an error naming `node`. */
void tfc_stack_clear(tfc_runtime *runtime, int64_t slot);
void tfc_stack_push(tfc_runtime *runtime, const void *data, int64_t slot,
                    int64_t bytes);
void tfc_stack_pop(tfc_runtime *runtime, void *out, const char *node,
                   int64_t slot, int64_t bytes);

/* TensorFlow's queues (FIFOQueueV2, PaddingFIFOQueueV2,
 * RandomShuffleQueueV2), numbered by
 * code generation over the program (every node of one queue, in the init
 * entry, the step or a queue runner's entry, has its number). make makes
 * queue `slot` the first time a queue node runs, holding elements of
 * `num_components` components of component_bytes[k] bytes each (8 per
 * string where component_is_string[k]), at most `capacity` of them (-1: no
 * limit); it lives as long as the runtime. A `min_after_dequeue` of -1
 * makes a FIFO queue; 0 or more a shuffle queue, which keeps that many
 * elements while open and takes each at random from the Philox stream of
 * `seed` and `seed2`, as TensorFlow's RandomShuffleQueue does (both 0:
 * random seeds). enqueue appends `count`
 * elements, whose component k is `count` rows at components[k], each as
 * soon as there is room; dequeue removes the next `count` (in the
 * queue's order) into the rows at components[k] once there are that many
 * (beyond min_after_dequeue while the queue is open). A dequeue that finds the
 * queue closed with fewer than `count` elements ends the run armed on the
 * thread (see tfc_run_until_end_of_input), or stops the step with
 * TensorFlow's OutOfRange message naming `node` when nothing armed one; an
 * enqueue into a closed queue stops the step, and one waiting when the
 * queue is closed with `cancel_pending_enqueues` gives up as TensorFlow's
 * does. An op that would wait while every other thread that could end the
 * wait (the step's, the queue runners') waits too stops the step with an
 * error naming `node` instead of hanging. */
void tfc_queue_make(tfc_runtime *runtime, const char *name,
                    const int64_t *component_bytes,
                    const int64_t *component_is_string, int64_t slot,
                    int64_t capacity, int64_t num_components,
                    int64_t min_after_dequeue, int64_t seed, int64_t seed2);
void tfc_queue_enqueue(tfc_runtime *runtime, const void *const *components,
                       const char *node, int64_t slot, int64_t count);
void tfc_queue_dequeue(tfc_runtime *runtime, void *const *components,
                       const char *node, int64_t slot, int64_t count);
/* QueueDequeueUpToV2: `count` elements, or once the queue is closed
 * fewer (one at least), their number in `*taken`; the rows past them are
 * copies of the first (their buffers are planned for `count`). */
void tfc_queue_dequeue_up_to(tfc_runtime *runtime, void *const *components,
                             int64_t *taken, const char *node, int64_t slot,
                             int64_t count);
void tfc_queue_close(tfc_runtime *runtime, const char *node, int64_t slot,
                     int64_t cancel_pending_enqueues);
void tfc_queue_size(tfc_runtime *runtime, int32_t *out, const char *node,
                    int64_t slot);
void tfc_queue_is_closed(tfc_runtime *runtime, uint8_t *out, const char *node,
                         int64_t slot);

/* TensorFlow's ConditionalAccumulators (and their Resource forms) of
 * float32 gradients, numbered by code generation like the queues. make
 * makes accumulator `slot` of `elements` floats the first time one of its
 * nodes runs (`mean`: it averages, else it sums). apply adds `gradient`
 * unless *local_step is older than the accumulator's global step (a stale
 * gradient, dropped); take waits for *num_required gradients, stores
 * their mean (or sum) at `out`, clears the accumulator and increments its
 * global step; set_global_step sets it. A take that would wait forever
 * (as a dequeue would) stops the step naming `node`. */
void tfc_accumulator_make(tfc_runtime *runtime, const char *name,
                          int64_t slot, int64_t elements, int64_t mean);
void tfc_accumulator_apply(tfc_runtime *runtime, const int64_t *local_step,
                           const float *gradient, const char *node,
                           int64_t slot);
void tfc_accumulator_take(tfc_runtime *runtime, const int32_t *num_required,
                          float *out, const char *node, int64_t slot);
/* SparseConditionalAccumulators of float32 rows, numbered with the
 * others. make makes accumulator `slot`, of rows of `row_elements` floats
 * of a dense tensor of `shape` (`rank` dimensions, -1 where unknown; rank
 * -1: unknown). apply adds `rows` rows of `values` at `indices` unless
 * stale, checking `gradient_shape` (`shape_elements` long; -1: the
 * gradient states none) and the indices as TensorFlow does (and refusing
 * negative ones, which its update after the take would). take waits as
 * the dense one does, then writes the rows (TensorFlow's order; each the
 * mean of its gradients or their sum) and their indices, pads them to
 * `bound` rows (index -1, zeros), their number at `count` and
 * `dense_shape` (`rank` long) at `shape`; more than `bound` rows stop the
 * step naming `node`. */
void tfc_sparse_accumulator_make(tfc_runtime *runtime, const char *name,
                                 const int64_t *shape, int64_t slot,
                                 int64_t rank, int64_t row_elements,
                                 int64_t mean);
void tfc_sparse_accumulator_apply(tfc_runtime *runtime,
                                  const int64_t *local_step,
                                  const int64_t *indices, const float *values,
                                  const int64_t *gradient_shape,
                                  const char *node, int64_t slot, int64_t rows,
                                  int64_t shape_elements);
void tfc_sparse_accumulator_take(tfc_runtime *runtime,
                                 const int32_t *num_required, int64_t *indices,
                                 float *values, int64_t *shape, int64_t *count,
                                 const int64_t *dense_shape, const char *node,
                                 int64_t slot, int64_t bound, int64_t rank);
void tfc_accumulator_num_accumulated(tfc_runtime *runtime, int32_t *out,
                                     const char *node, int64_t slot);
void tfc_accumulator_set_global_step(tfc_runtime *runtime,
                                     const int64_t *step, const char *node,
                                     int64_t slot);

/* Runs run(context), which runs steps, and returns 0; or returns 1 as soon
 * as a dequeue in those steps finds its queue closed (TensorFlow's
 * OutOfRangeError, which ends a queue runner's loop), abandoning the step
 * it was in: tfc_end_of_input_message then says which node found what.
 * Only queue ops on the calling thread end the run this way. The frames
 * between this call and the steps must own nothing that needs destroying
 * (they are left by a longjmp). The message is the calling thread's. */
int tfc_run_until_end_of_input(tfc_runtime *runtime, void (*run)(void *),
                               void *context);
const char *tfc_end_of_input_message(tfc_runtime *runtime);

/* HistogramSummary: the handle of a serialized Summary with one value,
 * tag *tag, whose HistogramProto counts the `count` values (of `dtype` as
 * for tfc_scalar_summary) in TensorFlow's default buckets, each run of
 * empty buckets as one. A NaN or infinity ends the step naming `node`. */
void tfc_histogram_summary(tfc_runtime *runtime, const char *node,
                           const uint64_t *tag, const void *values,
                           uint64_t *out, int64_t count, int64_t dtype);
/* ImageSummary: the handle of a serialized Summary with a value per image
 * of the first `max_images` of `batch` (tag "TAG/image", or "TAG/image/I"
 * when max_images > 1), each a PNG of `height` x `width` pixels of
 * `channels` (1, 3, 4) samples: uint8 values (dtype 4) as they are, float
 * or double ones mapped into uint8 per image as TensorFlow maps them (see
 * SummaryOps.cpp), a pixel with a sample not finite as `bad_color`. */
void tfc_image_summary(tfc_runtime *runtime, const uint64_t *tag,
                       const void *values, const uint8_t *bad_color,
                       uint64_t *out, int64_t batch, int64_t height,
                       int64_t width, int64_t channels, int64_t dtype,
                       int64_t max_images);
/* TensorSummaryV2: the handle of a serialized Summary with one value, tag
 * *tag, the tensor at `values` (shape dims[0..rank), TensorFlow's `dtype`,
 * `element_bytes` each; strings as handles) as a TensorProto, and the
 * SummaryMetadata *metadata (a serialized one; not one ends the step
 * naming `node`). */
void tfc_tensor_summary(tfc_runtime *runtime, const char *node,
                        const uint64_t *tag, const void *values,
                        const uint64_t *metadata, uint64_t *out,
                        const int64_t *dims, int64_t rank, int64_t dtype,
                        int64_t element_bytes);
/* EncodePng: out[i] the handle of the PNG of image i of `count`, each
 * `height` x `width` pixels of `channels` (1 to 4) uint8 samples, row-major
 * one after another at `images`. Its image data are stored deflate blocks
 * (so TensorFlow's `compression` level changes nothing); the pixels are
 * the image's. */
void tfc_encode_png(tfc_runtime *runtime, const uint8_t *images, uint64_t *out,
                    int64_t count, int64_t height, int64_t width,
                    int64_t channels);
/* TF2's summary writers, numbered over the program (kSummaryWriterSlotAttr).
 * CreateSummaryFileWriter: makes writer `slot` an event file writer in the
 * directory *logdir (a string handle; made as needed) or, for a runtime
 * given summary_logdir, in that directory's subdirectory named after
 * *logdir's last component, its file's name ending in *suffix. A writer
 * already made stays as it is, as TensorFlow's does. A directory or file
 * that cannot be made ends the step naming `node`. */
void tfc_summary_writer_create(tfc_runtime *runtime, const char *node,
                               const uint64_t *logdir, const uint64_t *suffix,
                               int64_t slot);
/* WriteSummary, WriteScalarSummary, WriteHistogramSummary: appends to the
 * file of writer `slot` an Event of step *step holding the serialized
 * Summary *summary (a string handle, as the summary functions make), every
 * value's metadata kept; a writer not made (or closed) ends the step naming
 * `node`, as TensorFlow's NotFound does. Each event is written to the file
 * as it comes. */
void tfc_summary_writer_write(tfc_runtime *runtime, const char *node,
                              const int64_t *step, const uint64_t *summary,
                              int64_t slot);
/* FlushSummaryWriter (close 0) and CloseSummaryWriter (close 1): flushes
 * writer `slot`'s file; closing it too, after which a write needs a new
 * CreateSummaryFileWriter. A writer not made ends the step naming `node`. */
void tfc_summary_writer_flush(tfc_runtime *runtime, const char *node,
                              int64_t slot, int64_t close);
/* MergeSummary: the values of the `count` serialized Summaries at
 * *inputs[i] (string handles), in order, as one; a tag seen twice, or an
 * input that is no Summary, ends the step naming `node`. */
void tfc_merge_summary(tfc_runtime *runtime, const char *node,
                       const uint64_t *const *inputs, uint64_t *out,
                       int64_t count);
/* ScalarSummary: stores at `out` the handle of a serialized Summary
 * protocol buffer with a value per element, tag tags[i] (string handles)
 * and simple_value values[i] (of TensorFlow's `dtype`: float, double,
 * int32 or int64) as a float. */
void tfc_scalar_summary(tfc_runtime *runtime, const uint64_t *tags,
                        const void *values, uint64_t *out, int64_t count,
                        int64_t dtype);

/* CountUpTo: stores the integer scalar at `variable` (of `bytes` bytes, 4
 * or 8) at `out` and increments it, atomically; at `limit` it is left as
 * it is and, as TensorFlow's OutOfRangeError, the run armed on the thread
 * ends (tfc_run_until_end_of_input), or the step stops naming `node`. */
void tfc_count_up_to(tfc_runtime *runtime, void *variable, void *out,
                     const char *node, int64_t limit, int64_t bytes);

/* Starts `model`'s queue runners, if it has any, on threads of their own
 * (after its init entry, or a restore): each runs its entry again and
 * again, with `state` as the steps' state, until its input ends (a queue
 * it dequeues from is closed and empty: the runner then closes its own
 * queue once all its threads are done) or the runners stop. stop, which
 * the runtime's end does too, ends every wait in a queue, closes each
 * runner's queue cancelling its pending enqueues and returns when the
 * threads have ended, as TensorFlow's Coordinator stopping its
 * QueueRunners does. A failure on a runner's thread ends the process with
 * its error, as any step's does. */
void tfc_queue_runners_start(tfc_runtime *runtime, const tfc_model *model,
                             void *state, int32_t with_chief);
void tfc_queue_runners_stop(tfc_runtime *runtime);
/* The chief queue runners start with the others when `with_chief` is
 * set (not in a between-graph worker other than the chief), and stop
 * apart from them: their stop ends only their own threads' waits, so that
 * a dequeue waiting on one of their queues ends as at the end of input
 * (TensorFlow's chief closing SyncReplicasOptimizer's token queue). */
void tfc_chief_queue_runners_stop(tfc_runtime *runtime);
/* While `abandon` is set, the waits in queues of the steps this runtime
 * runs under tfc_run_until_end_of_input end, and so does the run, as at
 * the end of input: a task abandons the step of a client that was lost (a
 * between-graph worker a ps serves) while its other clients' go on. */
void tfc_runtime_abandon_waits(tfc_runtime *runtime, int32_t abandon);

/* TF1 TensorArrays (TensorArrayV3), numbered by code generation: init
 * makes array `slot` `size` zero elements of `row_bytes` bytes (each
 * step), `length` of them TensorFlow's (an array of dynamic size: `size`
 * is its capacity, and writes lengthen it); grad makes gradient array
 * `slot` of forward array `forward_slot`, once per step of the forward
 * array. write copies `count` rows to the elements `indices` name, or to
 * the first `count` without indices (with `aggregate`, adds float32 rows
 * to them); read copies elements out (with `skip_negative`, a negative
 * index reads a row of zeros: padding); size stores the length. An index
 * outside the array, or read past its length, stops the step with an
 * error naming `node`. */
void tfc_tensor_array_init(tfc_runtime *runtime, int64_t slot, int64_t size,
                           int64_t row_bytes, int64_t length);
void tfc_tensor_array_grad(tfc_runtime *runtime, int64_t slot,
                           int64_t forward_slot, int64_t row_bytes);
void tfc_tensor_array_write(tfc_runtime *runtime, const int32_t *indices,
                            const void *rows, const char *node, int64_t slot,
                            int64_t count, int64_t row_bytes,
                            int64_t aggregate);
void tfc_tensor_array_read(tfc_runtime *runtime, const int32_t *indices,
                           void *rows, const char *node, int64_t slot,
                           int64_t count, int64_t row_bytes,
                           int64_t skip_negative);
void tfc_tensor_array_size(tfc_runtime *runtime, int32_t *out, int64_t slot);

/* StringJoin: out[i] joins element i of each of `num_inputs` inputs (an
 * input of one element is broadcast), `separator` between them; `count`
 * elements. `inputs` points to the inputs' addresses, `input_counts` to
 * their element counts. */
void tfc_string_join(tfc_runtime *runtime, const int64_t *inputs,
                     const int64_t *input_counts, uint64_t *out,
                     const char *separator, int64_t num_inputs, int64_t count);
/* ShardedFilename: "BASENAME-SSSSS-of-NNNNN" (scalars). */
void tfc_sharded_filename(tfc_runtime *runtime, const uint64_t *basename,
                          const int32_t *shard, const int32_t *num_shards,
                          uint64_t *out);
/* The regular expression ops, with RE2 (a program calling them links
 * -lre2): whether each element matches `pattern` whole, and each element
 * with the first (or, `global`, every) match replaced by `rewrite` (\1 for
 * groups). Pattern and rewrite are NUL-terminated text, or, with
 * `from_tensor(s)`, the address of a scalar string tensor's handle. A
 * pattern or rewrite RE2 refuses fails with TensorFlow's message, naming
 * `node`. */
void tfc_regex_full_match(tfc_runtime *runtime, const uint64_t *in,
                          uint8_t *out, const void *pattern, const char *node,
                          int64_t count, int64_t from_tensor);
void tfc_regex_replace(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                       const void *pattern, const void *rewrite,
                       const char *node, int64_t count, int64_t global,
                       int64_t from_tensors);
/* The elementwise string ops over `count` elements: StringLength (bytes,
 * or UTF-8 characters), StringLower/StringUpper (ASCII letters),
 * StringStrip (ASCII white space), AsString (numbers of tfc_dtype `dtype`
 * printed with the printf `format`, bools as true/false), StringToNumber
 * (into `dtype`; text that is not a number fails naming `node`) and Substr
 * (`positions` pos and len values of `index_bytes`, one for every element
 * or one for all; a pos outside the string fails naming `node`). */
void tfc_string_length(tfc_runtime *runtime, const uint64_t *in, int32_t *out,
                       int64_t count, int64_t utf8);
void tfc_string_case(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                     int64_t count, int64_t upper);
void tfc_string_strip(tfc_runtime *runtime, const uint64_t *in, uint64_t *out,
                      int64_t count);
void tfc_as_string(tfc_runtime *runtime, const void *in, uint64_t *out,
                   const char *format, int64_t count, int64_t dtype);
void tfc_string_to_number(tfc_runtime *runtime, const uint64_t *in, void *out,
                          const char *node, int64_t count, int64_t dtype);
/* StringSplitV2 padded to `columns` tokens per string
 * (_TfcDenseStringSplit): each of `count` strings split at the scalar
 * `sep`, keeping empty tokens (an empty `sep`: at runs of ASCII white
 * space, keeping none, as Python's str.split()), at most `maxsplit` times
 * when it is >= 0, the rest one token; its first `columns` tokens fill its
 * row of `tokens` ("" past them), and `lengths` gets its number of tokens. */
void tfc_string_split_dense(tfc_runtime *runtime, const uint64_t *in,
                            const uint64_t *sep, uint64_t *tokens,
                            int64_t *lengths, int64_t count, int64_t columns,
                            int64_t maxsplit);
/* UnicodeDecode of UTF-8 padded to `columns` code points per string
 * (_TfcDenseUnicodeDecode): each of `count` strings decoded, each maximal
 * ill-formed subsequence (the Unicode standard's, as ICU and TensorFlow
 * take it) one error: `errors` 0 (strict) stops the step naming `node`, 1
 * (replace) gives `replacement`, 2 (ignore) nothing; with
 * `replace_control`, C0 controls become `replacement` too. Its first
 * `columns` code points fill its row of `out` (0 past them), and
 * `lengths` gets its number of code points. */
void tfc_unicode_decode_dense(tfc_runtime *runtime, const uint64_t *in,
                              int32_t *out, int64_t *lengths, const char *node,
                              int64_t count, int64_t columns, int64_t errors,
                              int64_t replacement, int64_t replace_control);
/* LookupTableFindV2 of a table whose contents are constants of the program
 * (tfc-bind-tables): `size` keys, sorted, and their values, for `count`
 * queries. Integer keys (`key_bytes` 4 or 8, the queries' width) are the
 * int64s `keys`; string keys (`key_bytes` 0) are the string objects of
 * `key_data` at the byte offsets `keys`, sorted as their bytes compare.
 * Values of `value_bytes` bytes are in `values`; string values
 * (`value_bytes` 0) are the objects of `value_data` at the offsets
 * `values`, whose handles the output gets. A query that is no key gets
 * `default_value` (one element of the values' kind). */
void tfc_table_find(tfc_runtime *runtime, const int64_t *keys,
                    const void *key_data, const void *values,
                    const void *value_data, const void *queries,
                    const void *default_value, void *out, int64_t size,
                    int64_t count, int64_t key_bytes, int64_t value_bytes);
/* StringToHashBucketFast: each string's 64-bit FarmHash fingerprint
 * (TensorFlow's Fingerprint64) modulo `buckets`. */
void tfc_string_to_hash_bucket_fast(tfc_runtime *runtime, const uint64_t *in,
                                    int64_t *out, int64_t count,
                                    int64_t buckets);
void tfc_substr(tfc_runtime *runtime, const uint64_t *in, const void *pos,
                const void *len, uint64_t *out, const char *node, int64_t count,
                int64_t positions, int64_t index_bytes, int64_t utf8);

/*===--- Checkpoint ops -----------------------------------------------===*/

/* SaveV2, RestoreV2 and MergeV2Checkpoints as ops of a step, in
 * TensorFlow's checkpoint V2 format. `descriptor` (a compile-time table)
 * holds the tensor count, then per tensor its dtype, rank and dims;
 * `tensors` points to the tensors' addresses; `names` and
 * `shape_and_slices` are string tensors of that many elements (slices
 * must be empty: partitioned variables are not supported). Failures stop
 * the step with an error naming `node` and the file. */
void tfc_save_v2(tfc_runtime *runtime, const uint64_t *prefix,
                 const uint64_t *names, const uint64_t *shape_and_slices,
                 const int64_t *tensors, const int64_t *descriptor,
                 const char *node);
/* RestoreV2: each tensor must be in the checkpoint with the dtype and
 * shape the descriptor gives. */
void tfc_restore_v2(tfc_runtime *runtime, const uint64_t *prefix,
                    const uint64_t *names, const uint64_t *shape_and_slices,
                    const int64_t *tensors, const int64_t *descriptor,
                    const char *node);
/* MergeV2Checkpoints: the `count` checkpoints `prefixes` become one at
 * `destination` (their data files renamed, one merged index), and their
 * index files go; with delete_old_dirs, so do their directories once
 * empty; with allow_missing_files, absent ones are skipped. */
void tfc_merge_v2_checkpoints(tfc_runtime *runtime, const uint64_t *prefixes,
                              const uint64_t *destination,
                              const char *node, int64_t count,
                              int64_t delete_old_dirs,
                              int64_t allow_missing_files);

/*===--- Devices and transfers -----------------------------------------===*/

/* A step compiled for several devices: runs `count` partition steps
 * concurrently, each on a thread of its own (partition k's arena part is
 * at an offset it knows), and returns when all have finished. */
void tfc_run_partitions(tfc_runtime *runtime, int32_t count,
                        const tfc_step_fn *partitions, void *arena,
                        void *state, void *const *inputs,
                        void *const *outputs);

/* _Send and _Recv: hand `bytes` bytes to the rendezvous under `key`
 * (TensorFlow's "send_device;incarnation;recv_device;tensor;0:0"), or wait
 * for them and copy them to `data`. When the rendezvous fails (aborted, a
 * lost peer, a malformed exchange) the step ends: "error: MESSAGE" and
 * status TFC_EXIT_CLUSTER_FAILURE for a lost peer, 1 otherwise. */
void tfc_send(tfc_runtime *runtime, const char *key, const void *data,
              int64_t bytes);
void tfc_recv(tfc_runtime *runtime, const char *key, void *data, int64_t bytes);
/* The same inside a loop whose body spans devices: a tensor crosses once
 * per iteration, under `key_prefix` ("...;tensor;FRAME:") followed by the
 * iteration's number, as TensorFlow's keys end in "frame_id:iter_id". */
void tfc_send_in_frame(tfc_runtime *runtime, const char *key_prefix,
                       const void *data, int64_t iteration, int64_t bytes);
void tfc_recv_in_frame(tfc_runtime *runtime, const char *key_prefix,
                       void *data, int64_t iteration, int64_t bytes);

/* Execution traces (tfc/Runtime/Trace.h; a program's --trace). Each step
 * asks tfc_trace_enabled once; when it is nonzero the step names its
 * thread after its partition's device and reads tfc_trace_now before each
 * node, then passes that start to tfc_trace_node with the node's label,
 * "NAME\tOP" or, for a fused group, "NAME\tOP\tMEMBER,MEMBER,...". */
int32_t tfc_trace_enabled(void);
int64_t tfc_trace_now(void);
void tfc_trace_node(const char *label, int64_t start_ns);
void tfc_trace_thread(const char *device);

/*===--- Kernels -------------------------------------------------------===*/

/* A generated loop split over the runtime's threads (tfc-parallelize-loops):
 * body(captures, begin, end) on consecutive ranges covering [0, n), in
 * parallel on as many threads as the cost of one iteration (bytes read,
 * bytes written, compute cycles: Eigen's TensorOpCost) makes worth waking,
 * the same OpenMP team as the kernels'; a small loop runs inline. */
void tfc_parallel_for(tfc_runtime *runtime,
                      void (*body)(void *captures, int64_t begin, int64_t end),
                      void *captures, int64_t n, double bytes_loaded,
                      double bytes_stored, double cycles);

/* C[m,n] = op(A) * op(B), op transposing when asked; A is [m,k] (or [k,m]
 * transposed), B [k,n] (or [n,k]). Row-major, dense. */
void tfc_cpu_matmul_f32(tfc_runtime *runtime, const float *a, const float *b,
                        float *c, int64_t m, int64_t k, int64_t n,
                        int32_t transpose_a, int32_t transpose_b);

/* A dense layer: a product by a constant matrix of the program (a
 * Keras Dense or EinsumDense kernel) with an epilogue applied as the
 * output is written:
 *   out[m,n] = act(a[m,k] * op(weights) + bias + residual)
 * weights are [k,n], or [n,k] with transpose_b; bias ([n]) and residual
 * ([m,n]) may be NULL when the parameters say they are absent. `params`
 * is a constant of the program, its address the key of the call site's
 * cached primitive and of its weights in the primitive's layout. */
typedef struct tfc_dense_params {
  int64_t m, k, n;
  int64_t transpose_b; /* 0 or 1 */
  int64_t activation;  /* enum tfc_activation */
  int64_t has_bias;    /* 0 or 1 */
  int64_t residual;    /* 0 none, 1 read from `residual`, 2 already in
                          `out` (which `residual` then equals) */
} tfc_dense_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_dense_params) == 7 * sizeof(int64_t),
                  "tfc_dense_params is 7 int64s");

void tfc_cpu_dense_f32(tfc_runtime *runtime, const float *a,
                       const float *weights, const float *bias,
                       const float *residual, float *out,
                       const tfc_dense_params *params);

/* Softmax over each of `rows` rows of `cols` values (the last axis). */
void tfc_cpu_softmax_f32(tfc_runtime *runtime, const float *in, float *out,
                         int64_t rows, int64_t cols);

/* LogSoftmax over each row: x - max - log(sum(exp(x - max))). */
void tfc_cpu_log_softmax_f32(tfc_runtime *runtime, const float *in,
                             float *out, int64_t rows, int64_t cols);

/* The kernels below see their input as [outer, n, inner] and walk the
 * middle axis; `dtype` is the element type (enum tfc_dtype). */

/* ArgMax (kind 0) or ArgMin (kind 1): the index of the first extreme along
 * the axis (NaN never wins; with no winner, 0), written as int32 or int64
 * per `index_dtype`; out is [outer, inner]. */
void tfc_cpu_arg_reduce(tfc_runtime *runtime, const void *in, void *out,
                        int64_t kind, int64_t dtype, int64_t index_dtype,
                        int64_t outer, int64_t n, int64_t inner);

/* Cumsum (kind 0) or Cumprod (kind 1) along the axis, in order (reverse:
 * from the end); exclusive scans start from the identity. */
void tfc_cpu_scan(tfc_runtime *runtime, const void *in, void *out,
                  int64_t kind, int64_t dtype, int64_t outer, int64_t n,
                  int64_t inner, int64_t exclusive, int64_t reverse);

/* TopKV2 on each of `rows` rows of n floats: the k largest in descending
 * order (equal values: lower index first; NaN above all) and their
 * indices. */
void tfc_cpu_top_k_f32(tfc_runtime *runtime, const float *in, float *values,
                       int32_t *indices, int64_t rows, int64_t n, int64_t k);

/* C[b..., m, n] = sum_k A[b..., m, k] * B[b..., k, n] over any element
 * strides: BatchMatMul with broadcasting (stride 0) and adjoints (swapped
 * strides), and two-operand Einsum. `descriptor` (int64, compile-time
 * constant) holds: R (batch rank), R batch sizes, R A strides, R B strides,
 * R C strides, then m, n, k, A's strides for m and k, B's for k and n, and
 * C's for m and n (all in elements). */
void tfc_cpu_strided_matmul_f32(tfc_runtime *runtime, const float *a,
                                const float *b, float *c,
                                const int64_t *descriptor);

/* Attention in one pass: out = softmax(scale * (Q Kᵀ)) V, the softmax over
 * each row of scores, which are never written. `scores` is the strided
 * descriptor (as above) of the first product, Q as A and K as B; its C
 * is not read (the scores' rows are [n] contiguous in scratch).
 * `context` is the second's, whose A is those scores, B is V and C is
 * `out`; its batch dims are the first's, its m the first's m and its k the
 * first's n. `scale` points to one float, or is NULL for 1. */
void tfc_cpu_attention_f32(tfc_runtime *runtime, const float *q,
                           const float *k, const float *v, const float *scale,
                           float *out, const int64_t *scores,
                           const int64_t *context);

/* Convolutions, NHWC. The input is [n,h,w,c], the filter [kh,kw,c,oc]
 * (depthwise: [kh,kw,c,multiplier], output channels c*multiplier), the
 * output [n,oh,ow,oc]. Padding is explicit: pad_top and pad_left rows and
 * columns of zeros before the input (the rest follows from oh, ow). */
void tfc_cpu_conv2d_f32(tfc_runtime *runtime, const float *in,
                        const float *filter, float *out, int64_t n, int64_t h,
                        int64_t w, int64_t c, int64_t kh, int64_t kw,
                        int64_t oc, int64_t oh, int64_t ow, int64_t stride_h,
                        int64_t stride_w, int64_t dilation_h,
                        int64_t dilation_w, int64_t pad_top, int64_t pad_left);
/* A convolution's geometry: input [n, h, w, c] (NHWC), filter
 * [kh, kw, c, out_c] (depthwise: [kh, kw, c, multiplier], out_c the
 * multiplier), output [n, oh, ow, channels]; explicit padding. */
typedef struct tfc_conv2d_params {
  int64_t n, h, w, c, kh, kw, out_c, oh, ow;
  int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int64_t depthwise;       /* 0 or 1 */
  int64_t filter_constant; /* 1: the filter is a constant of the program,
                              reordered for the primitive once */
  int64_t activation;      /* enum tfc_activation */
  int64_t has_bias;        /* 0 or 1 */
  int64_t residual;        /* 0 none, 1 read from `residual`, 2 already in
                              `out` (which `residual` then equals) */
  int64_t out_pixel_stride; /* floats between output pixels: 0 for the
                               output's channels (dense), more where the
                               output is a window of a wider concatenation
                               (no residual then) */
} tfc_conv2d_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_conv2d_params) == 21 * sizeof(int64_t),
                  "tfc_conv2d_params is 21 int64s");

/* Conv2D or depthwise Conv2D through oneDNN (the Eigen kernels above where
 * oneDNN cannot), with an epilogue applied as the output is written:
 *   out = act(conv(in, filter) + bias + residual)
 * bias ([channels]) and residual (the output's shape) may be NULL when the
 * parameters say they are absent. `params` is a constant of the program,
 * its address the key of the call site's cached primitive. */
void tfc_cpu_conv2d_dnnl_f32(tfc_runtime *runtime, const float *in,
                             const float *filter, const float *bias,
                             const float *residual, float *out,
                             const tfc_conv2d_params *params);
void tfc_cpu_depthwise_conv2d_f32(
    tfc_runtime *runtime, const float *in, const float *filter, float *out,
    int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh, int64_t kw,
    int64_t multiplier, int64_t oh, int64_t ow, int64_t stride_h,
    int64_t stride_w, int64_t dilation_h, int64_t dilation_w, int64_t pad_top,
    int64_t pad_left);

/* A 1x1 convolution (stride 1, unpadded) and the depthwise convolution
 * (multiplier 1, dilation 1) that alone reads its output, each with a bias
 * and an activation, the expanded tensor between them never written:
 *   out = act2(depthwise(act1(in . pointwise_filter + bias1)) + bias2)
 * The filters ([c, expanded] and [kh, kw, expanded, 1]) are constants of
 * the program, laid out once per call site (`params`' address is the key);
 * a bias may be NULL where the parameters say it is absent. */
typedef struct tfc_pointwise_depthwise_params {
  int64_t n, h, w, c;  /* the 1x1 convolution's input, NHWC */
  int64_t expanded;    /* its output channels, the depthwise's channels */
  int64_t kh, kw, oh, ow, stride_h, stride_w, pad_top, pad_left;
  int64_t pointwise_bias, pointwise_activation; /* 0 or 1; enum tfc_activation */
  int64_t depthwise_bias, depthwise_activation;
} tfc_pointwise_depthwise_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_pointwise_depthwise_params) ==
                      17 * sizeof(int64_t),
                  "tfc_pointwise_depthwise_params is 17 int64s");
void tfc_cpu_pointwise_depthwise_f32(
    tfc_runtime *runtime, const float *in, const float *pointwise_filter,
    const float *pointwise_bias, const float *depthwise_filter,
    const float *depthwise_bias, float *out,
    const tfc_pointwise_depthwise_params *params);

/* A depthwise convolution (multiplier 1, dilation 1) and the 1x1
 * convolution (stride 1, unpadded) that alone reads its output, the
 * depthwise's output never written (a separable convolution: Xception's,
 * NASNet's, MobileNet's):
 *   out = act3(act2(depthwise(act1(in)) + bias1) . pointwise_filter
 *              + bias2 + residual)
 * or a max pooling of that (Xception's blocks: the separable convolution
 * before the pooling never written whole).
 * act1 is an activation of the input as it is read (the ReLU before a
 * Keras SeparableConv2D). The filters ([kh, kw, c, 1] and [c, out_c]) are
 * constants of the program, laid out once per call site (`params`'
 * address is the key); a bias or the residual may be NULL where the
 * parameters say it is absent, and `residual` may equal `out` (then
 * residual is 2). */
typedef struct tfc_depthwise_pointwise_params {
  int64_t n, h, w, c;  /* the depthwise convolution's input, NHWC */
  int64_t kh, kw, oh, ow, stride_h, stride_w, pad_top, pad_left;
  int64_t input_activation;                     /* enum tfc_activation */
  int64_t depthwise_bias, depthwise_activation; /* 0 or 1; enum */
  int64_t out_c;       /* the 1x1 convolution's output channels */
  int64_t pointwise_bias, pointwise_activation; /* 0 or 1; enum */
  int64_t residual; /* 0 none, 1 read from `residual`, 2 already in `out` */
  /* A max pooling of that output (pool_kh > 0; no residual then): `out`
   * is the pooled [n, pool_oh, pool_ow, out_c], padded positions
   * skipped. */
  int64_t pool_kh, pool_kw, pool_stride_h, pool_stride_w;
  int64_t pool_pad_top, pool_pad_left, pool_oh, pool_ow;
} tfc_depthwise_pointwise_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_depthwise_pointwise_params) ==
                      27 * sizeof(int64_t),
                  "tfc_depthwise_pointwise_params is 27 int64s");
void tfc_cpu_depthwise_pointwise_f32(
    tfc_runtime *runtime, const float *in, const float *depthwise_filter,
    const float *depthwise_bias, const float *pointwise_filter,
    const float *pointwise_bias, const float *residual, float *out,
    const tfc_depthwise_pointwise_params *params);
/* Two separable groups where the second reads the first's output alone
 * (Xception's blocks): `first` as tfc_cpu_depthwise_pointwise_f32 (no
 * residual, no pooling) on `in`, `second` on its output, which is made
 * band by band as the second's bands read it and never written whole.
 * `residual` and `out` are the second's. */
void tfc_cpu_separable_pair_f32(
    tfc_runtime *runtime, const float *in, const float *first_depthwise_filter,
    const float *first_depthwise_bias, const float *first_pointwise_filter,
    const float *first_pointwise_bias, const float *second_depthwise_filter,
    const float *second_depthwise_bias, const float *second_pointwise_filter,
    const float *second_pointwise_bias, const float *residual, float *out,
    const tfc_depthwise_pointwise_params *first,
    const tfc_depthwise_pointwise_params *second);

/* ConcatV2 of float32 pieces along an axis past the first: `rows` output
 * rows (the product of the dimensions before the axis), each the rows of
 * the `count` pieces in order; piece i's rows are widths[i] floats (the
 * product of its dimensions from the axis on). Output rows start
 * `out_stride` floats apart: the sum of the widths, or more where the
 * output is a part of a wider concatenation's (tfc-plan-memory's
 * concatenations in place). A null piece is already in its place in the
 * output and is not copied. */
void tfc_cpu_concat_rows_f32(tfc_runtime *runtime, const float *const *pieces,
                             const int64_t *widths, float *out, int64_t count,
                             int64_t rows, int64_t out_stride);

/* Max (kind 0) or average (kind 1) pooling, NHWC; padded positions are
 * skipped, and not counted by the average. Kind 2 is max pooling whose
 * padded positions are zeros (a Pad of zeros the compiler folded in). */
void tfc_cpu_pool2d_f32(tfc_runtime *runtime, int32_t kind, const float *in,
                        float *out, int64_t n, int64_t h, int64_t w, int64_t c,
                        int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                        int64_t stride_h, int64_t stride_w, int64_t pad_top,
                        int64_t pad_left);

/* The gradients of max (kind 0) and average (kind 1) pooling: `out`
 * ([n,h,w,c], the input's shape) gets each window's gradient, all of it at
 * the window's first maximum of `input` (max) or an equal share at each
 * unpadded position (average; `input` unused). Kind 2 is max pooling's
 * followed by ReluGrad with `input` as the features: a window's gradient
 * goes to its maximum only where that maximum is positive. */
void tfc_cpu_pool2d_grad_f32(tfc_runtime *runtime, int32_t kind,
                             const float *input, const float *gradient,
                             float *out, int64_t n, int64_t h, int64_t w,
                             int64_t c, int64_t kh, int64_t kw, int64_t oh,
                             int64_t ow, int64_t stride_h, int64_t stride_w,
                             int64_t pad_top, int64_t pad_left);

/* A convolution gradient's geometry (as tfc_conv2d_params) and which
 * gradient it is. */
typedef struct tfc_conv2d_backprop_params {
  int64_t n, h, w, c, kh, kw, out_c, oh, ow;
  int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int64_t depthwise;       /* 0 or 1 */
  int64_t filter_gradient; /* 1: the filter's gradient; 0: the input's */
} tfc_conv2d_backprop_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_conv2d_backprop_params) == 17 * sizeof(int64_t),
                  "tfc_conv2d_backprop_params is 17 int64s");

/* The gradients of Conv2D and depthwise Conv2D (oneDNN; direct loops
 * where it cannot). `params` is a constant of the program, its address the
 * key of the call site's cached primitive. For the input gradient
 * `operand` is the filter and `out` is [n,h,w,c]; for the filter gradient
 * `operand` is the input and `out` the filter's shape; `gradient` is the
 * output's, [n,oh,ow,channels]. The _direct form always runs the loops
 * (for tests). */
void tfc_cpu_conv2d_backprop_f32(tfc_runtime *runtime, const float *operand,
                                 const float *gradient, float *out,
                                 const tfc_conv2d_backprop_params *params);
void tfc_cpu_conv2d_backprop_direct_f32(
    tfc_runtime *runtime, const float *operand, const float *gradient,
    float *out, const tfc_conv2d_backprop_params *params);

/* FusedBatchNorm in training mode on x = [rows, channels]: y normalized
 * with the batch's mean and (biased) variance; batch_mean/batch_variance
 * are the running statistics (the batch's, variance Bessel-corrected,
 * averaged with running_mean/running_variance when average_factor != 1;
 * those may be NULL otherwise); saved_mean/saved_variance (may be NULL)
 * are the batch's, for the gradient. y goes through `activation` (enum
 * tfc_activation, not swish: a ReLU the compiler folded in). Unless
 * `pooled` is NULL, y ([images, height, width, channels]) is also max-
 * pooled into it ([images, pooled_h, pooled_w, channels]; windows as
 * tfc_cpu_pool2d_f32's: a MaxPool the compiler folded in). Unless
 * `positions` is NULL (windows that tile y, of at most 127 positions),
 * it gets, per pooled element, where in its window (row-major) y has its
 * first maximum, as p when that maximum is positive and as -1 - p
 * otherwise: all tfc_cpu_batch_norm_grad_pooled_f32 needs of y, which may
 * then be NULL (not written). */
void tfc_cpu_batch_norm_training_f32(
    tfc_runtime *runtime, const float *x, const float *scale,
    const float *offset, const float *running_mean,
    const float *running_variance, float *y, float *batch_mean,
    float *batch_variance, float *saved_mean, float *saved_variance,
    float *pooled, int8_t *positions, float epsilon, float average_factor,
    int64_t rows,
    int64_t channels, int64_t activation, int64_t images, int64_t height,
    int64_t width, int64_t pool_h, int64_t pool_w, int64_t pooled_h,
    int64_t pooled_w, int64_t stride_h, int64_t stride_w, int64_t pad_top,
    int64_t pad_left);
/* FusedBatchNormGrad: the gradients of x, scale and offset from the output
 * gradient, with `mean`/`variance` the saved batch statistics (training)
 * or the constant ones (inference). reserved1/reserved2 (may be NULL) are
 * the op's two opaque scalar outputs, set to 0. Unless NULL,
 * x_gradient_sum gets x_gradient summed over the rows (a BiasAddGrad the
 * compiler folded in). */
void tfc_cpu_batch_norm_grad_f32(tfc_runtime *runtime, const float *gradient,
                                 const float *x, const float *scale,
                                 const float *mean, const float *variance,
                                 float *x_gradient, float *scale_gradient,
                                 float *offset_gradient, float *reserved1,
                                 float *reserved2, float *x_gradient_sum,
                                 float epsilon, int64_t rows,
                                 int64_t channels, int64_t training);
/* The same, where the output gradient is that of a max pooling of the
 * output y ([images, height, width, channels]; windows as
 * tfc_cpu_pool2d_f32's), masked by ReluGrad on y's sign with `relu`:
 * `pooled_gradient` ([images, pooled_h, pooled_w, channels]) is the
 * pooling's output gradient. Equals tfc_cpu_pool2d_grad_f32 (kind 2 with
 * relu, 0 without) followed by tfc_cpu_batch_norm_grad_f32 (the
 * compiler's fold of MaxPoolGrad and ReluGrad into the batch norm's
 * gradient). With `positions` (tfc_cpu_batch_norm_training_f32's, windows
 * that tile y) instead of y (then NULL), the maxima are read from them. */
void tfc_cpu_batch_norm_grad_pooled_f32(
    tfc_runtime *runtime, const float *pooled_gradient, const float *y,
    const int8_t *positions, const float *x, const float *scale, const float *mean,
    const float *variance, float *x_gradient, float *scale_gradient,
    float *offset_gradient, float *reserved1, float *reserved2,
    float *x_gradient_sum, float epsilon, int64_t images, int64_t height,
    int64_t width, int64_t channels, int64_t training, int64_t relu,
    int64_t pool_h, int64_t pool_w, int64_t pooled_h, int64_t pooled_w,
    int64_t stride_h, int64_t stride_w, int64_t pad_top, int64_t pad_left);
/* The same, and the filter gradient of the convolution whose output the
 * batch norm normalized (its output gradient is x_gradient; a
 * Conv2DBackpropFilter the compiler folded in): `conv_input` is that
 * convolution's input, `filter_gradient` gets the gradient, `conv` its
 * geometry (filter_gradient 1). Equals tfc_cpu_batch_norm_grad_pooled_f32
 * followed by tfc_cpu_conv2d_backprop_f32. Unless x_gradient_wanted,
 * x_gradient may not be written. */
void tfc_cpu_batch_norm_grad_pooled_filter_f32(
    tfc_runtime *runtime, const float *pooled_gradient, const float *y,
    const int8_t *positions, const float *x, const float *scale, const float *mean,
    const float *variance, float *x_gradient, float *scale_gradient,
    float *offset_gradient, float *reserved1, float *reserved2,
    float *x_gradient_sum, const float *conv_input, float *filter_gradient,
    const tfc_conv2d_backprop_params *conv, float epsilon, int64_t images,
    int64_t height, int64_t width, int64_t channels, int64_t training,
    int64_t relu, int64_t pool_h, int64_t pool_w, int64_t pooled_h,
    int64_t pooled_w, int64_t stride_h, int64_t stride_w, int64_t pad_top,
    int64_t pad_left, int64_t x_gradient_wanted);

/* Local response normalization (TensorFlow's LRN) over the channels of
 * [rows, depth] (NHWC with rows = n*h*w):
 *   out[r][d] = in[r][d] / (bias + alpha * sum(in[r][d-radius..d+radius]^2))^beta
 * the sum over the channels of the window that exist. */
typedef struct tfc_lrn_params {
  int64_t rows, depth, depth_radius;
  double bias, alpha, beta;
} tfc_lrn_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_lrn_params) == 6 * sizeof(int64_t),
                  "tfc_lrn_params is 6 fields of 8 bytes");
void tfc_cpu_lrn_f32(tfc_runtime *runtime, const float *in, float *out,
                     const tfc_lrn_params *params);

/* Rows selected by `count` indices (int32 or int64 per index_bytes) of a
 * [rows, ...] tensor; an index outside [0, rows) stops the step with an
 * error naming `node`. ResourceGather: out[i] = params[indices[i]]. */
void tfc_cpu_gather_rows(tfc_runtime *runtime, const void *params,
                         const void *indices, void *out, const char *node,
                         int64_t rows, int64_t row_bytes, int64_t count,
                         int64_t index_bytes);
/* Copies the `count` rows of `updates` to the rows of the [rows, ...]
 * tensor `out` that `indices` select, in index order (TensorScatterUpdate,
 * any element type); an index outside [0, rows) stops the step with an
 * error naming `node`. */
void tfc_cpu_scatter_rows(tfc_runtime *runtime, void *out, const void *indices,
                          const void *updates, const char *node, int64_t rows,
                          int64_t row_bytes, int64_t count, int64_t index_bytes);
/* Scatter updates into var's rows, in index order: kind 0 update, 1 add,
 * 2 sub, 3 mul, 4 div, 5 min, 6 max; updates are [count, row_size], or one
 * value (scalar_updates). With drop_negative, negative indices are skipped
 * (the updates of deduplicated rows, past the count of Unique's output). */
void tfc_cpu_scatter_f32(tfc_runtime *runtime, int32_t kind, float *var,
                         const void *indices, const float *updates,
                         const char *node, int64_t rows, int64_t row_size,
                         int64_t count, int64_t index_bytes,
                         int64_t scalar_updates, int64_t drop_negative);

/* Unique of `count` int32 or int64 values (value_bytes): y holds each
 * distinct value once, in order of first appearance, then up to `count`
 * (tfc's bound on Unique's data-dependent size) -1 with `pad_negative`
 * (see tfc-bound-unique), else its first value; idx[i] is the position of
 * x[i] in y. */
void tfc_cpu_unique(tfc_runtime *runtime, const void *x, void *y, void *idx,
                    int64_t count, int64_t value_bytes, int64_t idx_bytes,
                    int64_t pad_negative);

/* DynamicPartition: each of the `rows` rows (`row_bytes` each) of data
 * goes, in order, to outputs[partitions[i]] (each planned for every row,
 * zeros past those it gets); `partitions` has shape `dims` (rank `rank`).
 * A partition outside [0, num_partitions) stops the step with TensorFlow's
 * words, naming `node`. */
void tfc_cpu_dynamic_partition(tfc_runtime *runtime, const void *data,
                               const int32_t *partitions, void *const *outputs,
                               const int64_t *dims, const char *node,
                               int64_t rank, int64_t rows, int64_t row_bytes,
                               int64_t num_partitions);
/* DynamicStitch: for each of `inputs` inputs, its `counts[i]` int32
 * indices (address table `indices`) name the row of `out` (`rows` rows of
 * `row_bytes`) that each row of its data (address table `data`) goes to;
 * rows no index names are zeros. A negative index is skipped when
 * `skip_negative` (padding, tfc-bound-dynamic-rows); any other index
 * outside the rows stops the step naming `node`. */
void tfc_cpu_dynamic_stitch(tfc_runtime *runtime, const int64_t *indices,
                            const int64_t *data, void *out,
                            const int64_t *counts, const char *node,
                            int64_t inputs, int64_t rows, int64_t row_bytes,
                            int64_t skip_negative);

/* Where: the coordinates ([rank] int64 each, `dims` the input's shape) of
 * the nonzero elements of the `n` elements of x (tfc_dtype `dtype`), in
 * row-major order, then rows of zeros up to `n` (tfc's bound on Where's
 * data-dependent size: see tfc-bound-dynamic-rows). */
void tfc_cpu_where(tfc_runtime *runtime, const void *x, int64_t *out,
                   const int64_t *dims, int64_t rank, int64_t n, int64_t dtype);

/* The sparse optimizer updates (SparseApply*, ResourceSparseApply*): the
 * dense update of each row that an index selects, with gradient row i,
 * in index order. Pointers in the dense kernel's order, then the indices
 * and the node's name; then the row size, the index count, the variable's
 * rows, the index width, whether negative indices are skipped (the
 * padding of a bounded Unique) and the op's flag. */
void tfc_cpu_sparse_apply_momentum_f32(
    tfc_runtime *runtime, float *var, float *accum, const float *lr,
    const float *grad, const float *momentum, const void *indices,
    const char *node, int64_t row_size, int64_t count, int64_t rows,
    int64_t index_bytes, int64_t skip_negative, int64_t nesterov);
void tfc_cpu_sparse_apply_adagrad_f32(
    tfc_runtime *runtime, float *var, float *accum, const float *lr,
    const float *epsilon, const float *grad, const void *indices,
    const char *node, int64_t row_size, int64_t count, int64_t rows,
    int64_t index_bytes, int64_t skip_negative, int64_t update_slots);
void tfc_cpu_sparse_apply_rmsprop_f32(
    tfc_runtime *runtime, float *var, float *ms, float *mom, const float *lr,
    const float *rho, const float *momentum, const float *epsilon,
    const float *grad, const void *indices, const char *node, int64_t row_size,
    int64_t count, int64_t rows, int64_t index_bytes, int64_t skip_negative);
void tfc_cpu_sparse_apply_centered_rmsprop_f32(
    tfc_runtime *runtime, float *var, float *mg, float *ms, float *mom,
    const float *lr, const float *rho, const float *momentum,
    const float *epsilon, const float *grad, const void *indices,
    const char *node, int64_t row_size, int64_t count, int64_t rows,
    int64_t index_bytes, int64_t skip_negative);
void tfc_cpu_sparse_apply_adadelta_f32(
    tfc_runtime *runtime, float *var, float *accum, float *accum_update,
    const float *lr, const float *rho, const float *epsilon, const float *grad,
    const void *indices, const char *node, int64_t row_size, int64_t count,
    int64_t rows, int64_t index_bytes, int64_t skip_negative);
void tfc_cpu_sparse_apply_ftrl_f32(
    tfc_runtime *runtime, float *var, float *accum, float *linear,
    const float *grad, const float *lr, const float *l1, const float *l2,
    const float *l2_shrinkage, const float *lr_power, const void *indices,
    const char *node, int64_t row_size, int64_t count, int64_t rows,
    int64_t index_bytes, int64_t skip_negative, int64_t multiply_linear_by_lr);

/* The optimizers' updates (TensorFlow's Apply* and ResourceApply*), in
 * place, float32: pointers in the op's input order (the variable and its
 * slots, updated; scalars as pointers to one value; the gradient), then
 * the element count and the op's flag. */
void tfc_cpu_apply_gradient_descent_f32(tfc_runtime *runtime, float *var,
                                        const float *alpha,
                                        const float *delta, int64_t n);
void tfc_cpu_apply_momentum_f32(tfc_runtime *runtime, float *var, float *accum,
                                const float *lr, const float *grad,
                                const float *momentum, int64_t n,
                                int64_t nesterov);
/* ApplyAdagrad (epsilon NULL) and ApplyAdagradV2. */
void tfc_cpu_apply_adagrad_f32(tfc_runtime *runtime, float *var, float *accum,
                               const float *lr, const float *epsilon,
                               const float *grad, int64_t n,
                               int64_t update_slots);
void tfc_cpu_apply_rmsprop_f32(tfc_runtime *runtime, float *var, float *ms,
                               float *mom, const float *lr, const float *rho,
                               const float *momentum, const float *epsilon,
                               const float *grad, int64_t n);
void tfc_cpu_apply_centered_rmsprop_f32(tfc_runtime *runtime, float *var,
                                        float *mg, float *ms, float *mom,
                                        const float *lr, const float *rho,
                                        const float *momentum,
                                        const float *epsilon,
                                        const float *grad, int64_t n);
void tfc_cpu_apply_adam_f32(tfc_runtime *runtime, float *var, float *m,
                            float *v, const float *beta1_power,
                            const float *beta2_power, const float *lr,
                            const float *beta1, const float *beta2,
                            const float *epsilon, const float *grad, int64_t n,
                            int64_t nesterov);
void tfc_cpu_apply_adadelta_f32(tfc_runtime *runtime, float *var, float *accum,
                                float *accum_update, const float *lr,
                                const float *rho, const float *epsilon,
                                const float *grad, int64_t n);
/* ApplyFtrl (l2_shrinkage NULL) and ApplyFtrlV2. */
void tfc_cpu_apply_ftrl_f32(tfc_runtime *runtime, float *var, float *accum,
                            float *linear, const float *grad, const float *lr,
                            const float *l1, const float *l2,
                            const float *l2_shrinkage, const float *lr_power,
                            int64_t n, int64_t multiply_linear_by_lr);

/* Random ops with TensorFlow's Philox streams: kind 0 RandomUniform, 1
 * RandomStandardNormal, 2 TruncatedNormal (float32), 3 RandomUniformInt
 * (int32 or int64 per `dtype`, in [*low, *high)). `generator` is the op's
 * 32 bytes of state. */
void tfc_cpu_random(tfc_runtime *runtime, int32_t kind, void *out,
                    uint64_t *generator, const void *low, const void *high,
                    int64_t n, int64_t dtype, int64_t seed, int64_t seed2);

/* RandomShuffle: the `rows` rows of `row_bytes` of `in` into `out` in an
 * order drawn as TensorFlow's kernel draws it (Fisher-Yates from the first
 * row, one 32-bit sample modulo the rows left per swap) from the op's
 * Philox stream (`generator`, as tfc_cpu_random's). */
void tfc_cpu_random_shuffle(tfc_runtime *runtime, const void *in, void *out,
                            uint64_t *generator, int64_t rows,
                            int64_t row_bytes, int64_t seed, int64_t seed2);

/* A 3-D window op's geometry: NDHWC input [n, d, h, w, c], the window
 * [kd, kh, kw] (a filter [kd, kh, kw, c, out_c] for convolutions), the
 * output's [od, oh, ow], strides and the front/top/left padding (SAME's
 * share before; the rest follows from the sizes). */
typedef struct tfc_window3d_params {
  int64_t n, d, h, w, c, kd, kh, kw, out_c, od, oh, ow;
  int64_t stride_d, stride_h, stride_w, pad_front, pad_top, pad_left;
} tfc_window3d_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_window3d_params) == 18 * sizeof(int64_t),
                  "tfc_window3d_params is 18 int64s");
/* Conv3D, and MaxPool3D (kind 0) / AvgPool3D (kind 1, the average over the
 * window's elements inside the input), through oneDNN; `params` is a
 * constant of the program, the key of the call site's primitive. */
void tfc_cpu_conv3d_f32(tfc_runtime *runtime, const float *in,
                        const float *filter, float *out,
                        const tfc_window3d_params *params);
void tfc_cpu_pool3d_f32(tfc_runtime *runtime, int32_t kind, const float *in,
                        float *out, const tfc_window3d_params *params);
/* Conv3D's gradients from the output's `gradient`: the input's from the
 * filter (`filter_gradient` 0), or the filter's from the input (1). */
void tfc_cpu_conv3d_backprop_f32(tfc_runtime *runtime, int32_t filter_gradient,
                                 const float *operand, const float *gradient,
                                 float *out, const tfc_window3d_params *params);
/* The pooling gradients: each output gradient to its window's maximum of
 * `in` (MaxPool3DGrad, kind 0) or spread over its window's elements
 * inside the input (AvgPool3DGrad, kind 1, `in` unused). */
void tfc_cpu_pool3d_backprop_f32(tfc_runtime *runtime, int32_t kind,
                                 const float *in, const float *gradient,
                                 float *out, const tfc_window3d_params *params);

/* Linear algebra on `batch` row-major matrices of float32 or float64
 * (`dtype`), through Eigen as TensorFlow: inverses, determinants (with
 * log_abs, LogMatrixDeterminant's sign and log |det|; else det), lower
 * Cholesky factors, solves of [n, n] systems with [n, k] right-hand sides,
 * QR (q [m, k], r [k, n]; k = m when full, else min(m, n)), SVD (s, and u
 * and v when not NULL) and eigen-decompositions of self-adjoint matrices
 * (ascending values; vectors when v is not NULL). Singular matrices, and
 * ones Cholesky cannot factor, stop the step with TensorFlow's message
 * naming `node`. */
void tfc_cpu_matrix_inverse(tfc_runtime *runtime, const void *in, void *out,
                            const char *node, int64_t batch, int64_t n,
                            int64_t adjoint, int64_t dtype);
void tfc_cpu_matrix_determinant(tfc_runtime *runtime, const void *in,
                                void *sign, void *log_abs, int64_t batch,
                                int64_t n, int64_t dtype);
void tfc_cpu_cholesky(tfc_runtime *runtime, const void *in, void *out,
                      const char *node, int64_t batch, int64_t n,
                      int64_t dtype);
void tfc_cpu_matrix_solve(tfc_runtime *runtime, const void *matrix,
                          const void *rhs, void *out, const char *node,
                          int64_t batch, int64_t n, int64_t k,
                          int64_t adjoint, int64_t dtype);
void tfc_cpu_triangular_solve(tfc_runtime *runtime, const void *matrix,
                              const void *rhs, void *out, int64_t batch,
                              int64_t n, int64_t k, int64_t lower,
                              int64_t adjoint, int64_t dtype);
void tfc_cpu_qr(tfc_runtime *runtime, const void *in, void *q, void *r,
                int64_t batch, int64_t m, int64_t n, int64_t full,
                int64_t dtype);
void tfc_cpu_svd(tfc_runtime *runtime, const void *in, void *s, void *u,
                 void *v, int64_t batch, int64_t m, int64_t n, int64_t full,
                 int64_t dtype);
void tfc_cpu_self_adjoint_eig(tfc_runtime *runtime, const void *in, void *e,
                              void *v, int64_t batch, int64_t n,
                              int64_t dtype);

/* Fake quantization (FakeQuantWithMinMax*) of `count` float32 values to
 * the 2^num_bits levels (from 1 with narrow_range) of a range nudged so
 * that 0 is a level: per channel (the last dimension, `channels` of them)
 * from the `min` and `max` tensors, or from the params' when those are
 * NULL. The gradient passes `gradients` where the input was inside the
 * nudged range and, when backprop_min is not NULL, sums the rest below and
 * above it per channel. */
typedef struct tfc_fake_quant_params {
  int64_t num_bits, narrow_range;
  double min, max;
} tfc_fake_quant_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_fake_quant_params) == 4 * sizeof(int64_t),
                  "tfc_fake_quant_params is 4 int64s");
void tfc_cpu_fake_quant_f32(tfc_runtime *runtime, const float *in, float *out,
                            const float *min, const float *max,
                            const tfc_fake_quant_params *params,
                            int64_t count, int64_t channels);
void tfc_cpu_fake_quant_grad_f32(tfc_runtime *runtime, const float *gradients,
                                 const float *in, float *backprop,
                                 float *backprop_min, float *backprop_max,
                                 const float *min, const float *max,
                                 const tfc_fake_quant_params *params,
                                 int64_t count, int64_t channels);

/* Image resampling as TensorFlow's CPU kernels compute it, into float32:
 * NHWC images of tfc_dtype `dtype` (float, double, uint8, int32, int64).
 * ResizeBicubic (Keys' cubic convolution: a = -0.75, or -0.5 with
 * half-pixel centers, whose taps outside the image get no weight) and
 * ResizeArea (the average of the input area each output pixel covers). */
typedef struct tfc_resize_params {
  int64_t n, h, w, c, out_h, out_w, align_corners, half_pixel, dtype;
} tfc_resize_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_resize_params) == 9 * sizeof(int64_t),
                  "tfc_resize_params is 9 int64s");
void tfc_cpu_resize_bicubic(tfc_runtime *runtime, const void *in, float *out,
                            const tfc_resize_params *params);
void tfc_cpu_resize_area(tfc_runtime *runtime, const void *in, float *out,
                         const tfc_resize_params *params);
/* CropAndResize: `boxes` [boxes, 4] (y1, x1, y2, x2, normalized) of the
 * images `box_index` names, each resampled (bilinear, or nearest) to
 * [crop_h, crop_w]; samples outside the image are `extrapolation`. A box
 * index outside the batch stops the step, naming `node`. */
typedef struct tfc_crop_params {
  int64_t n, h, w, c, boxes, crop_h, crop_w, nearest, dtype;
  double extrapolation;
} tfc_crop_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_crop_params) == 10 * sizeof(int64_t),
                  "tfc_crop_params is 10 8-byte fields");
void tfc_cpu_crop_and_resize(tfc_runtime *runtime, const void *image,
                             const float *boxes, const int32_t *box_index,
                             float *out, const char *node,
                             const tfc_crop_params *params);
/* NonMaxSuppressionV2 to V5 on float32: the indices of up to
 * *max_output_size (and at most `capacity`) of the `num_boxes` boxes
 * ([num_boxes, 4]) greedily selected by score as TensorFlow's kernel
 * selects them (thresholds read from their scalars; score_threshold NULL:
 * none, soft_nms_sigma NULL: 0), into `selected` (and their scores into
 * `selected_scores` unless NULL), zeros past them up to `capacity`, and
 * their number into `valid` unless NULL. An iou_threshold outside [0, 1]
 * or a negative sigma stops the step with TensorFlow's words, naming
 * `node`. */
void tfc_cpu_non_max_suppression(
    tfc_runtime *runtime, const float *boxes, const float *scores,
    const int32_t *max_output_size, const float *iou_threshold,
    const float *score_threshold, const float *soft_nms_sigma,
    int32_t *selected, float *selected_scores, int32_t *valid,
    const char *node, int64_t num_boxes, int64_t capacity);
/* Dilation2D on NHWC float32: each output the maximum over the window (at
 * `rate`) of input + filter, the filter [filter_h, filter_w, c]. */
typedef struct tfc_dilation_params {
  int64_t n, h, w, c, filter_h, filter_w, out_h, out_w;
  int64_t stride_h, stride_w, rate_h, rate_w, pad_top, pad_left;
} tfc_dilation_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_dilation_params) == 14 * sizeof(int64_t),
                  "tfc_dilation_params is 14 int64s");
void tfc_cpu_dilation2d_f32(tfc_runtime *runtime, const float *in,
                            const float *filter, float *out,
                            const tfc_dilation_params *params);

/* Discrete Fourier transforms of `batch` tensors over their last three
 * dimensions (leading ones of 1 stand for absent dimensions), TensorFlow's
 * FFT, IFFT, RFFT and IRFFT (`kind` 0-3) and their 2D and 3D forms. The
 * transform has `fft_length` points per dimension; RFFT crops or
 * zero-pads its real input (`in_dims`) to that and keeps the first
 * fft_length / 2 + 1 outputs of the last dimension; IRFFT crops or pads
 * its complex input to those and takes the rest of the spectrum as
 * Hermitian. The inverses divide by the number of points. `dtype` is the
 * complex side's (TFC_COMPLEX64 with float, TFC_COMPLEX128 with double
 * real sides). */
typedef struct tfc_fourier_params {
  int64_t batch, kind, dtype;
  int64_t in_dims[3], out_dims[3], fft_length[3];
} tfc_fourier_params;
TFC_ASSERT_LAYOUT(sizeof(tfc_fourier_params) == 12 * sizeof(int64_t),
                  "tfc_fourier_params is 12 int64s");
void tfc_cpu_fourier(tfc_runtime *runtime, const void *in, void *out,
                     const tfc_fourier_params *params);

/* Bincount and DenseBincount: `rows` rows of `count` int32 or int64
 * (`value_bytes`) values, each row counted into `bins` bins of `out`
 * (tfc_dtype `dtype`: int32, int64, float, double): 1 per value, its
 * weight when `weights` is not NULL, or 1 at most when `binary`. Values
 * past the bins are dropped; a negative one stops the step, naming
 * `node`. */
void tfc_cpu_bincount(tfc_runtime *runtime, int32_t binary, const void *values,
                      const void *weights, void *out, const char *node,
                      int64_t rows, int64_t count, int64_t bins,
                      int64_t value_bytes, int64_t dtype);

/* LowerBound (upper 0) and UpperBound (1): for each of the `m` values of
 * each of `rows` rows, the index of the first of the row's `n` sorted
 * inputs not below (above) it, as int32 or int64 (`out_bytes`); elements
 * of tfc_dtype `dtype` (float, double, int32, int64). */
void tfc_cpu_search_sorted(tfc_runtime *runtime, int32_t upper,
                           const void *sorted, const void *values, void *out,
                           int64_t rows, int64_t n, int64_t m, int64_t dtype,
                           int64_t out_bytes);

/* Segment reductions (kind 0 sum, 1 mean, 2 max, 3 min, 4 product, 5 sum
 * over the square root of the count) of `count` float32 rows of `row_size`
 * into `segments` rows of `out`: row i of `data` (or row indices[i], of
 * `data_rows`) goes to segment ids[i]. Sorted: ids must increase, and an
 * empty segment is 0 (1 for products); else negative ids are dropped and
 * an empty segment is the reduction's identity. The sparse gradients
 * scatter row ids[i] of `grad` (`segments` rows), times 1, 1/count or
 * 1/sqrt(count), into row indices[i] of the `out_rows` rows of `out`.
 * Ids and indices are int32 or int64 (`id_bytes`, `index_bytes`); one out
 * of range stops the step naming `node`. */
void tfc_cpu_segment_reduce_f32(tfc_runtime *runtime, int32_t kind, float *out,
                                const float *data, const void *indices,
                                const void *ids, const char *node,
                                int64_t segments, int64_t row_size,
                                int64_t count, int64_t id_bytes,
                                int64_t index_bytes, int64_t data_rows,
                                int64_t sorted);
void tfc_cpu_sparse_segment_grad_f32(tfc_runtime *runtime, int32_t kind,
                                     float *out, const float *grad,
                                     const void *indices, const void *ids,
                                     const char *node, int64_t out_rows,
                                     int64_t row_size, int64_t count,
                                     int64_t id_bytes, int64_t index_bytes,
                                     int64_t segments);

/* Bands of diagonals lower..upper of `batch` [rows, cols] matrices and
 * their [batch, upper - lower + 1, max_length] arrays of diagonals, row
 * upper - d holding diagonal d, elements of `element_bytes`: mode 0 makes
 * `out` matrices of `diagonals` (`padding` elsewhere), 1 takes the
 * diagonals of `matrix` into `out` (padding the short ones), 2 sets them
 * in a copy of `matrix`. `align` bit 0 left-aligns superdiagonals in their
 * rows, bit 1 subdiagonals; a NULL padding is zeros. */
void tfc_cpu_matrix_diag(tfc_runtime *runtime, int32_t mode, char *out,
                         const char *matrix, const char *diagonals,
                         const char *padding, int64_t batch, int64_t rows,
                         int64_t cols, int64_t lower, int64_t upper,
                         int64_t max_length, int64_t element_bytes,
                         int64_t align);

/* The stateless random ops: the key and counter TensorFlow derives from a
 * seed pair (int32 or int64 per `seed_bytes`); then `n` values of `kind`
 * (as tfc_cpu_random's) from the stream that a seed pair (`seed`, the first
 * versions of the ops) or a `key` and `counter` start. `algorithm`, when
 * not NULL, must be 1 (Philox) or 3 (auto), else the step fails naming
 * `node`. */
void tfc_cpu_random_key_counter(tfc_runtime *runtime, const void *seed,
                                uint64_t *key, uint64_t *counter,
                                int64_t seed_bytes);
void tfc_cpu_stateless_random(tfc_runtime *runtime, int32_t kind, void *out,
                              const void *seed, const uint64_t *key,
                              const uint64_t *counter,
                              const int32_t *algorithm, const void *low,
                              const void *high, const char *node, int64_t n,
                              int64_t dtype, int64_t seed_bytes);

/* Special functions of elementwise loops (Eigen's, as TensorFlow's): each
 * NAME as tfc_NAME on double and tfc_NAMEf on float. Of x: lgamma,
 * digamma, erfinv, ndtri, bessel_{i0,i0e,i1,i1e,j0,j1,k0,k0e,k1,k1e,y0,y1}.
 * Of (x, y): igamma, igammac, igamma_der_a, gamma_sample_der_alpha, zeta,
 * polygamma. Of (a, b, x): betainc. Two of them, to show the form: */
float tfc_lgammaf(float x);
double tfc_lgamma(double x);
float tfc_betaincf(float a, float b, float x);
double tfc_betainc(double a, double b, double x);

/* SoftmaxCrossEntropyWithLogits: per row of [rows, classes] logits and
 * label distributions, the loss and its gradient. */
void tfc_cpu_softmax_xent_f32(tfc_runtime *runtime, const float *logits,
                              const float *labels, float *loss,
                              float *backprop, int64_t rows, int64_t classes);
/* SparseSoftmaxCrossEntropyWithLogits with int32 or int64 labels
 * (label_bytes 4 or 8); a label outside [0, classes) fails, naming `node`. */
void tfc_cpu_sparse_softmax_xent_f32(tfc_runtime *runtime, const float *logits,
                                     const void *labels, float *loss,
                                     float *backprop, const char *node,
                                     int64_t rows, int64_t classes,
                                     int64_t label_bytes);

/* Reduction of the middle axis of an [outer, reduced, inner] view: kind 0
 * sum, 1 mean, 2 max, 3 min, 4 product. */
void tfc_cpu_reduce_f32(tfc_runtime *runtime, int32_t kind, const float *in,
                        float *out, int64_t outer, int64_t reduced,
                        int64_t inner);

/* The mean and the variance (the mean of the squared deviations from the
 * mean) of the middle axis of an [outer, reduced, inner] view: a Mean and
 * the Mean of its SquaredDifference, computed together. */
void tfc_cpu_moments_f32(tfc_runtime *runtime, const float *in, float *mean,
                         float *variance, int64_t outer, int64_t reduced,
                         int64_t inner);

#ifdef __cplusplus
}
#endif

#endif /* TFC_RUNTIME_H */
