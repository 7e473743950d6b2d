//===- Runtime.h - the runtime context, for kernels -------------*- C++ -*-===//
//
// The definition behind the opaque tfc_runtime of the C ABI, shared by the
// runtime and the kernel library (both inside tfc; never installed).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_RUNTIME_H
#define TFC_LIB_RUNTIME_RUNTIME_H

#include "Queues.h"
#include "Rendezvous.h"
#include "Stacks.h"
#include "SummaryWriters.h"
#include "TensorArrays.h"
#include "Strings.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

struct tfc_runtime {
  /// `sharedQueues`: another runtime's (tfc_runtime_create_shared), or
  /// null for queues of its own.
  tfc_runtime(int threads, std::unique_ptr<tfc::Rendezvous> rendezvous,
              std::shared_ptr<tfc::Queues> sharedQueues = nullptr)
      : threads(threads), rendezvous(std::move(rendezvous)),
        partitions(std::make_unique<tfc::PartitionRunner>()),
        sharedQueues(sharedQueues ? std::move(sharedQueues)
                                  : std::make_shared<tfc::Queues>()),
        queues(*this->sharedQueues) {}

  /// How many threads a kernel's parallel loops and oneDNN's primitives
  /// may use (OpenMP's, see runtime/kernels/cpu/Parallel.h).
  int threads;
  /// Where the partitions of a step exchange tensors.
  std::unique_ptr<tfc::Rendezvous> rendezvous;
  /// The threads that run a multi-device step's partitions.
  std::unique_ptr<tfc::PartitionRunner> partitions;
  tfc::StringPool strings;
  tfc::Stacks stacks;
  tfc::TensorArrays tensor_arrays;
  /// The queues and accumulators, which the runtimes of one task that
  /// serves several clients share.
  std::shared_ptr<tfc::Queues> sharedQueues;
  tfc::Queues &queues;
  /// The queue runners' threads, while they run (QueueRunners.cpp).
  std::unique_ptr<tfc::QueueRunners> queue_runners;
  /// The chief's, which stop first (tfc_chief_queue_runners_stop).
  std::unique_ptr<tfc::QueueRunners> chief_queue_runners;
  /// TF2's summary writers, and the directory they write under (a
  /// program's --logdir; empty: where their graph says).
  tfc::SummaryWriters summary_writers;
  std::string summary_logdir;
  /// Set while the client whose steps this runtime runs is lost
  /// (tfc_runtime_abandon_waits).
  std::atomic<bool> abandoned{false};
};

namespace tfc::rt {

/// Index i of `indices`, signed integers of `indexBytes` bytes (4 or 8):
/// the index tensors of gathers and scatters.
inline int64_t indexAt(const void *indices, int64_t indexBytes, int64_t i) {
  return indexBytes == 8 ? static_cast<const int64_t *>(indices)[i]
                         : static_cast<const int32_t *>(indices)[i];
}

/// Stops the step with "WHO: WHAT", `who` naming the node: the form of
/// every error of a kernel.
[[noreturn]] void failAt(tfc_runtime *runtime, const std::string &who,
                         const std::string &what);

/// Arms the end of the run of steps that tfc_run_until_end_of_input armed
/// on this thread, `message` saying why; false when nothing armed one.
/// After it, jumpToEndOfInput from a frame that owns nothing.
bool endInputRun(const std::string &message);
[[noreturn]] void jumpToEndOfInput();

/// Stops the step as TensorFlow's kernels do for an index out of range:
/// "WHO: indices[I] = INDEX is not in [0, LIMIT)".
void failIndexOutOfRange(tfc_runtime *runtime, const std::string &who,
                         int64_t i, int64_t index, int64_t limit);

} // namespace tfc::rt

#endif // TFC_LIB_RUNTIME_RUNTIME_H
