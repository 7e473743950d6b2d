//===- DepthwisePointwise.cpp - a separable convolution in one pass -------===//
//
// A depthwise convolution and the 1x1 convolution that alone reads its
// output (Keras' SeparableConv2D, MobileNet's depthwise and pointwise
// layers), computed band by band so that the depthwise output is never
// written to memory. Xception's middle flow runs 24 of them on 19 x 19 x
// 728 images; oneDNN's depthwise kernel is bound by memory there (it
// writes a tensor the size of its input, 34 MB at batch 32, and the 1x1
// convolution reads it back), and the ReLU before each separable
// convolution is one more pass over the input, which here is applied as
// the input is read.
//
// Each thread takes bands of output rows of one image (whole images when
// they fit the band's share of its L2 cache). For each output row it
// copies the input rows the window reaches that it lacks into a ring of
// kh rows, padded to whole vectors of channels, with the window's zero
// padding on either side and the input's activation applied, runs the
// shared depthwise row loop (DepthwiseRow.h) into the band's buffer, and
// when the band is done multiplies the buffer by the 1x1 filter with
// oneDNN's matmul primitive (its brgemm kernels, the weights reordered
// once into its blocked layout; bias, residual and activation as it
// writes), on the calling thread: oneDNN runs a primitive called inside
// a parallel region on that thread alone.
//
// A max pooling of the group's output (Xception's blocks pool each
// second separable convolution's output) is computed from each band as it
// is made: the bands are then of whole pooled rows, with the group rows
// the pooling windows reach, and a window's rows shared with the band
// before are kept from it (each thread takes consecutive bands) rather
// than computed again. The group's output, 11 MB an image at 147 x 147 x
// 128, is never written, nor read back by a pooling kernel.
//
// Two such groups where the second reads the first's output alone (a
// pair: Xception's blocks 2 and 3, whose first group's output is 11 MB an
// image in block 2) are one call: each thread makes the first group's
// rows as its bands of the second ask for them (at least 294 pixels at a
// time, two rows of 147 x 147 images, for one product), keeps the rows the
// next band's windows share, and the first group's output is never
// written. A thread's first band makes the first group's rows the band
// before it (on the other thread) made too: a few rows an image.
//
// Where oneDNN has no brgemm matmul (below AVX-512 in oneDNN 2.6, whose
// matmul there wraps sgemm, which would pack the filter at every band),
// the depthwise output is written whole and the 1x1 convolution reads it
// back as it would alone: the two passes of the unfused graph, with the
// input's activation still applied as it is read; a pair's first group
// is then written whole and read back.
//
//===----------------------------------------------------------------------===//

#include "DepthwiseRow.h"
#include "NativeVector.h"
#include "OneDnn.h"
#include "Parallel.h"
#include "Pooling.h"
#include "Runtime.h"
#include "VectorMath.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <omp.h>
#include <type_traits>
#include <vector>

