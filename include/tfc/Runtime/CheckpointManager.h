//===- CheckpointManager.h - a program's checkpoints in a directory -*- C++ -*-===//
//
// Saving and restoring a compiled model's variables the way TensorFlow's
// Saver and CheckpointManager do, so that the two exchange checkpoints:
// DIR/model.ckpt-STEP.{index,data-00000-of-00001} (the step is part of the
// name) and DIR/checkpoint, the CheckpointState text that names the latest
// checkpoint and the ones kept. Every file is written to a temporary file
// and renamed into place, and the state file only changes once a
// checkpoint is complete: a crash at any point leaves the latest good
// checkpoint readable. Errors are one line naming the file or variable.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_CHECKPOINTMANAGER_H
#define TFC_RUNTIME_CHECKPOINTMANAGER_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfc::rt {

/// The checkpoints named by DIR/checkpoint: the latest, and all kept
/// (oldest first), as prefixes (relative names resolved against DIR).
struct CheckpointState {
  std::string latest;
  std::vector<std::string> all;
};

/// Parses the text of a state file (`path` names it in errors); relative
/// names are resolved against `dir`.
bool parseCheckpointState(const std::string &text, const std::string &dir,
                          const std::string &path, CheckpointState &state,
                          std::string &error);

/// Reads DIR/checkpoint; false with `error` set when it is missing or
/// malformed.
bool readCheckpointState(const std::string &dir, CheckpointState &state,
                         std::string &error);

/// The step a prefix records (model.ckpt-STEP), or 0 for a name without one.
int64_t checkpointStep(const std::string &prefix);

/// Saves the model's variables from `state` as DIR/model.ckpt-STEP, makes
/// it the latest in DIR/checkpoint and deletes the oldest checkpoints
/// beyond `keep` (0: keep all). Variables not yet initialized are an error.
bool saveCheckpoint(const tfc_model &model, const void *state,
                    const std::string &dir, int64_t step, int keep,
                    std::string &error);

/// "model.ckpt-STEP", the name of the checkpoint of a step.
std::string checkpointName(int64_t step);

/// Writes the model's variables from `state` as a checkpoint at `prefix`
/// (one data shard), without making it anyone's latest.
bool writeVariables(const tfc_model &model, const void *state,
                    const std::string &prefix, std::string &error);

/// A sharded save, TensorFlow's way: each of `numShards` tasks writes its
/// variables with writeVariables to its part, DIR/model.ckpt-STEP_temp/
/// part-K (shardPartPrefix); then mergeCheckpointShards moves each part's
/// data to DIR/model.ckpt-STEP.data-0000K-of-0000N, writes the merged
/// index, and only then makes the checkpoint the latest (as saveCheckpoint,
/// keeping the newest `keep`).
std::string shardPartPrefix(const std::string &dir, int64_t step, int shard);
bool mergeCheckpointShards(const std::string &dir, int64_t step, int numShards,
                           int keep, std::string &error);

/// Restores every variable of the model from the checkpoint at `prefix`
/// into `state` and marks them initialized. A variable missing from the
/// checkpoint, or stored with another dtype or shape, is an error naming it.
bool restoreCheckpoint(const tfc_model &model, void *state,
                       const std::string &prefix, std::string &error);

} // namespace tfc::rt

#endif // TFC_RUNTIME_CHECKPOINTMANAGER_H
