//===- Queues.h - TensorFlow's FIFO queues as runtime resources -*- C++ -*-===//
//
// A queue (FIFOQueueV2, PaddingFIFOQueueV2) holds elements of a fixed list
// of components, each of a fixed shape; it lives in the runtime from the
// first time a step or the init entry makes it until the runtime ends, so
// that the init can fill it and the steps drain it. Code generation numbers
// the program's queues (one number per queue, whichever entry makes it).
//
// An element is one buffer: its components' bytes one after another. A
// string component's handles are replaced by the strings themselves while
// the element is queued (a step's strings are released before the next
// step), and made again when it is dequeued.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_QUEUES_H
#define TFC_LIB_RUNTIME_QUEUES_H

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

struct tfc_runtime;

namespace tfc {

/// One component of a queue's elements: its bytes per element (8 per
/// string for a string component, which holds handles).
struct QueueComponent {
  int64_t bytes;
  bool isString;
};

class Queue {
public:
  Queue(std::string name, int64_t capacity, std::vector<QueueComponent> components)
      : name(std::move(name)), capacity(capacity),
        components(std::move(components)) {}

  /// What an operation on the queue found, for its caller to report.
  enum class Result { Done, Closed, Full, Empty };

  /// Appends `count` elements, component k's rows from components[k].
  Result enqueue(const void *const *data, int64_t count);
  /// Removes the first `count` elements into components[k]'s rows, making
  /// string handles in `runtime`'s pool.
  Result dequeue(tfc_runtime *runtime, void *const *data, int64_t count);
  void close();
  int64_t size();
  bool closed();

  const std::string name;
  const int64_t capacity; // -1: unbounded.

private:
  struct Element {
    std::vector<char> bytes;
    std::vector<std::string> strings;
  };
  const std::vector<QueueComponent> components;
  std::mutex mutex;
  std::deque<Element> elements;
  bool isClosed = false;
};

class Queues {
public:
  /// Queue `slot`, made with these properties if it does not exist yet (a
  /// queue op makes its queue the first time it runs, as TensorFlow's).
  Queue &make(int64_t slot, const std::string &name, int64_t capacity,
              std::vector<QueueComponent> components);
  /// Queue `slot`, or null if no queue op has made it yet.
  Queue *find(int64_t slot);
  /// Whether any queue has been made.
  bool any() {
    std::lock_guard<std::mutex> lock(mutex);
    return !queues.empty();
  }

private:
  std::mutex mutex;
  std::unordered_map<int64_t, std::unique_ptr<Queue>> queues;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_QUEUES_H
