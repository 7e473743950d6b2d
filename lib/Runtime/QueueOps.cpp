//===- QueueOps.cpp - FIFOQueueV2 and the ops on its queues ----------------===//
//
// See Queues.h, and tfc_runtime.h for the C ABI. The queue ops of one
// queue run on one device (placement keeps a resource's ops together),
// so in a program without other threads that enqueue or dequeue, an op
// that would wait for one (a dequeue from an empty open queue, an enqueue
// into a full one) would wait forever: it stops the step with an error
// naming it instead.
//
//===----------------------------------------------------------------------===//

#include "Queues.h"
#include "Runtime.h"

#include <csetjmp>
#include <cstring>
#include <thread>

namespace tfc {

Queue::Result Queue::enqueue(const void *const *data, int64_t count) {
  std::lock_guard<std::mutex> lock(mutex);
  if (isClosed)
    return Result::Closed;
  if (capacity >= 0 && int64_t(elements.size()) + count > capacity)
    return Result::Full;
  for (int64_t i = 0; i < count; ++i) {
    Element element;
    for (size_t k = 0; k < components.size(); ++k) {
      const char *row = static_cast<const char *>(data[k]) + i * components[k].bytes;
      if (!components[k].isString) {
        element.bytes.insert(element.bytes.end(), row, row + components[k].bytes);
        continue;
      }
      for (int64_t s = 0; s < components[k].bytes / 8; ++s) {
        uint64_t handle;
        std::memcpy(&handle, row + s * 8, sizeof handle);
        element.strings.push_back(stringOf(handle));
      }
    }
    elements.push_back(std::move(element));
  }
  return Result::Done;
}

Queue::Result Queue::dequeue(tfc_runtime *runtime, void *const *data,
                             int64_t count) {
  std::lock_guard<std::mutex> lock(mutex);
  if (int64_t(elements.size()) < count)
    return isClosed ? Result::Closed : Result::Empty;
  for (int64_t i = 0; i < count; ++i) {
    Element &element = elements.front();
    const char *bytes = element.bytes.data();
    size_t string = 0;
    for (size_t k = 0; k < components.size(); ++k) {
      char *row = static_cast<char *>(data[k]) + i * components[k].bytes;
      if (!components[k].isString) {
        std::memcpy(row, bytes, components[k].bytes);
        bytes += components[k].bytes;
        continue;
      }
      for (int64_t s = 0; s < components[k].bytes / 8; ++s, ++string) {
        const std::string &text = element.strings[string];
        uint64_t handle = handleOf(tfc_string_new(runtime, text.data(), text.size()));
        std::memcpy(row + s * 8, &handle, sizeof handle);
      }
    }
    elements.pop_front();
  }
  return Result::Done;
}

void Queue::close() {
  std::lock_guard<std::mutex> lock(mutex);
  isClosed = true;
}

int64_t Queue::size() {
  std::lock_guard<std::mutex> lock(mutex);
  return elements.size();
}

bool Queue::closed() {
  std::lock_guard<std::mutex> lock(mutex);
  return isClosed;
}

Queue &Queues::make(int64_t slot, const std::string &name, int64_t capacity,
                    std::vector<QueueComponent> components) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Queue> &queue = queues[slot];
  if (!queue)
    queue = std::make_unique<Queue>(name, capacity, std::move(components));
  return *queue;
}

Queue *Queues::find(int64_t slot) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = queues.find(slot);
  return it == queues.end() ? nullptr : it->second.get();
}

} // namespace tfc

