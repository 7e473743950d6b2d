//===- EventFile.cpp - TensorBoard's event files ---------------------------===//

#include "tfc/Runtime/EventFile.h"
#include "tfc/Runtime/Checkpoint.h"

#include "ProtoReader.h"
#include "ProtoWriter.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <unistd.h>

namespace tfc {

using namespace proto_writer;

namespace {

uint32_t maskedCrcOf(const std::string &bytes) {
  return rt::maskCrc32c(
      rt::crc32c(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

} // namespace

std::string tfRecord(const std::string &data) {
  std::string length;
  putFixed64(length, data.size());
  std::string record = length;
  putFixed32(record, maskedCrcOf(length));
  record += data;
  putFixed32(record, maskedCrcOf(data));
  return record;
}

std::string versionEvent(double wallTime, const std::string &writer) {
  std::string event;
  putDoubleField(event, 1, wallTime); // wall_time
  putBytesField(event, 3, "brain.Event:2"); // file_version
  std::string metadata;
  putBytesField(metadata, 1, writer); // SourceMetadata.writer
  putBytesField(event, 10, metadata); // source_metadata
  return event;
}

std::string graphEvent(double wallTime, const std::string &graphDef) {
  std::string event;
  putDoubleField(event, 1, wallTime); // wall_time
  putBytesField(event, 4, graphDef); // graph_def
  return event;
}

std::string summaryEvent(double wallTime, int64_t step,
                         const std::string &summary) {
  std::string event;
  putDoubleField(event, 1, wallTime); // wall_time
  if (step != 0)
    putVarintField(event, 2, uint64_t(step)); // step (proto3: 0 left out)
  putBytesField(event, 5, summary);         // summary
  return event;
}

double wallTimeNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// DIR/events.out.tfevents.SECONDS.TAIL: TensorBoard finds a run's event
/// files by this prefix and orders them by the seconds.
static std::string eventFilePath(const std::string &dir, double now,
                                 const std::string &tail) {
  return dir + "/events.out.tfevents." + std::to_string(int64_t(now)) + "." +
         tail;
}

EventFileWriter::~EventFileWriter() {
  if (stream)
    std::fclose(stream);
}

bool EventFileWriter::open(const std::string &dir, std::string &error,
                           const std::string &suffix) {
  if (!rt::makeDirectories(dir, error))
    return false;
  double now = wallTimeNow();
  char host[256] = "localhost";
  ::gethostname(host, sizeof host - 1);
  static std::atomic<int64_t> opened{0};
  int64_t number = opened++;
  file = eventFilePath(dir, now,
                       std::string(host) + "." + std::to_string(::getpid()) +
                           ".tfc" +
                           (number ? "." + std::to_string(number) : "") +
                           suffix);
  stream = std::fopen(file.c_str(), "wb");
  if (!stream) {
    error = file + ": " + std::strerror(errno);
    return false;
  }
  return append(versionEvent(now, "tfc"), error);
}

bool EventFileWriter::append(const std::string &event, std::string &error) {
  std::string record = tfRecord(event);
  if (std::fwrite(record.data(), 1, record.size(), stream) != record.size() ||
      std::fflush(stream) != 0) {
    error = file + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool EventFileWriter::appendSummary(int64_t step, const std::string &summary,
                                    std::string &error) {
  // Summary.value is field 1; a Value's tag field 1, its metadata 9.
  std::string kept;
  proto_reader::forEachField(summary, [&](const proto_reader::Field &value) {
    std::string tag;
    if (value.number == 1)
      proto_reader::forEachField(value.value, [&](const proto_reader::Field &f) {
        if (f.number == 1)
          tag = std::string(f.value);
      });
    if (value.number != 1 || seenTags.insert(tag).second) {
      kept += value.raw;
      return;
    }
    std::string stripped;
    proto_reader::forEachField(value.value, [&](const proto_reader::Field &f) {
      if (f.number != 9)
        stripped += f.raw;
    });
    putBytesField(kept, 1, stripped);
  });
  return append(summaryEvent(wallTimeNow(), step, kept), error);
}

bool EventFileWriter::appendWholeSummary(int64_t step,
                                         const std::string &summary,
                                         std::string &error) {
  return append(summaryEvent(wallTimeNow(), step, summary), error);
}

bool EventFileWriter::flush(std::string &error) {
  if (std::fflush(stream) != 0) {
    error = file + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool writeGraphEventFile(const std::string &dir, const std::string &graphDef,
                         std::string &path, std::string &error) {
  double now = wallTimeNow();
  if (!rt::makeDirectories(dir, error))
    return false;
  path = eventFilePath(dir, now, "tfc");
  return rt::writeFileAtomically(
      path, tfRecord(versionEvent(now, "tfc")) + tfRecord(graphEvent(now, graphDef)),
      error);
}

} // namespace tfc
