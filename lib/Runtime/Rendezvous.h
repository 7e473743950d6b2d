//===- Rendezvous.h - where _Send meets _Recv -----------------------------===//
//
// White paper §3.2.2: a _Send hands its tensor to the rendezvous under the
// edge's key; the _Recv with the same key takes it, waiting until it is
// there. Rendezvous is the interface; LocalRendezvous serves the
// partitions of one process (the gRPC transport between tasks implements
// the same interface). A key is used once per step; reset() starts the
// next step.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_RENDEZVOUS_H
#define TFC_LIB_RUNTIME_RENDEZVOUS_H

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

class Rendezvous {
public:
  virtual ~Rendezvous() = default;
  /// Makes `bytes` bytes at `data` available under `key`; returns at once.
  virtual void send(const char *key, const void *data, int64_t bytes) = 0;
  /// Waits for `key` and copies its bytes to `data`.
  virtual void recv(const char *key, void *data, int64_t bytes) = 0;
  /// Forgets this step's tensors; every send has been received.
  virtual void reset() = 0;
};

class LocalRendezvous : public Rendezvous {
public:
  void send(const char *key, const void *data, int64_t bytes) override;
  void recv(const char *key, void *data, int64_t bytes) override;
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
