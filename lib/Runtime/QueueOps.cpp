//===- QueueOps.cpp - the queue ops, and the end of input -----------------===//
//
// See Queues.h, and tfc_runtime.h for the C ABI. A closed queue ends the
// run of steps (or of a queue runner's entry) that
// tfc_run_until_end_of_input armed on the thread, by a longjmp from the
// op's C function, whose frame owns nothing.
//
//===----------------------------------------------------------------------===//

#include "Queues.h"
#include "Runtime.h"

#include <algorithm>
#include <csetjmp>
#include <random>
#include <cstring>
#include <thread>

namespace tfc {

Queue::Queue(std::string name, int64_t capacity,
             std::vector<QueueComponent> components, QueueOrder order)
    : name(std::move(name)), capacity(capacity),
      components(std::move(components)), order(order) {
  if (!order.shuffle)
    return;
  uint64_t seed = order.seed, seed2 = order.seed2;
  if (seed == 0 && seed2 == 0) {
    std::random_device device;
    seed = uint64_t(device()) << 32 | device();
    seed2 = uint64_t(device()) << 32 | device();
  }
  words.key = seed;
  words.counter = philox::u128(seed2) << 64;
}

int64_t Queue::available() const {
  int64_t size = int64_t(elements.size());
  if (order.shuffle && !isClosed)
    size -= order.minAfterDequeue;
  return size;
}

Queue::Element Queue::take() {
  if (!order.shuffle) {
    Element element = std::move(elements.front());
    elements.pop_front();
    return element;
  }
  size_t index = words.next() % elements.size();
  Element element = std::move(elements[index]);
  elements[index] = std::move(elements.back());
  elements.pop_back();
  return element;
}

Queue::Element Queue::elementAt(const void *const *data, int64_t row) const {
  Element element;
  for (size_t k = 0; k < components.size(); ++k) {
    const char *bytes = static_cast<const char *>(data[k]) + row * components[k].bytes;
    if (!components[k].isString) {
      element.bytes.insert(element.bytes.end(), bytes, bytes + components[k].bytes);
      continue;
    }
    for (int64_t s = 0; s < components[k].bytes / 8; ++s) {
      uint64_t handle;
      std::memcpy(&handle, bytes + s * 8, sizeof handle);
      element.strings.push_back(stringOf(handle));
    }
  }
  return element;
}

void Queue::store(tfc_runtime *runtime, const Element &element,
                  void *const *data, int64_t row) const {
  const char *bytes = element.bytes.data();
  size_t string = 0;
  for (size_t k = 0; k < components.size(); ++k) {
    char *out = static_cast<char *>(data[k]) + row * components[k].bytes;
    if (!components[k].isString) {
      std::memcpy(out, bytes, components[k].bytes);
      bytes += components[k].bytes;
      continue;
    }
    for (int64_t s = 0; s < components[k].bytes / 8; ++s, ++string) {
      const std::string &text = element.strings[string];
      uint64_t handle = handleOf(tfc_string_new(runtime, text.data(), text.size()));
      std::memcpy(out + s * 8, &handle, sizeof handle);
    }
  }
}

template <typename Ready, typename GaveUp>
Queues::Result Queues::waitFor(std::unique_lock<std::mutex> &lock,
                               Ready ready, GaveUp gaveUp) {
  // A thread counts itself stuck once per change: a waiter that a change
  // woke, but that has not run yet, is not stuck, since it may proceed.
  uint64_t countedAt = ~uint64_t(0);
  while (!ready()) {
    if (stopsThisThread())
      return Result::Cancelled;
    if (Result result = gaveUp(); result != Result::Done)
      return result;
    if (countedAt != generation) {
      countedAt = generation;
      ++stuck;
    }
    if (stuck >= participants && !servesOtherTasks)
      return Result::WaitsForever;
    changed.wait(lock);
  }
  return Result::Done;
}

void Queues::serveOtherTasks() {
  std::lock_guard<std::mutex> lock(mutex);
  servesOtherTasks = true;
}

void Queues::changedNow() {
  ++generation;
  stuck = 0;
  changed.notify_all();
}

/// An operation's place in one of a queue's lines, from its start until
/// it returns, however it returns; while it waits there, a change to the
/// queue wakes the others, so the next in line sees it is now first.
/// Constructed and destroyed under the runtime's lock.
class Queues::PlaceInLine {
public:
  PlaceInLine(Queues &queues, Queue &queue, std::deque<uint64_t> &line)
      : queues(queues), line(line), ticket(queue.nextTicket++) {
    line.push_back(ticket);
  }
  ~PlaceInLine() {
    bool wasFirst = line.front() == ticket;
    line.erase(std::find(line.begin(), line.end(), ticket));
    if (wasFirst && !line.empty())
      queues.changedNow();
  }
  bool first() const { return line.front() == ticket; }

private:
  Queues &queues;
  std::deque<uint64_t> &line;
  const uint64_t ticket;
};

Queues::Result Queues::enqueue(Queue &queue, const void *const *data,
                               int64_t count) {
  std::unique_lock<std::mutex> lock(mutex);
  // (Closed by the runners' stop: a runner's thread ends quietly.)
  if (queue.isClosed)
    return stopsThisThread() ? Result::Cancelled : Result::Closed;
  // An enqueue of many keeps its place until its last element is in, so
  // its elements stay together.
  PlaceInLine place(*this, queue, queue.enqueueLine);
  for (int64_t i = 0; i < count; ++i) {
    Result result = waitFor(
        lock,
        [&] {
          return place.first() &&
                 (queue.capacity < 0 ||
                  int64_t(queue.elements.size()) < queue.capacity);
        },
        [&] { return queue.isCancelled ? Result::Cancelled : Result::Done; });
    if (result != Result::Done)
      return result;
    queue.elements.push_back(queue.elementAt(data, i));
    changedNow();
  }
  return Result::Done;
}

Queues::Result Queues::dequeue(Queue &queue, tfc_runtime *runtime,
                               void *const *data, int64_t count) {
  std::unique_lock<std::mutex> lock(mutex);
  PlaceInLine place(*this, queue, queue.dequeueLine);
  // (A closed queue's elements are all available: nothing more comes.)
  Result result = waitFor(
      lock, [&] { return place.first() && queue.available() >= count; },
      [&] { return queue.isClosed ? Result::Closed : Result::Done; });
  if (result != Result::Done)
    return result;
  for (int64_t i = 0; i < count; ++i)
    queue.store(runtime, queue.take(), data, i);
  changedNow();
  return Result::Done;
}

Queues::Result Queues::dequeueUpTo(Queue &queue, tfc_runtime *runtime,
                                   void *const *data, int64_t count,
                                   int64_t &taken) {
  std::unique_lock<std::mutex> lock(mutex);
  PlaceInLine place(*this, queue, queue.dequeueLine);
  Result result = waitFor(
      lock,
      [&] {
        return place.first() && (queue.available() >= count ||
                                 (queue.isClosed && queue.available() > 0));
      },
      [&] { return queue.isClosed ? Result::Closed : Result::Done; });
  if (result != Result::Done)
    return result;
  taken = std::min(count, queue.available());
  Queue::Element first;
  for (int64_t i = 0; i < taken; ++i) {
    Queue::Element element = queue.take();
    queue.store(runtime, element, data, i);
    if (i == 0)
      first = std::move(element);
  }
  for (int64_t i = taken; i < count; ++i)
    queue.store(runtime, first, data, i);
  changedNow();
  return Result::Done;
}

void Queues::close(Queue &queue, bool cancelPendingEnqueues) {
  std::lock_guard<std::mutex> lock(mutex);
  queue.isClosed = true;
  queue.isCancelled |= cancelPendingEnqueues;
  changedNow();
}

std::string Queues::shortOf(Queue &queue, int64_t count) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string has = "has " + std::to_string(queue.elements.size()) + " elements";
  std::string takes = " the " + std::to_string(count) + " the dequeue takes";
  if (queue.order.shuffle && queue.order.minAfterDequeue > 0 &&
      !queue.isClosed)
    return has + " and keeps " + std::to_string(queue.order.minAfterDequeue) +
           " while open (min_after_dequeue): too few for" + takes;
  return has + ", fewer than" + takes;
}

