//===- npy-compare.cpp - compare two .npy files within a tolerance --------===//
//
//   npy-compare GOT.npy WANT.npy [--rtol R] [--atol A]
//
// Exit 0 when dtypes and shapes agree and every element satisfies
// |got - want| <= atol + rtol * |want| (NaN equal to NaN; complex numbers
// part by part); prints the largest difference either way. For end-to-end tests, which must not need
// NumPy.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Npy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tfc::rt;

/// The i-th number of `a`: an element, or for complex arrays a part (the
/// real part of element i / 2 at even i, its imaginary part at odd i).
static double element(const NpyArray &a, int64_t i) {
  if (a.dtype == DType::Complex64 || a.dtype == DType::Complex128) {
    size_t part = dtypeSize(a.dtype) / 2;
    const uint8_t *p = a.data.data() + i * part;
    if (part == 4) { float v; std::memcpy(&v, p, 4); return v; }
    double v; std::memcpy(&v, p, 8); return v;
  }
  const uint8_t *p = a.data.data() + i * dtypeSize(a.dtype);
  switch (a.dtype) {
  case DType::Float32: { float v; std::memcpy(&v, p, 4); return v; }
  case DType::Float64: { double v; std::memcpy(&v, p, 8); return v; }
  case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); return double(v); }
  case DType::Int8: return double(int8_t(*p));
  case DType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::UInt16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::UInt32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::UInt64: { uint64_t v; std::memcpy(&v, p, 8); return double(v); }
  case DType::Bool:
  case DType::UInt8: return *p;
  default: return NAN;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: npy-compare GOT.npy WANT.npy [--rtol R] [--atol A]\n");
    return 2;
  }
  double rtol = 1e-5, atol = 1e-6;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rtol"))
      rtol = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--atol"))
      atol = std::atof(argv[i + 1]);
  }
  NpyArray got, want;
  std::string error;
  if (!readNpy(argv[1], got, error) || !readNpy(argv[2], want, error)) {
    std::fprintf(stderr, "npy-compare: %s\n", error.c_str());
    return 2;
  }
  if (got.dtype != want.dtype || got.shape != want.shape) {
    std::printf("MISMATCH: dtype or shape differ (%s vs %s)\n",
                dtypeName(got.dtype), dtypeName(want.dtype));
    return 1;
  }
  // Strings match byte for byte.
  if (got.dtype == DType::String) {
    int64_t bad = 0, first = -1;
    for (size_t i = 0; i < got.strings.size(); ++i)
      if (got.strings[i] != want.strings[i] && bad++ == 0)
        first = int64_t(i);
    std::printf("%s: %lld strings, %lld differ", bad ? "MISMATCH" : "MATCH",
                (long long)got.strings.size(), (long long)bad);
    if (bad)
      std::printf(" (first at %lld: '%s', want '%s')", (long long)first,
                  got.strings[first].c_str(), want.strings[first].c_str());
    std::printf("\n");
    return bad ? 1 : 0;
  }
  double worst = 0;
  int64_t bad = 0;
  bool complex = got.dtype == DType::Complex64 || got.dtype == DType::Complex128;
  for (int64_t i = 0; i < got.numElements() * (complex ? 2 : 1); ++i) {
    double g = element(got, i), w = element(want, i);
    if ((std::isnan(g) && std::isnan(w)) || g == w) // Infinities too.
      continue;
    double diff = std::fabs(g - w);
    if (std::isnan(diff))
      diff = INFINITY;
    worst = std::max(worst, diff);
    if (diff > atol + rtol * std::fabs(w))
      ++bad;
  }
  std::printf("%s: %lld elements, max abs diff %.3g, %lld outside rtol %g atol %g\n",
              bad ? "MISMATCH" : "MATCH", (long long)got.numElements(), worst,
              (long long)bad, rtol, atol);
  return bad ? 1 : 0;
}
