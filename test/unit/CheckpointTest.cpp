//===- CheckpointTest.cpp - the checkpoint (tensor bundle) reader ---------===//
//
// Reads the variables of the corpus MLP's SavedModel (written by
// TensorFlow 2.21: a Keras MLP 32-16-8-4, so kernels of [32,16], [16,8],
// [8,4] and biases of [16], [8], [4]), and rejects damaged copies with one
// line naming the file.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Checkpoint.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include <unistd.h>

using namespace tfc::rt;

namespace {

const std::string kPrefix =
    TFC_SOURCE_DIR "/test/corpus/mlp/saved_model/variables/variables";

std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(CheckpointTest, CrcIsCastagnolis) {
  // The check value of CRC-32C: "123456789" -> 0xe3069283.
  const char *digits = "123456789";
  EXPECT_EQ(crc32c(reinterpret_cast<const uint8_t *>(digits), 9), 0xe3069283u);
}

TEST(CheckpointTest, ReadsTheVariablesKerasWrote) {
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.open(kPrefix, error)) << error;
  std::multiset<std::vector<int64_t>> floatShapes;
  for (const auto &[name, entry] : reader.entries())
    if (name.find("VARIABLE_VALUE") != std::string::npos && entry.dtype == 1)
      floatShapes.insert(entry.shape);
  std::multiset<std::vector<int64_t>> want = {{32, 16}, {16}, {16, 8},
                                              {8},      {8, 4}, {4}};
  EXPECT_EQ(floatShapes, want);
  for (const auto &[name, entry] : reader.entries()) {
    if (entry.dtype != 1)
      continue;
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(reader.read(name, bytes, error)) << error;
    int64_t count = 1;
    for (int64_t d : entry.shape)
      count *= d;
    EXPECT_EQ(bytes.size(), size_t(count) * 4) << name;
  }
  std::vector<uint8_t> bytes;
  EXPECT_FALSE(reader.read("no/such/tensor", bytes, error));
  EXPECT_NE(error.find("no tensor 'no/such/tensor'"), std::string::npos) << error;
}

TEST(CheckpointTest, ReadsTheObjectGraphTensorFlowWrote) {
  // A TF2 checkpoint's object graph is a scalar string: a serialized
  // TrackableObjectGraph naming the key of every variable it saved.
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.open(kPrefix, error)) << error;
  std::vector<std::string> graph;
  ASSERT_TRUE(reader.readStrings(kObjectGraphKey, graph, error)) << error;
  ASSERT_EQ(graph.size(), 1u);
  int keys = 0;
  for (const auto &[name, entry] : reader.entries())
    if (name.find("VARIABLE_VALUE") != std::string::npos) {
      EXPECT_NE(graph[0].find(name), std::string::npos) << name;
      ++keys;
    }
  EXPECT_EQ(keys, 6);
  // Strings and numbers are not read as each other.
  std::vector<uint8_t> bytes;
  EXPECT_FALSE(reader.read(kObjectGraphKey, bytes, error));
  EXPECT_NE(error.find("is of strings"), std::string::npos) << error;
  std::string kernel;
  for (const auto &[name, entry] : reader.entries())
    if (entry.dtype == 1)
      kernel = name;
  EXPECT_FALSE(reader.readStrings(kernel, graph, error));
  EXPECT_NE(error.find("is not of strings"), std::string::npos) << error;
}

