//===- Processor.h - which processor the kernels run on ---------*- C++ -*-===//
//
// The few kernel rules that follow measurements on one maker's or one
// generation's processors (Winograd's thresholds, attention's copies) ask
// here, so that the processor is read one way: the compiler's CPU
// builtins, which read cpuid once per process.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_KERNELS_CPU_PROCESSOR_H
#define TFC_RUNTIME_KERNELS_CPU_PROCESSOR_H

namespace tfc::processor {

#if defined(__x86_64__) || defined(__i386__)
constexpr bool kX86 = true;

inline bool isIntel() {
  static const bool intel = __builtin_cpu_is("intel");
  return intel;
}

inline bool isAmd() {
  static const bool amd = __builtin_cpu_is("amd");
  return amd;
}

/// AMD's Zen 4: family 0x19 is Zen 3's and Zen 4's, and of those only
/// Zen 4 has AVX-512 (its 512-bit FMAs issue as two 256-bit halves).
inline bool isZen4() {
  static const bool zen4 =
      __builtin_cpu_is("amdfam19h") && __builtin_cpu_supports("avx512f");
  return zen4;
}
#else
constexpr bool kX86 = false;
inline bool isIntel() { return false; }
inline bool isAmd() { return false; }
inline bool isZen4() { return false; }
#endif

} // namespace tfc::processor

#endif // TFC_RUNTIME_KERNELS_CPU_PROCESSOR_H
