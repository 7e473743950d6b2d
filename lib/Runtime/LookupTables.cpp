//===- LookupTables.cpp - lookups in tables that are constants ------------===//
//
// A static table whose initializer the graph gives constants
// (tfc-bind-tables) is part of the program's data: its keys sorted at
// compile time, its values in the keys' order. A lookup is a binary
// search per query. String keys and values are string objects (the
// layout of tfc_runtime.h) in one block of data, found by their offsets,
// so that a found string value's handle points into the program's data
// and needs no copy.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Strings.h"

#include <algorithm>
#include <cstring>

using tfc::viewOf;

namespace {

/// The string object at `offset` of `data`, as a handle.
uint64_t objectAt(const void *data, int64_t offset) {
  return tfc::handleOf(static_cast<const char *>(data) + offset);
}

/// The index of `query` among the `size` sorted keys, or -1.
int64_t findInteger(const int64_t *keys, int64_t size, int64_t query) {
  const int64_t *at = std::lower_bound(keys, keys + size, query);
  return at != keys + size && *at == query ? at - keys : -1;
}

int64_t findString(const int64_t *offsets, const void *data, int64_t size,
                   std::string_view query) {
  // Keys compare as their bytes do, unsigned, as the compiler sorted them.
  const int64_t *at = std::lower_bound(
      offsets, offsets + size, query, [&](int64_t offset, std::string_view q) {
        return viewOf(objectAt(data, offset)) < q;
      });
  return at != offsets + size && viewOf(objectAt(data, *at)) == query
             ? at - offsets
             : -1;
}

} // namespace

extern "C" {

void tfc_table_find(tfc_runtime *, const int64_t *keys, const void *key_data,
                    const void *values, const void *value_data,
                    const void *queries, const void *default_value, void *out,
                    int64_t size, int64_t count, int64_t key_bytes,
                    int64_t value_bytes) {
  const uint64_t *handles = static_cast<const uint64_t *>(queries);
  for (int64_t i = 0; i < count; ++i) {
    int64_t found;
    if (key_bytes == 0)
      found = findString(keys, key_data, size, viewOf(handles[i]));
    else if (key_bytes == 4)
      found = findInteger(keys, size, static_cast<const int32_t *>(queries)[i]);
    else
      found = findInteger(keys, size, static_cast<const int64_t *>(queries)[i]);
    if (value_bytes == 0) {
      // A string value: a handle of the table's object, or the default's.
      uint64_t handle =
          found < 0 ? *static_cast<const uint64_t *>(default_value)
                    : objectAt(value_data,
                               static_cast<const int64_t *>(values)[found]);
      static_cast<uint64_t *>(out)[i] = handle;
      continue;
    }
    const char *from = found < 0 ? static_cast<const char *>(default_value)
                                 : static_cast<const char *>(values) +
                                       found * value_bytes;
    std::memcpy(static_cast<char *>(out) + i * value_bytes, from, value_bytes);
  }
}

} // extern "C"
