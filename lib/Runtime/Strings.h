//===- Strings.h - string objects behind string-tensor handles --*- C++ -*-===//
//
// A string tensor holds one handle per element (tfc_runtime.h): the
// address of an object laid out as the string's length (int64), its bytes
// and a NUL. This header makes and reads such objects, for the runtime's
// string pool and for the program's string inputs and outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_LIB_RUNTIME_STRINGS_H
#define TFC_LIB_RUNTIME_STRINGS_H

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tfc {

/// A new string object holding `size` bytes of `data`.
inline std::unique_ptr<char[]> makeStringObject(const char *data, int64_t size) {
  auto object = std::make_unique<char[]>(sizeof size + size + 1);
  std::memcpy(object.get(), &size, sizeof size);
  if (size)
    std::memcpy(object.get() + sizeof size, data, size);
  object[sizeof size + size] = 0;
  return object;
}

/// The handle of a string object.
inline uint64_t handleOf(const void *object) {
  return reinterpret_cast<uint64_t>(object);
}

/// The text of a string handle.
inline std::string stringOf(uint64_t handle) {
  const char *object = reinterpret_cast<const char *>(handle);
  int64_t size;
  std::memcpy(&size, object, sizeof size);
  return std::string(object + sizeof size, size);
}

/// The bytes of a string handle, in place.
inline std::string_view viewOf(uint64_t handle) {
  const char *object = reinterpret_cast<const char *>(handle);
  int64_t size;
  std::memcpy(&size, object, sizeof size);
  return std::string_view(object + sizeof size, size);
}

/// The strings steps make (tfc_string_new), freed together between steps.
/// Partitions of a step run concurrently, hence the lock.
class StringPool {
public:
  const void *make(const char *data, int64_t size) {
    std::unique_ptr<char[]> object = makeStringObject(data, size);
    std::lock_guard<std::mutex> lock(mutex);
    objects.push_back(std::move(object));
    return objects.back().get();
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    objects.clear();
  }

private:
  std::mutex mutex;
  std::vector<std::unique_ptr<char[]>> objects;
};

/// While one lives, tfc_string_new makes the strings of its thread in
/// `pool` instead of the runtime's: a queue runner's thread runs beside
/// the steps, whose strings are released between steps.
class ThreadStringPool {
public:
  explicit ThreadStringPool(StringPool &pool);
  ~ThreadStringPool();
  ThreadStringPool(const ThreadStringPool &) = delete;
  ThreadStringPool &operator=(const ThreadStringPool &) = delete;
  /// The pool of the calling thread, or null: the runtime's.
  static StringPool *current();

private:
  StringPool *outer;
};

} // namespace tfc

#endif // TFC_LIB_RUNTIME_STRINGS_H
