/* npy.h - just enough of NumPy's .npy format for the library examples.
 *
 * Reads and writes arrays in C order (version 1 files, as
 * numpy.save writes them), on a little-endian machine. Plain C, usable from
 * C++. A real program would check more (the shape, other dtypes) or use
 * its own tensor I/O; these helpers keep the examples about the library.
 */

#ifndef TFC_EXAMPLES_NPY_H
#define TFC_EXAMPLES_NPY_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Reads exactly `count` elements of `size` bytes from a .npy file whose
 * dtype is `descr` ("<f4" for float32, "<i4" for int32, ...) into `data`.
 * Returns 0, or -1 if the file cannot be read, holds another dtype or
 * another number of elements. */
static inline int npy_read(const char *path, const char *descr, void *data,
                           size_t size, size_t count) {
  unsigned char prefix[10];
  char dict[256], expected[64];
  size_t length;
  int ok;
  FILE *file = fopen(path, "rb");
  if (!file)
    return -1;
  /* Magic, version 1.0, the header's length (little-endian), the header. */
  ok = fread(prefix, 1, sizeof prefix, file) == sizeof prefix &&
       memcmp(prefix, "\x93NUMPY\x01\x00", 8) == 0;
  length = ok ? (size_t)(prefix[8] | prefix[9] << 8) : 0;
  ok = ok && length < sizeof dict && fread(dict, 1, length, file) == length;
  if (ok) {
    dict[length] = '\0';
    snprintf(expected, sizeof expected, "'descr': '%s'", descr);
    ok = strstr(dict, expected) != NULL &&
         strstr(dict, "'fortran_order': False") != NULL;
  }
  /* The data, and nothing after it. */
  ok = ok && fread(data, size, count, file) == count && fgetc(file) == EOF;
  fclose(file);
  return ok ? 0 : -1;
}

/* Writes `data`, of the given shape, as a .npy file of dtype `descr`
 * ("<f4", "<c8", ...) whose elements are `size` bytes. Returns 0, or -1 if
 * the file cannot be written. */
static inline int npy_write(const char *path, const char *descr,
                            const void *data, size_t size,
                            const int64_t *shape, int rank) {
  char dict[256];
  size_t length, count = 1;
  int i, ok;
  FILE *file;
  length = (size_t)snprintf(dict, sizeof dict,
                            "{'descr': '%s', 'fortran_order': False, "
                            "'shape': (",
                            descr);
  for (i = 0; i < rank; ++i) {
    length += (size_t)snprintf(dict + length, sizeof dict - length,
                               "%s%lld", i ? ", " : "", (long long)shape[i]);
    count *= (size_t)shape[i];
  }
  length += (size_t)snprintf(dict + length, sizeof dict - length, "%s), }",
                             rank == 1 ? "," : "");
  /* Spaces and a newline pad the header so the data starts 64-aligned. */
  while ((10 + length + 1) % 64 != 0 && length + 2 < sizeof dict)
    dict[length++] = ' ';
  dict[length++] = '\n';

  file = fopen(path, "wb");
  if (!file)
    return -1;
  ok = fwrite("\x93NUMPY\x01\x00", 1, 8, file) == 8 &&
       fputc((int)(length & 0xff), file) != EOF &&
       fputc((int)(length >> 8), file) != EOF &&
       fwrite(dict, 1, length, file) == length &&
       fwrite(data, size, count, file) == count;
  return fclose(file) == 0 && ok ? 0 : -1;
}

/* Writes `data`, of the given shape, as a float32 .npy file. */
static inline int npy_write_f32(const char *path, const float *data,
                                const int64_t *shape, int rank) {
  return npy_write(path, "<f4", data, sizeof(float), shape, rank);
}

#endif /* TFC_EXAMPLES_NPY_H */
