//===- Rendezvous.cpp - the in-process rendezvous and partition runner ----===//

#include "Rendezvous.h"
#include "Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace tfc {

void LocalRendezvous::send(const char *key, const void *data, int64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    Slot &slot = slots[key];
    if (slot.ready) {
      std::fprintf(stderr, "tfc: rendezvous key sent twice in one step: %s\n", key);
      std::abort();
    }
    slot.data.assign(static_cast<const char *>(data),
                     static_cast<const char *>(data) + bytes);
    slot.ready = true;
  }
  arrived.notify_all();
}

void LocalRendezvous::recv(const char *key, void *data, int64_t bytes) {
  std::unique_lock<std::mutex> lock(mutex);
  Slot &slot = slots[key];
  arrived.wait(lock, [&] { return slot.ready; });
  if (static_cast<int64_t>(slot.data.size()) != bytes) {
    std::fprintf(stderr, "tfc: rendezvous key %s carries %zu bytes, %lld expected\n",
                 key, slot.data.size(), static_cast<long long>(bytes));
    std::abort();
  }
  if (bytes > 0)
    std::memcpy(data, slot.data.data(), static_cast<size_t>(bytes));
}

void LocalRendezvous::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &entry : slots)
    entry.second.ready = false;
}

} // namespace tfc

void tfc_send(tfc_runtime *runtime, const char *key, const void *data,
              int64_t bytes) {
  runtime->rendezvous->send(key, data, bytes);
}

void tfc_recv(tfc_runtime *runtime, const char *key, void *data, int64_t bytes) {
  runtime->rendezvous->recv(key, data, bytes);
}

void tfc_run_partitions(tfc_runtime *runtime, int32_t count,
                        const tfc_step_fn *partitions, void *arena,
                        void *const *inputs, void *const *outputs) {
  // Each partition (a device) on a thread of its own; the caller runs the
  // first. Kernels inside share the runtime's intra-op pool.
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(count > 0 ? count - 1 : 0));
  for (int32_t k = 1; k < count; ++k)
    threads.emplace_back(partitions[k], runtime, arena, inputs, outputs);
  if (count > 0)
    partitions[0](runtime, arena, inputs, outputs);
  for (std::thread &thread : threads)
    thread.join();
  runtime->rendezvous->reset();
}
