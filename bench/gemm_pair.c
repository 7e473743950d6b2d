/* gemm_pair.c - tfc's compiled product and oneDNN's sgemm, measured in
 * turns inside one process (bench/gemm.py builds and runs it).
 *
 *   gemm_pair DIR MATRICES M K N THREADS ROUNDS CALLS
 *
 * Links the library `tfc compile --emit lib --lib-name gemm` made of one
 * MatMul (feed a, weights constant) or BatchMatMulV2 (feeds a and b), and
 * reads DIR/a.npy and DIR/b.npy. It writes each system's first product,
 * DIR/tfc.npy and DIR/onednn.npy, for bench/gemm.py to compare with
 * NumPy's (npy-compare). Then ROUNDS rounds, each a
 * block of CALLS calls of tfc's step and one of CALLS calls of oneDNN's
 * sgemm on the same operands (one call per matrix of a batch, on THREADS
 * of OpenMP's threads, the team tfc's kernels use too), the order
 * swapped every round; every call is timed and a block's median kept.
 * Both see the same process, caches and neighbours within a fraction of a
 * second, which separate processes an hour apart do not.
 *
 * Prints one JSON line: the blocks' medians in seconds per system.
 */

/* clock_gettime and CLOCK_MONOTONIC are POSIX, beside C11. */
#define _POSIX_C_SOURCE 200112L

#include "gemm.h"
#include "npy.h"

#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef GEMM_B_ELEMENTS
#define RUN_TFC(ctx, a, b, c) gemm_run(ctx, a, b, c)
#else
#define RUN_TFC(ctx, a, b, c) gemm_run(ctx, a, c)
#endif

static long long matrices, m, k, n;
static int threads;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int run_onednn(const float *a, const float *b, float *c) {
  /* tfc's kernel sets this thread's OpenMP team size before each of its
   * sgemm calls (one thread for a small product): sgemm called directly
   * gets all THREADS every time. */
  omp_set_num_threads(threads);
  for (long long i = 0; i < matrices; ++i)
    if (dnnl_sgemm('N', 'N', m, n, k, 1.0f, a + i * m * k, k, b + i * k * n, n,
                   0.0f, c + i * m * n, n) != dnnl_success)
      return 1;
  return 0;
}

static int compare_doubles(const void *x, const void *y) {
  double p = *(const double *)x, q = *(const double *)y;
  return (p > q) - (p < q);
}

static void *aligned(size_t count) {
  /* 64 bytes, a cache line: what an application that aligns its buffers
   * gives sgemm. Rounded up, as aligned_alloc requires. */
  return aligned_alloc(64, (count * sizeof(float) + 63) / 64 * 64);
}

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: %s DIR MATRICES M K N THREADS ROUNDS CALLS\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  matrices = atoll(argv[2]);
  m = atoll(argv[3]);
  k = atoll(argv[4]);
  n = atoll(argv[5]);
  threads = atoi(argv[6]);
  int rounds = atoi(argv[7]), calls = atoi(argv[8]);
  size_t a_count = (size_t)(matrices * m * k), b_count = (size_t)(matrices * k * n),
         c_count = (size_t)(matrices * m * n);
  if (matrices < 1 || m < 1 || k < 1 || n < 1 || threads < 1 || rounds < 1 || calls < 1) {
    fprintf(stderr, "gemm_pair: every number must be at least 1\n");
    return 2;
  }
  if (a_count != GEMM_A_ELEMENTS || c_count != GEMM_C_ELEMENTS) {
    fprintf(stderr, "gemm_pair: the sizes do not match the library's (a %d, c %d elements)\n",
            GEMM_A_ELEMENTS, GEMM_C_ELEMENTS);
    return 2;
  }

  /* A MatMul's b is a constant inside the library; sgemm reads this copy. */
  float *a = aligned(a_count), *b = aligned(b_count), *c_tfc = aligned(c_count), *c_onednn = aligned(c_count);
  double *times = malloc(sizeof(double) * (size_t)calls);
  double *medians[2] = {malloc(sizeof(double) * (size_t)rounds),
                        malloc(sizeof(double) * (size_t)rounds)};
  if (!a || !b || !c_tfc || !c_onednn || !times || !medians[0] || !medians[1]) {
    fprintf(stderr, "gemm_pair: out of memory\n");
    return 1;
  }
  char path[4096];
  const char *names[] = {"a", "b"};
  float *arrays[] = {a, b};
  size_t counts[] = {a_count, b_count};
  for (int i = 0; i < 2; ++i) {
    snprintf(path, sizeof path, "%s/%s.npy", dir, names[i]);
    if (npy_read(path, "<f4", arrays[i], sizeof(float), counts[i]) != 0) {
      fprintf(stderr, "gemm_pair: %s: expected %zu float32 values\n", path, counts[i]);
      return 2;
    }
  }

  gemm_ctx *ctx = gemm_create(threads, NULL);
  if (!ctx) {
    fprintf(stderr, "gemm_pair: cannot make the model's context\n");
    return 1;
  }
  if (RUN_TFC(ctx, a, b, c_tfc) != 0 || run_onednn(a, b, c_onednn) != 0) {
    fprintf(stderr, "gemm_pair: a product failed\n");
    return 1;
  }
  /* NumPy's shape: a MatMul's product is one matrix, without a batch. */
  const int64_t shape[] = {matrices, m, n};
  int rank = matrices == 1 ? 2 : 3;
  const char *outputs[] = {"tfc", "onednn"};
  const float *products[] = {c_tfc, c_onednn};
  for (int i = 0; i < 2; ++i) {
    snprintf(path, sizeof path, "%s/%s.npy", dir, outputs[i]);
    if (npy_write_f32(path, products[i], shape + 3 - rank, rank) != 0) {
      fprintf(stderr, "gemm_pair: %s: cannot write\n", path);
      return 1;
    }
  }

  printf("{\"tfc_s\": [");
  for (int round = 0; round < rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      int system = (round + turn) % 2; /* 0: tfc, 1: oneDNN */
      /* One call unmeasured: the other system's data leaves the caches. */
      int status = system ? run_onednn(a, b, c_onednn) : RUN_TFC(ctx, a, b, c_tfc);
      for (int call = 0; call < calls && status == 0; ++call) {
        double start = now();
        status = system ? run_onednn(a, b, c_onednn) : RUN_TFC(ctx, a, b, c_tfc);
        times[call] = now() - start;
      }
      if (status != 0) {
        fprintf(stderr, "gemm_pair: a product failed\n");
        return 1;
      }
      qsort(times, (size_t)calls, sizeof(double), compare_doubles);
      medians[system][round] = times[calls / 2];
    }
  }
  for (int system = 0; system < 2; ++system) {
    for (int round = 0; round < rounds; ++round)
      printf("%s%.9f", round ? ", " : "", medians[system][round]);
    printf(system ? "]}\n" : "], \"onednn_s\": [");
  }
  gemm_destroy(ctx);
  return 0;
}
