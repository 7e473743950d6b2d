//===- CheckpointSlices.cpp - partitioned variables in checkpoints --------===//
//
// TensorFlow saves a partitioned variable (fixed_size_partitioner and the
// like: one variable per part, each on its own ps task) as slices of one
// full tensor: the bundle's entry for the full name has the dtype, the full
// shape and the list of slices saved (BundleEntryProto.slices), and each
// slice's bytes are an ordinary entry under a key that encodes the name and
// the slice in TensorFlow's ordered code, so that a reader finds them by
// the slice it wants. A sharded save writes each task's slices in its own
// shard; the merged index lists them all in the full entry.
//
// The ordered code (tensorflow/core/lib/strings/ordered_code.h), for the
// three kinds of item a slice key holds:
//   * an unsigned number: a byte with the count of its significant bytes,
//     then those bytes, big-endian (0 is the single byte 0);
//   * a string: its bytes with 0x00 written 0x00 0xff and 0xff written
//     0xff 0x00, then 0x00 0x01;
//   * a signed number: n bytes, the value in two's complement in the low
//     7n bits of them, after n leading bits that are ones for a value
//     >= 0 and zeros for a negative one (n the least count that holds the
//     value, up to 10).
// A slice key is: the number 0, the name, the slice's rank, then each
// dimension's start and length (-1 for a whole dimension) as signed
// numbers.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace tfc::rt {

namespace {

void putOrderedUnsigned(std::string &out, uint64_t value) {
  unsigned char bytes[8];
  int count = 0;
  for (uint64_t v = value; v; v >>= 8)
    bytes[count++] = static_cast<unsigned char>(v & 0xff);
  out.push_back(char(count));
  for (int i = count - 1; i >= 0; --i)
    out.push_back(char(bytes[i]));
}

void putOrderedString(std::string &out, const std::string &text) {
  for (char c : text) {
    out.push_back(c);
    if (c == '\0')
      out.push_back('\xff');
    else if (c == '\xff')
      out.push_back('\0');
  }
  out.push_back('\0');
  out.push_back('\x01');
}

void putOrderedSigned(std::string &out, int64_t value) {
  uint64_t magnitude = value < 0 ? ~uint64_t(value) : uint64_t(value);
  // n bytes hold 7n bits after the n header bits, the sign among them.
  int n = 1;
  while (n < 10 && magnitude >= (uint64_t(1) << (7 * n - 1)))
    ++n;
  // The value sign-extended to 10 bytes, big-endian; its last n bytes.
  unsigned char bytes[10];
  bytes[0] = bytes[1] = value < 0 ? 0xff : 0x00;
  for (int i = 0; i < 8; ++i)
    bytes[2 + i] = static_cast<unsigned char>(uint64_t(value) >> (56 - 8 * i));
  unsigned char *begin = bytes + 10 - n;
  // n header bits, ones (a negative value's sign bits turn them to zeros).
  for (int bit = 0; bit < n; ++bit)
    begin[bit / 8] ^= static_cast<unsigned char>(0x80 >> (bit % 8));
  out.append(reinterpret_cast<const char *>(begin), size_t(n));
}

int64_t volume(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  return count;
}

/// Copies the elements of the box [lo, hi) of a full tensor from `src`,
/// which holds the box at `srcStart` of shape `srcShape`, to `dst`, which
/// holds the box at `dstStart` of shape `dstShape`; row-major, `element`
/// bytes each. Both boxes contain [lo, hi).
void copyBox(const uint8_t *src, const std::vector<int64_t> &srcStart,
             const std::vector<int64_t> &srcShape, uint8_t *dst,
             const std::vector<int64_t> &dstStart,
             const std::vector<int64_t> &dstShape,
             const std::vector<int64_t> &lo, const std::vector<int64_t> &hi,
             size_t element) {
  size_t rank = lo.size();
  if (rank == 0) {
    std::memcpy(dst, src, element);
    return;
  }
  std::vector<int64_t> at(lo);
  size_t run = size_t(hi[rank - 1] - lo[rank - 1]) * element;
  while (true) {
    int64_t srcOffset = 0, dstOffset = 0;
    for (size_t d = 0; d < rank; ++d) {
      srcOffset = srcOffset * srcShape[d] + (at[d] - srcStart[d]);
      dstOffset = dstOffset * dstShape[d] + (at[d] - dstStart[d]);
    }
    std::memcpy(dst + dstOffset * int64_t(element),
                src + srcOffset * int64_t(element), run);
    // The next row: the last dimension is copied whole each time.
    size_t d = rank - 1;
    while (d > 0) {
      --d;
      if (++at[d] < hi[d])
        break;
      at[d] = lo[d];
      if (d == 0)
        return;
    }
    if (rank == 1)
      return;
  }
}

/// The intersection of two slices of a tensor of `full`: false when empty.
bool intersect(const TensorSlice &a, const TensorSlice &b,
               const std::vector<int64_t> &full, std::vector<int64_t> &lo,
               std::vector<int64_t> &hi) {
  std::vector<int64_t> aStart = a.startIn(full), aShape = a.shapeIn(full),
                       bStart = b.startIn(full), bShape = b.shapeIn(full);
  lo.assign(full.size(), 0);
  hi.assign(full.size(), 0);
  for (size_t d = 0; d < full.size(); ++d) {
    lo[d] = std::max(aStart[d], bStart[d]);
    hi[d] = std::min(aStart[d] + aShape[d], bStart[d] + bShape[d]);
    if (lo[d] >= hi[d])
      return false;
  }
  return true;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? "," : "") + std::to_string(shape[d]);
  return text + "]";
}

} // namespace

