//===- Queues.h - TensorFlow's queues and accumulators ----------*- C++ -*-===//
//
// A queue (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2) holds
// elements of a fixed list of components, each of a fixed shape; it lives in
// the runtime from the first time a step or the init entry makes it until the
// runtime ends, so that the init can fill it and the steps drain it. Code
// generation numbers the program's queues (one number per queue, whichever
// entry makes it).
//
// An element is one buffer: its components' bytes one after another. A
// string component's handles are replaced by the strings themselves while
// the element is queued (a step's strings are released before the next
// step), and made again when it is dequeued.
//
// Accumulators (ConditionalAccumulator) live beside the queues and wait
// the same way: a take waits for its gradients.
//
// Ops wait as TensorFlow's do: a dequeue until its elements are there or
// the queue is closed, an enqueue for room (an enqueue of many puts each
// element in as room appears, so it may hold more than the capacity).
// Waits of one kind on a queue are served in the order they began, as
// TensorFlow's queues serve their attempts: the dequeue that has waited
// longest takes the next elements, and a later one never overtakes it,
// even when the earlier one's thread was woken but has not run yet (a
// SyncReplicasOptimizer's workers, each waiting for its token, rely on
// this).
//
// The threads that may enqueue or dequeue are the step's (one, or its
// partitions while a multi-device step runs) and the queue runners'
// (below). When every one of them waits, and has looked at its queue since
// the last change of any, nothing could end any wait: the op that finds
// this fails instead of hanging, naming itself. One lock and one condition
// serve all of a runtime's queues, which makes that count exact; the ops copy
// elements under it, which is cheap beside the steps that fill and drain them.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_QUEUES_H
#define TFC_LIB_RUNTIME_QUEUES_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "Philox.h"
#include "tfc/Runtime/tfc_runtime.h"

namespace tfc {

/// One component of a queue's elements: its bytes per element (8 per
/// string for a string component, which holds handles).
struct QueueComponent {
  int64_t bytes;
  bool isString;
};

class Queues;

/// A ConditionalAccumulator (white paper §4.4's synchronous replicas
/// aggregate gradients in these): the sum of the gradients applied since
/// the last take, how many, and its global step; a gradient whose local
/// step is older than the global step is dropped as stale. float32 only.
///
/// A SparseConditionalAccumulator (the same for the sparse gradients of
/// embeddings) sums rows instead: each with its index and the number of
/// gradients summed into it, which its MEAN divides by. TensorFlow keeps
/// the first gradient's rows as they come (unsorted, indices repeated)
/// and merges each later one into them as if both were sorted by index,
/// equal indices summed; tfc does exactly that, so that a take gives
/// TensorFlow's rows in TensorFlow's order.
class Accumulator {
public:
  /// Dense: `elements` floats.
  Accumulator(std::string name, int64_t elements, bool mean)
      : name(std::move(name)), mean(mean), sum(size_t(elements), 0.0f) {}
  /// Sparse: rows of `rowElements` floats, of a dense tensor of `shape`
  /// (-1: a dimension it does not know; no shape at all when `!ranked`).
  Accumulator(std::string name, std::vector<int64_t> shape, bool ranked,
              int64_t rowElements, bool mean)
      : name(std::move(name)), mean(mean), sparse(true),
        shape(std::move(shape)), ranked(ranked), rowElements(rowElements) {}
  const std::string name;

private:
  friend class Queues;
  const bool mean;
  /// The dense sum, or the sparse rows one after another.
  std::vector<float> sum;
  const bool sparse = false;
  const std::vector<int64_t> shape;
  const bool ranked = false;
  const int64_t rowElements = 0;
  std::vector<int64_t> indices;
  std::vector<int32_t> rowCounts;
  int32_t count = 0;
  int64_t globalStep = 0;
};

/// How a queue orders its elements: FIFOQueueV2's first in, first out,
/// or RandomShuffleQueueV2's random order, which keeps at least
/// `minAfterDequeue` elements while the queue is open and draws each
/// element as TensorFlow's does: index (next word of Philox under key
/// `seed`, counter `seed2` << 64) modulo the size, the last element moving
/// into its place. Seeds 0 and 0: random ones.
struct QueueOrder {
  bool shuffle = false;
  int64_t minAfterDequeue = 0;
  int64_t seed = 0, seed2 = 0;
};

class Queue {
public:
  Queue(std::string name, int64_t capacity,
        std::vector<QueueComponent> components, QueueOrder order);

