/* Runs the library of complex.pbtxt (z * z + conj(z) and |z| of a complex64
 * feed): complex64 crosses the C boundary as two floats per element, the
 * real part first.
 *   cplx Z.npy SQUARE.npy MODULUS.npy */
#include "cplx.h"
#include "npy.h"

#include <stdio.h>

int main(int argc, char **argv) {
  float z[2 * CPLX_Z_ELEMENTS], square[2 * CPLX_SQUARE_ELEMENTS];
  float modulus[CPLX_MODULUS_ELEMENTS];
  cplx_ctx *ctx;
  int status;
  if (argc != 4 ||
      npy_read(argv[1], "<c8", z, 2 * sizeof(float), CPLX_Z_ELEMENTS) != 0) {
    fprintf(stderr, "usage: %s Z.npy SQUARE.npy MODULUS.npy\n", argv[0]);
    return 2;
  }
  ctx = cplx_create(1, NULL);
  if (!ctx)
    return 1;
  status = cplx_run(ctx, z, square, modulus);
  cplx_destroy(ctx);
  if (status != 0 ||
      npy_write(argv[2], "<c8", square, 2 * sizeof(float), cplx_square_shape,
                CPLX_SQUARE_RANK) != 0 ||
      npy_write_f32(argv[3], modulus, cplx_modulus_shape,
                    CPLX_MODULUS_RANK) != 0)
    return 1;
  return 0;
}
