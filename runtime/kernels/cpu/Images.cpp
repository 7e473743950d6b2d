//===- Images.cpp - image resampling and grayscale dilation ---------------===//
//
// ResizeBicubic, ResizeArea, CropAndResize and Dilation2D on NHWC images,
// computed as TensorFlow's CPU kernels compute them (same coordinates, same
// weights, float arithmetic in the same order), so that results agree to
// rounding. Inputs of any real type are read as float; results are
// float32, as TensorFlow's.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using tfc::rt::failAt;

/// Element i of an image of tfc_dtype `dtype`, as float.
float loadAt(const void *data, int64_t dtype, int64_t i) {
  switch (dtype) {
  case TFC_DOUBLE:
    return float(static_cast<const double *>(data)[i]);
  case TFC_UINT8:
    return float(static_cast<const uint8_t *>(data)[i]);
  case TFC_INT32:
    return float(static_cast<const int32_t *>(data)[i]);
  case TFC_INT64:
    return float(static_cast<const int64_t *>(data)[i]);
  default:
    return static_cast<const float *>(data)[i];
  }
}

/// The source step per output step (TensorFlow's CalculateResizeScale).
float resizeScale(int64_t in, int64_t out, bool alignCorners) {
  return alignCorners && out > 1 ? float(in - 1) / float(out - 1)
                                 : float(in) / float(out);
}

int64_t bound(int64_t i, int64_t limit) {
  return std::min(limit - 1, std::max<int64_t>(0, i));
}

//===----------------------------------------------------------------------===//
// ResizeBicubic
//===----------------------------------------------------------------------===//

/// Keys' cubic convolution kernel, tabulated at 1/1024 steps as TensorFlow
/// does: entry 2i is the weight at distance i/1024, 2i+1 at 1 + i/1024.
constexpr int64_t kTableSize = 1024;

std::vector<float> cubicTable(float a) {
  std::vector<float> table((kTableSize + 1) * 2);
  for (int64_t i = 0; i <= kTableSize; ++i) {
    float x = i * 1.0 / kTableSize;
    table[i * 2] = ((a + 2) * x - (a + 3)) * x * x + 1;
    x += 1.0;
    table[i * 2 + 1] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  }
  return table;
}

const std::vector<float> &tableFor(bool halfPixel) {
  static const std::vector<float> legacy = cubicTable(-0.75f);
  static const std::vector<float> keys = cubicTable(-0.5f);
  return halfPixel ? keys : legacy;
}

/// The four taps of one output coordinate and their weights.
struct Taps {
  int64_t index[4];
  float weight[4];
};

Taps tapsOf(float scale, int64_t out, int64_t limit, bool halfPixel) {
  float in = halfPixel ? (float(out) + 0.5f) * scale - 0.5f : out * scale;
  int64_t at = int64_t(std::floor(in));
  float delta = in - at;
  int64_t offset = lrintf(delta * kTableSize);
  const std::vector<float> &table = tableFor(halfPixel);
  Taps taps;
  taps.weight[0] = table[offset * 2 + 1];
  taps.weight[1] = table[offset * 2];
  taps.weight[2] = table[(kTableSize - offset) * 2];
  taps.weight[3] = table[(kTableSize - offset) * 2 + 1];
  for (int k = 0; k < 4; ++k)
    taps.index[k] = bound(at - 1 + k, limit);
  if (halfPixel) {
    // Taps outside the image weigh nothing; the others are renormalized.
    float sum = 0;
    for (int k = 0; k < 4; ++k) {
      if (at - 1 + k < 0 || at - 1 + k >= limit)
        taps.weight[k] = 0;
      sum += taps.weight[k];
    }
    if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min())
      for (float &w : taps.weight)
        w *= 1.0f / sum;
  }
  return taps;
}

float interpolate(const float v[4], const float w[4]) {
  return w[0] * v[0] + w[1] * v[1] + w[2] * v[2] + w[3] * v[3];
}

//===----------------------------------------------------------------------===//
// ResizeArea
//===----------------------------------------------------------------------===//

