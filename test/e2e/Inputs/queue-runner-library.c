/* queue-runner-library.c - a library whose model has queue runners.
 *
 *   queue-runner-library STEPS LOSS.npy W.npy
 *
 * qr_create runs the init entry and starts the runners, which fill the
 * batch queue on threads of their own while qr_run takes steps; qr_destroy
 * stops them, waiting or not. Writes the last step's loss and weights.
 */

#include "npy.h"
#include "qr.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  float loss = 0, w[QR_W_AFTER_ELEMENTS];
  int steps, s, status = 0;
  qr_ctx *ctx;
  if (argc != 4 || (steps = atoi(argv[1])) < 1) {
    fprintf(stderr, "usage: %s STEPS LOSS.npy W.npy\n", argv[0]);
    return 2;
  }
  ctx = qr_create(2, NULL);
  if (!ctx)
    return 1;
  for (s = 0; s < steps && status == 0; ++s)
    status = qr_run(ctx, &loss, w);
  qr_destroy(ctx);
  if (status != 0) {
    fprintf(stderr, "step %d failed\n", s);
    return 1;
  }
  if (npy_write_f32(argv[2], &loss, NULL, 0) ||
      npy_write_f32(argv[3], w, qr_w_after_shape, QR_W_AFTER_RANK)) {
    fprintf(stderr, "cannot write the outputs\n");
    return 1;
  }
  return 0;
}
