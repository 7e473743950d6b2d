//===- Attention.cpp - scores, softmax and context in one pass -----------===//
//
// Attention as a transformer computes it: scores = Q Kᵀ (one strided
// batched product), scaled, a softmax over each row of scores, and
// context = softmax V (a second product). Unfused, the score matrix of
// every head (batch 32 x 8 heads x 128 x 128 floats: 16 MB) is written by
// the first product, read and written by the scaling and the softmax, and
// read by the second. Here each thread takes a few heads (the batches of
// the products) at a time: it packs their K (transposed) and V in memory
// order, then for each block of rows of one head computes the scaled
// scores with a register-blocked kernel into a buffer that stays in its
// cache, finds each row's largest while its scores are still in L1,
// takes the softmax's exponentials of each row in place, and multiplies the
// block by V. Q's rows are read where they are, and the context's rows
// written there, when their values are contiguous and, where they
// interleave with other heads' rows, the processor is one on which that
// was measured to pay (Attention.h).
//
// The softmax is TensorFlow's CPU kernel's: subtract the row's maximum,
// exponentiate (VectorMath.h's exp), and scale by the inverse of the sum;
// that last scaling is applied to the row's context instead of to its
// weights (width values instead of n), as the context goes out.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"
#include "NativeVector.h"
#include "Parallel.h"
#include "Processor.h"
#include "RegisterTile.h"
#include "Runtime.h"
#include "StridedProduct.h"
#include "VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

using tfc::StridedProduct;

// One register of floats: sixteen with AVX-512, else eight (two SSE
// registers in the baseline build).
#if defined(__AVX512F__)
using Vec = tfc::Floats16;
constexpr int kMaxVectors = 4; // 4 x 4 accumulators of 32 registers.
inline Vec loadVec(const float *p) { return tfc::load16(p); }
inline void storeVec(float *p, Vec v) { tfc::store16(p, v); }
inline Vec splatVec(float x) { return tfc::splat16(x); }
#else
using Vec = tfc::vector_math::Floats8;
constexpr int kMaxVectors = 2; // 4 x 2 accumulators of 16 registers.
inline Vec loadVec(const float *p) { return tfc::vector_math::load8(p); }
inline void storeVec(float *p, Vec v) { tfc::vector_math::store8(p, v); }
inline Vec splatVec(float x) { return tfc::vector_math::splat8(x); }
#endif
constexpr int64_t kLanes = sizeof(Vec) / sizeof(float);
static_assert(kLanes == tfc::kNativeLanes, "rows are padded to native vectors");
constexpr int kMaxRows = 4;
/// Rows of scores a thread computes at a time: 64 x 128 scores are 32 KiB.
constexpr int64_t kBlockRows = 64;

/// out[i][c + j * kLanes ...] = sum_t left[i][t] * right[t][c + j * kLanes ...]
/// for R rows and J vectors of columns: left is [R][depth] with rows
/// `leftStride` apart, right [depth][...] with rows `rightStride` apart,
/// out rows `outStride` apart. The accumulators stay in registers; each
/// row's sums are multiplied by rowScales[i] on the way out where
/// rowScales is not null.
template <int R, int J>
void productBlock(const float *left, int64_t leftStride, const float *right,
                  int64_t rightStride, int64_t depth, float *out,
                  int64_t outStride, const float *rowScales) {
  tfc::registerTile<R, J>(
      left, leftStride, 1, right, rightStride, kLanes, depth,
      [](int, int) { return splatVec(0.f); },
      [&](int i, int j, Vec sum) {
        storeVec(out + i * outStride + j * kLanes,
                 rowScales ? sum * rowScales[i] : sum);
      });
}