/// How much of input cell i the output span [from, to) covers, in
/// TensorFlow's branches (which differ from min - max by rounding).
float coverage(int64_t i, float from, float to, float scale) {
  if (i < from)
    return i + 1 > to ? scale : i + 1 - from;
  return i + 1 > to ? to - i : 1.0f;
}

} // namespace

extern "C" void tfc_cpu_resize_bicubic(tfc_runtime *, const void *in,
                                       float *out,
                                       const tfc_resize_params *p) {
  bool halfPixel = p->half_pixel != 0;
  float scaleY = resizeScale(p->h, p->out_h, p->align_corners);
  float scaleX = resizeScale(p->w, p->out_w, p->align_corners);
  std::vector<Taps> xs(p->out_w);
  for (int64_t x = 0; x < p->out_w; ++x)
    xs[x] = tapsOf(scaleX, x, p->w, halfPixel);
  for (int64_t b = 0; b < p->n; ++b)
    for (int64_t y = 0; y < p->out_h; ++y) {
      Taps ys = tapsOf(scaleY, y, p->h, halfPixel);
      for (int64_t x = 0; x < p->out_w; ++x)
        for (int64_t ch = 0; ch < p->c; ++ch) {
          // Each of the four rows interpolated along x, then the rows.
          float rows[4];
          for (int k = 0; k < 4; ++k) {
            float v[4];
            for (int j = 0; j < 4; ++j)
              v[j] = loadAt(in, p->dtype,
                            ((b * p->h + ys.index[k]) * p->w + xs[x].index[j]) *
                                    p->c +
                                ch);
            rows[k] = interpolate(v, xs[x].weight);
          }
          out[((b * p->out_h + y) * p->out_w + x) * p->c + ch] =
              interpolate(rows, ys.weight);
        }
    }
}

extern "C" void tfc_cpu_resize_area(tfc_runtime *, const void *in, float *out,
                                    const tfc_resize_params *p) {
  float scaleY = resizeScale(p->h, p->out_h, p->align_corners);
  float scaleX = resizeScale(p->w, p->out_w, p->align_corners);
  float norm = 1.0 / (scaleY * scaleX);
  for (int64_t b = 0; b < p->n; ++b)
    for (int64_t y = 0; y < p->out_h; ++y) {
      float fromY = y * scaleY, toY = (y + 1) * scaleY;
      int64_t firstY = int64_t(std::floor(fromY));
      int64_t endY = int64_t(std::ceil(toY));
      for (int64_t x = 0; x < p->out_w; ++x) {
        float fromX = x * scaleX, toX = (x + 1) * scaleX;
        int64_t firstX = int64_t(std::floor(fromX));
        int64_t endX = int64_t(std::ceil(toX));
        float firstScale = coverage(firstX, fromX, toX, scaleX);
        float lastScale = coverage(endX - 1, fromX, toX, scaleX);
        for (int64_t ch = 0; ch < p->c; ++ch) {
          auto at = [&](int64_t i, int64_t j) {
            return loadAt(in, p->dtype,
                          ((b * p->h + bound(i, p->h)) * p->w + bound(j, p->w)) *
                                  p->c +
                              ch);
          };
          float sum = 0;
          for (int64_t i = firstY; i < endY; ++i) {
            // The first and last cells of the row weighted by what the
            // span covers of them, the ones between whole.
            float row = at(i, firstX) * firstScale;
            if (firstX + 1 != endX) {
              for (int64_t j = firstX + 1; j < endX - 1; ++j)
                row += at(i, j);
              row += at(i, endX - 1) * lastScale;
            }
            sum += row * coverage(i, fromY, toY, scaleY);
          }
          out[((b * p->out_h + y) * p->out_w + x) * p->c + ch] = sum * norm;
        }
      }
    }
}

