//===- DynamicPartition.cpp - rows to partitions, and stitched back -------===//
//
// DynamicPartition(data, partitions, num_partitions): partitions has the
// shape of data's first dimensions, and each of data's slices there (a
// row of `row_bytes`) goes, in order, to the output its partition names.
// How many rows each output gets only the data decides: tfc plans each
// for every row (tfc-bound-dynamic-rows counts them in the graph) and
// fills the rest with zeros. A partition outside [0, num_partitions) stops
// the step with TensorFlow's words.
//
// DynamicStitch(indices, data): each data row to the output row its index
// names, later inputs over earlier ones; rows no index names are zeros.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" void tfc_cpu_dynamic_partition(
    tfc_runtime *runtime, const void *data, const int32_t *partitions,
    void *const *outputs, const int64_t *dims, const char *node, int64_t rank,
    int64_t rows, int64_t row_bytes, int64_t num_partitions) {
  std::vector<int64_t> filled(static_cast<size_t>(num_partitions), 0);
  const char *from = static_cast<const char *>(data);
  for (int64_t i = 0; i < rows; ++i) {
    int32_t p = partitions[i];
    if (p < 0 || p >= num_partitions) {
      // TensorFlow names the element by its coordinates.
      std::vector<int64_t> at(static_cast<size_t>(rank));
      for (int64_t d = rank - 1, rest = i; d >= 0; --d) {
        at[size_t(d)] = rest % dims[d];
        rest /= dims[d];
      }
      std::string where = "partitions[";
      for (int64_t d = 0; d < rank; ++d)
        where += (d ? "," : "") + std::to_string(at[size_t(d)]);
      tfc::rt::failAt(runtime, node,
                      where + "] = " + std::to_string(p) + " is not in [0, " +
                          std::to_string(num_partitions) + ")");
    }
    char *to = static_cast<char *>(outputs[p]);
    std::memcpy(to + filled[size_t(p)]++ * row_bytes, from + i * row_bytes,
                size_t(row_bytes));
  }
  for (int64_t p = 0; p < num_partitions; ++p)
    std::memset(static_cast<char *>(outputs[p]) + filled[size_t(p)] * row_bytes,
                0, size_t((rows - filled[size_t(p)]) * row_bytes));
}

extern "C" void tfc_cpu_dynamic_stitch(
    tfc_runtime *runtime, const int64_t *indices, const int64_t *data,
    void *out, const int64_t *counts, const char *node, int64_t inputs,
    int64_t rows, int64_t row_bytes, int64_t skip_negative) {
  char *to = static_cast<char *>(out);
  std::memset(to, 0, size_t(rows * row_bytes));
  for (int64_t i = 0; i < inputs; ++i) {
    const int32_t *index = reinterpret_cast<const int32_t *>(indices[i]);
    const char *from = reinterpret_cast<const char *>(data[i]);
    for (int64_t j = 0; j < counts[i]; ++j) {
      int64_t row = index[j];
      if (row < 0 && skip_negative)
        continue;
      if (row < 0 || row >= rows)
        tfc::rt::failAt(runtime, node,
                        "indices[" + std::to_string(i) + "][" +
                            std::to_string(j) + "] = " + std::to_string(row) +
                            " is not in [0, " + std::to_string(rows) + ")");
      std::memcpy(to + row * row_bytes, from + j * row_bytes, size_t(row_bytes));
    }
  }
}
