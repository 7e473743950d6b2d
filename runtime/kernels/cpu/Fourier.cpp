//===- Fourier.cpp - FFT, IFFT, RFFT and IRFFT over 1 to 3 dimensions -----===//
//
// TensorFlow's discrete Fourier transforms on row-major tensors whose last
// three dimensions are transformed (tfc_fourier_params; absent dimensions
// are 1). A multi-dimensional transform is a one-dimensional transform of
// every line along each dimension in turn, each line through Eigen's FFT
// (its kissfft backend: mixed radix, any length). The inverses divide by
// the number of points, as TensorFlow's do.
//
// The real transforms follow TensorFlow's shapes: RFFT crops or zero-pads
// the real input to fft_length, transforms it as complex and keeps the
// first fft_length / 2 + 1 points of the last dimension. IRFFT crops or
// pads the half spectrum, inverts the outer dimensions as complex, then
// each line of the last one from its half: the missing points are the
// conjugates of their mirrors, and the imaginary parts that a Hermitian
// spectrum cannot have (at 0 and at the Nyquist point) drop out when the
// real part is taken, as in TensorFlow's c2r transform.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "Runtime.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

namespace {

enum Kind : int64_t { kFft = 0, kInverseFft = 1, kRealFft = 2, kInverseRealFft = 3 };

template <typename T> class Transformer {
public:
  using Complex = std::complex<T>;

  Transformer() { fft.SetFlag(Eigen::FFT<T>::Unscaled); }

  /// Transforms every line along `axis` of the row-major `dims` array.
  void alongAxis(Complex *data, const int64_t dims[3], int axis, bool inverse) {
    int64_t n = dims[axis];
    if (n <= 1)
      return;
    int64_t stride = 1;
    for (int d = axis + 1; d < 3; ++d)
      stride *= dims[d];
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d)
      outer *= dims[d];
    line.resize(n);
    result.resize(n);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t s = 0; s < stride; ++s) {
        Complex *first = data + o * n * stride + s;
        for (int64_t i = 0; i < n; ++i)
          line[i] = first[i * stride];
        lineTransform(n, inverse);
        for (int64_t i = 0; i < n; ++i)
          first[i * stride] = result[i];
      }
  }

  /// The real signal of `n` points whose spectrum's first n / 2 + 1 points
  /// are `half` (unscaled).
  void realFromHalf(const Complex *half, T *out, int64_t n) {
    line.resize(n);
    result.resize(n);
    int64_t kept = n / 2 + 1;
    for (int64_t k = 0; k < n; ++k)
      line[k] = k < kept ? half[k] : std::conj(half[n - k]);
    lineTransform(n, /*inverse=*/true);
    for (int64_t i = 0; i < n; ++i)
      out[i] = result[i].real();
  }

private:
  /// `result` from the n points of `line` (kissfft cannot take 1 point).
  void lineTransform(int64_t n, bool inverse) {
    if (n == 1)
      result[0] = line[0];
    else if (inverse)
      fft.inv(result.data(), line.data(), n);
    else
      fft.fwd(result.data(), line.data(), n);
  }

  Eigen::FFT<T> fft;
  std::vector<Complex> line, result;
};

/// Copies the `from` array into the `to` array, cropping or zero-padding
/// each of the three dimensions.
template <typename From, typename To>
void cropOrPad(const From *from, const int64_t fromDims[3], To *to,
               const int64_t toDims[3]) {
  for (int64_t i = 0; i < toDims[0]; ++i)
    for (int64_t j = 0; j < toDims[1]; ++j) {
      To *row = to + (i * toDims[1] + j) * toDims[2];
      int64_t copied = 0;
      if (i < fromDims[0] && j < fromDims[1]) {
        copied = std::min(fromDims[2], toDims[2]);
        const From *source = from + (i * fromDims[1] + j) * fromDims[2];
        for (int64_t k = 0; k < copied; ++k)
          row[k] = To(source[k]);
      }
      std::fill(row + copied, row + toDims[2], To(0));
    }
}

int64_t product(const int64_t dims[3]) { return dims[0] * dims[1] * dims[2]; }

template <typename T>
void transform(tfc_runtime *runtime, const void *in, void *out,
               const tfc_fourier_params &p) {
  using Complex = std::complex<T>;
  int64_t inSize = product(p.in_dims), outSize = product(p.out_dims);
  int64_t points = product(p.fft_length);
  bool complexIn = p.kind != kRealFft, complexOut = p.kind != kInverseRealFft;
  size_t inBytes = complexIn ? sizeof(Complex) : sizeof(T);
  size_t outBytes = complexOut ? sizeof(Complex) : sizeof(T);
  if (points == 0) {
    std::memset(out, 0, p.batch * outSize * outBytes);
    return;
  }
  bool inverse = p.kind == kInverseFft || p.kind == kInverseRealFft;
  T scale = inverse ? T(1) / T(points) : T(1);
  // The array the complex transforms run on: the full transform's, or
  // for IRFFT the half spectrum's.
  int64_t work[3] = {p.fft_length[0], p.fft_length[1], p.fft_length[2]};
  if (p.kind == kInverseRealFft)
    work[2] = p.fft_length[2] / 2 + 1;
  Eigen::TensorOpCost cost(double(inSize * inBytes), double(outSize * outBytes),
                           5.0 * double(points) * std::log2(double(points) + 1));
  tfc::parallelFor(runtime, p.batch, cost, [&](int64_t first, int64_t last) {
    Transformer<T> transformer;
    std::vector<Complex> buffer(product(work));
    for (int64_t b = first; b < last; ++b) {
      const char *source = static_cast<const char *>(in) + b * inSize * inBytes;
      char *target = static_cast<char *>(out) + b * outSize * outBytes;
      if (complexIn)
        cropOrPad(reinterpret_cast<const Complex *>(source), p.in_dims,
                  buffer.data(), work);
      else
        cropOrPad(reinterpret_cast<const T *>(source), p.in_dims,
                  buffer.data(), work);
      int innerAxis = p.kind == kInverseRealFft ? 2 : 3;
      for (int axis = 0; axis < innerAxis; ++axis)
        transformer.alongAxis(buffer.data(), work, axis, inverse);
      if (p.kind == kInverseRealFft) {
        T *real = reinterpret_cast<T *>(target);
        int64_t n = p.fft_length[2], lines = work[0] * work[1];
        for (int64_t l = 0; l < lines; ++l)
          transformer.realFromHalf(buffer.data() + l * work[2], real + l * n, n);
        for (int64_t i = 0; i < outSize; ++i)
          real[i] *= scale;
        continue;
      }
      // FFT and IFFT keep every point; RFFT the first half and one of the
      // last dimension (out_dims says which).
      Complex *result = reinterpret_cast<Complex *>(target);
      cropOrPad(buffer.data(), work, result, p.out_dims);
      if (inverse)
        for (int64_t i = 0; i < outSize; ++i)
          result[i] *= scale;
    }
  });
}

} // namespace

extern "C" void tfc_cpu_fourier(tfc_runtime *runtime, const void *in, void *out,
                                const tfc_fourier_params *params) {
  if (params->dtype == TFC_COMPLEX128)
    transform<double>(runtime, in, out, *params);
  else
    transform<float>(runtime, in, out, *params);
}