TensorSlice TensorSlice::whole(size_t rank) {
  TensorSlice slice;
  slice.extents.resize(rank);
  return slice;
}

bool TensorSlice::parseSpec(const std::string &spec,
                            std::vector<int64_t> &fullShape, TensorSlice &slice,
                            std::string &error) {
  fullShape.clear();
  slice.extents.clear();
  if (spec.empty())
    return true;
  auto bad = [&](const std::string &why) {
    error = "slice spec '" + spec + "': " + why;
    return false;
  };
  // "D0 D1 ... SLICE": the last space-separated word is the slice.
  std::vector<std::string> words;
  std::istringstream in(spec);
  for (std::string word; in >> word;)
    words.push_back(word);
  if (words.empty())
    return bad("no full shape");
  auto number = [](const std::string &text, int64_t &value) {
    char *end = nullptr;
    value = std::strtoll(text.c_str(), &end, 10);
    return !text.empty() && *end == '\0';
  };
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    int64_t d;
    if (!number(words[i], d) || d < 0)
      return bad("'" + words[i] + "' is not a dimension");
    fullShape.push_back(d);
  }
  std::string text = words.back();
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(':', start);
    if (end == std::string::npos)
      end = text.size();
    std::string part = text.substr(start, end - start);
    Extent extent;
    if (part != "-") {
      size_t comma = part.find(',');
      if (comma == std::string::npos ||
          !number(part.substr(0, comma), extent.start) ||
          !number(part.substr(comma + 1), extent.length) || extent.start < 0 ||
          extent.length < 0)
        return bad("'" + part + "' is neither START,LENGTH nor -");
    }
    slice.extents.push_back(extent);
    start = end + 1;
  }
  if (!slice.fitsIn(fullShape))
    return bad("the slice does not lie in the shape " + shapeText(fullShape));
  return true;
}

std::string TensorSlice::spec(const std::vector<int64_t> &fullShape) const {
  std::string text;
  for (int64_t d : fullShape)
    text += std::to_string(d) + " ";
  for (size_t d = 0; d < extents.size(); ++d) {
    text += d ? ":" : "";
    text += extents[d].length < 0 ? "-"
                                  : std::to_string(extents[d].start) + "," +
                                        std::to_string(extents[d].length);
  }
  return text;
}

bool TensorSlice::fitsIn(const std::vector<int64_t> &fullShape) const {
  if (extents.size() != fullShape.size())
    return false;
  for (size_t d = 0; d < extents.size(); ++d)
    if (extents[d].length >= 0 &&
        (extents[d].start > fullShape[d] ||
         extents[d].length > fullShape[d] - extents[d].start))
      return false;
  return true;
}

std::vector<int64_t>
TensorSlice::startIn(const std::vector<int64_t> &fullShape) const {
  std::vector<int64_t> start(fullShape.size(), 0);
  for (size_t d = 0; d < extents.size() && d < start.size(); ++d)
    start[d] = extents[d].length < 0 ? 0 : extents[d].start;
  return start;
}

std::vector<int64_t>
TensorSlice::shapeIn(const std::vector<int64_t> &fullShape) const {
  std::vector<int64_t> shape(fullShape);
  for (size_t d = 0; d < extents.size() && d < shape.size(); ++d)
    if (extents[d].length >= 0)
      shape[d] = extents[d].length;
  return shape;
}

std::string sliceKey(const std::string &name, const TensorSlice &slice) {
  std::string key;
  putOrderedUnsigned(key, 0);
  putOrderedString(key, name);
  putOrderedUnsigned(key, slice.extents.size());
  for (const TensorSlice::Extent &extent : slice.extents) {
    putOrderedSigned(key, extent.length < 0 ? 0 : extent.start);
    putOrderedSigned(key, extent.length < 0 ? -1 : extent.length);
  }
  return key;
}