namespace {

tfc::Queue &queueAt(tfc_runtime *runtime, const char *node, int64_t slot) {
  tfc::Queue *queue = runtime->queues.find(slot);
  if (!queue)
    tfc::rt::failAt(runtime, node,
                    "its queue was never made (no queue op of it ran before)");
  return *queue;
}

/// Whether the end of input may end the run of steps on this thread
/// (tfc_run_until_end_of_input armed it).
bool endOfInputArmed(tfc_runtime *runtime) {
  const tfc::EndOfInput &end = runtime->end_of_input;
  return end.jump && end.thread == std::this_thread::get_id();
}

/// Dequeues, or fails the step, or returns false when the queue is closed
/// with too few elements and the end of input is armed (its message then
/// set). Everything with a destructor lives here, not in the frame that
/// jumps.
bool dequeueOrExplain(tfc_runtime *runtime, void *const *components,
                      const char *node, int64_t slot, int64_t count) {
  tfc::Queue &queue = queueAt(runtime, node, slot);
  tfc::Queue::Result result = queue.dequeue(runtime, components, count);
  if (result == tfc::Queue::Result::Done)
    return true;
  std::string has = "has " + std::to_string(queue.size()) +
                    " elements, fewer than the " + std::to_string(count) +
                    " the dequeue takes";
  if (result == tfc::Queue::Result::Empty)
    tfc::rt::failAt(runtime, node,
                    "the queue '" + queue.name + "' " + has +
                        ", and nothing in this program enqueues while the "
                        "step waits: it would wait forever");
  std::string what = "the queue '" + queue.name + "' is closed and " + has;
  if (!endOfInputArmed(runtime))
    tfc::rt::failAt(runtime, node, "OutOfRange: " + what);
  runtime->end_of_input.message = std::string(node) + ": " + what;
  return false;
}

} // namespace

extern "C" {

void tfc_queue_make(tfc_runtime *runtime, const char *name,
                    const int64_t *component_bytes,
                    const int64_t *component_is_string, int64_t slot,
                    int64_t capacity, int64_t num_components) {
  std::vector<tfc::QueueComponent> components;
  for (int64_t k = 0; k < num_components; ++k)
    components.push_back({component_bytes[k], component_is_string[k] != 0});
  runtime->queues.make(slot, name, capacity, std::move(components));
}

void tfc_queue_enqueue(tfc_runtime *runtime, const void *const *components,
                       const char *node, int64_t slot, int64_t count) {
  tfc::Queue &queue = queueAt(runtime, node, slot);
  switch (queue.enqueue(components, count)) {
  case tfc::Queue::Result::Closed:
    tfc::rt::failAt(runtime, node,
                    "Cancelled: the queue '" + queue.name + "' is closed");
  case tfc::Queue::Result::Full:
    tfc::rt::failAt(runtime, node,
                    "the queue '" + queue.name + "' has " +
                        std::to_string(queue.size()) + " of its " +
                        std::to_string(queue.capacity) + " elements and " +
                        std::to_string(count) +
                        " more do not fit: nothing in this program dequeues "
                        "while the step waits, so it would wait forever");
  default:
    return;
  }
}

void tfc_queue_dequeue(tfc_runtime *runtime, void *const *components,
                       const char *node, int64_t slot, int64_t count) {
  if (!dequeueOrExplain(runtime, components, node, slot, count))
    std::longjmp(*runtime->end_of_input.jump, 1);
}

void tfc_queue_close(tfc_runtime *runtime, const char *node, int64_t slot) {
  queueAt(runtime, node, slot).close();
}

void tfc_queue_size(tfc_runtime *runtime, int32_t *out, const char *node,
                    int64_t slot) {
  *out = int32_t(queueAt(runtime, node, slot).size());
}

void tfc_queue_is_closed(tfc_runtime *runtime, uint8_t *out, const char *node,
                         int64_t slot) {
  *out = queueAt(runtime, node, slot).closed();
}

int tfc_run_until_end_of_input(tfc_runtime *runtime, void (*run)(void *),
                               void *context) {
  tfc::EndOfInput &end = runtime->end_of_input;
  std::jmp_buf here;
  std::jmp_buf *outer = end.jump;
  std::thread::id outerThread = end.thread;
  end.jump = &here;
  end.thread = std::this_thread::get_id();
  if (setjmp(here)) {
    end.jump = outer;
    end.thread = outerThread;
    return 1;
  }
  run(context);
  end.jump = outer;
  end.thread = outerThread;
  return 0;
}

const char *tfc_end_of_input_message(tfc_runtime *runtime) {
  return runtime->end_of_input.message.c_str();
}

} // extern "C"
