//===- Rendezvous.cpp - the in-process rendezvous and partition runner ----===//

#include "Rendezvous.h"
#include "Runtime.h"
#include "tfc/Runtime/Denormals.h"
#include "tfc/Runtime/Trace.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace tfc {

using Status = RendezvousStatus;

Status LocalRendezvous::send(const char *key, const void *data,
                             int64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!aborted.isOk())
      return aborted;
    Slot &slot = slots[key];
    if (slot.ready)
      return Status::error(Status::Code::InvalidArgument,
                           std::string("rendezvous key sent twice in one "
                                       "step: ") +
                               key);
    slot.data.assign(static_cast<const char *>(data),
                     static_cast<const char *>(data) + bytes);
    slot.ready = true;
  }
  arrived.notify_all();
  return Status::ok();
}

Status LocalRendezvous::recv(const char *key, void *data, int64_t bytes) {
  std::unique_lock<std::mutex> lock(mutex);
  Slot &slot = slots[key];
  arrived.wait(lock, [&] { return slot.ready || !aborted.isOk(); });
  if (!aborted.isOk())
    return aborted;
  if (static_cast<int64_t>(slot.data.size()) != bytes)
    return Status::error(Status::Code::InvalidArgument,
                         "rendezvous key " + std::string(key) + " carries " +
                             std::to_string(slot.data.size()) + " bytes, " +
                             std::to_string(bytes) + " expected");
  if (bytes > 0)
    std::memcpy(data, slot.data.data(), static_cast<size_t>(bytes));
  // A key of a loop's iteration (not ending in the step's "0:0") comes
  // once: its slot goes, so that a long loop does not keep every
  // iteration's tensor.
  size_t length = std::strlen(key);
  if (length < 4 || std::strcmp(key + length - 4, ";0:0") != 0)
    slots.erase(key);
  return Status::ok();
}

void LocalRendezvous::abort(const Status &status) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    aborted = status.isOk() ? Status::error(Status::Code::Aborted,
                                            "rendezvous aborted")
                            : status;
  }
  arrived.notify_all();
}

void LocalRendezvous::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &entry : slots)
    entry.second.ready = false;
  aborted = Status::ok();
}

std::unique_ptr<Rendezvous> makeLocalRendezvous() {
  return std::make_unique<LocalRendezvous>();
}

PartitionRunner::~PartitionRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  started.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void PartitionRunner::work(size_t index) {
  uint64_t seen = 0;
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex);
    started.wait(lock, [&] { return stopping || generation != seen; });
    if (stopping)
      return;
    seen = generation;
    // Worker `index` runs partition index + 1, if this step has one.
    bool mine = int32_t(index + 1) < count;
    Step step = mine ? partitions[index + 1] : nullptr;
    lock.unlock();
    if (step) {
      FlushDenormals flush;
      step(runtime, arena, state, inputs, outputs);
    }
    lock.lock();
    if (mine && --pending == 0)
      finished.notify_all();
  }
}

void PartitionRunner::run(tfc_runtime *rt, int32_t n, const Step *steps,
                          void *stepArena, void *stepState,
                          void *const *stepInputs,
                          void *const *stepOutputs) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    while (int32_t(workers.size()) < n - 1)
      workers.emplace_back([this, index = workers.size()] { work(index); });
    count = n;
    partitions = steps;
    runtime = rt;
    arena = stepArena;
    state = stepState;
    inputs = stepInputs;
    outputs = stepOutputs;
    pending = size_t(n > 0 ? n - 1 : 0);
    ++generation;
  }
  started.notify_all();
  if (n > 0)
    steps[0](rt, stepArena, stepState, stepInputs, stepOutputs);
  std::unique_lock<std::mutex> lock(mutex);
  finished.wait(lock, [&] { return pending == 0; });
}

} // namespace tfc

