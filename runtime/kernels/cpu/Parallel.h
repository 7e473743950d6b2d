//===- Parallel.h - the kernels' parallel loops ------------------*- C++ -*-===//
//
// Every parallel loop of the kernels runs on OpenMP's threads: the threads
// oneDNN's primitives (convolutions, large matrix products) run on too, so
// that one team of the runtime's size serves every kernel. With a second
// pool beside it, each pool's idle threads spin on the cores while the
// other's work: libgomp's threads spin for milliseconds after each
// primitive by default, which halved the speed of the batch norm and
// pooling kernels that followed a convolution on two cores.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_PARALLEL_H
#define TFC_RUNTIME_KERNELS_CPU_PARALLEL_H

#include "tfc/Runtime/Denormals.h"
#include "Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <omp.h>

// Eigen's cost model sizes the loops (and the kernels use Eigen's vector
// math); its thread pool is not used.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#ifndef _OPENMP
#error "the kernels are compiled with -fopenmp"
#endif

namespace tfc {

/// Chunks each thread's share of a parallel loop is taken in: what a
/// thread done early may take over from a slower one.
constexpr int64_t kChunksPerShare = 8;

/// Calls body(first, last) on consecutive ranges covering [0, n), in
/// parallel on as many of the runtime's threads as the work per element
/// (Eigen's cost model) makes worth waking; small loops run inline.
///
/// Each thread owns a contiguous share of [0, n), as a static split would
/// give it, so that consecutive kernels find the parts of a tensor they
/// read in the cache of the core that wrote them. It takes its share in
/// chunks, front to back, and once done takes the chunks of the other
/// threads' shares that they have not begun. A static split waits at its
/// end for the slowest thread: on a virtual machine one core can run at
/// two thirds of the other's speed for seconds at a time (its neighbours'
/// work), and each loop would take as long as that core's share.
template <typename Body>
void parallelFor(tfc_runtime *runtime, int64_t n,
                 const Eigen::TensorOpCost &cost, Body &&body) {
  if (n <= 0)
    return;
  int64_t threads = Eigen::TensorCostModel<Eigen::ThreadPoolDevice>::numThreads(
      double(n), cost, runtime->threads);
  threads = std::min(threads, n);
  if (threads <= 1) {
    body(int64_t(0), n);
    return;
  }
  // The next chunk of each share, a cache line apart; on the stack for
  // the teams of up to 16 threads that all but large machines run.
  struct alignas(64) Cursor {
    std::atomic<int64_t> next{0};
  };
  Cursor onStack[16];
  std::unique_ptr<Cursor[]> onHeap;
  Cursor *cursors = onStack;
  if (threads > 16) {
    onHeap.reset(new Cursor[threads]);
    cursors = onHeap.get();
  }
#pragma omp parallel num_threads(threads)
  {
    // In the step's floating-point modes, whatever this thread's are.
    FlushDenormals flush;
    int64_t self = omp_get_thread_num(), parts = omp_get_num_threads();
    for (int64_t k = 0; k < parts; ++k) {
      int64_t part = (self + k) % parts;
      int64_t first = n * part / parts, last = n * (part + 1) / parts;
      int64_t chunks = std::min(kChunksPerShare, last - first);
      for (int64_t c =
               cursors[part].next.fetch_add(1, std::memory_order_relaxed);
           c < chunks;
           c = cursors[part].next.fetch_add(1, std::memory_order_relaxed))
        body(first + (last - first) * c / chunks,
             first + (last - first) * (c + 1) / chunks);
    }
  }
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_PARALLEL_H
