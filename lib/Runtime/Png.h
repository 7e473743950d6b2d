//===- Png.h - PNG images, written by hand ----------------------*- C++ -*-===//
//
// The encoded_image_string of an ImageSummary: a PNG (its signature; IHDR;
// one IDAT of a zlib stream; IEND) of 8-bit samples, gray, gray and alpha,
// RGB or RGBA by the channel count; and EncodePng's. The zlib stream holds stored (uncompressed) deflate
// blocks: any PNG reader takes them, and the runtime links no compression
// library (a summary's images are small).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_PNG_H
#define TFC_LIB_RUNTIME_PNG_H

#include <cstdint>
#include <string>

namespace tfc {

/// The PNG of `height` rows of `width` pixels of `channels` (1 to 4)
/// 8-bit samples each, row-major at `pixels`.
std::string encodePng(const uint8_t *pixels, int64_t height, int64_t width,
                      int64_t channels);

} // namespace tfc

#endif // TFC_LIB_RUNTIME_PNG_H
