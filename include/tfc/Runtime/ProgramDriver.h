//===- ProgramDriver.h - what a compiled program does with its flags -*- C++ -*-===//
//
// The run of a compiled program: its flags (--input, --output, --steps,
// --bench, checkpoints; ProgramDriver.cpp lists them), the init entry or a
// restore, the steps, the outputs. A program's main runs it as is; a
// cluster task's main (lib/Distributed/TaskMain.cpp) gives it the
// transport's rendezvous and runs each step on the other tasks too.
//
// Standard C++ only.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_PROGRAMDRIVER_H
#define TFC_RUNTIME_PROGRAMDRIVER_H

#include "tfc/Runtime/Trace.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tfc::rt {

struct ProgramHooks {
  /// The runtime's rendezvous (tfc_runtime_options); null: in-process.
  tfc_rendezvous *(*createRendezvous)(void *context) = nullptr;
  void *rendezvousContext = nullptr;
  /// Around every run of the model's step (numbered from 0) and of its
  /// once-run entries (init -3, local init -2, chief init -1). A hook that
  /// fails ends the process itself.
  std::function<void(int64_t step)> beforeStep, afterStep;
  /// Checkpoints of the job, when its variables are not all in this
  /// process (CheckpointManager.h's saveCheckpoint and restoreCheckpoint
  /// otherwise): the same contract, `state` being this process's.
  std::function<bool(const void *state, const std::string &dir, int64_t step,
                     int keep, std::string &error)>
      saveCheckpoint;
  std::function<bool(void *state, const std::string &prefix,
                     std::string &error)>
      restoreCheckpoint;
  /// False when the variables are another process's to initialize (a
  /// between-graph worker other than the chief): neither the init entry,
  /// a restore nor the chief init runs (the local init does), and the
  /// checkpoint flags are refused.
  bool runsInit = true;
  /// After the steps, before the last checkpoint and the outputs (the
  /// chief of between-graph replication waits there for the workers);
  /// with --bench, after the bench's steps, the checkpoint before them.
  std::function<void()> afterSteps;
  /// After a step that this process ran whole: whether another task's
  /// part of it found the input ended (a closed queue there), with why.
  /// The step is then abandoned, as when a queue of this process ends it.
  std::function<bool(std::string &why)> inputEnded;
  /// --trace FILE (Trace.h): this process's name in the trace, the hook
  /// that starts tracing in the job's other tasks before the first step,
  /// and the one that fetches their events after the last (each with its
  /// clock offset to this process's). Null hooks: this process alone.
  std::string traceName = "program";
  std::function<void()> startTrace;
  std::function<std::vector<tfc::trace::ProcessTrace>()> collectTraces;
};

/// Whether argv[i] is `flag` with a value, "--flag=V" or "--flag V" (then
/// `i` moves past V); the value in `value`. (The programs' flags and a
/// cluster task's read alike.)
bool takeFlag(int argc, char **argv, int &i, const std::string &flag,
              std::string &value);

/// Whether argv[i] is a checkpoint flag (--checkpoint-dir, --save-every,
/// --keep with a value, --restore, --resume; then `i` moves past its
/// value): under between-graph replication only the chief takes them.
bool takeCheckpointFlag(int argc, char **argv, int &i);

/// A count: up to twelve decimal digits.
bool parseCount(const std::string &text, int64_t &value);

/// Runs the program `model` is, as its command line says; the exit status.
int runProgram(int argc, char **argv, const tfc_model &model,
               const ProgramHooks &hooks);

} // namespace tfc::rt

#endif // TFC_RUNTIME_PROGRAMDRIVER_H
