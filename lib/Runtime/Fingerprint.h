//===- Fingerprint.h - TensorFlow's 64-bit string fingerprint ---*- C++ -*-===//

#ifndef TFC_LIB_RUNTIME_FINGERPRINT_H
#define TFC_LIB_RUNTIME_FINGERPRINT_H

#include <cstddef>
#include <cstdint>

namespace tfc::rt {

/// TensorFlow's Fingerprint64: FarmHash's 64-bit fingerprint (its "na"
/// hash, stable across platforms and releases), which StringToHashBucketFast
/// and feature columns' hashed buckets take modulo the bucket count.
uint64_t fingerprint64(const char *data, size_t size);

} // namespace tfc::rt

#endif // TFC_LIB_RUNTIME_FINGERPRINT_H