template <int R>
void productRows(const float *left, int64_t leftStride, const float *right,
                 int64_t rightStride, int64_t depth, float *out,
                 int64_t outStride, int64_t vectors, const float *rowScales) {
  for (int64_t v = 0; v < vectors; v += kMaxVectors) {
    const float *r = right + v * kLanes;
    float *o = out + v * kLanes;
    switch (std::min<int64_t>(kMaxVectors, vectors - v)) {
    case 1: productBlock<R, 1>(left, leftStride, r, rightStride, depth, o, outStride, rowScales); break;
    case 2: productBlock<R, 2>(left, leftStride, r, rightStride, depth, o, outStride, rowScales); break;
#if defined(__AVX512F__)
    case 3: productBlock<R, 3>(left, leftStride, r, rightStride, depth, o, outStride, rowScales); break;
    case 4: productBlock<R, 4>(left, leftStride, r, rightStride, depth, o, outStride, rowScales); break;
#endif
    }
  }
}

/// out = left x right for `rows` rows: left [rows][depth] (rows
/// `leftStride` apart), right [depth][vectors * kLanes] (rows
/// `rightStride` apart), out [rows][vectors * kLanes] (`outStride`); row
/// r scaled by rowScales[r] where rowScales is not null.
void product(const float *left, int64_t leftStride, const float *right,
             int64_t rightStride, int64_t depth, float *out, int64_t outStride,
             int64_t rows, int64_t vectors, const float *rowScales) {
  int64_t r = 0;
  auto scalesFrom = [&](int64_t row) {
    return rowScales ? rowScales + row : nullptr;
  };
#if defined(__AVX512F__)
  // Two vectors of columns or fewer (the context of heads of 32 floats):
  // eight rows at a time, 16 accumulators, two loads and eight broadcasts
  // to 16 FMAs where four rows had six loads and broadcasts to 8 FMAs.
  if (vectors <= 2)
    for (; r + 8 <= rows; r += 8)
      productRows<8>(left + r * leftStride, leftStride, right, rightStride,
                     depth, out + r * outStride, outStride, vectors,
                     scalesFrom(r));
#endif
  for (; r < rows; r += kMaxRows) {
    const float *l = left + r * leftStride;
    float *o = out + r * outStride;
    const float *scales = scalesFrom(r);
    switch (std::min<int64_t>(kMaxRows, rows - r)) {
    case 1: productRows<1>(l, leftStride, right, rightStride, depth, o, outStride, vectors, scales); break;
    case 2: productRows<2>(l, leftStride, right, rightStride, depth, o, outStride, vectors, scales); break;
    case 3: productRows<3>(l, leftStride, right, rightStride, depth, o, outStride, vectors, scales); break;
    case 4: productRows<4>(l, leftStride, right, rightStride, depth, o, outStride, vectors, scales); break;
    }
  }
}

/// The largest of a vector's lanes and their sum, in halvings (lane by
/// lane, the sixteen took as long as a row's exponentials of 128 keys).
/// Shuffles, not copies through memory: a vector whose address is taken
/// stays in memory, and the exponentials' running sum with it.
template <typename Op> inline float combineLanes(Vec v, Op op) {
#if defined(__AVX512F__)
  auto half = op(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7),
                 __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15));
#else
  Vec half = v;
#endif
  auto quarter = op(__builtin_shufflevector(half, half, 0, 1, 2, 3),
                    __builtin_shufflevector(half, half, 4, 5, 6, 7));
  auto eighth = op(__builtin_shufflevector(quarter, quarter, 0, 1),
                   __builtin_shufflevector(quarter, quarter, 2, 3));
  return op(eighth[0], eighth[1]);
}
inline float largestLane(Vec v) {
  return combineLanes(v, tfc::vector_math::Max());
}
inline float sumOfLanes(Vec v) {
  return combineLanes(v, [](auto a, auto b) { return a + b; });
}

/// Scores of R rows, scaled: out = (left x keys) * factor for J vectors
/// of columns.
template <int R, int J>
void scoreBlock(const float *left, int64_t leftStride, const float *keys,
                int64_t keyColumns, int64_t depth, float *out, float factor) {
  tfc::registerTile<R, J>(
      left, leftStride, 1, keys, keyColumns, kLanes, depth,
      [](int, int) { return splatVec(0.f); },
      [&](int i, int j, Vec sum) {
        storeVec(out + i * keyColumns + j * kLanes, sum * factor);
      });
}

