//===- Attention.h - scores, softmax and context in one pass ----*- C++ -*-===//
//
// tfc_cpu_attention_f32 (tfc_runtime.h) with its one choice that depends
// on the processor made a parameter, so that tests run both ways on any
// host.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_ATTENTION_H
#define TFC_RUNTIME_KERNELS_CPU_ATTENTION_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>

namespace tfc::attention {

/// Whether rows that interleave with other heads' (Keras' layout: a
/// head's Q and context rows are each one head's floats of a token's
/// row, so 32 floats every kilobyte) are best read and written where
/// they are, rather than copied through the thread's buffers in memory
/// order. Measured at batch 32 (32 x 8 heads x 128 tokens, heads 32
/// wide): on the Intel host reading in place was part of a change that
/// took the kernel from 3.71 to 2.79 ms; on Zen 4 the copies are faster
/// (4.3-4.4 ms against 4.9-5.8 in place). This processor's answer.
bool interleavedRowsInPlacePay();

/// The kernel, reading Q and writing the context in place where their
/// rows are contiguous and either dense (a row follows the one before)
/// or interleaved and `interleavedInPlace` says so.
void run(tfc_runtime *runtime, const float *q, const float *k, const float *v,
         const float *scale, float *out, const int64_t *scoresDescriptor,
         const int64_t *contextDescriptor, bool interleavedInPlace);

} // namespace tfc::attention

#endif // TFC_RUNTIME_KERNELS_CPU_ATTENTION_H
