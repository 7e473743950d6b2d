/* sign.c - calls the library of sign.pbtxt (int32 n -> bool above, int32
 * twice) and prints its fetches as the --emit exe program prints them:
 * bool crosses the C boundary as uint8_t, int32 as int32_t.
 *
 *   sign N.npy
 */

#include "npy.h"
#include "sign.h"

#include <stdio.h>

static void print_shape(const int64_t *shape, int rank) {
  int d;
  printf(" [");
  for (d = 0; d < rank; ++d)
    printf("%s%lld", d ? "," : "", (long long)shape[d]);
  printf("]");
}

int main(int argc, char **argv) {
  int32_t n[SIGN_N_ELEMENTS], twice[SIGN_TWICE_ELEMENTS];
  uint8_t above[SIGN_ABOVE_ELEMENTS];
  sign_ctx *ctx;
  int i, status;
  if (argc != 2 || npy_read(argv[1], "<i4", n, sizeof n[0], SIGN_N_ELEMENTS)) {
    fprintf(stderr, "usage: %s N.npy (int32)\n", argv[0]);
    return 2;
  }
  ctx = sign_create(1, NULL);
  status = !ctx || sign_run(ctx, n, above, twice) != 0;
  sign_destroy(ctx);
  if (status)
    return 1;

  printf("%s: bool", SIGN_ABOVE_NAME);
  print_shape(sign_above_shape, SIGN_ABOVE_RANK);
  for (i = 0; i < SIGN_ABOVE_ELEMENTS; ++i)
    printf(" %s", above[i] ? "true" : "false");
  printf("\n%s: int32", SIGN_TWICE_NAME);
  print_shape(sign_twice_shape, SIGN_TWICE_RANK);
  for (i = 0; i < SIGN_TWICE_ELEMENTS; ++i)
    printf(" %d", (int)twice[i]);
  printf("\n");
  return 0;
}
