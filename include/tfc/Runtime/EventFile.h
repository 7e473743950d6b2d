//===- EventFile.h - TensorBoard's event files ------------------*- C++ -*-===//
//
// What TensorBoard reads (`tensorboard --logdir DIR`): files named
// events.out.tfevents.SECONDS.HOST of TFRecord records (the bytes' length
// as a little-endian uint64, its masked CRC32C, the bytes, their masked
// CRC32C), each an Event protocol buffer: first the file's version, then
// a graph, summaries, ... Written by hand (the runtime links no protobuf
// library), as TensorFlow's EventsWriter writes them.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_EVENTFILE_H
#define TFC_RUNTIME_EVENTFILE_H

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

namespace tfc {

/// One TFRecord: `data` framed with its length and their checksums.
std::string tfRecord(const std::string &data);

/// The Event that opens a file: its wall time (seconds since the epoch),
/// file_version "brain.Event:2", and the writer's name in its
/// source_metadata.
std::string versionEvent(double wallTime, const std::string &writer);

/// An Event holding a serialized GraphDef (TensorBoard's graph view).
std::string graphEvent(double wallTime, const std::string &graphDef);

/// An Event holding a serialized Summary at `step` (the summaries a
/// program fetched in that step).
std::string summaryEvent(double wallTime, int64_t step,
                         const std::string &summary);

/// An event file that grows as a program runs (--logdir): made with its
/// version event, each event appended and flushed at once, so that
/// TensorBoard shows a run while it goes (a record cut short by a crash
/// ends the file, as TensorFlow's readers take it).
class EventFileWriter {
public:
  ~EventFileWriter();
  /// Makes DIR (and its parents) and
  /// DIR/events.out.tfevents.SECONDS.HOST.PID.tfc[.N]SUFFIX, which names
  /// this process's host and id so that the programs of a job writing into
  /// one directory keep files of their own (N counts the files a process
  /// made after its first, as TensorFlow's writers count theirs); false
  /// and `error` naming what could not be made.
  bool open(const std::string &dir, std::string &error,
            const std::string &suffix = "");
  /// Appends the record of `event`; false and `error` naming the file
  /// when it could not.
  bool append(const std::string &event, std::string &error);
  /// Appends an event of the serialized Summary `summary` at `step`, each
  /// value's metadata (the plugin that shows it) kept only the first time
  /// its tag comes, as TensorFlow's FileWriter keeps it.
  bool appendSummary(int64_t step, const std::string &summary,
                     std::string &error);
  /// Appends an event of `summary` at `step` as it is: TF2's summary
  /// writers keep every value's metadata.
  bool appendWholeSummary(int64_t step, const std::string &summary,
                          std::string &error);
  /// Flushes the file; false and `error` when it could not.
  bool flush(std::string &error);
  const std::string &path() const { return file; }

private:
  std::string file;
  std::FILE *stream = nullptr;
  std::set<std::string> seenTags;
};

/// Seconds since the epoch, as Event.wall_time has them.
double wallTimeNow();

/// Writes DIR/events.out.tfevents.SECONDS.tfc, made at once (DIR made if
/// missing; nothing left behind on failure): the version event, then a
/// graph event of `graphDef`. `path` is the file written; false and
/// `error` (naming the file) when it could not be.
bool writeGraphEventFile(const std::string &dir, const std::string &graphDef,
                         std::string &path, std::string &error);

} // namespace tfc

#endif // TFC_RUNTIME_EVENTFILE_H