extern "C" void tfc_cpu_crop_and_resize(tfc_runtime *runtime, const void *image,
                                        const float *boxes,
                                        const int32_t *boxIndex, float *out,
                                        const char *node,
                                        const tfc_crop_params *p) {
  for (int64_t k = 0; k < p->boxes; ++k)
    if (boxIndex[k] < 0 || boxIndex[k] >= p->n)
      failAt(runtime, node, "box_index has values outside [0, batch_size)");
  const float extrapolation = float(p->extrapolation);
  const int64_t cropH = p->crop_h, cropW = p->crop_w;
  for (int64_t k = 0; k < p->boxes; ++k) {
    const float y1 = boxes[k * 4], x1 = boxes[k * 4 + 1];
    const float y2 = boxes[k * 4 + 2], x2 = boxes[k * 4 + 3];
    const int64_t b = boxIndex[k];
    const float scaleY =
        cropH > 1 ? (y2 - y1) * (p->h - 1) / (cropH - 1) : 0;
    const float scaleX =
        cropW > 1 ? (x2 - x1) * (p->w - 1) / (cropW - 1) : 0;
    auto pixel = [&](int64_t y, int64_t x, int64_t ch) {
      return loadAt(image, p->dtype, ((b * p->h + y) * p->w + x) * p->c + ch);
    };
    for (int64_t y = 0; y < cropH; ++y) {
      float *row = out + (k * cropH + y) * cropW * p->c;
      const float inY = cropH > 1 ? y1 * (p->h - 1) + y * scaleY
                                  : 0.5 * (y1 + y2) * (p->h - 1);
      if (inY < 0 || inY > p->h - 1) {
        std::fill(row, row + cropW * p->c, extrapolation);
        continue;
      }
      for (int64_t x = 0; x < cropW; ++x) {
        float *to = row + x * p->c;
        const float inX = cropW > 1 ? x1 * (p->w - 1) + x * scaleX
                                    : 0.5 * (x1 + x2) * (p->w - 1);
        if (inX < 0 || inX > p->w - 1) {
          std::fill(to, to + p->c, extrapolation);
          continue;
        }
        if (p->nearest) {
          int64_t cy = int64_t(std::round(inY)), cx = int64_t(std::round(inX));
          for (int64_t ch = 0; ch < p->c; ++ch)
            to[ch] = pixel(cy, cx, ch);
          continue;
        }
        const int64_t top = int64_t(std::floor(inY));
        const int64_t bottom = int64_t(std::ceil(inY));
        const float lerpY = inY - top;
        const int64_t left = int64_t(std::floor(inX));
        const int64_t right = int64_t(std::ceil(inX));
        const float lerpX = inX - left;
        for (int64_t ch = 0; ch < p->c; ++ch) {
          const float topLeft = pixel(top, left, ch);
          const float topRight = pixel(top, right, ch);
          const float bottomLeft = pixel(bottom, left, ch);
          const float bottomRight = pixel(bottom, right, ch);
          const float upper = topLeft + (topRight - topLeft) * lerpX;
          const float lower = bottomLeft + (bottomRight - bottomLeft) * lerpX;
          to[ch] = upper + (lower - upper) * lerpY;
        }
      }
    }
  }
}

extern "C" void tfc_cpu_dilation2d_f32(tfc_runtime *, const float *in,
                                       const float *filter, float *out,
                                       const tfc_dilation_params *p) {
  for (int64_t b = 0; b < p->n; ++b)
    for (int64_t oy = 0; oy < p->out_h; ++oy)
      for (int64_t ox = 0; ox < p->out_w; ++ox) {
        const int64_t y0 = oy * p->stride_h - p->pad_top;
        const int64_t x0 = ox * p->stride_w - p->pad_left;
        float *to = out + ((b * p->out_h + oy) * p->out_w + ox) * p->c;
        for (int64_t ch = 0; ch < p->c; ++ch) {
          float best = std::numeric_limits<float>::lowest();
          for (int64_t fy = 0; fy < p->filter_h; ++fy) {
            const int64_t y = y0 + fy * p->rate_h;
            if (y < 0 || y >= p->h)
              continue;
            for (int64_t fx = 0; fx < p->filter_w; ++fx) {
              const int64_t x = x0 + fx * p->rate_w;
              if (x < 0 || x >= p->w)
                continue;
              const float v = in[((b * p->h + y) * p->w + x) * p->c + ch] +
                              filter[(fy * p->filter_w + fx) * p->c + ch];
              if (v > best)
                best = v;
            }
          }
          to[ch] = best;
        }
      }
}