/// R rows of scaled scores, and each row's largest over its first `whole`
/// columns (those past the keys are padding) into rowMax[i]: read back
/// from L1 right after they are stored, where a pass over the block's
/// rows read them from L2. (Kept in registers as the scores left them,
/// the maxima made GCC spill the accumulators.)
template <int R>
void scoreRows(const float *left, int64_t leftStride, const float *keys,
               int64_t keyColumns, int64_t depth, float *out, float factor,
               int64_t whole, float *rowMax) {
  const int64_t vectors = keyColumns / kLanes;
  for (int64_t v = 0; v < vectors; v += kMaxVectors) {
    const float *k = keys + v * kLanes;
    float *o = out + v * kLanes;
    switch (std::min<int64_t>(kMaxVectors, vectors - v)) {
    case 1: scoreBlock<R, 1>(left, leftStride, k, keyColumns, depth, o, factor); break;
    case 2: scoreBlock<R, 2>(left, leftStride, k, keyColumns, depth, o, factor); break;
#if defined(__AVX512F__)
    case 3: scoreBlock<R, 3>(left, leftStride, k, keyColumns, depth, o, factor); break;
    case 4: scoreBlock<R, 4>(left, leftStride, k, keyColumns, depth, o, factor); break;
#endif
    }
  }
  tfc::vector_math::Max largest;
  for (int i = 0; i < R; ++i) {
    Vec max = splatVec(-INFINITY);
    for (int64_t c = 0; c < whole; c += kLanes)
      max = largest(max, loadVec(out + i * keyColumns + c));
    rowMax[i] = largestLane(max);
  }
}

/// Scores [rows][keyColumns] = (left x keys) * factor, left's rows
/// `leftStride` apart, and rowMax[r] the largest of row r's first
/// `whole` (a multiple of kLanes) columns.
void scores(const float *left, int64_t leftStride, const float *keys,
            int64_t keyColumns, int64_t depth, float *out, float factor,
            int64_t whole, int64_t rows, float *rowMax) {
  for (int64_t r = 0; r < rows; r += kMaxRows) {
    const float *l = left + r * leftStride;
    float *o = out + r * keyColumns;
    switch (std::min<int64_t>(kMaxRows, rows - r)) {
    case 1: scoreRows<1>(l, leftStride, keys, keyColumns, depth, o, factor, whole, rowMax + r); break;
    case 2: scoreRows<2>(l, leftStride, keys, keyColumns, depth, o, factor, whole, rowMax + r); break;
    case 3: scoreRows<3>(l, leftStride, keys, keyColumns, depth, o, factor, whole, rowMax + r); break;
    case 4: scoreRows<4>(l, leftStride, keys, keyColumns, depth, o, factor, whole, rowMax + r); break;
    }
  }
}

/// The softmax of a row of n scaled scores, but for its last step: with
/// `max` the largest of its first `whole` values, writes exp(x - max) in
/// place and returns the inverse of their sum, by which the row's context
/// is scaled (the same product, in another order, as scaling each weight
/// first). x - max is never positive, so exp needs neither its upper
/// clamp nor its test for NaN (a NaN stays NaN through every step).
float exponentials(float *x, int64_t n, int64_t whole, float max) {
  using tfc::vector_math::detail::expNonPositive;
  if (n == 0)
    return 0.f; // No keys: the context is an empty sum, zeros.
  tfc::vector_math::Max largest;
  for (int64_t c = whole; c < n; ++c)
    max = largest(max, x[c]);
  Vec partialSum = splatVec(0.f);
  for (int64_t c = 0; c < whole; c += kLanes) {
    Vec e = expNonPositive(loadVec(x + c) - max);
    storeVec(x + c, e);
    partialSum += e;
  }
  float sum = sumOfLanes(partialSum);
  for (int64_t c = whole; c < n; ++c) {
    x[c] = expNonPositive(x[c] - max);
    sum += x[c];
  }
  return 1.f / sum;
}

