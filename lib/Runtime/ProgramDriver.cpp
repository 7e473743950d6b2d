//===- ProgramDriver.cpp - what a compiled program does with its flags ----===//
//
// The run of every program `tfc compile --emit exe` produces (its main,
// ProgramMain.cpp, passes the model it was compiled with; a cluster
// task's, lib/Distributed/TaskMain.cpp, adds the steps' coordination):
//
//   PROGRAM [--input NAME[:PORT]=FILE.npy]... [--output NAME[:PORT]=FILE.npy]...
//           [--steps N] [--threads N] [--bench N] [--quiet] [--progress-every S]
//           [--trace FILE.json] [--logdir DIR]
//           [--checkpoint-dir DIR [--restore|--resume] [--save-every K]
//                                 [--keep N]]
//
// Inputs are validated against the model (dtype, shape: a model compiled
// for any batch size takes a batch of any number of rows, the same in
// each input that carries it, and runs its step tile by tile, Batch.h);
// without --output
// each output's name, dtype, shape and first values are printed. --bench N
// runs N timed steps after warm-up and prints the median and p90 latency
// and the size of the model's arena.
//
// Training: the variables start from the init entry, or with --restore
// from the latest checkpoint in DIR (the step counter too); --steps N runs
// N steps (with --resume, a restartable job's habit: restored when DIR
// has a checkpoint, else from the init entry, and the run ends at step N),
// saving a checkpoint every K steps and after the last one
// (CheckpointManager.h), keeping the newest N (default 5). A progress
// line shows the step, the steps per second, the time left and the first
// fetched scalar (the loss, as a rule): live on a terminal, else a line
// every --progress-every seconds (10); --quiet silences it. --trace
// writes a Chrome trace of every step's nodes after the run (Trace.h; a
// cluster's chief collects every task's). --logdir DIR appends the
// summaries each step fetched to a TensorBoard event file in DIR, as
// events of the step's number (EventFile.h), and TF2's summary writers
// write under DIR (SummaryWriters.h).
// Bad usage or input: one line on stderr and exit status 2.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Strings.h"
#include "tfc/Runtime/Batch.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/CheckpointManager.h"
#include "tfc/Runtime/Denormals.h"
#include "tfc/Runtime/EventFile.h"
#include "tfc/Runtime/Npy.h"
#include "tfc/Runtime/ProgramDriver.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using namespace tfc::rt;

constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

int usage(const char *program, const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return kExitBadInput;
}

/// The runtime dtype of a model tensor, or false if the file format has no
/// such dtype.
bool toNpyDType(int32_t dtype, DType &out) {
  switch (dtype) {
  case TFC_FLOAT: out = DType::Float32; return true;
  case TFC_DOUBLE: out = DType::Float64; return true;
  case TFC_HALF: out = DType::Float16; return true;
  case TFC_INT8: out = DType::Int8; return true;
  case TFC_INT16: out = DType::Int16; return true;
  case TFC_INT32: out = DType::Int32; return true;
  case TFC_INT64: out = DType::Int64; return true;
  case TFC_UINT8: out = DType::UInt8; return true;
  case TFC_UINT16: out = DType::UInt16; return true;
  case TFC_UINT32: out = DType::UInt32; return true;
  case TFC_UINT64: out = DType::UInt64; return true;
  case TFC_BOOL: out = DType::Bool; return true;
  case TFC_STRING: out = DType::String; return true;
  case TFC_COMPLEX64: out = DType::Complex64; return true;
  case TFC_COMPLEX128: out = DType::Complex128; return true;
  default: return false;
  }
}

/// The elements of `array` before dimension `axis` and within one of its
/// slices: the array is [outer, shape[axis], inner].
std::pair<size_t, size_t> aroundDimension(const NpyArray &array, int axis) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d)
    outer *= size_t(array.shape[d]);
  for (size_t d = axis + 1; d < array.shape.size(); ++d)
    inner *= size_t(array.shape[d]);
  return {outer, inner};
}