namespace {

using Params = tfc_depthwise_pointwise_params;
using dnnl::memory;
using Tag = memory::format_tag;
using tfc::kNativeLanes;
using tfc::loadNative;
using tfc::NativeFloats;
using tfc::storeNative;

/// The most floats of depthwise output a band holds (a share of a core's
/// L2 cache, beside the 1x1 filter's blocks the product streams).
constexpr int64_t kBandFloats = int64_t(64) << 10;

/// What a call site keeps (see the file comment): the depthwise filter
/// padded to `vectors` whole vectors of channels, its bands, and the
/// products of a whole band and of the last (shorter) one (without a
/// pooling), or none where oneDNN has no brgemm matmul.
struct Site {
  int64_t vectors = 0;
  std::vector<float> taps;
  int64_t bandRows = 0, bands = 0;
  std::unique_ptr<tfc::onednn::BrgemmProduct> whole, last;
  /// With a pooling: the pooled rows of a band, and the products of 1 to
  /// the most group rows a band computes (byRows[r - 1] for r rows), none
  /// where oneDNN has no brgemm matmul. The first group of a pair has
  /// only the products (of the most rows GroupRows makes at once).
  int64_t pooledBandRows = 0, pooledBands = 0;
  std::vector<std::unique_ptr<tfc::onednn::BrgemmProduct>> byRows;
  /// The 1x1 convolution's own parameters, for runInTwoPasses.
  tfc_conv2d_params pointwise{};
};

/// The 1x1 convolution of `rows` band pixels: the band's buffer (its
/// channels padded to whole vectors, `channels`) by the filter with zero
/// rows for the padding (oneDNN's brgemm matmul takes no rows of A further
/// apart than their length); null where oneDNN has no brgemm matmul.
/// `shared` is another band's product, whose reordered filter this one
/// takes where the layouts agree.
std::unique_ptr<tfc::onednn::BrgemmProduct>
makeProduct(const Params &p, int64_t channels, int64_t rows,
            const float *filter, const tfc::onednn::BrgemmProduct *shared) {
  std::vector<float> paddedFilter(channels * p.out_c, 0.f);
  std::copy_n(filter, p.c * p.out_c, paddedFilter.data());
  memory::desc user({channels, p.out_c}, memory::data_type::f32, Tag::ab);
  return tfc::onednn::makeBrgemmProduct(
      rows, channels, p.out_c, user, paddedFilter.data(), p.pointwise_bias,
      p.residual, p.pointwise_activation, shared);
}

/// The site of a group; with `rowsOnDemand`, of the first group of a
/// pair, whose rows are made on demand (GroupRows): its products are
/// then those of 1 to `rowsOnDemand` rows.
std::unique_ptr<Site> makeSite(const Params &p, int64_t threads,
                               const float *depthwiseFilter,
                               const float *pointwiseFilter,
                               int64_t rowsOnDemand = 0) {
  auto site = std::make_unique<Site>();
  site->vectors = (p.c + kNativeLanes - 1) / kNativeLanes;
  int64_t channels = site->vectors * kNativeLanes;
  site->taps = tfc::paddedRows(depthwiseFilter, p.kh * p.kw, p.c, channels);
  // Bands that fit kBandFloats, at least as many as the threads need.
  int64_t rowFloats = p.ow * channels;
  int64_t bandRows = std::clamp<int64_t>(kBandFloats / rowFloats, 1, p.oh);
  int64_t bands = (p.oh + bandRows - 1) / bandRows;
  if (p.n * bands < threads)
    bands = std::min(p.oh, (threads + p.n - 1) / p.n);
  site->bandRows = (p.oh + bands - 1) / bands;
  site->bands = (p.oh + site->bandRows - 1) / site->bandRows;
  // oneDNN's brgemm matmul splits its work for the threads OpenMP offers
  // when it is made: one, as each band's runs on one.
  omp_set_num_threads(1);
  // The products of 1 to `mostRows` rows, sharing the first's filter.
  auto makeByRows = [&](int64_t mostRows) {
    for (int64_t r = 1; r <= mostRows; ++r) {
      site->byRows.push_back(makeProduct(
          p, channels, r * p.ow, pointwiseFilter,
          site->byRows.empty() ? nullptr : site->byRows.front().get()));
      if (!site->byRows.back()) {
        site->byRows.clear();
        break;
      }
    }
  };
  try {
    if (rowsOnDemand > 0) {
      makeByRows(std::min(rowsOnDemand, p.oh));
    } else if (p.pool_kh > 0) {
      // Whole pooled rows a band, as many group rows as a band had, at
      // least one pooled row: a band computes the rows its pooled rows'
      // windows reach but the one it keeps from the band before.
      int64_t s = p.pool_stride_h;
      site->pooledBandRows = std::max<int64_t>(
          1, (site->bandRows - std::max<int64_t>(p.pool_kh - s, 0)) / s);
      if (p.n * ((p.pool_oh + site->pooledBandRows - 1) /
                 site->pooledBandRows) < threads)
        site->pooledBandRows = std::max<int64_t>(
            1, p.pool_oh / std::max<int64_t>(1, (threads + p.n - 1) / p.n));
      site->pooledBands =
          (p.pool_oh + site->pooledBandRows - 1) / site->pooledBandRows;
      makeByRows(std::min(p.oh, (site->pooledBandRows - 1) * s + p.pool_kh));
    } else {
      site->whole = makeProduct(p, channels, site->bandRows * p.ow,
                                pointwiseFilter, nullptr);
      int64_t lastRows = p.oh - (site->bands - 1) * site->bandRows;
      if (site->whole && lastRows != site->bandRows) {
        site->last = makeProduct(p, channels, lastRows * p.ow,
                                 pointwiseFilter, site->whole.get());
        if (!site->last)
          site->whole = nullptr;
      }
    }
  } catch (const dnnl::error &) {
    site->whole = nullptr;
    site->last = nullptr;
    site->byRows.clear();
  }
  omp_set_num_threads(int(threads));
  site->pointwise = tfc_conv2d_params{
      p.n, p.oh, p.ow, p.c, 1, 1, p.out_c, p.oh, p.ow, 1, 1, 1, 1, 0, 0,
      /*depthwise=*/0, /*filter_constant=*/1, p.pointwise_activation,
      p.pointwise_bias, p.residual};
  return site;
}

/// What a call computes with: the site, this call's depthwise bias padded
/// (it may be computed at run time), and the call's pointers.
struct Call {
  const Params &p;
  const Site &site;
  std::vector<float> depthwiseBias;
  const float *in, *pointwiseBias, *residual;
  float *out;
};

/// A group's input rows where they are in memory, at `call.in`. A source
/// of input rows (this and GroupRows) holds the rows [from, to) of an
/// image when asked, until it is asked for others; a row is `w` pixels of
/// `c` floats.
struct RowsInMemory {
  const Call &call;
  void hold(int64_t, int64_t, int64_t) {}
  const float *row(int64_t b, int64_t iy) const {
    const Params &p = call.p;
    return call.in + (b * p.h + iy) * p.w * p.c;
  }
};

/// The call of `site` with `p`: its depthwise bias padded to the site's
/// whole vectors (it may be computed at run time, so per call).
Call makeCall(const Params &p, const Site &site, const float *in,
              const float *depthwiseBias, const float *pointwiseBias,
              const float *residual, float *out) {
  return Call{p,
              site,
              tfc::paddedRows(p.depthwise_bias ? depthwiseBias : nullptr, 1,
                              p.c, site.vectors * kNativeLanes),
              in,
              pointwiseBias,
              residual,
              out};
}

/// Input row `src`, `w` pixels, with the input's activation applied,
/// into `dst`, each pixel `channels` floats, the padding lanes zeros.
void copyRow(const Call &call, const float *src, int64_t channels, float *dst) {
  const Params &p = call.p;
  auto act = [&](NativeFloats v) {
    return tfc::vector_math::activation(v, p.input_activation);
  };
  for (int64_t x = 0; x < p.w; ++x) {
    const float *s = src + x * p.c;
    float *d = dst + x * channels;
    int64_t j = 0;
    for (; j + kNativeLanes <= p.c; j += kNativeLanes)
      storeNative(d + j, act(loadNative(s + j)));
    // Zero lanes stay zeros under every activation.
    if (j < p.c)
      storeNative(d + j, act(tfc::loadNativeFirst(s + j, p.c - j)));
  }
}

/// The depthwise output of image `b`'s rows [firstRow, lastRow), one row
/// at a time, the input's rows from `source`: each `ow` pixels of whole
/// vectors of channels at rowOut(y), which gets them.
template <typename Source, typename RowOut>
void depthwiseRows(const Call &call, Source &source, int64_t b,
                   int64_t firstRow, int64_t lastRow, RowOut rowOut) {
  const Params &p = call.p;
  const Site &site = call.site;
  int64_t channels = site.vectors * kNativeLanes;
  // The input's rows as they are where they are whole vectors of
  // channels and their activation, if any, is a ReLU, which the row loop
  // applies as it reads them; otherwise copies in a ring of kh rows, with
  // the window's padding in memory so that no window needs a bounds check
  // (DepthwiseRow.h). Copying rows only for their padding cost more than
  // the checks save (56 x 56 x 128 at batch 32: 31-33 ms against 25-28 in
  // place), and copying them for their ReLU more than applying it as they
  // are read (a ReLU and a separable convolution of 128 channels on one
  // 147 x 147 image: 3.1-3.2 ms against 2.6-2.9; docs/benchmarks.md).
  bool reluInPlace = p.input_activation == TFC_ACTIVATION_RELU;
  bool inPlace = channels == p.c &&
                 (p.input_activation == TFC_ACTIVATION_NONE || reluInPlace);
  int64_t padRight =
      tfc::marginRight(p.w, p.ow, p.kw, p.stride_w, p.pad_left);
  int64_t rowFloats = (p.pad_left + p.w + padRight) * channels;
  thread_local std::vector<float> ring;
  if (!inPlace) {
    ring.resize(p.kh * rowFloats);
    for (int64_t i = 0; i < p.kh; ++i) {
      float *row = ring.data() + i * rowFloats;
      std::fill_n(row, p.pad_left * channels, 0.f);
      std::fill_n(row + (p.pad_left + p.w) * channels, padRight * channels,
                  0.f);
    }
  }
  tfc::DepthwiseWindow window{
      p.kh, p.kw, p.w, p.ow, p.stride_w, p.pad_left, channels,
      site.taps.data(), call.depthwiseBias.data(), p.depthwise_activation};
  window.paddedRows = !inPlace;
  tfc::DepthwiseRowFunction row = tfc::depthwiseRowFor(
      p.kh, p.kw, p.stride_w, /*reluInput=*/inPlace && reluInPlace);
  std::vector<const float *> rows(p.kh);
  int64_t next = 0; // The first input row not in the ring yet.
  for (int64_t y = firstRow; y < lastRow; ++y) {
    int64_t top = y * p.stride_h - p.pad_top;
    // The window's rows, asked for in order (GroupRows keeps those the
    // next window shares).
    int64_t from = std::max(top, int64_t(0));
    int64_t to = std::max(from, std::min(top + p.kh, p.h));
    source.hold(b, from, to);
    if (!inPlace) {
      for (int64_t iy = std::max(from, next); iy < to; ++iy)
        copyRow(call, source.row(b, iy), channels,
                ring.data() + (iy % p.kh) * rowFloats + p.pad_left * channels);
      next = std::max(next, to);
    }
    for (int64_t i = 0; i < p.kh; ++i) {
      int64_t iy = top + i;
      if (iy < 0 || iy >= p.h)
        rows[i] = nullptr;
      else
        rows[i] = inPlace ? source.row(b, iy)
                          : ring.data() + (iy % p.kh) * rowFloats +
                                p.pad_left * channels;
    }
    row(rows.data(), window, 0, site.vectors, rowOut(y), channels);
  }
}

/// Band `band` of image `b`: its depthwise output into the thread's
/// buffer, then its product into the output.
template <typename Source>
void runBand(const Call &call, Source &source, int64_t b, int64_t band) {
  const Params &p = call.p;
  const Site &site = call.site;
  int64_t channels = site.vectors * kNativeLanes;
  int64_t firstRow = band * site.bandRows;
  int64_t lastRow = std::min(firstRow + site.bandRows, p.oh);
  thread_local std::vector<float> buffer;
  buffer.resize(site.bandRows * p.ow * channels);
  depthwiseRows(call, source, b, firstRow, lastRow, [&](int64_t y) {
    return buffer.data() + (y - firstRow) * p.ow * channels;
  });
  const tfc::onednn::BrgemmProduct &product =
      lastRow - firstRow == site.bandRows ? *site.whole : *site.last;
  int64_t offset = (b * p.oh + firstRow) * p.ow * p.out_c;
  product.run(buffer.data(), call.out + offset, call.pointwiseBias,
              p.residual == 1 ? call.residual + offset : nullptr);
}

/// The pooling of the group's output rows [first, first + rows) of an
/// image, held at `rowsAt` ([rows, ow, out_c]): pooled rows [pooledFirst,
/// pooledLast), whose windows those rows hold (or the image's edges
/// clip), into `pooled` (the image's pooled output).
void poolRows(const Params &p, const float *rowsAt, int64_t first,
              int64_t rows, int64_t pooledFirst, int64_t pooledLast,
              float *pooled) {
  // The pooling's geometry over the held rows only: its padding moved
  // by the rows before them.
  tfc::PoolGeometry g{rows,          p.ow,
                      p.out_c,       p.pool_kh,
                      p.pool_kw,     p.pool_oh,
                      p.pool_ow,     p.pool_stride_h,
                      p.pool_stride_w, p.pool_pad_top + first,
                      p.pool_pad_left};
  for (int64_t py = pooledFirst; py < pooledLast; ++py)
    tfc::poolRow(/*max=*/true, g, rowsAt, py,
                 pooled + py * p.pool_ow * p.out_c);
}

/// Rows of a group's output kept in a thread's buffer, `rows`: the rows
/// [first, last) of image `image`, from row `base` of the buffer on. Asked
/// to hold rows [from, to), it drops those before `from`, keeps the
/// others, and computes the ones it lacks (their depthwise rows into
/// `depthwise`, then one product after the kept rows), at least `ahead` of
/// them where the image has them. Its callers ask for rows in order (each
/// thread takes consecutive bands), so that a row shared with the band
/// before is kept rather than computed again. The kept rows move to the
/// buffer's start only when the new ones would pass its end: the buffer
/// holds twice the most rows held at once, so that a row moves about once
/// (moving them at every call cost a pair more than it saved).
template <typename Source> struct GroupRows {
  const Call &call;
  Source &source;
  std::vector<float> &rows, &depthwise;
  int64_t ahead = 0;
  int64_t image = -1, first = 0, last = 0, base = 0;

  void hold(int64_t b, int64_t from, int64_t to) {
    const Params &p = call.p;
    const Site &site = call.site;
    int64_t rowFloats = p.ow * p.out_c;
    if (image != b || from < first || from >= last) {
      image = b;
      first = last = from;
      base = 0;
    } else {
      base += from - first;
      first = from;
    }
    if (to <= last)
      return;
    int64_t count = std::min(std::max(to - last, ahead), p.oh - last);
    int64_t kept = last - first;
    if ((base + kept + count) * rowFloats > int64_t(rows.size())) {
      rows.resize(
          std::max<size_t>(rows.size(), 2 * (kept + count) * rowFloats));
      std::memmove(rows.data(), rows.data() + base * rowFloats,
                   kept * rowFloats * sizeof(float));
      base = 0;
    }
    int64_t channels = site.vectors * kNativeLanes;
    depthwise.resize(
        std::max<size_t>(depthwise.size(), count * p.ow * channels));
    int64_t computeFrom = last;
    depthwiseRows(
        call, source, b, computeFrom, computeFrom + count, [&](int64_t y) {
          return depthwise.data() + (y - computeFrom) * p.ow * channels;
        });
    site.byRows[count - 1]->run(depthwise.data(),
                                rows.data() + (base + kept) * rowFloats,
                                call.pointwiseBias, nullptr);
    last += count;
  }
  const float *row(int64_t, int64_t y) const {
    return rows.data() + (base + y - first) * call.p.ow * call.p.out_c;
  }
};

/// A thread's consecutive pooled bands (see the file comment): for band
/// `band` of image `b`, the group rows its windows reach, held by `rows`,
/// pooled into the output.
template <typename Source>
void runPooledBand(GroupRows<Source> &rows, int64_t b, int64_t band) {
  const Params &p = rows.call.p;
  const Site &site = rows.call.site;
  int64_t pooledFirst = band * site.pooledBandRows;
  int64_t pooledLast = std::min(pooledFirst + site.pooledBandRows, p.pool_oh);
  int64_t from =
      std::max<int64_t>(pooledFirst * p.pool_stride_h - p.pool_pad_top, 0);
  int64_t to = std::min(
      (pooledLast - 1) * p.pool_stride_h - p.pool_pad_top + p.pool_kh, p.oh);
  rows.hold(b, from, to);
  poolRows(p, rows.row(b, from), from, to - from, pooledFirst, pooledLast,
           rows.call.out + b * p.pool_oh * p.pool_ow * p.out_c);
}

/// Without a brgemm matmul: the depthwise output of every image into a
/// buffer kept for the next call (of any site), then the 1x1 convolution
/// as tfc_cpu_conv2d_dnnl_f32 computes it alone (see the file comment).
void runInTwoPasses(tfc_runtime *runtime, const Call &call,
                    const float *pointwiseFilter) {
  const Params &p = call.p;
  const Site &site = call.site;
  int64_t channels = site.vectors * kNativeLanes;
  static std::vector<float> depthwise;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  depthwise.resize(std::max<size_t>(depthwise.size(), p.n * p.oh * p.ow * p.c));
  tfc::parallelFor(
      runtime, p.n * site.bands,
      Eigen::TensorOpCost(4.0 * site.bandRows * p.stride_h * p.w * p.c,
                          4.0 * site.bandRows * p.ow * p.c,
                          2.0 * site.bandRows * p.ow * p.c * p.kh * p.kw),
      [&](int64_t first, int64_t last) {
        thread_local std::vector<float> row;
        row.resize(p.ow * channels);
        for (int64_t unit = first; unit < last; ++unit) {
          int64_t b = unit / site.bands, band = unit % site.bands;
          int64_t firstRow = band * site.bandRows;
          int64_t lastRow = std::min(firstRow + site.bandRows, p.oh);
          float *image = depthwise.data() + b * p.oh * p.ow * p.c;
          RowsInMemory source{call};
          int64_t previous = -1;
          auto copyOut = [&] {
            for (int64_t x = 0; x < p.ow; ++x)
              std::memcpy(image + (previous * p.ow + x) * p.c,
                          row.data() + x * channels, p.c * sizeof(float));
          };
          // Each row is copied out when the next is asked for.
          depthwiseRows(call, source, b, firstRow, lastRow, [&](int64_t y) {
            if (previous >= 0)
              copyOut();
            previous = y;
            return row.data();
          });
          copyOut();
        }
      });
  if (p.pool_kh == 0) {
    tfc_cpu_conv2d_dnnl_f32(runtime, depthwise.data(), pointwiseFilter,
                            call.pointwiseBias, call.residual, call.out,
                            &site.pointwise);
    return;
  }
  // The group's output whole, then its pooling.
  static std::vector<float> unpooled;
  int64_t imageFloats = p.oh * p.ow * p.out_c;
  unpooled.resize(std::max<size_t>(unpooled.size(), p.n * imageFloats));
  tfc_cpu_conv2d_dnnl_f32(runtime, depthwise.data(), pointwiseFilter,
                          call.pointwiseBias, nullptr, unpooled.data(),
                          &site.pointwise);
  tfc::parallelFor(runtime, p.n * p.pool_oh,
                   Eigen::TensorOpCost(4.0 * p.pool_kh * p.ow * p.out_c,
                                       4.0 * p.pool_ow * p.out_c,
                                       p.pool_kh * p.pool_kw * p.pool_ow *
                                           p.out_c),
                   [&](int64_t firstRow, int64_t lastRow) {
                     for (int64_t r = firstRow; r < lastRow; ++r) {
                       int64_t b = r / p.pool_oh, py = r % p.pool_oh;
                       poolRows(p, unpooled.data() + b * imageFloats, 0, p.oh,
                                py, py + 1,
                                call.out + b * p.pool_oh * p.pool_ow * p.out_c);
                     }
                   });
}

/// Whether `site` has the products its bands run (see the file comment).
bool hasProducts(const Params &p, const Site &site) {
  return p.pool_kh > 0 ? !site.byRows.empty() : bool(site.whole);
}

/// What each thread of a group's parallel loop keeps across the chunks it
/// runs (Parallel.h hands a thread its share in chunks, in order): its
/// source of input rows and, with a pooling, the group rows it holds, so
/// that a chunk's first band takes the rows it shares with the band before
/// from them, as within a chunk. Made afresh per chunk, they cost a pair
/// of Xception's block 3 at batch 1 (74 x 74, two threads, 16 chunks) its
/// first group's rows twice over: 5.3 ms a call where one thread takes
/// 7.5, and 4.2 with them kept.
template <typename Source> class ThreadState {
public:
  template <typename MakeSource>
  ThreadState(int64_t threads, MakeSource makeSource)
      : slots(std::max<int64_t>(threads, 1)), makeSource(makeSource) {}

  /// The calling thread's state (the loop's threads are numbered below
  /// the runtime's count; a loop run inline has one caller).
  struct Slot {
    std::unique_ptr<Source> source;
    std::unique_ptr<GroupRows<Source>> held;
  };
  Slot &mine() {
    Slot &slot =
        slots[std::min<size_t>(omp_get_thread_num(), slots.size() - 1)];
    if (!slot.source)
      slot.source = makeSource();
    return slot;
  }

private:
  std::vector<Slot> slots;
  std::function<std::unique_ptr<Source>()> makeSource;
};

/// A group's bands on the runtime's threads, each thread's consecutive,
/// their input rows from the source makeSource() makes for each thread;
/// `sourceFlops` is what the source spends on each input row it gives (a
/// first group's rows, for a pair).
template <typename MakeSource>
void runBands(tfc_runtime *runtime, const Call &call, double sourceFlops,
              MakeSource makeSource) {
  using Source = typename std::invoke_result_t<MakeSource>::element_type;
  const Params &p = call.p;
  const Site &site = call.site;
  ThreadState<Source> states(runtime->threads, makeSource);
  if (p.pool_kh > 0) {
    double rows = double(site.pooledBandRows) * p.pool_stride_h;
    tfc::parallelFor(
        runtime, p.n * site.pooledBands,
        Eigen::TensorOpCost(4.0 * rows * p.w * p.c,
                            4.0 * site.pooledBandRows * p.pool_ow * p.out_c,
                            rows * (p.ow * p.c * (p.kh * p.kw + p.out_c) +
                                    sourceFlops * p.stride_h)),
        [&](int64_t first, int64_t last) {
          auto &state = states.mine();
          if (!state.held) {
            thread_local std::vector<float> rows, depthwise;
            state.held.reset(
                new GroupRows<Source>{call, *state.source, rows, depthwise});
          }
          for (int64_t unit = first; unit < last; ++unit)
            runPooledBand(*state.held, unit / site.pooledBands,
                          unit % site.pooledBands);
        });
    return;
  }
  double bandFlops = 2.0 * site.bandRows * p.ow * p.c * (p.kh * p.kw + p.out_c);
  tfc::parallelFor(
      runtime, p.n * site.bands,
      Eigen::TensorOpCost(4.0 * site.bandRows * p.stride_h * p.w * p.c,
                          4.0 * site.bandRows * p.ow * p.out_c,
                          bandFlops / 2 +
                              sourceFlops * site.bandRows * p.stride_h),
      [&](int64_t first, int64_t last) {
        Source &source = *states.mine().source;
        for (int64_t unit = first; unit < last; ++unit)
          runBand(call, source, unit / site.bands, unit % site.bands);
      });
}

} // namespace

