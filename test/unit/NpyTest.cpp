//===- NpyTest.cpp - .npy reading, writing and validation -----------------===//
//
// Tests that .npy files NumPy writes are read (versions 1 to 3, every
// dtype, scalars, empty arrays), that writing and reading back is exact,
// and that each kind of bad file gets its one-line error.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace tfc::rt;

namespace {

/// The bytes of a .npy file with the given header dict and data.
std::vector<uint8_t> npyBytes(const std::string &dict, size_t dataBytes,
                              int major = 1, uint8_t fill = 0) {
  std::string header = dict;
  size_t prefix = 6 + 2 + (major == 1 ? 2 : 4);
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y',
                                uint8_t(major), 0};
  size_t n = header.size();
  bytes.push_back(n & 0xff);
  bytes.push_back((n >> 8) & 0xff);
  if (major != 1) {
    bytes.push_back((n >> 16) & 0xff);
    bytes.push_back((n >> 24) & 0xff);
  }
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), dataBytes, fill);
  return bytes;
}

std::string parseError(const std::vector<uint8_t> &bytes) {
  NpyArray array;
  std::string error;
  EXPECT_FALSE(parseNpy(bytes.data(), bytes.size(), "x.npy", array, error));
  return error;
}

TEST(NpyTest, ReadsWhatNumPyWrites) {
  // np.save of np.arange(6, dtype=np.float32).reshape(2, 3).
  std::vector<uint8_t> bytes = npyBytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0);
  for (int i = 0; i < 6; ++i) {
    float f = float(i);
    uint8_t raw[4];
    std::memcpy(raw, &f, 4);
    bytes.insert(bytes.end(), raw, raw + 4);
  }
  NpyArray array;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes.data(), bytes.size(), "x.npy", array, error))
      << error;
  EXPECT_EQ(array.dtype, DType::Float32);
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 3}));
  float last;
  std::memcpy(&last, array.data.data() + 20, 4);
  EXPECT_EQ(last, 5.0f);
}

TEST(NpyTest, ReadsAFileNumPyWrote) {
  // The MLP's input in the test corpus: np.save of a (2, 32) float32 array.
  NpyArray array;
  std::string error;
  ASSERT_TRUE(readNpy(TFC_SOURCE_DIR "/test/corpus/mlp/inputs/0.npy", array,
                      error))
      << error;
  EXPECT_EQ(array.dtype, DType::Float32);
  EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 32}));
  EXPECT_EQ(array.data.size(), 2u * 32u * 4u);
  // Element [1, 31], as NumPy reads it: -0.8837851881980896.
  float last;
  std::memcpy(&last, array.data.data() + 63 * 4, 4);
  EXPECT_EQ(last, -0.8837851881980896f);
}

TEST(NpyTest, VersionsDtypesScalarsAndEmptyArrays) {
  NpyArray array;
  std::string error;
  auto v2 = npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
                     24, /*major=*/2);
  ASSERT_TRUE(parseNpy(v2.data(), v2.size(), "x.npy", array, error)) << error;
  EXPECT_EQ(array.dtype, DType::Int64);

  auto scalar = npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 1);
  ASSERT_TRUE(parseNpy(scalar.data(), scalar.size(), "x.npy", array, error));
  EXPECT_EQ(array.dtype, DType::Bool);
  EXPECT_TRUE(array.shape.empty());
  EXPECT_EQ(array.numElements(), 1);

  auto empty = npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 5), }", 0);
  ASSERT_TRUE(parseNpy(empty.data(), empty.size(), "x.npy", array, error));
  EXPECT_EQ(array.numElements(), 0);

  // Double quotes and no trailing comma are valid Python too.
  auto quoted = npyBytes(R"({"descr": "<u2", "fortran_order": False, "shape": (2,)})", 4);
  ASSERT_TRUE(parseNpy(quoted.data(), quoted.size(), "x.npy", array, error)) << error;
  EXPECT_EQ(array.dtype, DType::UInt16);
}

TEST(NpyTest, ReadsStrings) {
  // np.save of np.array([b'ab', b'', b'xyz']): 'S3', NUL-padded.
  auto bytes = npyBytes("{'descr': '|S3', 'fortran_order': False, 'shape': (3,), }", 0);
  for (const char *hex : {"616200", "000000", "78797a"})
    for (int i = 0; i < 3; ++i)
      bytes.push_back(uint8_t(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16)));
  NpyArray array;
  std::string error;
  ASSERT_TRUE(parseNpy(bytes.data(), bytes.size(), "x.npy", array, error)) << error;
  EXPECT_EQ(array.dtype, DType::String);
  EXPECT_EQ(array.strings, (std::vector<std::string>{"ab", "", "xyz"}));

  // np.save of np.array(['\u00e9\u20ac', 'a']): 'U2', UTF-32, read as UTF-8.
  auto unicode = npyBytes("{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }", 0);
  for (uint32_t unit : {0xe9u, 0x20acu, 0x61u, 0u})
    for (int i = 0; i < 4; ++i)
      unicode.push_back(uint8_t(unit >> (8 * i)));
  ASSERT_TRUE(parseNpy(unicode.data(), unicode.size(), "x.npy", array, error)) << error;
  EXPECT_EQ(array.strings, (std::vector<std::string>{"\xc3\xa9\xe2\x82\xac", "a"}));
}