int64_t Queues::size(Queue &queue) {
  std::lock_guard<std::mutex> lock(mutex);
  return queue.elements.size();
}

bool Queues::closed(Queue &queue) {
  std::lock_guard<std::mutex> lock(mutex);
  return queue.isClosed;
}

Queue &Queues::make(int64_t slot, const std::string &name, int64_t capacity,
                    std::vector<QueueComponent> components, QueueOrder order) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Queue> &queue = queues[slot];
  if (!queue)
    queue = std::make_unique<Queue>(name, capacity, std::move(components), order);
  return *queue;
}

Queue *Queues::find(int64_t slot) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = queues.find(slot);
  return it == queues.end() ? nullptr : it->second.get();
}

Accumulator &Queues::makeAccumulator(int64_t slot, const std::string &name,
                                     int64_t elements, bool mean) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Accumulator> &accumulator = accumulators[slot];
  if (!accumulator)
    accumulator = std::make_unique<Accumulator>(name, elements, mean);
  return *accumulator;
}

Accumulator &Queues::makeSparseAccumulator(int64_t slot,
                                           const std::string &name,
                                           std::vector<int64_t> shape,
                                           bool ranked, int64_t rowElements,
                                           bool mean) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Accumulator> &accumulator = accumulators[slot];
  if (!accumulator)
    accumulator = std::make_unique<Accumulator>(name, std::move(shape), ranked,
                                                rowElements, mean);
  return *accumulator;
}

