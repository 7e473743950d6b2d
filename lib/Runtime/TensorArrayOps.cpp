//===- TensorArrayOps.cpp - TensorArrayV3 and its ops ---------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace {

[[noreturn]] void failAt(tfc_runtime *runtime, const char *node,
                         const std::string &what) {
  tfc_fail(runtime, (std::string("node '") + node + "': " + what).c_str());
  __builtin_unreachable();
}

/// The element `index` of `array`, or the step stops naming `node`.
char *element(tfc_runtime *runtime, tfc::TensorArray &array, int64_t index,
              int64_t rowBytes, const char *node) {
  if (index < 0 || index >= array.size)
    failAt(runtime, node,
           "index " + std::to_string(index) + " is outside the TensorArray of " +
               std::to_string(array.size) + " elements");
  return array.bytes.data() + index * rowBytes;
}

/// Index i of a write or read: `indices[i]`, or i itself without indices
/// (a split or concat covers the elements in order).
int64_t indexAt(const int32_t *indices, int64_t i) {
  return indices ? indices[i] : i;
}

} // namespace

extern "C" {

void tfc_tensor_array_init(tfc_runtime *runtime, int64_t slot, int64_t size,
                           int64_t row_bytes, int64_t length) {
  tfc::TensorArray &array = runtime->tensor_arrays.array(slot);
  array.size = size;
  array.length = length;
  array.bytes.assign(size * row_bytes, 0);
  ++array.generation;
}

void tfc_tensor_array_grad(tfc_runtime *runtime, int64_t slot,
                           int64_t forward_slot, int64_t row_bytes) {
  tfc::TensorArray &forward = runtime->tensor_arrays.array(forward_slot);
  tfc::TensorArray &grad = runtime->tensor_arrays.array(slot);
  if (grad.generation == forward.generation && grad.size == forward.size)
    return; // Made earlier in this step: shared.
  grad.size = forward.size;
  grad.length = forward.size;
  grad.bytes.assign(forward.size * row_bytes, 0);
  grad.generation = forward.generation;
}

void tfc_tensor_array_write(tfc_runtime *runtime, const int32_t *indices,
                            const void *rows, const char *node, int64_t slot,
                            int64_t count, int64_t row_bytes,
                            int64_t aggregate) {
  tfc::TensorArray &array = runtime->tensor_arrays.array(slot);
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = indexAt(indices, i);
    char *to = element(runtime, array, index, row_bytes, node);
    array.length = std::max(array.length, index + 1);
    const char *from = static_cast<const char *>(rows) + i * row_bytes;
    if (!aggregate) {
      std::memcpy(to, from, row_bytes);
      continue;
    }
    // Gradient arrays add up float32 rows.
    float *sum = reinterpret_cast<float *>(to);
    const float *add = reinterpret_cast<const float *>(from);
    for (int64_t k = 0; k < row_bytes / 4; ++k)
      sum[k] += add[k];
  }
}

void tfc_tensor_array_read(tfc_runtime *runtime, const int32_t *indices,
                           void *rows, const char *node, int64_t slot,
                           int64_t count, int64_t row_bytes,
                           int64_t skip_negative) {
  tfc::TensorArray &array = runtime->tensor_arrays.array(slot);
  for (int64_t i = 0; i < count; ++i) {
    char *to = static_cast<char *>(rows) + i * row_bytes;
    int64_t index = indexAt(indices, i);
    if (skip_negative && index < 0) {
      std::memset(to, 0, row_bytes); // (Padding rows.)
      continue;
    }
    // (Past the length of an array of dynamic size, as TensorFlow says.)
    if (index >= array.length && index < array.size)
      failAt(runtime, node,
             "Tried to read from index " + std::to_string(index) +
                 " but array size is: " + std::to_string(array.length));
    std::memcpy(to, element(runtime, array, index, row_bytes, node),
                row_bytes);
  }
}

void tfc_tensor_array_size(tfc_runtime *runtime, int32_t *out, int64_t slot) {
  *out = int32_t(runtime->tensor_arrays.array(slot).length);
}

} // extern "C"
