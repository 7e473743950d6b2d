//===- CheckpointManager.cpp - a program's checkpoints in a directory -----===//

#include "tfc/Runtime/CheckpointManager.h"
#include "tfc/Runtime/Checkpoint.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <dirent.h>
#include <unistd.h>

namespace tfc::rt {
namespace {

std::string join(const std::string &dir, const std::string &name) {
  if (name.empty() || name[0] == '/' || dir.empty())
    return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

/// Parses the quoted string of a text-format field (C escapes \" \\ \n).
bool parseQuoted(const std::string &text, std::string &value) {
  size_t open = text.find('"');
  if (open == std::string::npos)
    return false;
  value.clear();
  for (size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"')
      return true;
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[++i];
      value += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else {
      value += c;
    }
  }
  return false;
}

std::string quote(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// The full shape and the slice of `variable` (of `shape`): its slice spec's,
/// or for a whole variable its own shape, whole.
bool sliceOf(const tfc_variable_info &variable, const std::vector<int64_t> &shape,
             std::vector<int64_t> &fullShape, TensorSlice &slice,
             std::string &error) {
  if (!variable.slice || !*variable.slice) {
    fullShape = shape;
    slice = TensorSlice::whole(shape.size());
    return true;
  }
  if (!TensorSlice::parseSpec(variable.slice, fullShape, slice, error)) {
    error = std::string("variable '") + variable.name + "': " + error;
    return false;
  }
  if (slice.shapeIn(fullShape) != shape) {
    error = std::string("variable '") + variable.name + "': its slice '" +
            variable.slice + "' is not of its shape";
    return false;
  }
  return true;
}

size_t bytesOf(const tfc_variable_info &variable) {
  size_t count = 1;
  for (int32_t d = 0; d < variable.rank; ++d)
    count *= size_t(variable.dims[d]);
  return count * elementSize(variable.dtype);
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

/// The names in directory `dir` but "." and ".." (none when it cannot be
/// read).
std::vector<std::string> namesIn(const std::string &dir) {
  std::vector<std::string> names;
  DIR *listing = ::opendir(dir.c_str());
  if (!listing)
    return names;
  while (dirent *entry = ::readdir(listing))
    if (std::strcmp(entry->d_name, ".") != 0 &&
        std::strcmp(entry->d_name, "..") != 0)
      names.push_back(entry->d_name);
  ::closedir(listing);
  return names;
}

/// Deletes the temporary files of saves that a crash interrupted
/// (NAME.tmpPID beside the checkpoint files and the state file).
void removeStaleTemporaries(const std::string &dir) {
  for (const std::string &name : namesIn(dir)) {
    bool ours = name.rfind("model.ckpt-", 0) == 0 || name.rfind("checkpoint", 0) == 0;
    if (ours && name.find(".tmp") != std::string::npos)
      std::remove(join(dir, name).c_str());
  }
}

/// Removes the shard directories (model.ckpt-N_temp) in `dir`: called
/// once a sharded save is merged, when every one left is a crashed save's.
void removeShardDirectories(const std::string &dir) {
  const std::string suffix = "_temp";
  for (const std::string &name : namesIn(dir)) {
    if (name.rfind("model.ckpt-", 0) != 0 || name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    std::string temp = join(dir, name);
    for (const std::string &part : namesIn(temp))
      std::remove(join(temp, part).c_str());
    ::rmdir(temp.c_str());
  }
}

} // namespace

bool parseCheckpointState(const std::string &text, const std::string &dir,
                          const std::string &path, CheckpointState &state,
                          std::string &error) {
  state = {};
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#')
      continue;
    size_t colon = line.find(':', start);
    std::string field = line.substr(start, colon == std::string::npos
                                               ? std::string::npos
                                               : colon - start);
    std::string value;
    bool isPath = field == "model_checkpoint_path" ||
                  field == "all_model_checkpoint_paths";
    if (isPath && !parseQuoted(line, value)) {
      error = path + ":" + std::to_string(number) + ": malformed " + field;
      return false;
    }
    if (field == "model_checkpoint_path")
      state.latest = join(dir, value);
    else if (field == "all_model_checkpoint_paths")
      state.all.push_back(join(dir, value));
    // Timestamps and fields of later versions are not needed here.
  }
  if (state.latest.empty()) {
    error = path + ": names no model_checkpoint_path";
    return false;
  }
  return true;
}

bool readCheckpointState(const std::string &dir, CheckpointState &state,
                         std::string &error) {
  std::string path = join(dir, "checkpoint");
  std::ifstream in(path);
  if (!in) {
    error = "no checkpoint in " + dir + " (" + path + ": " +
            std::strerror(errno) + ")";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseCheckpointState(text.str(), dir, path, state, error);
}

int64_t checkpointStep(const std::string &prefix) {
  std::string name = baseName(prefix);
  size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size() ||
      name.size() - dash > 19)
    return 0;
  int64_t step = 0;
  for (size_t i = dash + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9')
      return 0;
    step = step * 10 + (name[i] - '0');
  }
  return step;
}

namespace {

/// Removes checkpoint `prefix`: its index and every data shard the index
/// names (one when it cannot be read).
void removeCheckpointFiles(const std::string &prefix) {
  CheckpointReader reader;
  std::string ignored;
  int32_t shards = reader.open(prefix, ignored) ? reader.shardCount() : 1;
  std::remove((prefix + ".index").c_str());
  for (int32_t shard = 0; shard < shards; ++shard) {
    faultPoint();
    std::remove(shardPath(prefix, shard, shards).c_str());
  }
}

/// Makes DIR/NAME, whose files are whole on disk, the latest checkpoint in
/// DIR/checkpoint, then deletes the oldest beyond `keep` (0: keep all).
bool commitCheckpoint(const std::string &dir, const std::string &name,
                      int keep, std::string &error) {
  std::string prefix = join(dir, name);
  CheckpointState previous;
  std::string ignored;
  std::vector<std::string> kept;
  if (readCheckpointState(dir, previous, ignored))
    for (const std::string &old : previous.all)
      if (baseName(old) != name)
        kept.push_back(old);
  kept.push_back(prefix);
  std::vector<std::string> removed;
  while (keep > 0 && int(kept.size()) > keep) {
    removed.push_back(kept.front());
    kept.erase(kept.begin());
  }
  std::ostringstream text;
  text << "model_checkpoint_path: " << quote(name) << "\n";
  for (const std::string &path : kept)
    text << "all_model_checkpoint_paths: "
         << quote(path.rfind(dir, 0) == 0 ? baseName(path) : path) << "\n";
  if (!writeFileAtomically(join(dir, "checkpoint"), text.str(), error))
    return false;
  // Older ones go only after the state file stops naming them.
  for (const std::string &old : removed)
    removeCheckpointFiles(old);
  return true;
}

} // namespace

bool writeVariables(const tfc_model &model, const void *state,
                    const std::string &prefix, std::string &error) {
  const uint8_t *bytes = static_cast<const uint8_t *>(state);
  CheckpointWriter writer;
  for (int32_t i = 0; i < model.num_variables; ++i) {
    const tfc_variable_info &variable = model.variables[i];
    if (!bytes[variable.flag_offset]) {
      error = std::string("cannot save variable '") + variable.name +
              "': it is not initialized";
      return false;
    }
    std::vector<int64_t> shape(variable.dims, variable.dims + variable.rank);
    std::vector<int64_t> fullShape;
    TensorSlice slice;
    if (!sliceOf(variable, shape, fullShape, slice, error))
      return false;
    if (!(variable.slice && *variable.slice
              ? writer.addSlice(variable.key, variable.dtype, fullShape, slice,
                                bytes + variable.offset, bytesOf(variable),
                                error)
              : writer.add(variable.key, variable.dtype, shape,
                           bytes + variable.offset, bytesOf(variable), error)))
      return false;
  }
  if (model.object_graph_bytes > 0 &&
      !writer.addStrings(kObjectGraphKey, {},
                         {std::string(model.object_graph, model.object_graph_bytes)},
                         error))
    return false;
  return writer.write(prefix, error);
}

std::string checkpointName(int64_t step) {
  return "model.ckpt-" + std::to_string(step);
}

bool saveCheckpoint(const tfc_model &model, const void *state,
                    const std::string &dir, int64_t step, int keep,
                    std::string &error) {
  removeStaleTemporaries(dir);
  std::string name = checkpointName(step);
  // The new checkpoint is whole on disk before it becomes the latest.
  return writeVariables(model, state, join(dir, name), error) &&
         commitCheckpoint(dir, name, keep, error);
}

std::string shardPartPrefix(const std::string &dir, int64_t step, int shard) {
  return join(dir, checkpointName(step) + "_temp/part-" + std::to_string(shard));
}

bool mergeCheckpointShards(const std::string &dir, int64_t step, int numShards,
                           int keep, std::string &error) {
  std::string name = checkpointName(step), prefix = join(dir, name);
  std::map<std::string, CheckpointEntry> entries;
  for (int shard = 0; shard < numShards; ++shard) {
    std::string part = shardPartPrefix(dir, step, shard);
    CheckpointReader reader;
    if (!reader.open(part, error))
      return false;
    for (auto [key, entry] : reader.entries()) {
      entry.shard = shard;
      // A partitioned variable's parts on several tasks: one full entry
      // listing every task's slices.
      auto [at, added] = entries.emplace(key, entry);
      if (!added && !mergeSlicedEntry(key, at->second, entry, error)) {
        error = prefix + ": " + error;
        return false;
      }
    }
    std::string from = shardPath(part, 0, 1), to = shardPath(prefix, shard, numShards);
    if (std::rename(from.c_str(), to.c_str()) != 0) {
      error = "cannot move " + from + " to " + to + ": " + std::strerror(errno);
      return false;
    }
  }
  // Every shard is durable (each was flushed before its rename): now the
  // merged index, then the state file.
  if (!writeIndex(prefix, numShards, entries, error) ||
      !commitCheckpoint(dir, name, keep, error))
    return false;
  // This save's parts (their indexes, now merged), and what a save that
  // crashed before its merge left.
  removeShardDirectories(dir);
  return true;
}

bool restoreCheckpoint(const tfc_model &model, void *state,
                       const std::string &prefix, std::string &error) {
  CheckpointReader reader;
  if (!reader.open(prefix, error))
    return false;
  uint8_t *bytes = static_cast<uint8_t *>(state);
  for (int32_t i = 0; i < model.num_variables; ++i) {
    const tfc_variable_info &variable = model.variables[i];
    auto it = reader.entries().find(variable.key);
    if (it == reader.entries().end()) {
      error = prefix + ": no tensor '" + variable.key + "' for variable '" +
              variable.name + "'";
      return false;
    }
    std::vector<int64_t> shape(variable.dims, variable.dims + variable.rank);
    std::vector<int64_t> fullShape;
    TensorSlice slice;
    if (!sliceOf(variable, shape, fullShape, slice, error))
      return false;
    if (it->second.dtype != variable.dtype || it->second.shape != fullShape) {
      error = prefix + ": tensor '" + variable.key + "' has dtype " +
              std::to_string(it->second.dtype) + " and shape " +
              shapeString(it->second.shape) + ", variable '" + variable.name +
              "' has dtype " + std::to_string(variable.dtype) + " and shape " +
              shapeString(fullShape) +
              (fullShape != shape ? " (of which it is a part)" : "");
      return false;
    }
    // A partitioned variable's part takes its slice, whether the
    // checkpoint has the tensor in slices (of any partitioning) or whole.
    std::vector<uint8_t> value;
    if (!reader.readSlice(variable.key, slice, value, error))
      return false;
    std::memcpy(bytes + variable.offset, value.data(), value.size());
    bytes[variable.flag_offset] = 1;
  }
  return true;
}

} // namespace tfc::rt