/// Pads dimension `axis` of `array` with zeros up to `bound` slices.
void padDimension(NpyArray &array, int axis, int64_t bound) {
  auto [outer, inner] = aroundDimension(array, axis);
  size_t size = size_t(array.shape[axis]);
  array.shape[axis] = bound;
  if (array.dtype == DType::String) {
    std::vector<std::string> padded(outer * size_t(bound) * inner);
    for (size_t o = 0; o < outer; ++o)
      for (size_t k = 0; k < size * inner; ++k)
        padded[o * size_t(bound) * inner + k] =
            std::move(array.strings[o * size * inner + k]);
    array.strings = std::move(padded);
    return;
  }
  inner *= dtypeSize(array.dtype);
  std::vector<uint8_t> padded(outer * size_t(bound) * inner, 0);
  for (size_t o = 0; o < outer; ++o)
    std::memcpy(padded.data() + o * size_t(bound) * inner,
                array.data.data() + o * size * inner, size * inner);
  array.data = std::move(padded);
}

/// Keeps the first `count` slices of dimension `axis` of `array`.
void shrinkDimension(NpyArray &array, int axis, int64_t count) {
  if (axis >= int(array.shape.size()))
    return;
  int64_t elements = array.numElements();
  auto [outer, inner] = aroundDimension(array, axis);
  // (In bytes: a string output is handles until written.)
  inner *= elements ? array.data.size() / size_t(elements) : 0;
  size_t bound = size_t(array.shape[axis]);
  size_t kept = size_t(std::clamp<int64_t>(count, 0, int64_t(bound)));
  for (size_t o = 0; o < outer; ++o)
    std::memmove(array.data.data() + o * kept * inner,
                 array.data.data() + o * bound * inner, kept * inner);
  array.data.resize(outer * kept * inner);
  array.shape[axis] = int64_t(kept);
}

std::vector<int64_t> shapeOf(const tfc_tensor_info &info) {
  return std::vector<int64_t>(info.dims, info.dims + info.rank);
}

/// Finds the model tensor that NAME or NAME:PORT refers to.
int findTensor(const tfc_tensor_info *tensors, int count,
               const std::string &name) {
  std::string full = name.find(':') == std::string::npos ? name + ":0" : name;
  for (int i = 0; i < count; ++i) {
    std::string candidate = tensors[i].name;
    if (candidate.find(':') == std::string::npos)
      candidate += ":0";
    if (candidate == full)
      return i;
  }
  return -1;
}

std::string listNames(const tfc_tensor_info *tensors, int count) {
  std::string names;
  for (int i = 0; i < count; ++i)
    names += std::string(i ? ", " : "") + tensors[i].name;
  return names.empty() ? "none" : names;
}

/// Prints a tensor: name, dtype, shape and its first values.
void printTensor(const tfc_tensor_info &info, const NpyArray &array) {
  std::printf("%s: %s [", info.name, dtypeName(array.dtype));
  for (size_t d = 0; d < array.shape.size(); ++d)
    std::printf("%s%" PRId64, d ? "," : "", array.shape[d]);
  std::printf("]");
  int64_t n = std::min<int64_t>(array.numElements(), 8);
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t *p = array.data.data() + i * dtypeSize(array.dtype);
    std::printf(i ? " " : " ");
    switch (array.dtype) {
    case DType::Float32: { float v; std::memcpy(&v, p, 4); std::printf("%.6g", v); break; }
    case DType::Float64: { double v; std::memcpy(&v, p, 8); std::printf("%.9g", v); break; }
    case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); std::printf("%d", v); break; }
    case DType::Int64: { int64_t v; std::memcpy(&v, p, 8); std::printf("%" PRId64, v); break; }
    case DType::Bool: std::printf("%s", *p ? "true" : "false"); break;
    case DType::UInt8: std::printf("%u", unsigned(*p)); break;
    case DType::String: std::printf("\"%s\"", array.strings[i].c_str()); break;
    case DType::Complex64: {
      float v[2];
      std::memcpy(v, p, 8);
      std::printf("%.6g%+.6gj", v[0], v[1]);
      break;
    }
    default: std::printf("?"); break;
    }
  }
  if (array.numElements() > n)
    std::printf(" ...");
  std::printf("\n");
}

/// Replaces the handles of string outputs by their text (the next step's
/// tfc_strings_release invalidates the handles); outputs already read are
/// left as they are.
void readStrings(std::vector<NpyArray> &outputs) {
  for (NpyArray &output : outputs) {
    if (output.dtype != DType::String || output.data.empty())
      continue;
    for (int64_t k = 0; k < output.numElements(); ++k) {
      uint64_t handle;
      std::memcpy(&handle, output.data.data() + k * sizeof handle, sizeof handle);
      // (No handle: no step ran.)
      output.strings.push_back(handle ? tfc::stringOf(handle) : std::string());
    }
    output.data.clear();
  }
}