  const std::string name;
  const int64_t capacity; // -1: unbounded.

private:
  friend class Queues;
  struct Element {
    std::vector<char> bytes;
    std::vector<std::string> strings;
  };
  Element elementAt(const void *const *data, int64_t row) const;
  void store(tfc_runtime *runtime, const Element &element, void *const *data,
             int64_t row) const;
  /// The elements a dequeue may take now.
  int64_t available() const;
  /// Removes the next element in the queue's order.
  Element take();

  const std::vector<QueueComponent> components;
  const QueueOrder order;
  philox::WordStream words{};
  std::deque<Element> elements;
  bool isClosed = false;
  /// Closed with cancel_pending_enqueues: waiting enqueues give up.
  bool isCancelled = false;
  /// The enqueues and the dequeues under way, each kind in the order they
  /// began (their tickets): only the first of each may go on.
  std::deque<uint64_t> enqueueLine, dequeueLine;
  uint64_t nextTicket = 0;
};

class Queues {
public:
  /// What an operation on a queue found, for its caller to report.
  enum class Result {
    Done,
    /// An enqueue into a closed queue; a dequeue from a closed queue with
    /// fewer elements than it takes.
    Closed,
    /// An enqueue that was waiting when the queue was closed with
    /// cancel_pending_enqueues, or any op that was waiting when the queue
    /// runners were stopped.
    Cancelled,
    /// Every thread that could end the wait is waiting too.
    WaitsForever,
  };

  /// Queue `slot`, made with these properties if it does not exist yet (a
  /// queue op makes its queue the first time it runs, as TensorFlow's).
  Queue &make(int64_t slot, const std::string &name, int64_t capacity,
              std::vector<QueueComponent> components, QueueOrder order);
  /// Queue `slot`, or null if no queue op has made it yet.
  Queue *find(int64_t slot);
  /// Whether any queue has been made.
  bool any();

  /// Appends `count` elements, component k's rows from data[k], each as
  /// soon as there is room.
  Result enqueue(Queue &queue, const void *const *data, int64_t count);
  /// Removes the first `count` elements into data[k]'s rows, once there are
  /// that many, making string handles in `runtime`'s pool.
  Result dequeue(Queue &queue, tfc_runtime *runtime, void *const *data,
                 int64_t count);
  /// Up to `count` elements: `count`, or once the queue is closed all it
  /// has (one at least), their number in `taken`; rows past them get
  /// copies of the first.
  Result dequeueUpTo(Queue &queue, tfc_runtime *runtime, void *const *data,
                     int64_t count, int64_t &taken);
  void close(Queue &queue, bool cancelPendingEnqueues);
  int64_t size(Queue &queue);
  /// Why the queue has too few elements for a dequeue of `count`: "has N
  /// elements, fewer than the COUNT the dequeue takes", or what a shuffle
  /// queue keeps.
  std::string shortOf(Queue &queue, int64_t count);
  bool closed(Queue &queue);

  /// Accumulator `slot`, made if it does not exist yet; or found (null:
  /// none made yet).
  Accumulator &makeAccumulator(int64_t slot, const std::string &name,
                               int64_t elements, bool mean);
  /// Sparse accumulator `slot`, likewise (Accumulator's sparse form).
  Accumulator &makeSparseAccumulator(int64_t slot, const std::string &name,
                                     std::vector<int64_t> shape, bool ranked,
                                     int64_t rowElements, bool mean);
  Accumulator *findAccumulator(int64_t slot);
  /// Adds `gradient` unless `localStep` is older than the global step
  /// (then returns false).
  bool apply(Accumulator &accumulator, int64_t localStep, const float *gradient);
  /// Once `required` gradients are there: their mean (or sum) into `out`,
  /// and the accumulator starts again, its global step one more.
  Result take(Accumulator &accumulator, int32_t required, float *out);
  /// A sparse accumulator's apply of `nnz` rows (their `indices`), unless
  /// stale. `gradientShape`, `shapeElements` long, is the dense shape the
  /// gradient states (null: none). Returns why the gradient is refused
  /// (TensorFlow's checks, and a negative index); empty when it was added
  /// or dropped.
  std::string applyRows(Accumulator &accumulator, int64_t localStep,
                        const int64_t *indices, int64_t nnz, const float *rows,
                        const int64_t *gradientShape, int64_t shapeElements);
  /// A sparse accumulator's take: once `required` gradients are there,
  /// their rows (each the mean of its gradients, or their sum) and
  /// indices, their number in `taken`. More rows than `bound`: nothing
  /// is written or cleared, and `taken` says how many there are.
  Result takeRows(Accumulator &accumulator, int32_t required, int64_t bound,
                  int64_t *indices, float *rows, int64_t &taken);
  int32_t accumulated(Accumulator &accumulator);
  void setGlobalStep(Accumulator &accumulator, int64_t step);