TEST(NpyTest, WritesStringsAsNumPyReadsThem) {
  NpyArray out;
  out.dtype = DType::String;
  out.shape = {2};
  out.strings = {"ckpt", "a"};
  std::string path = ::testing::TempDir() + "/strings.npy", error;
  ASSERT_TRUE(writeNpy(path, out, error)) << error;
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  EXPECT_NE(bytes.find("'descr': '|S4'"), std::string::npos);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), std::string("ckpta\0\0\0", 8));
  NpyArray in;
  ASSERT_TRUE(readNpy(path, in, error)) << error;
  EXPECT_EQ(in.strings, out.strings);
  std::remove(path.c_str());
}

TEST(NpyTest, WriteThenReadIsExact) {
  NpyArray out;
  out.dtype = DType::Float64;
  out.shape = {2, 1, 3};
  out.data.resize(6 * 8);
  for (size_t i = 0; i < out.data.size(); ++i)
    out.data[i] = uint8_t(i * 7);
  std::string path = ::testing::TempDir() + "/roundtrip.npy", error;
  ASSERT_TRUE(writeNpy(path, out, error)) << error;
  NpyArray in;
  ASSERT_TRUE(readNpy(path, in, error)) << error;
  EXPECT_EQ(in.dtype, out.dtype);
  EXPECT_EQ(in.shape, out.shape);
  EXPECT_EQ(in.data, out.data);
  // The data starts on a 64-byte boundary, as NumPy aligns it.
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  EXPECT_EQ((size_t(file.tellg()) - out.data.size()) % 64, 0u);

  for (std::vector<int64_t> shape : {std::vector<int64_t>{}, {4}}) {
    NpyArray small;
    small.dtype = DType::Int32;
    small.shape = shape;
    small.data.resize(small.numElements() * 4, 1);
    ASSERT_TRUE(writeNpy(path, small, error)) << error;
    ASSERT_TRUE(readNpy(path, in, error)) << error;
    EXPECT_EQ(in.shape, shape);
  }
}

TEST(NpyTest, EachBadFileHasItsError) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_EQ(parseError({'n', 'o', 'p', 'e'}), "x.npy: not a .npy file (bad magic)");
  auto v9 = npyBytes(ok, 8);
  v9[6] = 9;
  EXPECT_EQ(parseError(v9), "x.npy: unsupported .npy version 9.0");
  auto truncatedHeader = npyBytes(ok, 8);
  truncatedHeader.resize(20);
  EXPECT_EQ(parseError(truncatedHeader), "x.npy: truncated header");
  EXPECT_EQ(parseError(npyBytes(ok, 5)),
            "x.npy: truncated data: 5 bytes for 2 elements of float");
  EXPECT_EQ(parseError(npyBytes(ok, 9)), "x.npy: trailing bytes after the data");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 8)),
            "x.npy: Fortran-ordered arrays are not supported; save the array "
            "in C order (np.ascontiguousarray)");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8)),
            "x.npy: big-endian dtype '>f4' is not supported");
  // Found by the fuzzer: dimensions whose product overflows int64 before a
  // 0 makes the array empty.
  EXPECT_EQ(parseError(npyBytes("{'descr': '|b1', 'fortran_order': False, "
                                "'shape': (4294967296, 3000000000, 0), }",
                                0)),
            "x.npy: shape is too large");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '<M8', 'fortran_order': False, 'shape': (2,), }", 16)),
            "x.npy: unsupported dtype '<M8'");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '|S0', 'fortran_order': False, 'shape': (2,), }", 0)),
            "x.npy: unsupported dtype '|S0'");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '|S4', 'fortran_order': False, 'shape': (2,), }", 7)),
            "x.npy: truncated data: 7 bytes for 2 elements of string");
  // UTF-32 code unit 0xffffffff is no code point.
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", 4,
                1, 0xff)),
            "x.npy: element 0 is not a valid Unicode string");
  EXPECT_EQ(parseError(npyBytes("{'descr': '<f4', 'shape': (2,), }", 8)),
            "x.npy: malformed header: header lacks 'descr', 'fortran_order' "
            "or 'shape'");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", 8)),
            "x.npy: malformed header: 'shape' is not a tuple of sizes");
  EXPECT_EQ(parseError(npyBytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': "
                "(99999999999, 99999999999), }", 8)),
            "x.npy: shape is too large");

  NpyArray array;
  std::string error;
  EXPECT_FALSE(readNpy("/nonexistent/in.npy", array, error));
  EXPECT_EQ(error, "/nonexistent/in.npy: cannot open: No such file or directory");
}

TEST(NpyTest, InputsMustMatchWhatTheProgramExpects) {
  NpyArray array;
  array.dtype = DType::Float64;
  array.shape = {2, 3};
  std::string error;
  EXPECT_FALSE(checkNpyMatches(array, DType::Float32, {2, 3}, "x:0", "in.npy", error));
  EXPECT_EQ(error, "in.npy: input 'x:0' must be float, the file holds double");
  array.dtype = DType::Float32;
  EXPECT_FALSE(checkNpyMatches(array, DType::Float32, {6}, "x:0", "in.npy", error));
  EXPECT_EQ(error, "in.npy: input 'x:0' must have rank 1 [6], the file holds "
                   "rank 2 [2,3]");
  EXPECT_FALSE(checkNpyMatches(array, DType::Float32, {3, 2}, "x:0", "in.npy", error));
  EXPECT_EQ(error, "in.npy: input 'x:0' must have shape [3,2], the file holds [2,3]");
  EXPECT_TRUE(checkNpyMatches(array, DType::Float32, {2, 3}, "x:0", "in.npy", error));
}

} // namespace
