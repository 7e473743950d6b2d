//===- Segments.cpp - segment reductions and their gradients ---------------===//
//
// The segment ops reduce rows of data into segments: row i (or, for the
// sparse ops, row indices[i]) goes to segment segment_ids[i]. The sorted
// ops (Segment*, SparseSegment*) need increasing ids and give a segment
// that no row reaches 0 (1 for products); the unsorted ones take ids in
// any order, drop negative ones, and leave an empty segment at the
// reduction's identity (the lowest float for a maximum, the highest for a
// minimum), as TensorFlow's CPU kernels do. Ids and indices are int32 or
// int64 (`idBytes`, `indexBytes`); one out of range stops the step with
// TensorFlow's message and the node's name.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using tfc::rt::failAt;
using tfc::rt::indexAt;

enum Kind { Sum = 0, Mean = 1, Max = 2, Min = 3, Prod = 4, SqrtN = 5 };

float identity(int32_t kind) {
  switch (kind) {
  case Max:
    return std::numeric_limits<float>::lowest();
  case Min:
    return std::numeric_limits<float>::max();
  case Prod:
    return 1.0f;
  default:
    return 0.0f;
  }
}

/// The segment of each of the `count` rows, checked: increasing when
/// `sorted`, within [0, segments) (negative ones dropped, as -1, when
/// not sorted).
std::vector<int64_t> segmentsOf(tfc_runtime *runtime, const void *ids,
                                const char *node, int64_t segments,
                                int64_t count, int64_t idBytes, bool sorted) {
  std::vector<int64_t> of(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t s = indexAt(ids, idBytes, i);
    if (sorted && i > 0 && s < of[i - 1])
      failAt(runtime, node, "segment ids are not increasing");
    if (s < 0 && !sorted) {
      of[i] = -1;
      continue;
    }
    if (s < 0 || s >= segments)
      failAt(runtime, node,
           "segment_ids[" + std::to_string(i) + "] = " + std::to_string(s) +
               " is out of range [0, " + std::to_string(segments) + ")");
    of[i] = s;
  }
  return of;
}

/// The data row of each of the `count` rows: indices[i], checked, or i.
int64_t rowOf(tfc_runtime *runtime, const void *indices, const char *node,
              int64_t i, int64_t dataRows, int64_t indexBytes) {
  if (!indices)
    return i;
  int64_t r = indexAt(indices, indexBytes, i);
  if (r < 0 || r >= dataRows)
    failAt(runtime, node,
         "indices[" + std::to_string(i) + "] == " + std::to_string(r) +
             " out of range [0, " + std::to_string(dataRows) + ")");
  return r;
}

} // namespace

extern "C" void tfc_cpu_segment_reduce_f32(
    tfc_runtime *runtime, int32_t kind, float *out, const float *data,
    const void *indices, const void *ids, const char *node, int64_t segments,
    int64_t rowSize, int64_t count, int64_t idBytes, int64_t indexBytes,
    int64_t dataRows, int64_t sorted) {
  std::vector<int64_t> of =
      segmentsOf(runtime, ids, node, segments, count, idBytes, sorted != 0);
  std::fill(out, out + segments * rowSize, identity(kind));
  std::vector<int64_t> rows(segments, 0);
  for (int64_t i = 0; i < count; ++i) {
    if (of[i] < 0)
      continue;
    const float *from =
        data + rowOf(runtime, indices, node, i, dataRows, indexBytes) * rowSize;
    float *to = out + of[i] * rowSize;
    ++rows[of[i]];
    for (int64_t k = 0; k < rowSize; ++k) {
      switch (kind) {
      case Max:
        to[k] = std::max(to[k], from[k]);
        break;
      case Min:
        to[k] = std::min(to[k], from[k]);
        break;
      case Prod:
        to[k] *= from[k];
        break;
      default:
        to[k] += from[k];
      }
    }
  }
  for (int64_t s = 0; s < segments; ++s) {
    float *row = out + s * rowSize;
    if (rows[s] == 0 && sorted)
      std::fill(row, row + rowSize, kind == Prod ? 1.0f : 0.0f);
    else if (rows[s] > 0 && (kind == Mean || kind == SqrtN)) {
      float divisor = kind == Mean ? float(rows[s]) : std::sqrt(float(rows[s]));
      for (int64_t k = 0; k < rowSize; ++k)
        row[k] /= divisor;
    }
  }
}

extern "C" void tfc_cpu_sparse_segment_grad_f32(
    tfc_runtime *runtime, int32_t kind, float *out, const float *grad,
    const void *indices, const void *ids, const char *node, int64_t outRows,
    int64_t rowSize, int64_t count, int64_t idBytes, int64_t indexBytes,
    int64_t segments) {
  std::vector<int64_t> of =
      segmentsOf(runtime, ids, node, segments, count, idBytes, false);
  std::vector<int64_t> rows(segments, 0);
  for (int64_t s : of)
    if (s >= 0)
      ++rows[s];
  std::fill(out, out + outRows * rowSize, 0.0f);
  for (int64_t i = 0; i < count; ++i) {
    if (of[i] < 0)
      failAt(runtime, node, "segment ids must be >= 0");
    float weight = kind == Mean    ? 1.0f / float(rows[of[i]])
                   : kind == SqrtN ? 1.0f / std::sqrt(float(rows[of[i]]))
                                   : 1.0f;
    const float *from = grad + of[i] * rowSize;
    float *to = out + rowOf(runtime, indices, node, i, outRows, indexBytes) * rowSize;
    for (int64_t k = 0; k < rowSize; ++k)
      to[k] += from[k] * weight;
  }
}
