//===- Npy.h - NumPy .npy files for the runtime -----------------*- C++ -*-===//
//
// Compiled programs read their inputs and write their outputs as .npy files
// (NumPy's format: a magic string, a version, a Python-dict header giving
// dtype, order and shape, then the raw data). Everything is validated, and
// every problem is one message naming the file.
//
// Part of the runtime: standard C++ only, no MLIR or LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_NPY_H
#define TFC_RUNTIME_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace tfc::rt {

/// Element types a .npy file may hold, as tfc programs see them.
enum class DType {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
  /// Byte strings: NumPy's 'S' (bytes) and 'U' (UTF-32, read as UTF-8)
  /// arrays; the elements are in NpyArray::strings, not `data`.
  String,
};

/// Bytes per element, and the TensorFlow name ("float", "int32", ...).
size_t dtypeSize(DType dtype);
const char *dtypeName(DType dtype);

/// A dense, C-ordered array.
struct NpyArray {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
  /// The elements of a String array, row-major (NumPy's trailing NULs
  /// removed).
  std::vector<std::string> strings;

  int64_t numElements() const;
};

/// Reads `path`. On failure returns false and sets `error` to one line
/// naming the file: missing, not .npy, unsupported version, malformed
/// header, unknown or big-endian dtype, Fortran order, truncated data.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// Parses the bytes of a .npy file (what readNpy does after reading).
/// `name` is used in messages.
bool parseNpy(const uint8_t *bytes, size_t size, const std::string &name,
              NpyArray &array, std::string &error);

/// Writes `array` to `path` (version 1.0, little-endian, C order; strings
/// as 'S' of the longest element's length). The file appears only once
/// complete.
bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error);

/// Checks an array given for input `input` against what the program expects:
/// the same dtype and shape (a dimension of -1, the batch, matches any size).
/// Sets `error` to one line naming both.
bool checkNpyMatches(const NpyArray &array, DType dtype,
                     const std::vector<int64_t> &shape,
                     const std::string &input, const std::string &file,
                     std::string &error);

} // namespace tfc::rt

#endif // TFC_RUNTIME_NPY_H
