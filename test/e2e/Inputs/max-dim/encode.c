/* encode.c - runs the text encoder's library (compiled with --max-dim
 * serving_default_ids:1=16) on N sequences of L tokens (the ids' file
 * holds them) and writes the sequence output, L positions each:
 *
 *   encode N L IDS.npy SEQUENCE.npy
 *
 * The ids go into a buffer of the bound, 16 per sequence; the slices past
 * L hold ids no table has, which the step must ignore. A length past the
 * bound, or below 0, must be refused. */

#include "encoder.h"
#include "npy.h"

#include <stdio.h>
#include <stdlib.h>

#define BOUND 16
#define WIDTH 8

int main(int argc, char **argv) {
  long rows = argc == 5 ? strtol(argv[1], NULL, 10) : 0;
  long length = argc == 5 ? strtol(argv[2], NULL, 10) : 0;
  int32_t *given, *ids;
  float *sequence, *pooled, *out;
  int64_t count, positions = -1, shape[3];
  encoder_ctx *ctx;
  long r, t, k;
  int status;
  if (rows < 1 || length < 1 || length > BOUND) {
    fprintf(stderr, "usage: %s N L IDS.npy SEQUENCE.npy\n", argv[0]);
    return 2;
  }
  given = malloc(sizeof *given * rows * length);
  ids = malloc(sizeof *ids * rows * BOUND);
  sequence = malloc(sizeof *sequence * rows * BOUND * WIDTH);
  pooled = malloc(sizeof *pooled * rows * WIDTH);
  out = malloc(sizeof *out * rows * length * WIDTH);
  if (!given || !ids || !sequence || !pooled || !out ||
      npy_read(argv[3], "<i4", given, sizeof *given, rows * length))
    return 2;
  for (r = 0; r < rows; ++r)
    for (t = 0; t < BOUND; ++t)
      ids[r * BOUND + t] = t < length ? given[r * length + t] : 1000000;
  ctx = encoder_create(1, NULL);
  /* A length past the bound, or below 0, is refused without running. */
  count = BOUND + 1;
  status = !ctx || encoder_run(ctx, rows, ids, &count, sequence, pooled,
                               &positions) == 0;
  count = -1;
  status = status || encoder_run(ctx, rows, ids, &count, sequence, pooled,
                                 &positions) == 0;
  count = length;
  status = status || encoder_run(ctx, rows, ids, &count, sequence, pooled,
                                 &positions) != 0;
  encoder_destroy(ctx);
  /* The sequence has as many positions as given. */
  if (status || positions != length)
    return 1;
  for (r = 0; r < rows; ++r)
    for (k = 0; k < length * WIDTH; ++k)
      out[r * length * WIDTH + k] = sequence[r * BOUND * WIDTH + k];
  shape[0] = rows;
  shape[1] = length;
  shape[2] = WIDTH;
  if (npy_write_f32(argv[4], out, shape, 3))
    return 1;
  free(given);
  free(ids);
  free(sequence);
  free(pooled);
  free(out);
  return 0;
}