Accumulator *Queues::findAccumulator(int64_t slot) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = accumulators.find(slot);
  return it == accumulators.end() ? nullptr : it->second.get();
}

bool Queues::apply(Accumulator &accumulator, int64_t localStep,
                   const float *gradient) {
  std::lock_guard<std::mutex> lock(mutex);
  if (localStep < accumulator.globalStep)
    return false;
  for (size_t i = 0; i < accumulator.sum.size(); ++i)
    accumulator.sum[i] += gradient[i];
  ++accumulator.count;
  changedNow();
  return true;
}

Queues::Result Queues::take(Accumulator &accumulator, int32_t required,
                            float *out) {
  std::unique_lock<std::mutex> lock(mutex);
  Result result = waitFor(
      lock, [&] { return accumulator.count >= required; },
      [] { return Result::Done; });
  if (result != Result::Done)
    return result;
  // (The mean divides, as TensorFlow's does.)
  float count = float(accumulator.count);
  for (size_t i = 0; i < accumulator.sum.size(); ++i) {
    out[i] = accumulator.mean ? accumulator.sum[i] / count : accumulator.sum[i];
    accumulator.sum[i] = 0.0f;
  }
  accumulator.count = 0;
  ++accumulator.globalStep;
  changedNow();
  return Result::Done;
}

