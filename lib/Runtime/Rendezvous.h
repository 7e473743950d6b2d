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

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

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

} // namespace tfc

#endif // TFC_LIB_RUNTIME_RENDEZVOUS_H
