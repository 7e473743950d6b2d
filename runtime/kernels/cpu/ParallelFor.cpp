//===- ParallelFor.cpp - generated loops on the runtime's threads ---------===//
//
// The entry point through which generated code splits a loop (see
// tfc-parallelize-loops): the outlined loop body runs on the OpenMP team
// every kernel uses (Parallel.h), sized by Eigen's cost model as theirs.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

extern "C" void tfc_parallel_for(tfc_runtime *runtime,
                                 void (*body)(void *, int64_t, int64_t),
                                 void *captures, int64_t n,
                                 double bytes_loaded, double bytes_stored,
                                 double cycles) {
  tfc::parallelFor(runtime, n,
                   Eigen::TensorOpCost(bytes_loaded, bytes_stored, cycles),
                   [&](int64_t begin, int64_t end) {
                     body(captures, begin, end);
                   });
}
