//===- SummaryWriters.cpp - TF2's summary writer resources ----------------===//

#include "SummaryWriters.h"
#include "Runtime.h"
#include "Strings.h"
#include "tfc/Runtime/Checkpoint.h"

namespace tfc {

bool SummaryWriters::create(int64_t slot, const std::string &dir,
                            const std::string &suffix, std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<EventFileWriter> &writer = writers[slot];
  if (writer)
    return true;
  auto made = std::make_unique<EventFileWriter>();
  if (!made->open(dir, error, suffix)) {
    writers.erase(slot);
    return false;
  }
  writer = std::move(made);
  return true;
}

EventFileWriter *SummaryWriters::find(int64_t slot, std::string &error) {
  auto it = writers.find(slot);
  if (it != writers.end())
    return it->second.get();
  error = "its summary writer is not made (run its CreateSummaryFileWriter, "
          "as the init does)";
  return nullptr;
}

bool SummaryWriters::write(int64_t slot, int64_t step,
                           const std::string &summary, std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  EventFileWriter *writer = find(slot, error);
  return writer && writer->appendWholeSummary(step, summary, error);
}

bool SummaryWriters::flush(int64_t slot, bool close, std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  EventFileWriter *writer = find(slot, error);
  if (!writer || !writer->flush(error))
    return false;
  if (close)
    writers.erase(slot);
  return true;
}

} // namespace tfc

namespace {

/// Where a writer given `logdir` writes: there, or, for a runtime given a
/// directory of its own (--logdir), that directory's subdirectory named
/// after logdir's last component.
std::string writerDirectory(const tfc_runtime *runtime, std::string logdir) {
  if (runtime->summary_logdir.empty())
    return logdir;
  while (logdir.size() > 1 && logdir.back() == '/')
    logdir.pop_back();
  std::string last = tfc::rt::baseName(logdir);
  if (last.empty() || last == "." || last == "..")
    return runtime->summary_logdir;
  return runtime->summary_logdir + "/" + last;
}

} // namespace

extern "C" {

void tfc_summary_writer_create(tfc_runtime *runtime, const char *node,
                               const uint64_t *logdir, const uint64_t *suffix,
                               int64_t slot) {
  std::string error;
  if (!runtime->summary_writers.create(
          slot, writerDirectory(runtime, tfc::stringOf(*logdir)),
          tfc::stringOf(*suffix), error))
    tfc::rt::failAt(runtime, node, error);
}

void tfc_summary_writer_write(tfc_runtime *runtime, const char *node,
                              const int64_t *step, const uint64_t *summary,
                              int64_t slot) {
  std::string error;
  if (!runtime->summary_writers.write(slot, *step, tfc::stringOf(*summary),
                                      error))
    tfc::rt::failAt(runtime, node, error);
}

void tfc_summary_writer_flush(tfc_runtime *runtime, const char *node,
                              int64_t slot, int64_t close) {
  std::string error;
  if (!runtime->summary_writers.flush(slot, close != 0, error))
    tfc::rt::failAt(runtime, node, error);
}

} // extern "C"