TEST(CheckpointTest, DamagedIndexesAreErrors) {
  std::vector<uint8_t> index = readFile(kPrefix + ".index");
  ASSERT_GT(index.size(), 48u);
  CheckpointReader reader;
  std::string error;
  auto rejects = [&](std::vector<uint8_t> bytes, const char *why) {
    EXPECT_FALSE(reader.parseIndex(bytes.data(), bytes.size(), "v.index", error)) << why;
    EXPECT_EQ(error.rfind("v.index: not a valid checkpoint index: ", 0), 0u) << error;
    EXPECT_NE(error.find(why), std::string::npos) << error;
  };
  rejects({index.begin(), index.begin() + 20}, "shorter than a table footer");
  std::vector<uint8_t> magic = index;
  magic.back() ^= 1;
  rejects(magic, "bad table magic number");
  std::vector<uint8_t> flipped = index;
  flipped[10] ^= 0x40; // Inside the first data block.
  rejects(flipped, "block checksum mismatch");
  rejects(std::vector<uint8_t>(index.end() - 48, index.end()), "block outside the file");
}

TEST(CheckpointTest, DamagedDataIsAnError) {
  std::string dir = ::testing::TempDir() + "/tfc-checkpoint-test";
  std::string prefix = dir + "-variables";
  std::vector<uint8_t> index = readFile(kPrefix + ".index");
  std::vector<uint8_t> data = readFile(kPrefix + ".data-00000-of-00001");
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.parseIndex(index.data(), index.size(), "v.index", error));
  // Corrupt the first byte of one float tensor in a copy of the data.
  auto first = std::find_if(reader.entries().begin(), reader.entries().end(),
                            [](const auto &e) { return e.second.dtype == 1; });
  ASSERT_NE(first, reader.entries().end());
  std::string name = first->first;
  data[first->second.offset] ^= 0x55;
  std::ofstream(prefix + ".index", std::ios::binary)
      .write(reinterpret_cast<const char *>(index.data()), index.size());
  std::ofstream(prefix + ".data-00000-of-00001", std::ios::binary)
      .write(reinterpret_cast<const char *>(data.data()), data.size());
  ASSERT_TRUE(reader.open(prefix, error)) << error;
  std::vector<uint8_t> bytes;
  EXPECT_FALSE(reader.read(name, bytes, error));
  EXPECT_NE(error.find("checksum mismatch for tensor"), std::string::npos) << error;
}

} // namespace

TEST(CheckpointTest, WrittenCheckpointsReadBack) {
  // Tensors of several dtypes and ranks, a scalar and an empty one.
  std::vector<float> weights = {1.5f, -2.f, 0.25f, 3.f, 4.f, -0.5f};
  int64_t step = 42;
  bool flags[3] = {true, false, true};
  tfc::rt::CheckpointWriter writer;
  std::string error;
  ASSERT_TRUE(writer.add("dense/kernel", 1, {2, 3}, weights.data(),
                         weights.size() * sizeof(float), error)) << error;
  ASSERT_TRUE(writer.add("global_step", 9, {}, &step, sizeof step, error)) << error;
  ASSERT_TRUE(writer.add("a/flags", 10, {3}, flags, sizeof flags, error)) << error;
  ASSERT_TRUE(writer.add("empty", 1, {0, 4}, nullptr, 0, error)) << error;
  std::string prefix = ::testing::TempDir() + "/written.ckpt";
  ASSERT_TRUE(writer.write(prefix, error)) << error;

  tfc::rt::CheckpointReader reader;
  ASSERT_TRUE(reader.open(prefix, error)) << error;
  ASSERT_EQ(reader.entries().size(), 4u);
  EXPECT_EQ(reader.entries().at("dense/kernel").shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(reader.entries().at("global_step").dtype, 9);
  EXPECT_TRUE(reader.entries().at("global_step").shape.empty());
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(reader.read("dense/kernel", bytes, error)) << error;
  ASSERT_EQ(bytes.size(), weights.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(bytes.data(), weights.data(), bytes.size()), 0);
  ASSERT_TRUE(reader.read("global_step", bytes, error)) << error;
  int64_t readStep;
  std::memcpy(&readStep, bytes.data(), sizeof readStep);
  EXPECT_EQ(readStep, 42);
  ASSERT_TRUE(reader.read("a/flags", bytes, error)) << error;
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 0, 1}));
  ASSERT_TRUE(reader.read("empty", bytes, error)) << error;
  EXPECT_TRUE(bytes.empty());
  // No temporary file is left behind.
  std::ifstream leftover(prefix + ".index.tmp" + std::to_string(::getpid()));
  EXPECT_FALSE(leftover.good());
}

