//===- Denormals.h - steps run with subnormal floats flushed ----*- C++ -*-===//
//
// TensorFlow runs every kernel with subnormal floats flushed to zero: its
// executor and its thread pools' threads set the processor's flush-to-zero
// and denormals-are-zero modes (tsl's ScopedFlushDenormal). A result too
// small for a normal float is 0 there (sigmoid(-90.0f), 1e-30f * 1e-10f),
// and a subnormal operand is read as 0. tfc's steps run in the same modes,
// for the same results, and because x86 processors take a slow path for
// many operations on subnormals: on the 2-core AMD EPYC, the swish of
// values far below 0 (whose sigmoid's exp is subnormal) took 1.5 ns an
// element on one thread instead of 0.67, and such values are the rule in a
// deep model with random weights.
//
// A step's threads: the caller's (or the runtime's partition and queue
// runner threads), around each entry call; OpenMP's, around each parallel
// loop of the kernels (Parallel.h). oneDNN's primitives run on OpenMP's
// threads too, whose modes are those they were started with: a thread
// inherits its starter's, so the team a step's thread starts has them. An
// application that started its OpenMP threads before calling a library's
// step runs oneDNN's primitives in its own modes (only subnormal results
// differ, and the speed).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_DENORMALS_H
#define TFC_RUNTIME_DENORMALS_H

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace tfc {

/// Sets flush-to-zero and denormals-are-zero on this thread while it
/// lives; restores the thread's modes as they were after.
class FlushDenormals {
public:
#if defined(__x86_64__) || defined(__i386__)
  FlushDenormals() : saved(_mm_getcsr()) {
    if ((saved & kModes) != kModes)
      _mm_setcsr(saved | kModes);
  }
  ~FlushDenormals() {
    if ((saved & kModes) != kModes)
      _mm_setcsr(saved);
  }

private:
  /// MXCSR's FTZ (bit 15) and DAZ (bit 6).
  static constexpr uint32_t kModes = 0x8040;
  uint32_t saved;
#elif defined(__aarch64__)
  FlushDenormals() {
    __asm__ volatile("mrs %0, fpcr" : "=r"(saved));
    if (!(saved & kFlushToZero))
      __asm__ volatile("msr fpcr, %0" : : "r"(saved | kFlushToZero));
  }
  ~FlushDenormals() {
    if (!(saved & kFlushToZero))
      __asm__ volatile("msr fpcr, %0" : : "r"(saved));
  }

private:
  /// FPCR's FZ (bit 24): subnormal operands and results are zeros.
  static constexpr uint64_t kFlushToZero = uint64_t(1) << 24;
  uint64_t saved;
#else
public:
  FlushDenormals() = default;
#endif
  FlushDenormals(const FlushDenormals &) = delete;
  FlushDenormals &operator=(const FlushDenormals &) = delete;
};

} // namespace tfc

#endif // TFC_RUNTIME_DENORMALS_H
