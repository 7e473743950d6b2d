/* main.c - the example MLP as a C library, called from C.
 *
 *   tfc compile examples/mlp/frozen.pb --feed x --fetch Identity \
 *       --emit lib -o libmlp.a                  # writes libmlp.a and mlp.h
 *   cc -I. -Iexamples/library examples/library/main.c libmlp.a \
 *       -ldnnl -lgomp -lstdc++ -lpthread -lm -o mlp-c
 *   ./mlp-c examples/mlp/inputs/0.npy out.npy
 *
 * Reads the feed x from a .npy file, runs one step, prints the fetch
 * Identity and writes it as .npy. Buffers are sized by the header's
 * constants; the library allocates the context's arena.
 */

#include "mlp.h"
#include "npy.h"

#include <stdio.h>

int main(int argc, char **argv) {
  float x[MLP_X_ELEMENTS], identity[MLP_IDENTITY_ELEMENTS];
  mlp_ctx *ctx;
  int i, status;

  if (argc != 3) {
    fprintf(stderr, "usage: %s X.npy OUT.npy\n", argv[0]);
    return 2;
  }
  if (npy_read(argv[1], "<f4", x, sizeof x[0], MLP_X_ELEMENTS) != 0) {
    fprintf(stderr, "%s: expected %d float32 values\n", argv[1],
            MLP_X_ELEMENTS);
    return 2;
  }

  /* Threads: 0 is one per core. Arena: NULL lets the library allocate it. */
  ctx = mlp_create(0, NULL);
  if (!ctx) {
    fprintf(stderr, "mlp_create failed\n");
    return 1;
  }
  status = mlp_run(ctx, x, identity);
  mlp_destroy(ctx);
  if (status != 0) {
    fprintf(stderr, "mlp_run failed: %d\n", status);
    return 1;
  }

  printf("%s:", MLP_IDENTITY_NAME);
  for (i = 0; i < MLP_IDENTITY_ELEMENTS; ++i)
    printf(" %g", identity[i]);
  printf("\n");
  if (npy_write_f32(argv[2], identity, mlp_identity_shape,
                    MLP_IDENTITY_RANK) != 0) {
    fprintf(stderr, "%s: cannot write\n", argv[2]);
    return 1;
  }
  return 0;
}