std::string Queues::applyRows(Accumulator &accumulator, int64_t localStep,
                              const int64_t *indices, int64_t nnz,
                              const float *rows, const int64_t *gradientShape,
                              int64_t shapeElements) {
  std::lock_guard<std::mutex> lock(mutex);
  Accumulator &a = accumulator;
  if (localStep < a.globalStep)
    return {};
  // TensorFlow's checks, made only on gradients it keeps: the stated
  // shape against the accumulator's, and each index below its rows.
  int64_t rank = a.ranked ? int64_t(a.shape.size()) : 0;
  if (gradientShape) {
    if (rank > shapeElements)
      return "InvalidArgument: the gradient's shape has " +
             std::to_string(shapeElements) + " dimensions, fewer than the " +
             std::to_string(rank) + " of the accumulator '" + a.name + "'";
    for (int64_t d = 0; d < rank; ++d)
      if (a.shape[d] != -1 && a.shape[d] != gradientShape[d])
        return "InvalidArgument: the gradient's shape has " +
               std::to_string(gradientShape[d]) + " at dimension " +
               std::to_string(d) + " where the accumulator '" + a.name +
               "' has " + std::to_string(a.shape[d]);
  }
  // (TensorFlow's accumulator takes a negative index, which the update
  // after the take refuses; tfc refuses it here, since the take's padding
  // rows are the negative ones that update skips.)
  for (int64_t j = 0; j < nnz; ++j)
    if (indices[j] < 0 || (rank > 0 && a.shape[0] != -1 && indices[j] >= a.shape[0]))
      return "InvalidArgument: index " + std::to_string(indices[j]) +
             " of row " + std::to_string(j) +
             (indices[j] < 0 ? std::string(" is negative")
                             : " is not below the " + std::to_string(a.shape[0]) +
                                   " rows") +
             " (the accumulator '" + a.name + "')";
  const size_t width = size_t(a.rowElements);
  if (a.count == 0) {
    a.indices.assign(indices, indices + nnz);
    a.rowCounts.assign(size_t(nnz), 1);
    a.sum.assign(rows, rows + nnz * a.rowElements);
  } else {
    // One pass over both as if each were sorted by index.
    std::vector<int64_t> mergedIndices;
    std::vector<int32_t> mergedCounts;
    std::vector<float> merged;
    size_t total = a.indices.size() + size_t(nnz);
    mergedIndices.reserve(total);
    mergedCounts.reserve(total);
    merged.reserve(total * width);
    auto keep = [&](int64_t index, int32_t count, const float *row) {
      mergedIndices.push_back(index);
      mergedCounts.push_back(count);
      merged.insert(merged.end(), row, row + width);
    };
    size_t i = 0, j = 0;
    while (i < a.indices.size() || j < size_t(nnz)) {
      bool fromSum = j == size_t(nnz) ||
                     (i < a.indices.size() && a.indices[i] < indices[j]);
      bool fromGradient = i == a.indices.size() ||
                          (j < size_t(nnz) && indices[j] < a.indices[i]);
      if (fromSum) {
        keep(a.indices[i], a.rowCounts[i], &a.sum[i * width]);
        ++i;
      } else if (fromGradient) {
        keep(indices[j], 1, rows + j * width);
        ++j;
      } else {
        keep(a.indices[i], a.rowCounts[i] + 1, &a.sum[i * width]);
        float *last = &merged[merged.size() - width];
        for (size_t e = 0; e < width; ++e)
          last[e] += rows[j * width + e];
        ++i;
        ++j;
      }
    }
    a.indices = std::move(mergedIndices);
    a.rowCounts = std::move(mergedCounts);
    a.sum = std::move(merged);
  }
  ++a.count;
  changedNow();
  return {};
}

Queues::Result Queues::takeRows(Accumulator &accumulator, int32_t required,
                                int64_t bound, int64_t *indices, float *rows,
                                int64_t &taken) {
  std::unique_lock<std::mutex> lock(mutex);
  Accumulator &a = accumulator;
  Result result = waitFor(
      lock, [&] { return a.count >= required; }, [] { return Result::Done; });
  if (result != Result::Done)
    return result;
  taken = int64_t(a.indices.size());
  if (taken > bound)
    return Result::Done;
  const size_t width = size_t(a.rowElements);
  std::copy(a.indices.begin(), a.indices.end(), indices);
  for (size_t i = 0; i < a.indices.size(); ++i)
    for (size_t e = 0; e < width; ++e) {
      float value = a.sum[i * width + e];
      // (MEAN divides each row by its own count, as TensorFlow's does.)
      rows[i * width + e] = a.mean ? value / float(a.rowCounts[i]) : value;
    }
  // The rows planned past them: index -1, zeros.
  std::fill(indices + taken, indices + bound, int64_t(-1));
  std::fill(rows + taken * width, rows + bound * width, 0.0f);
  a.indices.clear();
  a.rowCounts.clear();
  a.sum.clear();
  a.count = 0;
  ++a.globalStep;
  changedNow();
  return Result::Done;
}

