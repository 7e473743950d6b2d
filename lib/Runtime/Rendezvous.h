//===- Rendezvous.h - the in-process rendezvous and partition runner ------===//
//
// The runtime's own rendezvous (the interface is the public
// tfc/Runtime/Rendezvous.h): the partitions of one program hand tensors to
// each other through memory. And the threads that run those partitions.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_RENDEZVOUS_H
#define TFC_LIB_RUNTIME_RENDEZVOUS_H

#include "tfc/Runtime/Rendezvous.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

struct tfc_runtime;

namespace tfc {

class LocalRendezvous : public Rendezvous {
public:
  Status send(const char *key, const void *data, int64_t bytes) override;
  Status recv(const char *key, void *data, int64_t bytes) override;
  void abort(const Status &status) override;
  void reset() override;

private:
  struct Slot {
    std::vector<char> data;
    bool ready = false;
  };
  std::mutex mutex;
  std::condition_variable arrived;
  /// Slots stay allocated across steps: their buffers are reused.
  std::unordered_map<std::string, Slot> slots;
  /// Not Ok once aborted, until reset().
  Status aborted = Status::ok();
};

/// Threads for the partitions of a step beyond the first (which runs on the
/// caller's thread), started once and kept for every later step.
class PartitionRunner {
public:
  using Step = tfc_step_fn;
  ~PartitionRunner();
  /// Runs partitions[0..count) concurrently; returns when all are done.
  void run(tfc_runtime *runtime, int32_t count, const Step *partitions,
           void *arena, void *state, void *const *inputs,
           void *const *outputs);

private:
  void work(size_t index);

  std::mutex mutex;
  std::condition_variable started, finished;
  std::vector<std::thread> workers;
  /// The current step; `generation` counts steps so a worker runs each once.
  uint64_t generation = 0;
  size_t pending = 0;
  bool stopping = false;
  int32_t count = 0;
  const Step *partitions = nullptr;
  tfc_runtime *runtime = nullptr;
  void *arena = nullptr;
  void *state = nullptr;
  void *const *inputs = nullptr;
  void *const *outputs = nullptr;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_RENDEZVOUS_H