/// The training progress line on stderr: on a terminal, drawn over itself
/// a few times a second; elsewhere (a log), a plain line every
/// `plainSeconds`; with --quiet, nothing. It says the step, the steps per
/// second, the time left at that rate, and the first fetched float scalar
/// (the loss, as a rule).
class Progress {
public:
  Progress(const tfc_model &model, const std::vector<NpyArray> &outputs,
           int64_t steps, bool quiet, double plainSeconds)
      : outputs(outputs), steps(steps),
        live(!quiet && steps > 1 && ::isatty(STDERR_FILENO)),
        plain(!quiet && steps > 1 && !live), plainSeconds(plainSeconds),
        start(std::chrono::steady_clock::now()), last(start) {
    for (int i = 0; i < model.num_outputs && scalar < 0; ++i)
      if (model.outputs[i].rank == 0 && model.outputs[i].dtype == TFC_FLOAT) {
        scalar = i;
        scalarName = model.outputs[i].name;
      }
  }

  void update(int64_t done, int64_t step) {
    if (!live && !plain)
      return;
    auto now = std::chrono::steady_clock::now();
    std::chrono::duration<double> interval =
        live ? std::chrono::duration<double>(0.25)
             : std::chrono::duration<double>(plainSeconds);
    // The last step's line always shows on a terminal, where it stays.
    if (now - last < interval && !(live && done == steps))
      return;
    last = now;
    double seconds = std::chrono::duration<double>(now - start).count();
    double rate = seconds > 0 ? done / seconds : 0.0;
    std::fprintf(stderr, "%sstep %" PRId64 " (%" PRId64 "/%" PRId64 ")  %.1f steps/s",
                 live ? "\r" : "", step, done, steps, rate);
    if (done < steps && rate > 0)
      std::fprintf(stderr, "  %s left", duration((steps - done) / rate).c_str());
    if (scalar >= 0) {
      float value;
      std::memcpy(&value, outputs[scalar].data.data(), 4);
      std::fprintf(stderr, "  %s %.6g", scalarName.c_str(), value);
    }
    std::fprintf(stderr, live ? "\033[K" : "\n");
    drawn = live;
  }

  void finish() {
    if (drawn)
      std::fprintf(stderr, "\n");
  }

private:
  /// "42s", "3m05s", "2h07m".
  static std::string duration(double seconds) {
    char text[32];
    int64_t s = int64_t(seconds + 0.5);
    if (s < 60)
      std::snprintf(text, sizeof text, "%" PRId64 "s", s);
    else if (s < 3600)
      std::snprintf(text, sizeof text, "%" PRId64 "m%02" PRId64 "s", s / 60, s % 60);
    else
      std::snprintf(text, sizeof text, "%" PRId64 "h%02" PRId64 "m", s / 3600,
                    s / 60 % 60);
    return text;
  }

  const std::vector<NpyArray> &outputs;
  int64_t steps;
  bool live, plain, drawn = false;
  double plainSeconds;
  int scalar = -1;
  std::string scalarName;
  std::chrono::steady_clock::time_point start, last;
};

/// Appends the summaries the step fetched to `file` as events of `step`;
/// false after saying why it could not.
bool writeSummaries(const char *program, const tfc_model &model,
                    const std::vector<NpyArray> &outputs, int64_t step,
                    tfc::EventFileWriter &file) {
  for (int i = 0; i < model.num_outputs; ++i) {
    if (!model.summary_outputs[i] || outputs[i].data.empty())
      continue;
    for (int64_t k = 0; k < outputs[i].numElements(); ++k) {
      uint64_t handle;
      std::memcpy(&handle, outputs[i].data.data() + k * sizeof handle,
                  sizeof handle);
      std::string error;
      if (handle && !file.appendSummary(step, tfc::stringOf(handle), error)) {
        std::fprintf(stderr, "%s: error: --logdir: %s\n", program, error.c_str());
        return false;
      }
    }
  }
  return true;
}

} // namespace

bool tfc::rt::takeFlag(int argc, char **argv, int &i, const std::string &flag,
                       std::string &value) {
  std::string arg = argv[i];
  if (arg.rfind(flag + "=", 0) == 0) {
    value = arg.substr(flag.size() + 1);
    return true;
  }
  if (arg == flag && i + 1 < argc) {
    value = argv[++i];
    return true;
  }
  return false;
}

