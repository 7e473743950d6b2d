//===- Runtime.cpp - the runtime context and arenas -----------------------===//
//
// A tfc_runtime says how many threads the kernels' intra-op parallelism
// may use: OpenMP's, which oneDNN's primitives use too, so one team serves
// every kernel (runtime/kernels/cpu/Parallel.h).
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

/// A runtime as `options` say, with `queues` (null: its own).
static tfc_runtime *makeRuntime(const tfc_runtime_options *options,
                                std::shared_ptr<tfc::Queues> queues) {
  tfc_runtime_options defaults = {};
  if (!options)
    options = &defaults;
  int32_t threads = options->threads;
  if (threads <= 0)
    threads = static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<tfc::Rendezvous> rendezvous(
      options->create_rendezvous
          ? options->create_rendezvous(options->rendezvous_context)
          : tfc::makeLocalRendezvous().release());
  if (!rendezvous)
    return nullptr;
  auto *runtime = new tfc_runtime(threads, std::move(rendezvous), std::move(queues));
  if (options->summary_logdir)
    runtime->summary_logdir = options->summary_logdir;
  return runtime;
}

tfc_runtime *tfc_runtime_create(const tfc_runtime_options *options) {
  return makeRuntime(options, nullptr);
}

tfc_runtime *tfc_runtime_create_shared(const tfc_runtime_options *options,
                                       tfc_runtime *shared) {
  tfc_runtime *runtime =
      makeRuntime(options, shared ? shared->sharedQueues : nullptr);
  if (runtime)
    runtime->queues.serveOtherTasks();
  return runtime;
}

void tfc_runtime_destroy(tfc_runtime *runtime) { delete runtime; }

int32_t tfc_runtime_threads(const tfc_runtime *runtime) {
  return runtime->threads;
}

void *tfc_arena_alloc(int64_t bytes, int64_t alignment) {
  if (bytes < 0 || alignment <= 0 || (alignment & (alignment - 1)) != 0)
    return nullptr;
  // aligned_alloc needs a size that is a multiple of the alignment, and
  // some size for an empty arena.
  size_t size = static_cast<size_t>(bytes == 0 ? alignment : bytes);
  size = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(static_cast<size_t>(alignment), size);
}

void tfc_arena_free(void *arena) { std::free(arena); }

void tfc_fail(tfc_runtime *, const char *message) {
  // Other threads may be inside kernels: end the process without running
  // destructors under them. Checkpoints are renamed into place whole, so
  // nothing on disk is left half-written.
  std::fprintf(stderr, "error: %s\n", message);
  std::fflush(stderr);
  std::_Exit(1);
}

void tfc::rt::failAt(tfc_runtime *runtime, const std::string &who,
                     const std::string &what) {
  tfc_fail(runtime, (who + ": " + what).c_str());
  __builtin_unreachable(); // tfc_fail ends the process.
}

void tfc::rt::failIndexOutOfRange(tfc_runtime *runtime, const std::string &who,
                                  int64_t i, int64_t index, int64_t limit) {
  failAt(runtime, who,
         "indices[" + std::to_string(i) + "] = " + std::to_string(index) +
             " is not in [0, " + std::to_string(limit) + ")");
}

void tfc_check_indices(tfc_runtime *runtime, const void *indices,
                       const char *node, int64_t count, int64_t index_bytes,
                       int64_t limit) {
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = tfc::rt::indexAt(indices, index_bytes, i);
    if (index < 0 || index >= limit)
      tfc::rt::failIndexOutOfRange(runtime, node, i, index, limit);
  }
}

void tfc_check_slice_index(tfc_runtime *runtime, const void *begin,
                           const char *node, int64_t entry,
                           int64_t index_bytes, int64_t dim, int64_t size) {
  int64_t index = tfc::rt::indexAt(begin, index_bytes, entry);
  if (index < -size || index >= size)
    tfc::rt::failAt(runtime, node,
                    "slice index " + std::to_string(index) + " of dimension " +
                        std::to_string(dim) + " out of bounds.");
}

