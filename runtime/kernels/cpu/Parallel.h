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
#include <cstdint>
#include <omp.h>

// Eigen's cost model sizes the loops (and the kernels use Eigen's vector
// math); its thread pool is not used.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#ifndef _OPENMP
#error "the kernels are compiled with -fopenmp"
#endif

namespace tfc {

/// Calls body(first, last) on consecutive ranges covering [0, n), in
/// parallel on as many of the runtime's threads as the work per element
/// (Eigen's cost model) makes worth waking; small loops run inline.
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
#pragma omp parallel num_threads(threads)
  {
    // In the step's floating-point modes, whatever this thread's are.
    FlushDenormals flush;
    int64_t part = omp_get_thread_num(), parts = omp_get_num_threads();
    int64_t first = n * part / parts, last = n * (part + 1) / parts;
    if (first < last)
      body(first, last);
  }
}

} // namespace tfc

#endif // TFC_RUNTIME_KERNELS_CPU_PARALLEL_H