int32_t Queues::accumulated(Accumulator &accumulator) {
  std::lock_guard<std::mutex> lock(mutex);
  return accumulator.count;
}

void Queues::setGlobalStep(Accumulator &accumulator, int64_t step) {
  std::lock_guard<std::mutex> lock(mutex);
  // As TensorFlow's: set even when smaller (it only warns).
  accumulator.globalStep = step;
  changedNow();
}

bool Queues::any() {
  std::lock_guard<std::mutex> lock(mutex);
  return !queues.empty();
}

void Queues::addParticipants(int count) {
  std::lock_guard<std::mutex> lock(mutex);
  participants += count;
  changedNow();
}

void Queues::stop() {
  std::lock_guard<std::mutex> lock(mutex);
  isStopping = true;
  changedNow();
}

void Queues::resume() {
  std::lock_guard<std::mutex> lock(mutex);
  isStopping = false;
}

bool Queues::stopping() {
  std::lock_guard<std::mutex> lock(mutex);
  return stopsThisThread();
}

namespace {
thread_local const std::atomic<bool> *threadStop = nullptr;
/// The abandon flag of the runtime whose run is armed on this thread
/// (tfc_run_until_end_of_input).
thread_local const std::atomic<bool> *runAbandoned = nullptr;
} // namespace

void Queues::setThreadStop(const std::atomic<bool> *flag) { threadStop = flag; }

bool Queues::stopsThisThread() const {
  return isStopping || (threadStop && threadStop->load()) ||
         (runAbandoned && runAbandoned->load());
}

void Queues::wake() {
  std::lock_guard<std::mutex> lock(mutex);
  changedNow();
}

} // namespace tfc

