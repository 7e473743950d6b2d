//===- Checkpoint.h - reading TensorFlow checkpoints (V2) -------*- C++ -*-===//
//
// A TensorFlow V2 checkpoint ("tensor bundle") is a prefix with an index,
// PREFIX.index, and data shards, PREFIX.data-SSSSS-of-NNNNN. The index is
// a LevelDB-format table mapping each tensor's name to where its bytes
// are (BundleEntryProto: dtype, shape, shard, offset, size, CRC32C); the
// empty key holds the header (BundleHeaderProto: shard count,
// endianness). This reader parses both, verifying every block and tensor
// checksum, with the standard library only: the compiler freezes
// variables with it and the runtime will restore them with it. Errors are
// one line naming the file.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_CHECKPOINT_H
#define TFC_RUNTIME_CHECKPOINT_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tfc::rt {

/// TensorFlow's DT_STRING.
inline constexpr int kStringDtype = 7;

/// The string tensor where TF2's tf.train.Checkpoint keeps the object graph
/// (a serialized TrackableObjectGraph) that maps objects to the keys of
/// their variables.
inline constexpr const char *kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// A slice of a tensor as TensorFlow's savers name the part of a
/// partitioned variable (TensorSliceProto): per dimension, where it starts
/// and how long it is, or the whole dimension.
struct TensorSlice {
  struct Extent {
    int64_t start = 0;
    /// -1: the whole dimension.
    int64_t length = -1;
    bool operator==(const Extent &other) const {
      return start == other.start && length == other.length;
    }
  };
  std::vector<Extent> extents;

  bool operator==(const TensorSlice &other) const {
    return extents == other.extents;
  }
  /// The whole of a tensor of rank `rank`.
  static TensorSlice whole(size_t rank);
  /// A save op's shape_and_slices entry, "FULL SHAPE SLICE": the full
  /// shape's dimensions separated by spaces, then the slice, dimensions
  /// separated by ':', each "START,LENGTH" or "-" (whole): "10 4 0,5:-".
  /// An empty spec is the whole tensor (no full shape). False with `error`
  /// saying what is wrong.
  static bool parseSpec(const std::string &spec, std::vector<int64_t> &fullShape,
                        TensorSlice &slice, std::string &error);
  /// The spec of this slice of a tensor of `fullShape` (parseSpec's form).
  std::string spec(const std::vector<int64_t> &fullShape) const;
  /// Whether the slice lies in a tensor of `fullShape` (rank included).
  bool fitsIn(const std::vector<int64_t> &fullShape) const;
  /// Its start and shape in a tensor of `fullShape` (fitsIn).
  std::vector<int64_t> startIn(const std::vector<int64_t> &fullShape) const;
  std::vector<int64_t> shapeIn(const std::vector<int64_t> &fullShape) const;
};

/// The key a slice's bytes have in a bundle, TensorFlow's: the tensor's
/// name and the slice in the ordered code (tensorflow::strings::OrderedCode)
/// that sorts them before every plain name.
std::string sliceKey(const std::string &name, const TensorSlice &slice);

/// Where a tensor of the checkpoint lives, and what it is.
struct CheckpointEntry {
  int dtype = 0; // TensorFlow's DataType number.
  std::vector<int64_t> shape;
  int32_t shard = 0;
  int64_t offset = 0, size = 0;
  uint32_t maskedCrc32c = 0;
  bool hasCrc32c = false;
  /// A tensor saved in slices (a partitioned variable): the full tensor's
  /// entry has no bytes but its slices, each of whose bytes are the entry
  /// of sliceKey(name, slice).
  std::vector<TensorSlice> slices;
  bool sliced() const { return !slices.empty(); }
};

class CheckpointReader {
public:
  /// Reads and checks PREFIX.index; false with `error` set on failure.
  bool open(const std::string &prefix, std::string &error);

  /// Parses an index already in memory (`name` is used in messages).
  bool parseIndex(const uint8_t *bytes, size_t size, const std::string &name,
                  std::string &error);

  const std::map<std::string, CheckpointEntry> &entries() const {
    return tensors;
  }
  /// How many data shards (PREFIX.data-NNNNN-of-SSSSS) the entries name.
  int32_t shardCount() const { return numShards; }

  /// The bytes of tensor `name` (little-endian, row-major), checked against
  /// the entry's size and CRC32C. Numeric and bool dtypes only. A tensor
  /// saved in slices is put together from them.
  bool read(const std::string &name, std::vector<uint8_t> &bytes,
            std::string &error) const;

  /// The bytes of `slice` of tensor `name` (the part of a partitioned
  /// variable), taken from the slices it was saved in, or from the whole
  /// tensor; an error when the slice does not fit the tensor's shape, or a
  /// part of it was never saved.
  bool readSlice(const std::string &name, const TensorSlice &slice,
                 std::vector<uint8_t> &bytes, std::string &error) const;

  /// The elements of string tensor `name`, row-major, checked against the
  /// entry's CRC32C.
  bool readStrings(const std::string &name, std::vector<std::string> &strings,
                   std::string &error) const;

private:
  /// The entry of tensor `name` that is of strings exactly when `dtype`
  /// is kStringDtype (and not saved in slices, for strings); null with
  /// `error` set otherwise.
  const CheckpointEntry *find(const std::string &name, int dtype,
                              std::string &error) const;
  /// The bytes of an unsliced entry, checked against its CRC32C.
  bool readWhole(const std::string &name, const CheckpointEntry &entry,
                 std::vector<uint8_t> &bytes, std::string &error) const;
  bool readEntry(const std::string &name, int64_t expectedSize,
                 std::vector<uint8_t> &bytes, std::string &error) const;