/// to[i] = from[i * stride] for i < count: in vectors where the stride is
/// 1 (the layouts of Keras' attention and of BatchMatMul). The copies of
/// rows of a head (32 floats) were a third of the kernel's time as loops
/// the compiler versioned by stride, and std::copy_n makes each a call of
/// memmove, which cost as much.
inline void copyRow(float *to, const float *from, int64_t count,
                    int64_t stride) {
  int64_t i = 0;
  if (stride == 1)
    for (; i + kLanes <= count; i += kLanes)
      storeVec(to + i, loadVec(from + i));
  for (; i < count; ++i)
    to[i] = from[i * stride];
}

/// to[i * stride] = from[i] * factor for i < count (vector code where the
/// stride is 1, as copyRow).
inline void scaleRowInto(float *to, int64_t stride, const float *from,
                         int64_t count, float factor) {
  if (stride == 1) {
    for (int64_t i = 0; i < count; ++i)
      to[i] = from[i] * factor;
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    to[i * stride] = from[i] * factor;
}

/// Kᵀ [depth][columns] from K's rows [n][depth] (contiguous, in the cache):
/// with AVX-512, sixteen keys of one depth gathered by one instruction
/// (the stores contiguous); a float at a time, that loop took a tenth of
/// the kernel's time.
inline void transposeKeys(const float *rows, int64_t n, int64_t depth,
                          float *keys, int64_t columns) {
  int64_t j0 = 0;
#if defined(__AVX512F__)
  const __m512i index =
      _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                           11, 12, 13, 14, 15),
                         _mm512_set1_epi32(int32_t(depth)));
  for (; j0 + kLanes <= n; j0 += kLanes)
    for (int64_t t = 0; t < depth; ++t)
      _mm512_storeu_ps(keys + t * columns + j0,
                       _mm512_i32gather_ps(index, rows + j0 * depth + t, 4));
#endif
  for (int64_t t = 0; t < depth; ++t)
    for (int64_t j = j0; j < n; ++j)
      keys[t * columns + j] = rows[j * depth + t];
}

/// One thread's buffers, reused from call to call.
struct Scratch {
  std::vector<float> keys, keyRows, values, queries, context, scores, inverses;
};

/// Bytes of packed operands a thread keeps for the batches it works on
/// together: about half of a core's L2 cache.
constexpr int64_t kGroupBytes = 512 * 1024;
constexpr int64_t kMaxGroup = 8;

} // namespace

bool tfc::attention::interleavedRowsInPlacePay() {
  return !tfc::processor::kX86 || tfc::processor::isIntel();
}

extern "C" void tfc_cpu_attention_f32(tfc_runtime *runtime, const float *q,
                                      const float *k, const float *v,
                                      const float *scale, float *out,
                                      const int64_t *scores_descriptor,
                                      const int64_t *context_descriptor) {
  tfc::attention::run(runtime, q, k, v, scale, out, scores_descriptor,
                      context_descriptor,
                      tfc::attention::interleavedRowsInPlacePay());
}