namespace {

/// Where a closed queue ends the run of steps on this thread (armed by
/// tfc_run_until_end_of_input), and what ended it.
struct EndOfInput {
  std::jmp_buf *jump = nullptr;
  std::string message;
};
thread_local EndOfInput endOfInput;

tfc::Queue &queueAt(tfc_runtime *runtime, const char *node, int64_t slot) {
  tfc::Queue *queue = runtime->queues.find(slot);
  if (!queue)
    tfc::rt::failAt(runtime, node,
                    "its queue was never made (no queue op of it ran before)");
  return *queue;
}

/// Ends the run armed on this thread, `message` saying why, or returns
/// false when nothing armed one.
bool endRun(const std::string &message) {
  if (!endOfInput.jump)
    return false;
  endOfInput.message = message;
  return true;
}

/// What waits forever, for the error: `op` ("enqueue", "dequeue") is
/// what no other thread can do.
std::string waitsForever(const tfc::Queue &queue, const std::string &has,
                         const char *op) {
  return "the queue '" + queue.name + "' " + has +
         ", and nothing in this program can " + op +
         " while the step waits (every queue runner's thread, if any, waits "
         "too): it would wait forever";
}

/// Enqueues, or fails the step, or returns false when the run armed on
/// this thread ends (the queue runners stop). Everything with a
/// destructor lives here, not in the frame that jumps.
bool enqueueOrExplain(tfc_runtime *runtime, const void *const *components,
                      const char *node, int64_t slot, int64_t count) {
  tfc::Queue &queue = queueAt(runtime, node, slot);
  switch (runtime->queues.enqueue(queue, components, count)) {
  case tfc::Queues::Result::Done:
    return true;
  case tfc::Queues::Result::Closed:
    tfc::rt::failAt(runtime, node,
                    "Cancelled: the queue '" + queue.name + "' is closed");
  case tfc::Queues::Result::Cancelled:
    if (endRun(std::string(node) + ": the queue '" + queue.name +
               "' was closed while it waited"))
      return false;
    tfc::rt::failAt(runtime, node,
                    "Cancelled: the queue '" + queue.name +
                        "' was closed while the enqueue waited");
  case tfc::Queues::Result::WaitsForever:
    tfc::rt::failAt(
        runtime, node,
        waitsForever(queue,
                     "has " + std::to_string(runtime->queues.size(queue)) +
                         " of its " + std::to_string(queue.capacity) +
                         " elements and more do not fit",
                     "dequeue"));
  }
  return true;
}

/// Dequeues, or fails the step, or returns false when the run armed on
/// this thread ends: the queue is closed with too few elements, or the
/// queue runners stop.
bool dequeueOrExplain(tfc_runtime *runtime, void *const *components,
                      const char *node, int64_t slot, int64_t count,
                      int64_t *taken = nullptr) {
  tfc::Queue &queue = queueAt(runtime, node, slot);
  tfc::Queues::Result result =
      taken ? runtime->queues.dequeueUpTo(queue, runtime, components, count,
                                          *taken)
            : runtime->queues.dequeue(queue, runtime, components, count);
  if (result == tfc::Queues::Result::Done)
    return true;
  std::string has = runtime->queues.shortOf(queue, count);
  if (result == tfc::Queues::Result::WaitsForever)
    tfc::rt::failAt(runtime, node,
                    waitsForever(queue, has, "enqueue"));
  std::string what =
      result != tfc::Queues::Result::Cancelled
          ? "the queue '" + queue.name + "' is closed and " + has
      : runtime->abandoned
          ? "the dequeue from the queue '" + queue.name +
                "' was abandoned with the step (its client was lost)"
          : "the queue '" + queue.name + "' was closed while the dequeue waited";
  if (endRun(std::string(node) + ": " + what))
    return false;
  tfc::rt::failAt(runtime, node, "OutOfRange: " + what);
}

tfc::Accumulator &accumulatorAt(tfc_runtime *runtime, const char *node,
                                int64_t slot) {
  tfc::Accumulator *accumulator = runtime->queues.findAccumulator(slot);
  if (!accumulator)
    tfc::rt::failAt(runtime, node,
                    "its accumulator was never made (no accumulator op of it "
                    "ran before)");
  return *accumulator;
}

/// Takes the accumulated gradient, or fails the step, or returns false
/// when the run armed on this thread ends (the queue runners stop).
template <typename Take>
bool takeOrExplain(tfc_runtime *runtime, const int32_t *numRequired,
                   const char *node, int64_t slot, Take take) {
  tfc::Accumulator &accumulator = accumulatorAt(runtime, node, slot);
  if (*numRequired < 1)
    tfc::rt::failAt(runtime, node,
                    "InvalidArgument: num_required is " +
                        std::to_string(*numRequired) + ", not 1 or more");
  switch (take(accumulator, *numRequired)) {
  case tfc::Queues::Result::Done:
    return true;
  case tfc::Queues::Result::WaitsForever:
    tfc::rt::failAt(
        runtime, node,
        "the accumulator '" + accumulator.name + "' has " +
            std::to_string(runtime->queues.accumulated(accumulator)) +
            " gradients, fewer than the " + std::to_string(*numRequired) +
            " the take needs, and nothing in this program can apply one "
            "while the step waits: it would wait forever");
  default:
    if (endRun(std::string(node) + ": the runners stopped while it waited"))
      return false;
    tfc::rt::failAt(runtime, node, "Cancelled: the take was cancelled");
  }
}

/// CountUpTo's count, under one lock for every counter (a queue runner's
/// threads may count one together); false at the limit.
bool countUpTo(void *variable, void *out, int64_t limit, int64_t bytes) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  int64_t value = 0;
  if (bytes == 8) {
    std::memcpy(&value, variable, 8);
  } else {
    int32_t narrow;
    std::memcpy(&narrow, variable, 4);
    value = narrow;
  }
  if (value >= limit)
    return false;
  std::memcpy(out, variable, size_t(bytes));
  int64_t next = value + 1;
  if (bytes == 8) {
    std::memcpy(variable, &next, 8);
  } else {
    int32_t narrow = int32_t(next);
    std::memcpy(variable, &narrow, 4);
  }
  return true;
}

