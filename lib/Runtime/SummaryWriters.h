//===- SummaryWriters.h - TF2's summary writer resources --------*- C++ -*-===//
//
// The summary writers of a runtime (tfc_summary_writer_* in tfc_runtime.h):
// an event file each, by the number convert-tfg-to-memref gives its
// SummaryWriter node. Partitions of a step may write at once, hence the
// lock.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_SUMMARYWRITERS_H
#define TFC_LIB_RUNTIME_SUMMARYWRITERS_H

#include "tfc/Runtime/EventFile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tfc {

class SummaryWriters {
public:
  /// Makes writer `slot` a file in `dir` whose name ends in `suffix`,
  /// unless it is made; false and `error` when it cannot be.
  bool create(int64_t slot, const std::string &dir, const std::string &suffix,
              std::string &error);
  /// Appends `summary` (a serialized Summary) at `step` to writer `slot`'s
  /// file; false and `error` when the writer is not made or the file
  /// cannot grow.
  bool write(int64_t slot, int64_t step, const std::string &summary,
             std::string &error);
  /// Flushes writer `slot`'s file, and with `close` closes it; false and
  /// `error` when the writer is not made.
  bool flush(int64_t slot, bool close, std::string &error);

private:
  /// Writer `slot`, or null and `error` saying it is not made (under the
  /// lock).
  EventFileWriter *find(int64_t slot, std::string &error);

  std::mutex mutex;
  std::map<int64_t, std::unique_ptr<EventFileWriter>> writers;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_SUMMARYWRITERS_H
