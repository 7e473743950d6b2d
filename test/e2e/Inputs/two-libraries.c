/* two-libraries.c - one program calling two tfc libraries, mlp and cnn.
 *
 *   two-libraries MLP_X.npy MLP_OUT.npy CNN_X.npy CNN_OUT.npy
 *
 * Both libraries carry a model descriptor and a step of the same internal
 * names, and each carries the runtime; the program links only if neither
 * clashes, and computes both models correctly only if each library runs
 * its own model.
 */

#include "cnn.h"
#include "mlp.h"
#include "npy.h"

#include <stdint.h>
#include <stdio.h>

/* The outputs one float past a 64-byte boundary: a step computes its
 * fetches in the caller's buffers, which need no alignment beyond their
 * elements'. */
static float mlp_x[MLP_X_ELEMENTS], mlp_out[MLP_IDENTITY_ELEMENTS + 16];
static float cnn_x[CNN_X_ELEMENTS], cnn_out[CNN_IDENTITY_ELEMENTS + 16];

int main(int argc, char **argv) {
  mlp_ctx *mlp;
  cnn_ctx *cnn;
  int status;
  if (argc != 5 ||
      npy_read(argv[1], "<f4", mlp_x, sizeof(float), MLP_X_ELEMENTS) != 0 ||
      npy_read(argv[3], "<f4", cnn_x, sizeof(float), CNN_X_ELEMENTS) != 0) {
    fprintf(stderr, "usage: %s MLP_X.npy MLP_OUT.npy CNN_X.npy CNN_OUT.npy\n",
            argv[0]);
    return 2;
  }
  float *mlp_y = mlp_out + (16 - (uintptr_t)mlp_out % 64 / 4) % 16 + 1;
  float *cnn_y = cnn_out + (16 - (uintptr_t)cnn_out % 64 / 4) % 16 + 1;
  /* Both contexts alive at once, each with its own arena. */
  mlp = mlp_create(2, NULL);
  cnn = cnn_create(2, NULL);
  status = !mlp || !cnn || mlp_run(mlp, mlp_x, mlp_y) != 0 ||
           cnn_run(cnn, cnn_x, cnn_y) != 0;
  mlp_destroy(mlp);
  cnn_destroy(cnn);
  if (status != 0) {
    fprintf(stderr, "a library failed\n");
    return 1;
  }
  if (npy_write_f32(argv[2], mlp_y, mlp_identity_shape, MLP_IDENTITY_RANK) ||
      npy_write_f32(argv[4], cnn_y, cnn_identity_shape, CNN_IDENTITY_RANK)) {
    fprintf(stderr, "cannot write the outputs\n");
    return 1;
  }
  return 0;
}