  std::string prefix;
  int32_t numShards = 1;
  std::map<std::string, CheckpointEntry> tensors;
};

/// CRC32C (Castagnoli), and LevelDB's masking of stored checksums.
/// Writes a checkpoint V2 bundle that TensorFlow reads
/// (tf.train.load_checkpoint, Saver.restore): PREFIX.index, a table of
/// entries sorted by name after the bundle header, and one data shard
/// PREFIX.data-00000-of-00001 with every tensor's bytes and their CRC32C.
class CheckpointWriter {
public:
  /// Adds tensor `name` (little-endian, row-major bytes of a numeric or
  /// bool `dtype`). False with `error` set for a repeated or empty name or
  /// a size that does not fit the shape.
  bool add(const std::string &name, int dtype, const std::vector<int64_t> &shape,
           const void *data, size_t bytes, std::string &error);

  /// Adds string tensor `name` with `strings` as its elements, row-major.
  bool addStrings(const std::string &name, const std::vector<int64_t> &shape,
                  const std::vector<std::string> &strings, std::string &error);

  /// Adds `slice` of tensor `name` of `fullShape` (a part of a
  /// partitioned variable), its bytes those of the slice's shape, as
  /// TensorFlow's savers do: under sliceKey, and listed in the full
  /// tensor's entry. False with `error` set when the slice does not fit,
  /// overlaps one added before, or disagrees with them on the dtype or the
  /// full shape, or when `name` was added whole.
  bool addSlice(const std::string &name, int dtype,
                const std::vector<int64_t> &fullShape, const TensorSlice &slice,
                const void *data, size_t bytes, std::string &error);

  /// Writes the data shard, then the index, each to a temporary file that
  /// is flushed to disk and renamed into place, so a crash leaves either
  /// the old files or the new ones.
  bool write(const std::string &prefix, std::string &error) const;

private:
  /// The element count of `shape` for a new tensor `name`; -1 with `error`
  /// set for an empty or repeated name or a negative dimension.
  int64_t checkNew(const std::string &name, const std::vector<int64_t> &shape,
                   std::string &error) const;

  struct Tensor {
    int dtype;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;
    uint32_t crc; // CRC32C of the stored bytes (for strings, see addStrings).
  };
  std::map<std::string, Tensor> tensors;
  /// The full entries of tensors saved in slices (no bytes of their own).
  std::map<std::string, CheckpointEntry> slicedTensors;
};

/// Adds the slices of `from` to those of `into`, the full entry of the same
/// tensor `name` in another shard of one checkpoint (a sharded save, every
/// task writing the slices it holds); false with `error` set when the two
/// disagree on the dtype or the full shape, or one is not sliced.
bool mergeSlicedEntry(const std::string &name, CheckpointEntry &into,
                      const CheckpointEntry &from, std::string &error);

/// Writes PREFIX.index (atomically, as writeFileAtomically) for tensors
/// that are already in `numShards` data shards: `entries` say where.
bool writeIndex(const std::string &prefix, int32_t numShards,
                const std::map<std::string, CheckpointEntry> &entries,
                std::string &error);

/// The name of data shard `shard` of `numShards` of checkpoint `prefix`:
/// PREFIX.data-00000-of-00001 and the like.
std::string shardPath(const std::string &prefix, int32_t shard,
                      int32_t numShards);

/// A string tensor's elements in the bundle layout: each length as a
/// varint64, the masked CRC32C of the lengths, then the bytes of each
/// element; `crc` is the tensor's checksum, which covers the lengths (as
/// little-endian uint32s; uint64s past 4 GiB), that masked CRC and the
/// bytes.
std::string encodeStrings(const std::vector<std::string> &strings, uint32_t &crc);

/// The `count` elements of a string tensor stored as encodeStrings lays
/// them out, and its checksum; false if the bytes are not such a layout.
bool decodeStrings(const uint8_t *bytes, size_t size, int64_t count,
                   std::vector<std::string> &strings, uint32_t &crc);

/// Bytes per element of a TensorFlow DataType the bundle format stores
/// (numeric, bool, complex); 0 for others.
size_t elementSize(int dtype);

/// Writes `bytes` to `path` through a temporary file beside it that is
/// flushed to disk and renamed into place: readers see the old file or the
/// whole new one, even if the process dies meanwhile.
bool writeFileAtomically(const std::string &path, const std::string &bytes,
                         std::string &error);

/// Whether writeFileAtomically could write `path` (its temporary file can
/// be made; nothing is left behind); false with `error` naming it.
bool checkWritable(const std::string &path, std::string &error);

/// Creates `dir` and its missing parents (mkdir -p); false with `error`
/// naming the part that could not be made.
bool makeDirectories(const std::string &dir, std::string &error);

/// The file name part of a path (all of it when it has no '/').
std::string baseName(const std::string &path);

/// A point where a crash could damage a checkpoint being written: with
/// TFC_FAULT_AT=N in the environment, the N-th such point reached kills the
/// process (SIGKILL), for the fault-injection tests.
void faultPoint();

uint32_t crc32c(const uint8_t *data, size_t size, uint32_t crc = 0);
uint32_t maskCrc32c(uint32_t crc);
uint32_t unmaskCrc32c(uint32_t masked);

} // namespace tfc::rt

#endif // TFC_RUNTIME_CHECKPOINT_H
