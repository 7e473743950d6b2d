//===- EventFileTest.cpp - TensorBoard event files as TensorFlow's --------===//

#include "tfc/Runtime/EventFile.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// The records of an event file, each whole (framing included), and each
/// record's data.
struct Records {
  std::vector<std::string> whole, data;
};

Records splitRecords(const std::string &file) {
  Records records;
  size_t at = 0;
  while (at + 12 <= file.size()) {
    uint64_t length;
    std::memcpy(&length, file.data() + at, 8);
    records.whole.push_back(file.substr(at, 12 + length + 4));
    records.data.push_back(file.substr(at + 12, length));
    at += 12 + length + 4;
  }
  return records;
}

/// Event.wall_time: the fixed64 after the first key (field 1, wire 1).
double wallTimeOf(const std::string &event) {
  EXPECT_EQ(uint8_t(event[0]), 0x09);
  double time;
  std::memcpy(&time, event.data() + 1, 8);
  return time;
}

/// The bytes of length-delimited field `key` (one byte) right after the
/// wall time.
std::string bytesAfterWallTime(const std::string &event, uint8_t key) {
  size_t at = 9;
  EXPECT_EQ(uint8_t(event[at]), key);
  ++at;
  uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t byte = uint8_t(event[at++]);
    length |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      break;
  }
  return event.substr(at, length);
}

// Tests that tfc writes the records TensorFlow's FileWriter wrote for a
// graph (test/unit/Inputs/graph-events, make_events.py): given the same
// wall times, writer name and GraphDef bytes, the version event and the
// graph event are the same bytes, framing and checksums included.
TEST(EventFileTest, RecordsAreTensorFlows) {
  std::string file = readFile(std::string(TFC_SOURCE_DIR) +
                              "/test/unit/Inputs/graph-events/"
                              "events.out.tfevents.tensorflow");
  Records records = splitRecords(file);
  ASSERT_GE(records.whole.size(), 2u);
  const std::string &version = records.data[0], &graph = records.data[1];
  EXPECT_EQ(tfc::tfRecord(tfc::versionEvent(
                wallTimeOf(version), "tensorflow.core.util.events_writer")),
            records.whole[0]);
  std::string graphDef = bytesAfterWallTime(graph, 0x22);
  EXPECT_NE(graphDef.find("Placeholder"), std::string::npos);
  EXPECT_EQ(tfc::tfRecord(tfc::graphEvent(wallTimeOf(graph), graphDef)),
            records.whole[1]);
}

// Tests writeGraphEventFile: a file named as TensorBoard looks for, whose
// records are the version event and the graph; a directory that cannot be
// made is an error naming it, with nothing written.
TEST(EventFileTest, WritesAGraphFile) {
  std::string dir = ::testing::TempDir() + "/tfc-events-test";
  std::string path, error;
  ASSERT_TRUE(tfc::writeGraphEventFile(dir, "graph bytes", path, error)) << error;
  EXPECT_NE(path.find("/events.out.tfevents."), std::string::npos);
  Records records = splitRecords(readFile(path));
  ASSERT_EQ(records.data.size(), 2u);
  EXPECT_EQ(bytesAfterWallTime(records.data[0], 0x1a), "brain.Event:2");
  EXPECT_EQ(bytesAfterWallTime(records.data[1], 0x22), "graph bytes");
  std::remove(path.c_str());

  EXPECT_FALSE(tfc::writeGraphEventFile("/proc/no/such/dir", "g", path, error));
  EXPECT_NE(error.find("/proc/no"), std::string::npos) << error;
}

} // namespace
