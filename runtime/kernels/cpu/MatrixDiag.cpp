//===- MatrixDiag.cpp - bands of diagonals of batched matrices -------------===//
//
// MatrixDiag*, MatrixDiagPart* and MatrixSetDiag* (and Diag, DiagPart)
// move the diagonals lower..upper of [batch, rows, cols] matrices to and
// from a [batch, upper - lower + 1, maxLength] array of diagonals, row
// upper - d holding diagonal d (d = col - row). A diagonal shorter than
// maxLength sits at the left or the right of its row (TensorFlow's align
// attribute: `align` bit 0 left-aligns the superdiagonals, bit 1 the
// subdiagonals; the main diagonal is left-aligned if either is), the rest
// of the row being `padding`. Elements are moved as bytes, so every type
// is served; a NULL padding is zeros.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cstring>

namespace {

enum Mode { Make = 0, Part = 1, Set = 2 };

struct Band {
  int64_t rows, cols, lower, upper, maxLength;
  bool leftSuper, leftSub;

  int64_t length(int64_t d) const {
    return std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d));
  }
  /// Where diagonal d's first element sits in its row of the array.
  int64_t offset(int64_t d) const {
    bool left = (d >= 0 && leftSuper) || (d <= 0 && leftSub);
    return left ? 0 : maxLength - length(d);
  }
};

} // namespace

extern "C" void tfc_cpu_matrix_diag(tfc_runtime *, int32_t mode, char *out,
                                    const char *matrix, const char *diagonals,
                                    const char *padding, int64_t batch,
                                    int64_t rows, int64_t cols, int64_t lower,
                                    int64_t upper, int64_t max_length,
                                    int64_t element_bytes, int64_t align) {
  const Band band{rows, cols, lower, upper, max_length, (align & 1) != 0,
                  (align & 2) != 0};
  const int64_t e = element_bytes;
  const int64_t matrixBytes = rows * cols * e;
  const int64_t arrayBytes = (upper - lower + 1) * max_length * e;
  char zero[16] = {};
  const char *pad = padding ? padding : zero;
  for (int64_t b = 0; b < batch; ++b) {
    const char *inMatrix = matrix ? matrix + b * matrixBytes : nullptr;
    const char *array = diagonals ? diagonals + b * arrayBytes : nullptr;
    if (mode == Part) {
      char *to = out + b * arrayBytes;
      for (int64_t d = upper; d >= lower; --d)
        for (int64_t j = 0; j < max_length; ++j, to += e) {
          int64_t i = j - band.offset(d);
          bool inside = i >= 0 && i < band.length(d);
          int64_t r = i + std::max<int64_t>(0, -d), c = i + std::max<int64_t>(0, d);
          std::memcpy(to, inside ? inMatrix + (r * cols + c) * e : pad, e);
        }
      continue;
    }
    char *to = out + b * matrixBytes;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c, to += e) {
        int64_t d = c - r;
        if (d >= lower && d <= upper) {
          int64_t j = std::min(r, c) + band.offset(d);
          std::memcpy(to, array + ((upper - d) * max_length + j) * e, e);
        } else {
          std::memcpy(to, mode == Set ? inMatrix + (r * cols + c) * e : pad, e);
        }
      }
  }
}