void tfc_check_numerics(tfc_runtime *runtime, const void *data,
                        const char *message, int64_t count, int64_t dtype) {
  // By the bits, so that half and bfloat16 need no conversion: an exponent
  // of all ones is an infinity (no mantissa) or a NaN.
  auto classify = [&](auto bits, auto exponentMask, auto mantissaMask) {
    using Bits = decltype(bits);
    bool nan = false, inf = false;
    const Bits *values = static_cast<const Bits *>(data);
    for (int64_t i = 0; i < count; ++i) {
      if ((values[i] & exponentMask) != exponentMask)
        continue;
      ((values[i] & mantissaMask) ? nan : inf) = true;
    }
    return std::make_pair(nan, inf);
  };
  std::pair<bool, bool> found;
  if (dtype == TFC_DOUBLE)
    found = classify(uint64_t(), 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull);
  else if (dtype == TFC_FLOAT)
    found = classify(uint32_t(), 0x7F800000u, 0x007FFFFFu);
  else if (dtype == TFC_HALF)
    found = classify(uint16_t(), uint16_t(0x7C00), uint16_t(0x03FF));
  else
    found = classify(uint16_t(), uint16_t(0x7F80), uint16_t(0x007F));
  auto [nan, inf] = found;
  if (!nan && !inf)
    return;
  std::string text = std::string(message) + " : Tensor had " +
                     (nan && inf ? "Inf and NaN" : inf ? "Inf" : "NaN") +
                     " values";
  tfc_fail(runtime, text.c_str());
}

void tfc_check_index_tuples(tfc_runtime *runtime, const void *indices,
                            const char *node, const int64_t *limits,
                            int64_t count, int64_t depth, int64_t index_bytes,
                            int64_t limits_rank) {
  auto at = [&](int64_t i) { return tfc::rt::indexAt(indices, index_bytes, i); };
  for (int64_t i = 0; i < count; ++i) {
    bool inside = true;
    for (int64_t j = 0; j < depth; ++j)
      inside &= at(i * depth + j) >= 0 && at(i * depth + j) < limits[j];
    if (inside)
      continue;
    std::string tuple, shape;
    for (int64_t j = 0; j < depth; ++j)
      tuple += (j ? ", " : "") + std::to_string(at(i * depth + j));
    for (int64_t j = 0; j < limits_rank; ++j)
      shape += (j ? "," : "") + std::to_string(limits[j]);
    tfc::rt::failAt(runtime, node,
                    "indices[" + std::to_string(i) + "] = [" + tuple +
                        "] does not index into param shape [" + shape + "]");
  }
}

void tfc_check_initialized(tfc_runtime *runtime, const uint8_t *flag,
                           const char *name) {
  if (!*flag)
    tfc_fail(runtime, (std::string("reading variable '") + name +
                       "' before it is initialized (run the init entry, "
                       "or restore a checkpoint)")
                          .c_str());
}

namespace {

/// The variables' locks, striped by buffer address: a fixed table shared by
/// every runtime of the process, so executions with runtimes of their own
/// (a parameter server's, one per worker it serves) exclude each other. Two
/// variables sharing a stripe only wait for each other; since an update
/// holds one lock at a time, no order among stripes can deadlock.
constexpr size_t kVariableLockStripes = 64;
std::mutex variableLocks[kVariableLockStripes];

std::mutex &variableLock(const void *variable) {
  // Buffers are aligned: drop the low bits before spreading the rest.
  uint64_t bits = reinterpret_cast<uintptr_t>(variable) >> 6;
  bits *= 0x9e3779b97f4a7c15ull;
  return variableLocks[bits >> 58];
}

} // namespace

void tfc_variable_lock(tfc_runtime *, void *variable) {
  variableLock(variable).lock();
}

void tfc_variable_unlock(tfc_runtime *, void *variable) {
  variableLock(variable).unlock();
}
