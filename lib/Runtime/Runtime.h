//===- Runtime.h - the runtime context, for kernels -------------*- C++ -*-===//
//
// The definition behind the opaque tfc_runtime of the C ABI, shared by the
// runtime and the kernel library (both inside tfc; never installed).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_RUNTIME_H
#define TFC_LIB_RUNTIME_RUNTIME_H

#include "Rendezvous.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace tfc {

/// The strings steps make (tfc_string_new), freed together between steps.
/// Partitions of a step run concurrently, hence the lock.
class StringPool {
public:
  const void *make(const char *data, int64_t size) {
    auto block = std::make_unique<char[]>(sizeof(int64_t) + size + 1);
    std::memcpy(block.get(), &size, sizeof size);
    if (size)
      std::memcpy(block.get() + sizeof size, data, size);
    block[sizeof size + size] = 0;
    std::lock_guard<std::mutex> lock(mutex);
    blocks.push_back(std::move(block));
    return blocks.back().get();
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    blocks.clear();
  }

private:
  std::mutex mutex;
  std::vector<std::unique_ptr<char[]>> blocks;
};

/// The text of a string handle (see tfc_runtime.h).
inline std::string stringOf(uint64_t handle) {
  const char *object = reinterpret_cast<const char *>(handle);
  int64_t size;
  std::memcpy(&size, object, sizeof size);
  return std::string(object + sizeof size, size);
}

} // namespace tfc

struct tfc_runtime {
  explicit tfc_runtime(int threads)
      : threads(threads), pool(threads), device(&pool, threads),
        rendezvous(std::make_unique<tfc::LocalRendezvous>()),
        partitions(std::make_unique<tfc::PartitionRunner>()) {}

  int threads;
  Eigen::ThreadPool pool;
  Eigen::ThreadPoolDevice device;
  /// Where the partitions of a step exchange tensors.
  std::unique_ptr<tfc::Rendezvous> rendezvous;
  /// The threads that run a multi-device step's partitions.
  std::unique_ptr<tfc::PartitionRunner> partitions;
  tfc::StringPool strings;
};

#endif // TFC_LIB_RUNTIME_RUNTIME_H