bool CheckpointReader::readSlice(const std::string &name,
                                 const TensorSlice &slice,
                                 std::vector<uint8_t> &bytes,
                                 std::string &error) const {
  const CheckpointEntry *entry = find(name, 0, error);
  if (!entry)
    return false;
  const std::vector<int64_t> &full = entry->shape;
  if (!slice.fitsIn(full)) {
    error = prefix + ": tensor '" + name + "' of shape " + shapeText(full) +
            " has no slice " + slice.spec(full);
    return false;
  }
  size_t element = elementSize(entry->dtype);
  std::vector<int64_t> start = slice.startIn(full), shape = slice.shapeIn(full);
  bytes.assign(size_t(volume(shape)) * element, 0);
  if (!entry->sliced()) {
    if (shape == full)
      return readWhole(name, *entry, bytes, error);
    std::vector<uint8_t> whole;
    if (!readWhole(name, *entry, whole, error))
      return false;
    std::vector<int64_t> end(start);
    for (size_t d = 0; d < end.size(); ++d)
      end[d] += shape[d];
    if (volume(shape) > 0)
      copyBox(whole.data(), std::vector<int64_t>(full.size(), 0), full,
              bytes.data(), start, shape, start, end, element);
    return true;
  }
  // The saved slices do not overlap (a saver refuses that): their parts in
  // the wanted slice must add up to all of it.
  int64_t covered = 0;
  for (const TensorSlice &saved : entry->slices) {
    std::vector<int64_t> lo, hi;
    if (!saved.fitsIn(full) || !intersect(saved, slice, full, lo, hi))
      continue;
    std::string key = sliceKey(name, saved);
    auto found = tensors.find(key);
    if (found == tensors.end() || found->second.sliced() ||
        found->second.dtype != entry->dtype ||
        found->second.shape != saved.shapeIn(full)) {
      error = prefix + ": tensor '" + name + "' lists a slice " +
              saved.spec(full) + " whose bytes are missing or of another shape";
      return false;
    }
    std::vector<uint8_t> part;
    if (!readWhole(key, found->second, part, error))
      return false;
    copyBox(part.data(), saved.startIn(full), saved.shapeIn(full), bytes.data(),
            start, shape, lo, hi, element);
    int64_t count = 1;
    for (size_t d = 0; d < lo.size(); ++d)
      count *= hi[d] - lo[d];
    covered += count;
  }
  if (covered != volume(shape)) {
    error = prefix + ": tensor '" + name + "' was not saved whole in " +
            slice.spec(full) + " (its slices cover " + std::to_string(covered) +
            " of the " + std::to_string(volume(shape)) + " elements)";
    return false;
  }
  return true;
}

bool CheckpointWriter::addSlice(const std::string &name, int dtype,
                                const std::vector<int64_t> &fullShape,
                                const TensorSlice &slice, const void *data,
                                size_t bytes, std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "checkpoint tensor '" + name + "': " + why;
    return false;
  };
  if (name.empty())
    return fail("empty name");
  if (tensors.count(name))
    return fail("saved whole and in slices");
  if (!slice.fitsIn(fullShape))
    return fail("slice " + slice.spec(fullShape) + " does not lie in " +
                shapeText(fullShape));
  CheckpointEntry &entry = slicedTensors[name];
  if (entry.sliced() && (entry.dtype != dtype || entry.shape != fullShape))
    return fail("its slices disagree on the dtype or the full shape");
  for (const TensorSlice &other : entry.slices) {
    std::vector<int64_t> lo, hi;
    if (intersect(other, slice, fullShape, lo, hi))
      return fail("slice " + slice.spec(fullShape) + " overlaps " +
                  other.spec(fullShape));
  }
  if (!add(sliceKey(name, slice), dtype, slice.shapeIn(fullShape), data, bytes,
           error))
    return false;
  entry.dtype = dtype;
  entry.shape = fullShape;
  entry.slices.push_back(slice);
  return true;
}

bool mergeSlicedEntry(const std::string &name, CheckpointEntry &into,
                      const CheckpointEntry &from, std::string &error) {
  if (!into.sliced() || !from.sliced() || into.dtype != from.dtype ||
      into.shape != from.shape) {
    error = "tensor '" + name + "' is in two shards" +
            (into.sliced() && from.sliced()
                 ? ", as slices of different dtypes or full shapes"
                 : "");
    return false;
  }
  into.slices.insert(into.slices.end(), from.slices.begin(), from.slices.end());
  return true;
}

} // namespace tfc::rt