extern "C" void tfc_cpu_depthwise_pointwise_f32(
    tfc_runtime *runtime, const float *in, const float *depthwiseFilter,
    const float *depthwiseBias, const float *pointwiseFilter,
    const float *pointwiseBias, const float *residual, float *out,
    const tfc_depthwise_pointwise_params *params) {
  const Params &p = *params;
  if (p.n == 0 || p.oh == 0 || p.ow == 0 || p.out_c == 0)
    return;
  int64_t threads = std::max(runtime->threads, 1);
  static tfc::onednn::PrimitiveCache<Site> cache;
  const Site *site = cache.lookup(params, [&] {
    return makeSite(p, threads, depthwiseFilter, pointwiseFilter);
  });
  Call call =
      makeCall(p, *site, in, depthwiseBias, pointwiseBias, residual, out);
  if (!hasProducts(p, *site)) {
    runInTwoPasses(runtime, call, pointwiseFilter);
    return;
  }
  runBands(runtime, call, 0.0,
           [&] { return std::make_unique<RowsInMemory>(RowsInMemory{call}); });
}

namespace {

/// The fewest pixels a pair's first group makes at once: two rows of
/// Xception's 147 x 147 images (see the file comment; one row was slower,
/// and four or more no faster).
constexpr int64_t kPixelsAhead = 294;

/// What a pair's call site keeps: each group's site.
struct PairSite {
  std::unique_ptr<Site> first, second;
  int64_t ahead = 0; // The fewest rows of the first group made at once.
};

/// A pair's second group's source of input rows: the first group's rows,
/// made from the pair's input as they are asked for, in buffers of the
/// thread that makes it (kept from call to call).
struct PairSource {
  PairSource(const Call &first, int64_t ahead)
      : input{first}, produced{first, input, buffers().rows,
                               buffers().depthwise, ahead} {}
  void hold(int64_t b, int64_t from, int64_t to) { produced.hold(b, from, to); }
  const float *row(int64_t b, int64_t y) const { return produced.row(b, y); }

private:
  struct Buffers {
    std::vector<float> rows, depthwise;
  };
  static Buffers &buffers() {
    thread_local Buffers made;
    return made;
  }
  RowsInMemory input;
  GroupRows<RowsInMemory> produced;
};

} // namespace