/// Counts, or fails the step, or returns false when the run armed on
/// this thread ends at the limit.
bool countOrExplain(tfc_runtime *runtime, void *variable, void *out,
                    const char *node, int64_t limit, int64_t bytes) {
  if (countUpTo(variable, out, limit, bytes))
    return true;
  std::string what = "Reached limit of " + std::to_string(limit);
  if (endRun(std::string(node) + ": " + what))
    return false;
  tfc::rt::failAt(runtime, node, "OutOfRange: " + what);
}

} // namespace

namespace tfc::rt {

bool endInputRun(const std::string &message) { return endRun(message); }

void jumpToEndOfInput() { std::longjmp(*endOfInput.jump, 1); }

} // namespace tfc::rt

extern "C" {

void tfc_queue_make(tfc_runtime *runtime, const char *name,
                    const int64_t *component_bytes,
                    const int64_t *component_is_string, int64_t slot,
                    int64_t capacity, int64_t num_components,
                    int64_t min_after_dequeue, int64_t seed, int64_t seed2) {
  std::vector<tfc::QueueComponent> components;
  for (int64_t k = 0; k < num_components; ++k)
    components.push_back({component_bytes[k], component_is_string[k] != 0});
  tfc::QueueOrder order;
  order.shuffle = min_after_dequeue >= 0;
  order.minAfterDequeue = std::max<int64_t>(min_after_dequeue, 0);
  order.seed = seed;
  order.seed2 = seed2;
  runtime->queues.make(slot, name, capacity, std::move(components), order);
}

void tfc_queue_enqueue(tfc_runtime *runtime, const void *const *components,
                       const char *node, int64_t slot, int64_t count) {
  if (!enqueueOrExplain(runtime, components, node, slot, count))
    std::longjmp(*endOfInput.jump, 1);
}

void tfc_queue_dequeue(tfc_runtime *runtime, void *const *components,
                       const char *node, int64_t slot, int64_t count) {
  if (!dequeueOrExplain(runtime, components, node, slot, count))
    std::longjmp(*endOfInput.jump, 1);
}

void tfc_queue_dequeue_up_to(tfc_runtime *runtime, void *const *components,
                             int64_t *taken, const char *node, int64_t slot,
                             int64_t count) {
  if (!dequeueOrExplain(runtime, components, node, slot, count, taken))
    std::longjmp(*endOfInput.jump, 1);
}

void tfc_queue_close(tfc_runtime *runtime, const char *node, int64_t slot,
                     int64_t cancel_pending_enqueues) {
  runtime->queues.close(queueAt(runtime, node, slot),
                        cancel_pending_enqueues != 0);
}

void tfc_queue_size(tfc_runtime *runtime, int32_t *out, const char *node,
                    int64_t slot) {
  *out = int32_t(runtime->queues.size(queueAt(runtime, node, slot)));
}

void tfc_queue_is_closed(tfc_runtime *runtime, uint8_t *out, const char *node,
                         int64_t slot) {
  *out = runtime->queues.closed(queueAt(runtime, node, slot));
}

void tfc_count_up_to(tfc_runtime *runtime, void *variable, void *out,
                     const char *node, int64_t limit, int64_t bytes) {
  if (!countOrExplain(runtime, variable, out, node, limit, bytes))
    std::longjmp(*endOfInput.jump, 1);
}

void tfc_accumulator_make(tfc_runtime *runtime, const char *name,
                          int64_t slot, int64_t elements, int64_t mean) {
  runtime->queues.makeAccumulator(slot, name, elements, mean != 0);
}

void tfc_accumulator_apply(tfc_runtime *runtime, const int64_t *local_step,
                           const float *gradient, const char *node,
                           int64_t slot) {
  runtime->queues.apply(accumulatorAt(runtime, node, slot), *local_step,
                        gradient);
}

void tfc_accumulator_take(tfc_runtime *runtime, const int32_t *num_required,
                          float *out, const char *node, int64_t slot) {
  auto take = [&](tfc::Accumulator &accumulator, int32_t required) {
    return runtime->queues.take(accumulator, required, out);
  };
  if (!takeOrExplain(runtime, num_required, node, slot, take))
    std::longjmp(*endOfInput.jump, 1);
}

void tfc_sparse_accumulator_make(tfc_runtime *runtime, const char *name,
                                 const int64_t *shape, int64_t slot,
                                 int64_t rank, int64_t row_elements,
                                 int64_t mean) {
  std::vector<int64_t> dims(shape, shape + std::max<int64_t>(rank, 0));
  runtime->queues.makeSparseAccumulator(slot, name, std::move(dims), rank >= 0,
                                        row_elements, mean != 0);
}

void tfc_sparse_accumulator_apply(tfc_runtime *runtime,
                                  const int64_t *local_step,
                                  const int64_t *indices, const float *values,
                                  const int64_t *gradient_shape,
                                  const char *node, int64_t slot, int64_t rows,
                                  int64_t shape_elements) {
  std::string refused = runtime->queues.applyRows(
      accumulatorAt(runtime, node, slot), *local_step, indices, rows, values,
      shape_elements >= 0 ? gradient_shape : nullptr, shape_elements);
  if (!refused.empty())
    tfc::rt::failAt(runtime, node, refused);
}

void tfc_sparse_accumulator_take(tfc_runtime *runtime,
                                 const int32_t *num_required, int64_t *indices,
                                 float *values, int64_t *shape, int64_t *count,
                                 const int64_t *dense_shape, const char *node,
                                 int64_t slot, int64_t bound, int64_t rank) {
  int64_t taken = 0;
  auto take = [&](tfc::Accumulator &accumulator, int32_t required) {
    return runtime->queues.takeRows(accumulator, required, bound, indices,
                                    values, taken);
  };
  if (!takeOrExplain(runtime, num_required, node, slot, take))
    std::longjmp(*endOfInput.jump, 1);
  if (taken > bound)
    tfc::rt::failAt(runtime, node,
                    "the accumulator '" + accumulatorAt(runtime, node, slot).name +
                        "' holds " + std::to_string(taken) +
                        " rows, more than the " + std::to_string(bound) +
                        " its take was compiled for (docs/Training.md, "
                        "Accumulators)");
  *count = taken;
  std::copy(dense_shape, dense_shape + rank, shape);
}

void tfc_accumulator_num_accumulated(tfc_runtime *runtime, int32_t *out,
                                     const char *node, int64_t slot) {
  *out = runtime->queues.accumulated(accumulatorAt(runtime, node, slot));
}

void tfc_accumulator_set_global_step(tfc_runtime *runtime,
                                     const int64_t *step, const char *node,
                                     int64_t slot) {
  runtime->queues.setGlobalStep(accumulatorAt(runtime, node, slot), *step);
}

int tfc_run_until_end_of_input(tfc_runtime *runtime, void (*run)(void *),
                               void *context) {
  std::jmp_buf here;
  std::jmp_buf *outer = endOfInput.jump;
  const std::atomic<bool> *outerAbandoned = tfc::runAbandoned;
  endOfInput.jump = &here;
  tfc::runAbandoned = runtime ? &runtime->abandoned : nullptr;
  if (setjmp(here)) {
    endOfInput.jump = outer;
    tfc::runAbandoned = outerAbandoned;
    return 1;
  }
  run(context);
  endOfInput.jump = outer;
  tfc::runAbandoned = outerAbandoned;
  return 0;
}

void tfc_runtime_abandon_waits(tfc_runtime *runtime, int32_t abandon) {
  runtime->abandoned = abandon != 0;
  runtime->queues.wake();
}

const char *tfc_end_of_input_message(tfc_runtime *) {
  return endOfInput.message.c_str();
}

} // extern "C"