TEST(CheckpointTest, WrittenStringsReadBack) {
  tfc::rt::CheckpointWriter writer;
  std::string error;
  std::vector<std::string> strings = {"", "abc", std::string(300, 'x'),
                                      std::string("\0\xff", 2)};
  ASSERT_TRUE(writer.addStrings("names", {2, 2}, strings, error)) << error;
  EXPECT_FALSE(writer.addStrings("short", {3}, strings, error));
  EXPECT_EQ(error, "checkpoint tensor 'short': 4 strings do not fill its shape");
  std::string prefix = ::testing::TempDir() + "/strings.ckpt";
  ASSERT_TRUE(writer.write(prefix, error)) << error;

  tfc::rt::CheckpointReader reader;
  ASSERT_TRUE(reader.open(prefix, error)) << error;
  EXPECT_EQ(reader.entries().at("names").dtype, kStringDtype);
  std::vector<std::string> read;
  ASSERT_TRUE(reader.readStrings("names", read, error)) << error;
  EXPECT_EQ(read, strings);

  // A changed byte of the strings fails the tensor's checksum.
  std::string data = prefix + ".data-00000-of-00001";
  std::vector<uint8_t> bytes = readFile(data);
  bytes.back() ^= 1;
  std::ofstream(data, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  EXPECT_FALSE(reader.readStrings("names", read, error));
  EXPECT_NE(error.find("checksum mismatch for tensor 'names'"), std::string::npos)
      << error;

  // A length past the data is no string tensor at all.
  bytes.front() = 0x7f;
  std::ofstream(data, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  EXPECT_FALSE(reader.readStrings("names", read, error));
  EXPECT_NE(error.find("tensor 'names' is not a valid string tensor"), std::string::npos)
      << error;
}

TEST(CheckpointTest, WriterRejectsBadTensors) {
  tfc::rt::CheckpointWriter writer;
  std::string error;
  float x[2] = {0, 0};
  ASSERT_TRUE(writer.add("x", 1, {2}, x, sizeof x, error));
  EXPECT_FALSE(writer.add("x", 1, {2}, x, sizeof x, error));
  EXPECT_EQ(error, "checkpoint tensor 'x': saved twice");
  EXPECT_FALSE(writer.add("y", 1, {3}, x, sizeof x, error));
  EXPECT_EQ(error, "checkpoint tensor 'y': 8 bytes do not hold its shape and dtype");
  EXPECT_FALSE(writer.add("", 1, {2}, x, sizeof x, error));
  EXPECT_FALSE(writer.write("/nonexistent-dir/ckpt", error));
  EXPECT_NE(error.find("/nonexistent-dir/ckpt.data-00000-of-00001.tmp"), std::string::npos);
}

namespace {

// The corpus's ps_embedding_mod: TensorFlow 2.21's sharded Saver wrote its
// [1000, 8] table "emb", partitioned in two, as the slices 0,500:0,8 and
// 500,500:0,8 of one tensor, each slice's bytes under its slice key.
const std::string kPartitionedPrefix =
    TFC_SOURCE_DIR "/test/corpus/ps_embedding_mod/checkpoint/model.ckpt-3";

TensorSlice rows(int64_t start, int64_t length) {
  return TensorSlice{{{start, length}, {0, 8}}};
}

// Tests the slice key against the one TensorFlow wrote (the number 0, the
// name as an ordered string, the rank, each start and length as ordered
// signed numbers), and the encodings of a whole dimension (-1) and of
// numbers past one byte.
TEST(CheckpointTest, SliceKeysAreTensorFlows) {
  EXPECT_EQ(sliceKey("emb", rows(0, 500)),
            std::string("\x00" "emb\x00\x01" "\x01\x02" "\x80\xc1\xf4" "\x80\x88", 13));
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.open(kPartitionedPrefix, error)) << error;
  EXPECT_TRUE(reader.entries().count(sliceKey("emb", rows(0, 500))));
  EXPECT_TRUE(reader.entries().count(sliceKey("emb", rows(500, 500))));
  // Whole dimension: start 0, length -1.
  EXPECT_EQ(sliceKey("v", TensorSlice::whole(1)),
            std::string("\x00v\x00\x01\x01\x01\x80\x7f", 8));
  // 64 needs two bytes, 8192 three; a name's 0x00 and 0xff are escaped.
  EXPECT_EQ(sliceKey(std::string("a\x00\xff", 3), TensorSlice{{{64, 8192}}}),
            std::string("\x00" "a\x00\xff\xff\x00\x00\x01" "\x01\x01"
                        "\xc0\x40" "\xe0\x20\x00", 15));
}

// Tests reading TensorFlow's partitioned table: the full entry lists both
// slices; the whole tensor is put together from them; a slice across the
// two parts, and each part, read the same bytes as the whole's rows.
TEST(CheckpointTest, ReadsTheSlicesTensorFlowWrote) {
  CheckpointReader reader;
  std::string error;
  ASSERT_TRUE(reader.open(kPartitionedPrefix, error)) << error;
  const CheckpointEntry &entry = reader.entries().at("emb");
  EXPECT_EQ(entry.shape, (std::vector<int64_t>{1000, 8}));
  ASSERT_EQ(entry.slices.size(), 2u);
  std::set<int64_t> starts;
  for (const TensorSlice &slice : entry.slices)
    starts.insert(slice.extents[0].start);
  EXPECT_EQ(starts, (std::set<int64_t>{0, 500}));
  std::vector<uint8_t> whole, part;
  ASSERT_TRUE(reader.read("emb", whole, error)) << error;
  ASSERT_EQ(whole.size(), 1000u * 8 * 4);
  for (TensorSlice slice : {rows(0, 500), rows(500, 500), rows(498, 4),
                            TensorSlice{{{10, 3}, {2, 5}}}}) {
    ASSERT_TRUE(reader.readSlice("emb", slice, part, error)) << error;
    int64_t row0 = slice.extents[0].start, col0 = slice.extents[1].start;
    int64_t cols = slice.extents[1].length;
    ASSERT_EQ(part.size(), size_t(slice.extents[0].length * cols * 4));
    for (int64_t r = 0; r < slice.extents[0].length; ++r)
      EXPECT_EQ(std::memcmp(part.data() + r * cols * 4,
                            whole.data() + ((row0 + r) * 8 + col0) * 4,
                            size_t(cols * 4)),
                0)
          << slice.spec({1000, 8}) << " row " << r;
  }
  // Slices that do not fit are errors naming the tensor.
  EXPECT_FALSE(reader.readSlice("emb", rows(999, 2), part, error));
  EXPECT_NE(error.find("tensor 'emb' of shape [1000,8] has no slice"),
            std::string::npos)
      << error;
}

// Tests writing a partitioned variable as TensorFlow does: the parts added
// as slices give TensorFlow's index entries (the full entry's slices and
// each slice's key), read back whole or by slice; a whole tensor read by
// slice; and the writer's refusals (an overlap, a slice outside the
// shape, a tensor both whole and sliced, another full shape).
TEST(CheckpointTest, WrittenSlicesReadBack) {
  CheckpointReader theirs;
  std::string error;
  ASSERT_TRUE(theirs.open(kPartitionedPrefix, error)) << error;
  std::vector<uint8_t> top, bottom;
  ASSERT_TRUE(theirs.readSlice("emb", rows(0, 500), top, error)) << error;
  ASSERT_TRUE(theirs.readSlice("emb", rows(500, 500), bottom, error)) << error;

  CheckpointWriter writer;
  ASSERT_TRUE(writer.addSlice("emb", 1, {1000, 8}, rows(500, 500), bottom.data(),
                              bottom.size(), error)) << error;
  ASSERT_TRUE(writer.addSlice("emb", 1, {1000, 8}, rows(0, 500), top.data(),
                              top.size(), error)) << error;
  std::vector<float> w(8, 0.5f);
  ASSERT_TRUE(writer.add("w", 1, {8, 1}, w.data(), w.size() * 4, error)) << error;
  EXPECT_FALSE(writer.addSlice("emb", 1, {1000, 8}, rows(400, 200), top.data(),
                               200 * 8 * 4, error));
  EXPECT_NE(error.find("overlaps"), std::string::npos) << error;
  EXPECT_FALSE(writer.addSlice("x", 1, {10, 8}, rows(5, 10), top.data(),
                               10 * 8 * 4, error));
  EXPECT_FALSE(writer.addSlice("w", 1, {16, 1}, TensorSlice{{{0, 8}, {0, 1}}},
                               w.data(), 32, error));
  EXPECT_NE(error.find("saved whole and in slices"), std::string::npos) << error;
  EXPECT_FALSE(writer.addSlice("emb", 1, {2000, 8}, rows(1000, 10), top.data(),
                               10 * 8 * 4, error));
  std::string prefix = ::testing::TempDir() + "/sliced.ckpt";
  ASSERT_TRUE(writer.write(prefix, error)) << error;

  CheckpointReader ours;
  ASSERT_TRUE(ours.open(prefix, error)) << error;
  // TensorFlow's keys (the slice keys, "emb" and the plain tensors).
  std::set<std::string> theirKeys, ourKeys;
  for (const auto &[key, entry] : theirs.entries())
    if (key.rfind("emb", 0) == 0 || key[0] == '\0')
      theirKeys.insert(key);
  for (const auto &[key, entry] : ours.entries())
    if (key != "w")
      ourKeys.insert(key);
  EXPECT_EQ(ourKeys, theirKeys);
  EXPECT_EQ(ours.entries().at("emb").slices.size(), 2u);
  std::vector<uint8_t> a, b;
  ASSERT_TRUE(theirs.read("emb", a, error)) << error;
  ASSERT_TRUE(ours.read("emb", b, error)) << error;
  EXPECT_EQ(a, b);
  ASSERT_TRUE(ours.readSlice("w", TensorSlice{{{2, 3}, {0, 1}}}, b, error)) << error;
  EXPECT_EQ(b.size(), 12u);
}

// Tests a saver's shape_and_slices spec: parsed into the full shape and the
// slice, written back the same, and refused with the spec named when it is
// malformed or does not fit.
TEST(CheckpointTest, SliceSpecsParse) {
  std::vector<int64_t> full;
  TensorSlice slice;
  std::string error;
  ASSERT_TRUE(TensorSlice::parseSpec("1000 8 500,500:0,8", full, slice, error))
      << error;
  EXPECT_EQ(full, (std::vector<int64_t>{1000, 8}));
  EXPECT_EQ(slice, rows(500, 500));
  EXPECT_EQ(slice.spec(full), "1000 8 500,500:0,8");
  ASSERT_TRUE(TensorSlice::parseSpec("4 6 -:2,3", full, slice, error)) << error;
  EXPECT_EQ(slice.shapeIn(full), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(slice.startIn(full), (std::vector<int64_t>{0, 2}));
  for (const char *bad : {"4 6 0,5:0,6", "4 0,2:0,1", "x 0,2", "4 1;2", "4 -1,2"}) {
    EXPECT_FALSE(TensorSlice::parseSpec(bad, full, slice, error)) << bad;
    EXPECT_NE(error.find(std::string("'") + bad + "'"), std::string::npos) << error;
  }
}

} // namespace