extern "C" void tfc_cpu_separable_pair_f32(
    tfc_runtime *runtime, const float *in, const float *firstDepthwiseFilter,
    const float *firstDepthwiseBias, const float *firstPointwiseFilter,
    const float *firstPointwiseBias, const float *secondDepthwiseFilter,
    const float *secondDepthwiseBias, const float *secondPointwiseFilter,
    const float *secondPointwiseBias, const float *residual, float *out,
    const tfc_depthwise_pointwise_params *firstParams,
    const tfc_depthwise_pointwise_params *secondParams) {
  const Params &p1 = *firstParams, &p2 = *secondParams;
  if (p2.n == 0 || p2.oh == 0 || p2.ow == 0 || p2.out_c == 0)
    return;
  int64_t threads = std::max(runtime->threads, 1);
  static tfc::onednn::PrimitiveCache<PairSite> cache;
  const PairSite *site = cache.lookup(secondParams, [&] {
    auto made = std::make_unique<PairSite>();
    made->ahead = (kPixelsAhead + p1.ow - 1) / p1.ow;
    made->first = makeSite(p1, threads, firstDepthwiseFilter,
                           firstPointwiseFilter, std::max(p2.kh, made->ahead));
    made->second =
        makeSite(p2, threads, secondDepthwiseFilter, secondPointwiseFilter);
    return made;
  });
  if (site->first->byRows.empty() || !hasProducts(p2, *site->second)) {
    // The first group's output whole, then the second group from it: the
    // two calls of the unpaired groups.
    static std::vector<float> middle;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    middle.resize(
        std::max<size_t>(middle.size(), p1.n * p1.oh * p1.ow * p1.out_c));
    tfc_cpu_depthwise_pointwise_f32(runtime, in, firstDepthwiseFilter,
                                    firstDepthwiseBias, firstPointwiseFilter,
                                    firstPointwiseBias, nullptr, middle.data(),
                                    firstParams);
    tfc_cpu_depthwise_pointwise_f32(runtime, middle.data(),
                                    secondDepthwiseFilter, secondDepthwiseBias,
                                    secondPointwiseFilter, secondPointwiseBias,
                                    residual, out, secondParams);
    return;
  }
  Call first = makeCall(p1, *site->first, in, firstDepthwiseBias,
                        firstPointwiseBias, nullptr, nullptr);
  Call second = makeCall(p2, *site->second, nullptr, secondDepthwiseBias,
                         secondPointwiseBias, residual, out);
  // Each thread makes the first group's rows its bands read, on demand.
  double firstRowFlops = 2.0 * p1.ow * p1.c * (p1.kh * p1.kw + p1.out_c);
  runBands(runtime, second, firstRowFlops,
           [&] { return std::make_unique<PairSource>(first, site->ahead); });
}
