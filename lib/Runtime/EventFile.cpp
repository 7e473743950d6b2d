//===- EventFile.cpp - TensorBoard's event files ---------------------------===//

#include "tfc/Runtime/EventFile.h"
#include "tfc/Runtime/Checkpoint.h"

#include "ProtoWriter.h"

#include <chrono>
#include <cstring>

namespace tfc {

using namespace proto_writer;

namespace {

std::string littleEndian64(uint64_t value) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[i] = char(value >> (8 * i));
  return bytes;
}

uint32_t maskedCrcOf(const std::string &bytes) {
  return rt::maskCrc32c(
      rt::crc32c(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

/// Event.wall_time (field 1, a double).
void putWallTime(std::string &event, double wallTime) {
  putVarint(event, 1 << 3 | 1);
  uint64_t bits;
  std::memcpy(&bits, &wallTime, 8);
  event += littleEndian64(bits);
}

} // namespace

std::string tfRecord(const std::string &data) {
  std::string length = littleEndian64(data.size());
  std::string record = length;
  putFixed32(record, maskedCrcOf(length));
  record += data;
  putFixed32(record, maskedCrcOf(data));
  return record;
}

std::string versionEvent(double wallTime, const std::string &writer) {
  std::string event;
  putWallTime(event, wallTime);
  putBytesField(event, 3, "brain.Event:2"); // file_version
  std::string metadata;
  putBytesField(metadata, 1, writer); // SourceMetadata.writer
  putBytesField(event, 10, metadata); // source_metadata
  return event;
}

std::string graphEvent(double wallTime, const std::string &graphDef) {
  std::string event;
  putWallTime(event, wallTime);
  putBytesField(event, 4, graphDef); // graph_def
  return event;
}

bool writeGraphEventFile(const std::string &dir, const std::string &graphDef,
                         std::string &path, std::string &error) {
  double now = std::chrono::duration<double>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  if (!rt::makeDirectories(dir, error))
    return false;
  path = dir + "/events.out.tfevents." + std::to_string(int64_t(now)) + ".tfc";
  return rt::writeFileAtomically(
      path, tfRecord(versionEvent(now, "tfc")) + tfRecord(graphEvent(now, graphDef)),
      error);
}

} // namespace tfc