bool tfc::rt::takeCheckpointFlag(int argc, char **argv, int &i) {
  std::string value;
  for (const char *flag : {"--restore", "--resume"})
    if (std::strcmp(argv[i], flag) == 0)
      return true;
  for (const char *flag : {"--checkpoint-dir", "--save-every", "--keep"})
    if (takeFlag(argc, argv, i, flag, value))
      return true;
  return false;
}

bool tfc::rt::parseCount(const std::string &text, int64_t &value) {
  if (text.empty() || text.size() > 12 ||
      !std::all_of(text.begin(), text.end(), ::isdigit))
    return false;
  value = std::stoll(text);
  return true;
}

int tfc::rt::runProgram(int argc, char **argv, const tfc_model &model,
                        const ProgramHooks &hooks) {
  const char *program = argv[0];
  if (model.abi_version != TFC_RUNTIME_ABI_VERSION)
    return usage(program, "model built for runtime ABI " +
                              std::to_string(model.abi_version) +
                              ", this runtime is " +
                              std::to_string(TFC_RUNTIME_ABI_VERSION));

  std::map<int, std::string> inputFiles, outputFiles;
  int64_t steps = 1, threads = 0, bench = 0, saveEvery = 0, keep = 5;
  std::string checkpointDir, traceFile, logDir;
  // The last flag given that only makes sense with --checkpoint-dir.
  std::string needsDirectory;
  bool restore = false, resume = false, quiet = false;
  double progressEvery = 10;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    auto takeValue = [&](const std::string &flag) {
      return takeFlag(argc, argv, i, flag, value);
    };
    if (arg == "--help" || arg == "-h") {
      std::printf("usage: %s [--input NAME=FILE.npy]... [--output NAME=FILE.npy]...\n"
                  "          [--steps N] [--threads N] [--bench N] [--quiet] [--progress-every S]\n"
                  "          [--trace FILE.json] [--logdir DIR]\n"
                  "          [--checkpoint-dir DIR [--restore|--resume] [--save-every K] [--keep N]]\n"
                  "inputs: %s\noutputs: %s\n",
                  program, listNames(model.inputs, model.num_inputs).c_str(),
                  listNames(model.outputs, model.num_outputs).c_str());
      return 0;
    }
    bool isInput = takeValue("--input");
    if (isInput || takeValue("--output")) {
      size_t eq = value.rfind('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
        return usage(program, std::string(isInput ? "--input" : "--output") +
                                  " '" + value + "': expected NAME=FILE.npy");
      std::string name = value.substr(0, eq), file = value.substr(eq + 1);
      const tfc_tensor_info *tensors = isInput ? model.inputs : model.outputs;
      int count = isInput ? model.num_inputs : model.num_outputs;
      int index = findTensor(tensors, count, name);
      if (index < 0)
        return usage(program, std::string(isInput ? "--input" : "--output") +
                                  " '" + name + "': the model has no such " +
                                  (isInput ? "input" : "output") + " (it has: " +
                                  listNames(tensors, count) + ")");
      (isInput ? inputFiles : outputFiles)[index] = file;
    } else if (takeValue("--steps")) {
      if (!parseCount(value, steps) || steps < 1)
        return usage(program, "--steps '" + value + "': expected a positive count");
    } else if (arg == "--quiet") {
      quiet = true;
    } else if (takeValue("--progress-every")) {
      char *end = nullptr;
      progressEvery = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !(progressEvery >= 0))
        return usage(program, "--progress-every '" + value +
                                  "': expected seconds (0 or more)");
    } else if (takeValue("--logdir")) {
      if (value.empty())
        return usage(program, "--logdir: expected a directory");
      logDir = value;
    } else if (takeValue("--trace")) {
      if (value.empty())
        return usage(program, "--trace: expected a file (FILE.json)");
      traceFile = value;
    } else if (takeValue("--threads")) {
      if (!parseCount(value, threads))
        return usage(program, "--threads '" + value + "': expected a count");
    } else if (takeValue("--bench")) {
      if (!parseCount(value, bench) || bench < 1)
        return usage(program, "--bench '" + value + "': expected a positive count");
    } else if (takeValue("--checkpoint-dir")) {
      if (value.empty())
        return usage(program, "--checkpoint-dir: expected a directory");
      checkpointDir = value;
    } else if (takeValue("--save-every")) {
      if (!parseCount(value, saveEvery) || saveEvery < 1)
        return usage(program, "--save-every '" + value + "': expected a positive count");
      needsDirectory = "--save-every";
    } else if (takeValue("--keep")) {
      if (!parseCount(value, keep) || keep < 1 || keep > 1000000)
        return usage(program, "--keep '" + value + "': expected a positive count");
      needsDirectory = "--keep";
    } else if (arg == "--restore") {
      restore = true;
      needsDirectory = "--restore";
    } else if (arg == "--resume") {
      resume = true;
      needsDirectory = "--resume";
    } else {
      return usage(program, "unknown argument '" + arg + "' (see --help)");
    }
  }

  if (checkpointDir.empty() && !needsDirectory.empty())
    return usage(program, needsDirectory + " needs --checkpoint-dir DIR");
  if (restore && resume)
    return usage(program, "--restore and --resume: give one");
  if (!hooks.runsInit && !checkpointDir.empty())
    return usage(program, "--checkpoint-dir: the chief (worker 0) saves and "
                          "restores the variables of between-graph "
                          "replication; give it there");

  // The summaries a step fetched go to an event file in --logdir; TF2's
  // summary writers write under it (tfc_runtime_options::summary_logdir).
  tfc::EventFileWriter summaries;
  if (!logDir.empty()) {
    if (!model.summary_outputs && model.num_summary_writers == 0)
      return usage(program, "--logdir: the program fetches no summary (a "
                            "summary op's output, given to tfc compile's "
                            "--fetch) and writes none (TF2's summary "
                            "writers)");
    std::string error;
    bool made = model.summary_outputs ? summaries.open(logDir, error)
                                      : rt::makeDirectories(logDir, error);
    if (!made) {
      std::fprintf(stderr, "%s: error: --logdir: %s\n", program, error.c_str());
      return kExitBadInput;
    }
  }
  // The trace is written after the last step: a file that cannot be made
  // is said now, not after the run.
  if (!traceFile.empty()) {
    std::string error;
    if (!checkWritable(traceFile, error)) {
      std::fprintf(stderr, "%s: error: --trace: %s\n", program, error.c_str());
      return kExitBadInput;
    }
  }

  // Inputs: every one given, each matching the model.
  std::vector<NpyArray> inputs(model.num_inputs);
  std::vector<void *> inputPointers(model.num_inputs);
  // The strings of string inputs, as handles point to them (tfc_runtime.h).
  std::vector<std::unique_ptr<char[]>> inputStrings;
  // Inputs one dimension of which --max-dim bounds: any size up to the
  // bound, and the program sets the input that counts it.
  auto boundedAxis = [&](int i) {
    return model.rows_inputs && model.rows_inputs[i] >= 0
               ? model.rows_input_axes[i]
               : -1;
  };
  std::map<int, int> countedBy;
  for (int i = 0; model.rows_inputs && i < model.num_inputs; ++i)
    if (model.rows_inputs[i] >= 0)
      countedBy[model.rows_inputs[i]] = i;
  for (int i = 0; i < model.num_inputs; ++i) {
    const tfc_tensor_info &info = model.inputs[i];
    auto it = inputFiles.find(i);
    if (auto counted = countedBy.find(i); counted != countedBy.end()) {
      if (it != inputFiles.end())
        return usage(program, std::string("--input '") + info.name +
                                  "': the program sets it from the shape of '" +
                                  model.inputs[counted->second].name + "'");
      continue;
    }
    if (it == inputFiles.end())
      return usage(program, std::string("missing --input for '") + info.name + "'");
    DType dtype;
    if (!toNpyDType(info.dtype, dtype))
      return usage(program, std::string("input '") + info.name +
                                "' has a dtype .npy files cannot hold");
    std::string error;
    std::vector<int64_t> expected = shapeOf(info);
    int axis = boundedAxis(i);
    if (axis >= 0)
      expected[axis] = -1;
    if (!readNpy(it->second, inputs[i], error) ||
        !checkNpyMatches(inputs[i], dtype, expected, info.name, it->second,
                         error)) {
      std::fprintf(stderr, "%s: error: %s\n", program, error.c_str());
      return kExitBadInput;
    }
    if (axis >= 0) {
      int64_t size = inputs[i].shape[axis], bound = info.dims[axis];
      if (size > bound) {
        std::fprintf(stderr,
                     "%s: error: %s: input '%s' has %" PRId64
                     " along dimension %d, more than the %" PRId64
                     " it was compiled for (--max-dim)\n",
                     program, it->second.c_str(), info.name, size, axis, bound);
        return kExitBadInput;
      }
      padDimension(inputs[i], axis, bound);
      NpyArray &count = inputs[model.rows_inputs[i]];
      count.dtype = DType::Int64;
      count.shape = {};
      count.data.resize(sizeof size);
      std::memcpy(count.data.data(), &size, sizeof size);
      inputPointers[model.rows_inputs[i]] = count.data.data();
    }
    if (dtype == DType::String) {
      inputs[i].data.resize(inputs[i].strings.size() * sizeof(uint64_t));
      for (size_t k = 0; k < inputs[i].strings.size(); ++k) {
        const std::string &text = inputs[i].strings[k];
        inputStrings.push_back(
            tfc::makeStringObject(text.data(), int64_t(text.size())));
        uint64_t handle = tfc::handleOf(inputStrings.back().get());
        std::memcpy(inputs[i].data.data() + k * sizeof handle, &handle,
                    sizeof handle);
      }
    }
    inputPointers[i] = inputs[i].data.data();
  }
  // A model for any batch size: the batch is the fed batches' rows, the
  // same in each.
  int64_t batch = 0;
  int batchInput = -1;
  for (int i = 0; i < model.num_inputs; ++i) {
    if (!carriesBatch(model.inputs[i]))
      continue;
    int64_t rows = inputs[i].shape[0];
    if (rows < 1)
      return usage(program, inputFiles[i] + ": input '" + model.inputs[i].name +
                                "' holds no rows: a batch needs at least one");
    if (batchInput >= 0 && rows != batch)
      return usage(program, std::string("inputs '") +
                                model.inputs[batchInput].name + "' and '" +
                                model.inputs[i].name + "' hold batches of " +
                                std::to_string(batch) + " and " +
                                std::to_string(rows) + " rows: give one size");
    batch = rows;
    batchInput = i;
  }

  // Outputs, arena, runtime.
  std::vector<NpyArray> outputs(model.num_outputs);
  std::vector<void *> outputPointers(model.num_outputs);
  for (int i = 0; i < model.num_outputs; ++i) {
    const tfc_tensor_info &info = model.outputs[i];
    if (!toNpyDType(info.dtype, outputs[i].dtype))
      return usage(program, std::string("output '") + info.name +
                                "' has a dtype .npy files cannot hold");
    outputs[i].shape = shapeOf(info);
    if (carriesBatch(info))
      outputs[i].shape[0] = batch;
    // A string output is handles until the steps are done.
    outputs[i].data.resize(outputs[i].numElements() *
                           (outputs[i].dtype == DType::String
                                ? sizeof(uint64_t)
                                : dtypeSize(outputs[i].dtype)));
    outputPointers[i] = outputs[i].data.data();
  }
  // The arena, and the state zeroed (variables not yet initialized).
  auto allocate = [&](int64_t bytes, const char *what) {
    std::unique_ptr<void, void (*)(void *)> memory(
        tfc_arena_alloc(bytes, model.arena_alignment), tfc_arena_free);
    if (!memory)
      std::fprintf(stderr, "%s: error: cannot allocate the %" PRId64 "-byte %s\n",
                   program, bytes, what);
    return memory;
  };
  auto arena = allocate(model.arena_bytes, "arena");
  auto state = allocate(model.state_bytes, "state");
  if (!arena || !state)
    return kExitFailure;
  std::memset(state.get(), 0, size_t(model.state_bytes));
  tfc_runtime_options options = {};
  options.threads = static_cast<int32_t>(threads);
  options.create_rendezvous = hooks.createRendezvous;
  options.rendezvous_context = hooks.rendezvousContext;
  options.summary_logdir = logDir.empty() ? nullptr : logDir.c_str();
  std::unique_ptr<tfc_runtime, void (*)(tfc_runtime *)> runtime(
      tfc_runtime_create(&options), tfc_runtime_destroy);
  if (!runtime) {
    std::fprintf(stderr, "%s: error: cannot make the runtime\n", program);
    return kExitFailure;
  }
  // Every run of the model's step or init is a step of the job, numbered
  // from 0 (the init entry is step -1): a cluster's chief runs each on
  // every task too (hooks).
  int64_t stepId = 0;
  if (!traceFile.empty()) {
    tfc::trace::enable();
    if (hooks.startTrace)
      hooks.startTrace();
  }
  auto around = [&](int64_t id, auto &&run) {
    int64_t start = tfc::trace::nowNs();
    if (hooks.beforeStep)
      hooks.beforeStep(id);
    {
      tfc::FlushDenormals flush;
      run();
    }
    if (hooks.afterStep)
      hooks.afterStep(id);
    tfc::trace::recordStep(id, start);
  };

  // The variables: restored, or from the init entry. --resume restores
  // when there is a checkpoint, and ends the run at step --steps.
  int64_t step = 0;
  tfc::rt::CheckpointState checkpoints;
  std::string checkpointError;
  bool found = (restore || resume) &&
               tfc::rt::readCheckpointState(checkpointDir, checkpoints,
                                            checkpointError);
  if (restore || (resume && found)) {
    if (!found ||
        !(hooks.restoreCheckpoint
              ? hooks.restoreCheckpoint(state.get(), checkpoints.latest,
                                        checkpointError)
              : tfc::rt::restoreCheckpoint(model, state.get(),
                                           checkpoints.latest,
                                           checkpointError))) {
      std::fprintf(stderr, "%s: error: %s\n", program, checkpointError.c_str());
      return kExitBadInput;
    }
    step = tfc::rt::checkpointStep(checkpoints.latest);
    if (resume) {
      if (step >= steps) {
        // Nothing left to run (and no step's outputs to write).
        std::fprintf(stderr, "%s: the checkpoint in %s is of step %" PRId64
                             ": the run is complete\n",
                     program, checkpointDir.c_str(), step);
        return 0;
      }
      steps -= step;
    }
  } else if (model.init && hooks.runsInit) {
    around(-3, [&] {
      model.init(runtime.get(), arena.get(), state.get(), nullptr, nullptr);
    });
  }
  // The variables are ready: every worker's local init, then the chief's
  // (steps -2 and -1 of a job).
  if (model.local_init)
    around(-2, [&] {
      model.local_init(runtime.get(), arena.get(), state.get(), nullptr,
                       nullptr);
    });
  if (model.chief_init && hooks.runsInit)
    around(-1, [&] {
      model.chief_init(runtime.get(), arena.get(), state.get(), nullptr,
                       nullptr);
    });
  auto save = [&]() -> bool {
    std::string error;
    if (!tfc::rt::makeDirectories(checkpointDir, error) ||
        !(hooks.saveCheckpoint
              ? hooks.saveCheckpoint(state.get(), checkpointDir, step,
                                     int(keep), error)
              : tfc::rt::saveCheckpoint(model, state.get(), checkpointDir,
                                        step, int(keep), error))) {
      std::fprintf(stderr, "%s: error: %s\n", program, error.c_str());
      return false;
    }
    return true;
  };
  // The queue runners fill their queues while the steps (and the bench's)
  // run; the chief runners only in the job's chief.
  tfc_queue_runners_start(runtime.get(), &model, state.get(),
                          hooks.runsInit);
  BatchRunner batches(model);
  // A dequeue that finds its queue closed ends the run of steps, as
  // TensorFlow's OutOfRangeError ends a queue runner's loop: the step it
  // was in is abandoned, and the outputs written are those of the last
  // whole step, kept after each step once the program has made a queue.
  struct StepCall {
    BatchRunner *batches;
    tfc_runtime *runtime;
    void *arena, *state;
    int64_t batch;
    void *const *inputs;
    void *const *outputs;
  } call{&batches, runtime.get(), arena.get(), state.get(), batch,
         inputPointers.data(), outputPointers.data()};
  auto callStep = [](void *context) {
    auto *c = static_cast<StepCall *>(context);
    c->batches->run(c->runtime, c->arena, c->state, c->batch, c->inputs,
                    c->outputs);
  };
  bool inputEnded = false;
  // Why the input ended: a queue here, or another task's (hooks).
  std::string endMessage;
  std::vector<NpyArray> wholeOutputs = outputs;
  auto runStep = [&] {
    tfc_strings_release(runtime.get());
    around(stepId++, [&] {
      inputEnded = tfc_run_until_end_of_input(runtime.get(), callStep, &call);
    });
    if (inputEnded)
      endMessage = tfc_end_of_input_message(runtime.get());
    else if (hooks.inputEnded)
      inputEnded = hooks.inputEnded(endMessage);
    if (!inputEnded && (runtime->queues.any() || hooks.inputEnded)) {
      wholeOutputs = outputs;
      readStrings(wholeOutputs);
    }
    return !inputEnded;
  };
  Progress progress(model, outputs, steps, quiet, progressEvery);
  int64_t lastSaved = -1;
  for (int64_t s = 0; s < steps; ++s) {
    if (!runStep()) {
      progress.finish();
      std::fprintf(stderr,
                   "%s: the input ended after %" PRId64 " of %" PRId64
                   " steps (%s)\n",
                   program, s, steps, endMessage.c_str());
      break;
    }
    ++step;
    if (!logDir.empty() && model.summary_outputs &&
        !writeSummaries(program, model, outputs, step, summaries))
      return kExitFailure;
    progress.update(s + 1, step);
    if (saveEvery > 0 && step % saveEvery == 0) {
      if (!save())
        return kExitFailure;
      lastSaved = step;
    }
  }
  progress.finish();
  // (With --bench, after the bench's steps: those of the other workers of
  // between-graph replication run beside them.)
  bool afterStepsDone = false;
  auto afterSteps = [&] {
    // The chief's steps are done: so are its runners (their queues
    // closed, what waits on them ends as at the end of input).
    tfc_chief_queue_runners_stop(runtime.get());
    if (hooks.afterSteps && !afterStepsDone)
      hooks.afterSteps();
    afterStepsDone = true;
  };
  if (bench <= 0)
    afterSteps();
  if (!checkpointDir.empty() && lastSaved != step && !save())
    return kExitFailure;

  if (bench > 0 && !inputEnded) {
    // Warm-up, then N timed steps; a step that ends the input (a queue's)
    // ends the bench, and is not timed.
    for (int64_t s = 0; s < std::min<int64_t>(bench, 10) && !inputEnded; ++s)
      runStep();
    std::vector<double> micros;
    for (int64_t s = 0; s < bench && !inputEnded; ++s) {
      auto start = std::chrono::steady_clock::now();
      if (!runStep())
        break;
      auto end = std::chrono::steady_clock::now();
      micros.push_back(
          std::chrono::duration<double, std::micro>(end - start).count());
    }
    if (inputEnded) {
      tfc_queue_runners_stop(runtime.get());
      std::fprintf(stderr,
                   "%s: error: the input ended after %zu of the %" PRId64
                   " steps --bench times (%s)\n",
                   program, micros.size(), bench, endMessage.c_str());
      return kExitFailure;
    }
    afterSteps();
    std::sort(micros.begin(), micros.end());
    auto at = [&](double q) {
      return micros[std::min<size_t>(micros.size() - 1, size_t(q * micros.size()))];
    };
    std::printf("bench: %" PRId64 " steps, %d threads, median %.2f us, p90 %.2f us, "
                "arena %" PRId64 " bytes\n",
                bench, tfc_runtime_threads(runtime.get()), at(0.5), at(0.9),
                model.arena_bytes);
  }
  afterSteps();
  tfc_queue_runners_stop(runtime.get());
  if (!traceFile.empty()) {
    std::vector<tfc::trace::ProcessTrace> processes = {
        tfc::trace::collect(hooks.traceName)};
    if (hooks.collectTraces)
      for (tfc::trace::ProcessTrace &other : hooks.collectTraces())
        processes.push_back(std::move(other));
    std::string error;
    if (!tfc::trace::writeChromeTrace(traceFile, processes, error)) {
      std::fprintf(stderr, "%s: error: --trace: %s\n", program, error.c_str());
      return kExitFailure;
    }
    size_t events = 0;
    for (const tfc::trace::ProcessTrace &process : processes)
      events += process.events.size();
    if (!quiet)
      std::fprintf(stderr, "%s: trace of %zu events in %s\n", program, events,
                   traceFile.c_str());
  }

  if (inputEnded)
    outputs = std::move(wholeOutputs);
  // Outputs with data-dependent rows: the first `count` of their bound.
  for (int i = 0; model.rows_outputs && i < model.num_outputs; ++i) {
    int32_t k = model.rows_outputs[i];
    if (k < 0)
      continue;
    int64_t count;
    std::memcpy(&count, outputs[k].data.data(), sizeof count);
    shrinkDimension(outputs[i], model.rows_output_axes ? model.rows_output_axes[i] : 0,
                    count);
  }
  // String outputs: the text behind the last step's handles.
  readStrings(outputs);
  for (int i = 0; i < model.num_outputs; ++i) {
    auto it = outputFiles.find(i);
    if (it == outputFiles.end()) {
      if (outputFiles.empty())
        printTensor(model.outputs[i], outputs[i]);
      continue;
    }
    std::string error;
    if (!writeNpy(it->second, outputs[i], error)) {
      std::fprintf(stderr, "%s: error: %s\n", program, error.c_str());
      return kExitFailure;
    }
  }
  return 0;
}