/// Ends the step on a failed exchange (tfc_runtime.h says how).
static void checkExchange(tfc_runtime *runtime,
                          const tfc::RendezvousStatus &status) {
  if (status.isOk())
    return;
  if (status.getCode() == tfc::RendezvousStatus::Code::Unavailable) {
    std::fprintf(stderr, "error: %s\n", status.getMessage().c_str());
    std::fflush(stderr);
    std::_Exit(TFC_EXIT_CLUSTER_FAILURE);
  }
  tfc_fail(runtime, status.getMessage().c_str());
}

/// Whether a failed exchange ends the run of steps armed on this thread: a
/// peer's end of input (OutOfRange) does, as a closed queue of this
/// process would, and so does a step abandoned with its lost client; any
/// other failure ends the step (checkExchange).
static bool exchangeEndsInput(tfc_runtime *runtime,
                              const tfc::RendezvousStatus &status) {
  using Code = tfc::RendezvousStatus::Code;
  if ((status.getCode() == Code::OutOfRange ||
       status.getCode() == Code::Abandoned) &&
      tfc::rt::endInputRun(status.getMessage()))
    return true;
  checkExchange(runtime, status);
  return false;
}

/// A trace's record of a transfer, under the key as it crosses.
static void traceTransfer(tfc_runtime *runtime, const char *key, bool send) {
  if (tfc::trace::enabled())
    tfc::trace::recordTransfer(runtime->rendezvous->traceKey(key).c_str(), send);
}

// (The jumps come from frames that own nothing: the status is gone.)
void tfc_send(tfc_runtime *runtime, const char *key, const void *data,
              int64_t bytes) {
  traceTransfer(runtime, key, /*send=*/true);
  if (exchangeEndsInput(runtime, runtime->rendezvous->send(key, data, bytes)))
    tfc::rt::jumpToEndOfInput();
}

void tfc_recv(tfc_runtime *runtime, const char *key, void *data, int64_t bytes) {
  if (exchangeEndsInput(runtime, runtime->rendezvous->recv(key, data, bytes)))
    tfc::rt::jumpToEndOfInput();
  traceTransfer(runtime, key, /*send=*/false);
}

namespace {
/// A transfer in a loop cut between devices: `exchange` (the rendezvous's
/// send or recv) under `prefix` followed by the iteration. The key is gone
/// before a jump out of the step.
template <typename Exchange>
void exchangeInFrame(tfc_runtime *runtime, const char *prefix,
                     int64_t iteration, bool send, Exchange exchange) {
  bool ended;
  {
    std::string key = prefix + std::to_string(iteration);
    if (send)
      traceTransfer(runtime, key.c_str(), send);
    ended = exchangeEndsInput(runtime, exchange(key.c_str()));
    if (!send && !ended)
      traceTransfer(runtime, key.c_str(), send);
  }
  if (ended)
    tfc::rt::jumpToEndOfInput();
}
} // namespace

void tfc_send_in_frame(tfc_runtime *runtime, const char *key_prefix,
                       const void *data, int64_t iteration, int64_t bytes) {
  exchangeInFrame(runtime, key_prefix, iteration, /*send=*/true,
                  [&](const char *key) {
    return runtime->rendezvous->send(key, data, bytes);
  });
}

void tfc_recv_in_frame(tfc_runtime *runtime, const char *key_prefix,
                       void *data, int64_t iteration, int64_t bytes) {
  exchangeInFrame(runtime, key_prefix, iteration, /*send=*/false,
                  [&](const char *key) {
    return runtime->rendezvous->recv(key, data, bytes);
  });
}

void tfc_run_partitions(tfc_runtime *runtime, int32_t count,
                        const tfc_step_fn *partitions, void *arena,
                        void *state, void *const *inputs,
                        void *const *outputs) {
  // Each partition (a device) on a thread of its own, kept across steps;
  // the caller runs the first. Kernels inside share the intra-op pool.
  // The partitions but the first are threads that may wait in queues
  // beside the step's own (Queues.h counts who could end a wait).
  runtime->queues.addParticipants(count - 1);
  runtime->partitions->run(runtime, count, partitions, arena, state, inputs,
                           outputs);
  runtime->queues.addParticipants(1 - count);
  runtime->rendezvous->reset();
}