  /// Threads that may enqueue and dequeue beside the step's one: a queue
  /// runner's, while it runs; a multi-device step's other partitions.
  void addParticipants(int count);
  /// Ends every wait with Result::Cancelled, now and from now on: the
  /// queue runners are stopping.
  void stop();
  bool stopping();
  /// Waits wait again (the runners have stopped).
  void resume();
  /// The calling thread's waits also end with Result::Cancelled once
  /// `*flag` is set, and stopping() is then true for it (the threads of
  /// runners that stop apart from the others: the chief's); null: only
  /// stop() ends them. Whoever sets a flag calls wake() after.
  static void setThreadStop(const std::atomic<bool> *flag);
  void wake();
  /// The queues are a task's that other tasks' steps use too (a ps's,
  /// under several workers): a wait that every thread here shares may end
  /// by another task's step, so none is taken for one that lasts forever.
  void serveOtherTasks();

private:
  /// Waits until `ready()`; Done, or why it gave up: `gaveUp()` (Done
  /// while it should wait on), the runners' stop, or a wait every thread
  /// shares.
  template <typename Ready, typename GaveUp>
  Result waitFor(std::unique_lock<std::mutex> &lock, Ready ready,
                 GaveUp gaveUp);

  /// A queue changed (or who may change one): every waiter re-checks.
  void changedNow();
  class PlaceInLine;
  /// stop() was called, or the calling thread's own stop flag is set.
  bool stopsThisThread() const;

  std::mutex mutex;
  std::condition_variable changed;
  std::unordered_map<int64_t, std::unique_ptr<Queue>> queues;
  std::unordered_map<int64_t, std::unique_ptr<Accumulator>> accumulators;
  int participants = 1;
  /// Changes so far, and the waiters that found nothing to do since the
  /// last one.
  uint64_t generation = 0;
  int stuck = 0;
  bool isStopping = false;
  bool servesOtherTasks = false;
};

/// A model's queue runners at work (tfc_queue_runners_start): each
/// thread runs its entry again and again, with an arena and a string pool
/// of its own, until its input ends (a dequeue from a closed queue) or the
/// runners stop. When the last thread of a runner ends because its input
/// ended, the runner closes its queue, so that the end of the input
/// reaches whoever dequeues from it, as a TensorFlow QueueRunner does.
class QueueRunners {
public:
  /// The model's chief queue runners (`chief`), or its others.
  QueueRunners(tfc_runtime *runtime, const tfc_model *model, void *state,
               bool chief);
  /// Stops the runners, as TensorFlow's Coordinator stopping them does:
  /// their waits end (a runner's thread ends quietly), and each runner's
  /// queue is closed with its pending enqueues cancelled. The others' stop
  /// ends every wait in the queues (the runtime is ending); the chief's
  /// only their own threads', so that the steps go on, and a dequeue
  /// waiting on a chief runner's queue ends as at the end of input.
  ~QueueRunners();

private:
  /// Thread `threadIndex` of runner `index`, until its input ends or the
  /// runners stop.
  void run(int32_t index, int32_t threadIndex);

  tfc_runtime *const runtime;
  const tfc_model *const model;
  void *const state;
  const bool chief;
  /// Set when the chief's runners stop (Queues::setThreadStop).
  std::atomic<bool> stopped{false};
  std::mutex mutex;
  /// Per runner, its threads still running (none for a runner of the
  /// other kind).
  std::vector<int> running;
  std::vector<std::thread> threads;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_QUEUES_H
