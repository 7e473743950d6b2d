//===- CheckpointOps.cpp - SaveV2, RestoreV2, MergeV2Checkpoints as ops ---===//
//
// The checkpoint ops of a graph's saver, run by a step: they read and write
// TensorFlow's checkpoint V2 bundles through the same reader and writer as
// the program's own --checkpoint-dir saves. Their string inputs are handles
// (tfc_runtime.h); the tensors' dtypes and shapes come from a table fixed
// at compile time. A failure (a missing file or tensor, a dtype or shape
// that differs) stops the step with one line naming the node.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "tfc/Runtime/Checkpoint.h"

#include <cerrno>
#include <cstring>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace tfc::rt;
using tfc::stringOf;

namespace {

[[noreturn]] void fail(tfc_runtime *runtime, const char *node,
                       const std::string &message) {
  tfc_fail(runtime, (std::string("node '") + node + "': " + message).c_str());
  std::abort(); // tfc_fail does not return.
}

/// One tensor of a save or restore, as the descriptor gives it.
struct TensorSpec {
  int dtype;
  std::vector<int64_t> shape;
  int64_t count = 1;
};

std::vector<TensorSpec> specsOf(const int64_t *descriptor) {
  std::vector<TensorSpec> specs(descriptor[0]);
  const int64_t *at = descriptor + 1;
  for (TensorSpec &spec : specs) {
    spec.dtype = int(*at++);
    int64_t rank = *at++;
    spec.shape.assign(at, at + rank);
    at += rank;
    for (int64_t d : spec.shape)
      spec.count *= d;
  }
  return specs;
}

std::string describe(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// A tensor saved or restored as a slice of a larger one (a part of a
/// partitioned variable): the full tensor's shape and where the part is.
struct SliceOf {
  std::vector<int64_t> fullShape;
  TensorSlice slice;
};

/// What a SaveV2 or RestoreV2 call is about: the checkpoint's prefix, and
/// each tensor's key, dtype and shape, and its slice when it is one.
struct Operands {
  std::string prefix;
  std::vector<std::string> keys;
  std::vector<TensorSpec> specs;
  std::vector<std::optional<SliceOf>> slices;
};

Operands operandsOf(tfc_runtime *runtime, const char *node,
                    const uint64_t *prefix, const uint64_t *names,
                    const uint64_t *slices, const int64_t *descriptor) {
  Operands operands{stringOf(*prefix), {}, specsOf(descriptor), {}};
  for (size_t i = 0; i < operands.specs.size(); ++i) {
    operands.keys.push_back(stringOf(names[i]));
    std::string spec = stringOf(slices[i]), error;
    operands.slices.emplace_back();
    if (spec.empty())
      continue;
    SliceOf slice;
    if (!TensorSlice::parseSpec(spec, slice.fullShape, slice.slice, error))
      fail(runtime, node, "tensor '" + operands.keys.back() + "': " + error);
    if (slice.slice.shapeIn(slice.fullShape) != operands.specs[i].shape)
      fail(runtime, node,
           "tensor '" + operands.keys.back() + "': slice '" + spec +
               "' is of shape " +
               describe(slice.slice.shapeIn(slice.fullShape)) +
               "; the graph's tensor has shape " +
               describe(operands.specs[i].shape));
    operands.slices.back() = slice;
  }
  return operands;
}

/// The directory part of a path ("" when it has none).
std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

bool exists(const std::string &path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

} // namespace

extern "C" {

void tfc_save_v2(tfc_runtime *runtime, const uint64_t *prefix,
                 const uint64_t *names, const uint64_t *shape_and_slices,
                 const int64_t *tensors, const int64_t *descriptor,
                 const char *node) {
  auto [path, keys, specs, slices] =
      operandsOf(runtime, node, prefix, names, shape_and_slices, descriptor);
  std::string error;
  CheckpointWriter writer;
  for (size_t i = 0; i < specs.size(); ++i) {
    const void *data = reinterpret_cast<const void *>(tensors[i]);
    size_t bytes = specs[i].count * elementSize(specs[i].dtype);
    if (!(slices[i] ? writer.addSlice(keys[i], specs[i].dtype,
                                      slices[i]->fullShape, slices[i]->slice,
                                      data, bytes, error)
                    : writer.add(keys[i], specs[i].dtype, specs[i].shape, data,
                                 bytes, error)))
      fail(runtime, node, error);
  }
  std::string dir = directoryOf(path);
  if ((!dir.empty() && !makeDirectories(dir, error)) ||
      !writer.write(path, error))
    fail(runtime, node, error);
}

void tfc_restore_v2(tfc_runtime *runtime, const uint64_t *prefix,
                    const uint64_t *names, const uint64_t *shape_and_slices,
                    const int64_t *tensors, const int64_t *descriptor,
                    const char *node) {
  auto [path, keys, specs, slices] =
      operandsOf(runtime, node, prefix, names, shape_and_slices, descriptor);
  std::string error;
  CheckpointReader reader;
  if (!reader.open(path, error))
    fail(runtime, node, error);
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < specs.size(); ++i) {
    auto entry = reader.entries().find(keys[i]);
    if (entry == reader.entries().end())
      fail(runtime, node, path + ": no tensor '" + keys[i] + "'");
    const std::vector<int64_t> &shape =
        slices[i] ? slices[i]->fullShape : specs[i].shape;
    if (entry->second.dtype != specs[i].dtype || entry->second.shape != shape)
      fail(runtime, node,
           path + ": tensor '" + keys[i] + "' has dtype " +
               std::to_string(entry->second.dtype) + " and shape " +
               describe(entry->second.shape) + "; the graph expects dtype " +
               std::to_string(specs[i].dtype) + " and shape " +
               describe(shape));
    if (!(slices[i] ? reader.readSlice(keys[i], slices[i]->slice, bytes, error)
                    : reader.read(keys[i], bytes, error)))
      fail(runtime, node, error);
    std::memcpy(reinterpret_cast<void *>(tensors[i]), bytes.data(),
                bytes.size());
  }
}

void tfc_merge_v2_checkpoints(tfc_runtime *runtime, const uint64_t *prefixes,
                              const uint64_t *destination, const char *node,
                              int64_t count, int64_t delete_old_dirs,
                              int64_t allow_missing_files) {
  std::string target = stringOf(*destination), error;
  // Every source's entries, their shards numbered after the earlier ones'.
  std::vector<std::pair<std::string, int32_t>> sources; // prefix, shards
  std::map<std::string, CheckpointEntry> merged;
  int32_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    std::string source = stringOf(prefixes[i]);
    if (allow_missing_files && !exists(source + ".index"))
      continue;
    CheckpointReader reader;
    if (!reader.open(source, error))
      fail(runtime, node, error);
    for (const auto &[key, entry] : reader.entries()) {
      CheckpointEntry moved = entry;
      moved.shard += total;
      auto [at, added] = merged.emplace(key, moved);
      // A partitioned variable's parts saved by several savers: one full
      // entry listing every slice.
      if (!added && !mergeSlicedEntry(key, at->second, entry, error))
        fail(runtime, node, error + " of the checkpoints");
    }
    sources.push_back({source, reader.shardCount()});
    total += reader.shardCount();
  }
  if (sources.empty())
    fail(runtime, node, "none of the checkpoints to merge into '" + target +
                            "' exists");
  std::string dir = directoryOf(target);
  if (!dir.empty() && !makeDirectories(dir, error))
    fail(runtime, node, error);
  // The data first, so that the new index never names a missing shard.
  int32_t base = 0;
  for (const auto &[source, shards] : sources) {
    for (int32_t s = 0; s < shards; ++s) {
      std::string from = shardPath(source, s, shards);
      std::string to = shardPath(target, base + s, total);
      if (::rename(from.c_str(), to.c_str()) != 0)
        fail(runtime, node, from + ": cannot move to " + to + ": " +
                                std::strerror(errno));
      faultPoint();
    }
    base += shards;
  }
  if (!writeIndex(target, total, merged, error))
    fail(runtime, node, error);
  for (const auto &[source, shards] : sources) {
    ::unlink((source + ".index").c_str());
    // Only an emptied directory goes, as TensorFlow's merge does.
    if (delete_old_dirs && !directoryOf(source).empty())
      ::rmdir(directoryOf(source).c_str());
  }
}

} // extern "C"
