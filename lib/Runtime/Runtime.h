//===- Runtime.h - the runtime context, for kernels -------------*- C++ -*-===//
//
// The definition behind the opaque tfc_runtime of the C ABI, shared by the
// runtime and the kernel library (both inside tfc; never installed).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_RUNTIME_H
#define TFC_LIB_RUNTIME_RUNTIME_H

#include "Rendezvous.h"
#include "Stacks.h"
#include "TensorArrays.h"
#include "Strings.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <memory>

struct tfc_runtime {
  tfc_runtime(int threads, std::unique_ptr<tfc::Rendezvous> rendezvous)
      : threads(threads), rendezvous(std::move(rendezvous)),
        partitions(std::make_unique<tfc::PartitionRunner>()) {}

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
};

#endif // TFC_LIB_RUNTIME_RUNTIME_H
