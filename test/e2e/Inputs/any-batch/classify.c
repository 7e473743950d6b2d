/* classify.c - runs the any-batch classifier's library on a batch of N
 * rows (the feed's file holds them) and writes its logits:
 *
 *   classify N X.npy Y.npy
 */

#include "classifier.h"
#include "npy.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long rows = argc == 4 ? strtol(argv[1], NULL, 10) : 0;
  float *x, *y;
  int64_t shape[2];
  classifier_ctx *ctx;
  int status;
  if (rows < 1) {
    fprintf(stderr, "usage: %s N X.npy Y.npy\n", argv[0]);
    return 2;
  }
  x = malloc(sizeof *x * rows * CLASSIFIER_SERVING_DEFAULT_X_ROW_ELEMENTS);
  y = malloc(sizeof *y * rows * CLASSIFIER_STATEFULPARTITIONEDCALL_1_ROW_ELEMENTS);
  if (!x || !y ||
      npy_read(argv[2], "<f4", x, sizeof *x, rows * CLASSIFIER_SERVING_DEFAULT_X_ROW_ELEMENTS))
    return 2;
  ctx = classifier_create(1, NULL);
  /* No rows is refused. */
  status = !ctx || classifier_run(ctx, 0, x, y) == 0 ||
           classifier_run(ctx, rows, x, y) != 0;
  classifier_destroy(ctx);
  shape[0] = rows;
  shape[1] = CLASSIFIER_STATEFULPARTITIONEDCALL_1_ROW_ELEMENTS;
  if (status || npy_write_f32(argv[3], y, shape, 2))
    return 1;
  free(x);
  free(y);
  return 0;
}