void tfc::attention::run(tfc_runtime *runtime, const float *q, const float *k,
                         const float *v, const float *scale, float *out,
                         const int64_t *scoresDescriptor,
                         const int64_t *contextDescriptor,
                         bool interleavedInPlace) {
  StridedProduct s(scoresDescriptor), c(contextDescriptor);
  // Scores [m, n] = Q [m, depth] x Kᵀ [depth, n]; context [m, width] =
  // softmax(scores) [m, n] x V [n, width].
  const int64_t m = s.m, n = s.n, depth = s.k, width = c.n;
  const int64_t keyColumns = tfc::roundUpToVectors(n), valueColumns = tfc::roundUpToVectors(width);
  const float factor = scale ? *scale : 1.f;
  const int64_t batches = s.batches();
  const int64_t blocks = (m + kBlockRows - 1) / kBlockRows;
  // Q's rows are read in place where each row's values are contiguous (a
  // block's product reads four rows at a time, a few lines of L1), and
  // the context's written in place where they are and fill whole
  // vectors, if the rows are dense or the processor handles interleaved
  // ones well (interleavedRowsInPlacePay): on the Intel host both copies
  // took a fifth of the kernel's time in Keras' layout.
  const bool queriesInPlace =
      s.aK == 1 && (s.aM == depth || m == 1 || interleavedInPlace);
  const bool contextInPlace = c.cN == 1 && width % kLanes == 0 &&
                              (c.cM == width || m == 1 || interleavedInPlace);
  // Per batch: Kᵀ [depth][keyColumns], V [n][valueColumns], and where
  // they are packed, Q [m][depth] and the context [m][valueColumns].
  const int64_t keysSize = depth * keyColumns, valuesSize = n * valueColumns,
                queriesSize = queriesInPlace ? 0 : m * depth,
                contextSize = contextInPlace ? 0 : m * valueColumns;
  const int64_t perBatch =
      4 * (keysSize + valuesSize + queriesSize + contextSize);
  const int64_t group =
      std::clamp<int64_t>(kGroupBytes / std::max<int64_t>(perBatch, 1), 1, kMaxGroup);
  auto work = [&](int64_t first, int64_t last) {
    thread_local Scratch scratch;
    scratch.keys.resize(size_t(group * keysSize));
    scratch.keyRows.resize(size_t(n * depth));
    scratch.values.resize(size_t(group * valuesSize));
    scratch.queries.resize(size_t(group * queriesSize));
    scratch.context.resize(size_t(group * contextSize));
    scratch.scores.resize(size_t(kBlockRows * keyColumns));
    scratch.inverses.resize(size_t(group * m));
    float *scoreRows = scratch.scores.data(), *inverses = scratch.inverses.data();
    float rowMax[kBlockRows];
    const int64_t whole = n / kLanes * kLanes;
    // The batches of this thread's items, `group` at a time. In Keras'
    // layout the batches are heads whose rows interleave in memory (Q, K,
    // V and the context are [tokens, heads, depth]): the rows of a group
    // of heads are read and written together, in memory order, where one
    // head's alone would be 128 bytes every kilobyte, which the hardware's
    // prefetchers do not follow.
    const int64_t firstBatch = first / blocks, lastBatch = (last - 1) / blocks;
    for (int64_t batch0 = firstBatch; batch0 <= lastBatch; batch0 += group) {
      const int64_t count = std::min(group, lastBatch + 1 - batch0);
      int64_t offQ[kMaxGroup], offK[kMaxGroup], offV[kMaxGroup],
          offOut[kMaxGroup], rowBegin[kMaxGroup], rowEnd[kMaxGroup];
      int64_t rowsBegin = m, rowsEnd = 0;
      for (int64_t g = 0; g < count; ++g) {
        int64_t batch = batch0 + g, unused;
        s.offsets(batch, offQ[g], offK[g], unused);
        c.offsets(batch, unused, offV[g], offOut[g]);
        // The rows of this batch among the thread's items.
        rowBegin[g] = (std::max(first, batch * blocks) - batch * blocks) * kBlockRows;
        rowEnd[g] = std::min(m, (std::min(last, (batch + 1) * blocks) - batch * blocks) * kBlockRows);
        rowsBegin = std::min(rowsBegin, rowBegin[g]);
        rowsEnd = std::max(rowsEnd, rowEnd[g]);
      }
      float *keys = scratch.keys.data(), *values = scratch.values.data();
      float *queries = scratch.queries.data(), *context = scratch.context.data();
      // Kᵀ and V, the columns past n and width zero; then Q's rows.
      for (int64_t g = 0; g < count; ++g) {
        for (int64_t t = 0; t < depth; ++t)
          std::fill(keys + g * keysSize + t * keyColumns + n,
                    keys + g * keysSize + (t + 1) * keyColumns, 0.f);
        for (int64_t j = 0; j < n; ++j)
          std::fill(values + g * valuesSize + j * valueColumns + width,
                    values + g * valuesSize + (j + 1) * valueColumns, 0.f);
      }
      for (int64_t j = 0; j < n; ++j)
        for (int64_t g = 0; g < count; ++g)
          copyRow(values + g * valuesSize + j * valueColumns,
                  v + offV[g] + j * c.bK, width, c.bN);
      // Kᵀ: each head's K rows copied together first (in Keras' layout
      // they are a kilobyte apart, 128 bytes each, and rows a multiple
      // of 1 KiB apart share four of L1's 64 sets, which then cannot hold
      // a head's 128 rows while its columns are read), then transposed
      // from that copy a row of Kᵀ at a time, so that the stores are
      // contiguous. Writing each row of K down a column of Kᵀ instead
      // stored a float every 512 bytes, and took a third of the kernel's
      // own time.
      for (int64_t g = 0; g < count; ++g) {
        const float *keysFrom = k + offK[g];
        float *rows = scratch.keyRows.data();
        for (int64_t j = 0; j < n; ++j)
          copyRow(rows + j * depth, keysFrom + j * s.bN, depth, s.bK);
        transposeKeys(rows, n, depth, keys + g * keysSize, keyColumns);
      }
      if (!queriesInPlace)
        for (int64_t r = rowsBegin; r < rowsEnd; ++r)
          for (int64_t g = 0; g < count; ++g) {
            if (r < rowBegin[g] || r >= rowEnd[g])
              continue;
            copyRow(queries + g * queriesSize + r * depth,
                    q + offQ[g] + r * s.aM, depth, s.aK);
          }
      // Each block of rows: its scores, their softmax (but for the
      // scaling by the inverse of each row's sum), the context.
      for (int64_t g = 0; g < count; ++g)
        for (int64_t row0 = rowBegin[g]; row0 < rowEnd[g]; row0 += kBlockRows) {
          int64_t rows = std::min(kBlockRows, rowEnd[g] - row0);
          float *inverse = inverses + g * m + row0;
          if (queriesInPlace)
            scores(q + offQ[g] + row0 * s.aM, s.aM, keys + g * keysSize,
                   keyColumns, depth, scoreRows, factor, whole, rows, rowMax);
          else
            scores(queries + g * queriesSize + row0 * depth, depth,
                   keys + g * keysSize, keyColumns, depth, scoreRows, factor,
                   whole, rows, rowMax);
          for (int64_t r = 0; r < rows; ++r)
            inverse[r] =
                exponentials(scoreRows + r * keyColumns, n, whole, rowMax[r]);
          if (contextInPlace)
            product(scoreRows, keyColumns, values + g * valuesSize,
                    valueColumns, n, out + offOut[g] + row0 * c.cM, c.cM,
                    rows, valueColumns / kLanes, inverse);
          else
            product(scoreRows, keyColumns, values + g * valuesSize,
                    valueColumns, n,
                    context + g * contextSize + row0 * valueColumns,
                    valueColumns, rows, valueColumns / kLanes, nullptr);
        }
      // Otherwise the context rows out, scaled by their inverses as they
      // go.
      if (!contextInPlace)
        for (int64_t r = rowsBegin; r < rowsEnd; ++r)
          for (int64_t g = 0; g < count; ++g) {
            if (r < rowBegin[g] || r >= rowEnd[g])
              continue;
            scaleRowInto(out + offOut[g] + r * c.cM, c.cN,
                         context + g * contextSize + r * valueColumns, width,
                         inverses[g * m + r]);
          }
    }
  };
  double perItem = double(std::min(kBlockRows, m));
  Eigen::TensorOpCost cost(
      4.0 * (perItem * depth + double(depth + width) * double(n)),
      4.0 * perItem * double(width),
      perItem * double(n) * double(depth + width + 20) * 2.0 / kLanes);
  tfc::parallelFor(runtime, batches * blocks, cost, work);
}
