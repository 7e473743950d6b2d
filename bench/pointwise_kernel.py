#!/usr/bin/env python3
"""How far a 1x1 convolution can go past oneDNN's on an AVX-512 machine: a
register-tiled product of our own, written for the experiment, against
oneDNN's convolution primitive (the one tfc's programs call for 1x1
convolutions), in one process, in turns.

    python bench/pointwise_kernel.py [--threads 2] [--calls 40]
                                     [--depth-block 728]
                                     [--shapes ROWSxDEPTHxCOLUMNS,...]

Not part of tfc: a measurement of what the machine allows, for deciding
whether a kernel of our own would beat the library on the products that
bound Xception and NASNet (docs/benchmarks.md). Each call here reuses one
filter and one input, warm in the caches: it shows the kernels' rates,
not a model's gain. (Inside Xception's program at batch 32, where each
layer's filter and input arrive cold, the same tiles in oneDNN's place
ran the middle flow's 1x1 convolutions 1.6% faster, where this table
shows 4-5%; not kept.) The product is
out[p, n] = sum over d of in[p, d] * filter[d, n], in and out in NHWC
(rows are pixels), so:
  - its micro-kernel holds a tile of 14 rows by 32 columns (28 vector
    accumulators of 16 floats); each depth step loads the filter's 32
    columns (packed once, as a program would at its start) and broadcasts
    one input value per row, read in place from the rows (no packing of
    the input: each 14-row block is read from memory once and from L1 for
    its other column blocks);
  - the filter is streamed from L2 in blocks of --depth-block depths,
    with prefetches 2 KiB ahead, and the next tile of the output is
    prefetched for writing as each tile starts;
  - the rows are split between the threads in blocks of 14.
The micro-kernel is assembly generated below: GCC's code for the same
loop written with intrinsics ran at 173-180 GFLOP/s on one thread of the
fourth Intel host, this one at 180-195, the data in L1 and L2.

The default shapes are Xception's 1x1 convolutions: its middle flow at
batch 1 (361 rows) and at 4 images (tfc's micro-batches at batch 32), a
whole batch of 32, and its exit flow at batch 32.

Prints the machine's measured peak, and for each shape oneDNN's rate
(`brgconv_1x1` and the like: its implementation is printed), ours, ours
over oneDNN's (the ratio of the medians of --calls calls of each, in
turns), each as a fraction of the peak, and the largest difference
between the two outputs (more than 1e-5 times the depth is an error:
exit 1). Needs g++, the oneDNN headers and library tfc
builds against, and AVX-512.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

ROWS, VECTORS = 14, 2
DEFAULT_SHAPES = "361x728x728,1444x728x728,11552x728x728,3200x1536x2048"


def micro_kernel(prefetch_bytes=2048):
    """AT&T assembly of tile(a, packed, depth, out, out_row_bytes, args):
    out[r][0..31] (+)= sum over d < depth (even) of a[r * lda + d] *
    packed[d][0..31] for r < 14; args points to {lda in bytes, accumulate
    (0 or 1), the first vector's lane mask, the second's}."""
    lines = []
    emit = lines.append
    emit(".text\n.globl tile\n.type tile,@function\ntile:\n  push %rbx")
    emit("  kmovw 16(%r9), %k1\n  kmovw 18(%r9), %k2")
    emit("  mov %rcx, %rax")
    for _ in range(ROWS):  # the next tile, 128 bytes on, for writing
        emit("  prefetchw 128(%rax)\n  prefetchw 192(%rax)\n  add %r8, %rax")
    # Rows 0-4 from rdi, 5-9 from rax, 10-13 from rbx: base + {0,1,2,3,4}
    # x lda with lda in r10 and 3 x lda in r11.
    emit("  mov (%r9), %r10\n  lea (%r10,%r10,2), %r11")
    emit("  lea (%r10,%r10,4), %rax\n  add %rdi, %rax\n  lea (%rax,%r10,4), %rbx\n"
         "  add %r10, %rbx")
    index = {0: "", 1: ",%r10,1", 2: ",%r10,2", 3: ",%r11,1", 4: ",%r10,4"}
    rows = [(["%rdi", "%rax", "%rbx"][r // 5], index[r % 5]) for r in range(ROWS)]
    for i in range(ROWS * VECTORS):
        emit("  vpxord %%zmm%d, %%zmm%d, %%zmm%d" % (i, i, i))
    emit("  .p2align 5\n1:")
    for step in range(2):
        emit("  vmovups %d(%%rsi), %%zmm28\n  vmovups %d(%%rsi), %%zmm29"
             % (128 * step, 128 * step + 64))
        emit("  prefetcht0 %d(%%rsi)\n  prefetcht0 %d(%%rsi)"
             % (prefetch_bytes + 128 * step, prefetch_bytes + 128 * step + 64))
        for r, (base, idx) in enumerate(rows):
            value = 30 + (r & 1)
            emit("  vbroadcastss %d(%s%s), %%zmm%d" % (4 * step, base, idx, value))
            for v in range(VECTORS):
                emit("  vfmadd231ps %%zmm%d, %%zmm%d, %%zmm%d"
                     % (value, 28 + v, VECTORS * r + v))
    emit("  add $8, %rdi\n  add $8, %rax\n  add $8, %rbx\n  add $256, %rsi\n"
         "  sub $2, %rdx\n  jnz 1b\n  pop %rbx\n  cmpq $0, 8(%r9)\n  je 2f")
    for r in range(ROWS):
        emit("  vaddps (%%rcx), %%zmm%d, %%zmm%d{%%k1}" % (2 * r, 2 * r))
        emit("  vaddps 64(%%rcx), %%zmm%d, %%zmm%d{%%k2}" % (2 * r + 1, 2 * r + 1))
        emit("  vmovups %%zmm%d, (%%rcx){%%k1}\n  vmovups %%zmm%d, 64(%%rcx){%%k2}\n"
             "  add %%r8, %%rcx" % (2 * r, 2 * r + 1))
    emit("  vzeroupper\n  ret\n2:")
    for r in range(ROWS):
        emit("  vmovups %%zmm%d, (%%rcx){%%k1}\n  vmovups %%zmm%d, 64(%%rcx){%%k2}\n"
             "  add %%r8, %%rcx" % (2 * r, 2 * r + 1))
    emit("  vzeroupper\n  ret\n.size tile, .-tile\n"
         '.section .note.GNU-stack,"",@progbits')
    return "\n".join(lines) + "\n"


HARNESS = r"""
#include <dnnl.hpp>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct TileArgs { int64_t ldaBytes, accumulate; uint16_t mask0, mask1; };
extern "C" void tile(const float *a, const float *packed, long depth, float *out,
                     long outRowBytes, const TileArgs *args);
constexpr int kRows = 14, kCols = 32;

static double now() {
  return std::chrono::duration<double>(
      std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The filter (depth x cols, row-major) in blocks of `block` depths, each
// block as column blocks of 32, each of those depth-major: the tile's order.
static std::vector<float> pack(const std::vector<float> &f, int depth, int cols,
                               int block) {
  int colBlocks = (cols + kCols - 1) / kCols;
  std::vector<float> p((size_t)depth * colBlocks * kCols);
  size_t o = 0;
  for (int d0 = 0; d0 < depth; d0 += block)
    for (int c = 0; c < colBlocks; ++c)
      for (int d = d0; d < std::min(depth, d0 + block); ++d)
        for (int j = 0; j < kCols; ++j) {
          int n = c * kCols + j;
          p[o++] = n < cols ? f[(size_t)d * cols + n] : 0.f;
        }
  return p;
}

static void product(const float *in, const float *packed, float *out, int rows,
                    int depth, int cols, int block) {
  int colBlocks = (cols + kCols - 1) / kCols, rowBlocks = (rows + kRows - 1) / kRows;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), threads = omp_get_num_threads();
    int first = (int64_t)rowBlocks * t / threads, last = (int64_t)rowBlocks * (t + 1) / threads;
    // The last block of rows, short of 14, runs on zero-padded copies.
    std::vector<float> shortIn, shortOut;
    for (int b = first; b < last; ++b) {
      int n = std::min(kRows, rows - b * kRows);
      const float *a = in + (size_t)b * kRows * depth;
      float *o = out + (size_t)b * kRows * cols;
      if (n < kRows) {
        shortIn.assign((size_t)kRows * depth, 0.f);
        std::copy(a, a + (size_t)n * depth, shortIn.begin());
        shortOut.assign((size_t)kRows * cols, 0.f);
        a = shortIn.data(), o = shortOut.data();
      }
      size_t offset = 0;
      for (int d0 = 0; d0 < depth; d0 += block) {
        int d = std::min(block, depth - d0);
        for (int c = 0; c < colBlocks; ++c) {
          int left = cols - c * kCols;
          TileArgs args{(int64_t)depth * 4, d0 > 0,
                        (uint16_t)(left >= 16 ? 0xffff : (1u << left) - 1),
                        (uint16_t)(left >= 32 ? 0xffff : left <= 16 ? 0 : (1u << (left - 16)) - 1)};
          tile(a + d0, packed + offset + (size_t)c * d * kCols, d, o + c * kCols,
               cols * 4, &args);
        }
        offset += (size_t)d * colBlocks * kCols;
      }
      if (n < kRows)
        std::copy(o, o + (size_t)n * cols, out + (size_t)b * kRows * cols);
    }
  }
}

int main(int argc, char **argv) {
  int rows = atoi(argv[1]), depth = atoi(argv[2]), cols = atoi(argv[3]);
  int calls = atoi(argv[4]), block = atoi(argv[5]);
  std::vector<float> in((size_t)rows * depth), filter((size_t)depth * cols);
  std::vector<float> theirs((size_t)rows * cols), ours((size_t)rows * cols);
  srand(1);
  for (auto &x : in) x = rand() / (float)RAND_MAX - 0.5f;
  for (auto &x : filter) x = rand() / (float)RAND_MAX - 0.5f;
  std::vector<float> packed = pack(filter, depth, cols, block);

  using namespace dnnl;
  using tag = memory::format_tag;
  engine cpu(engine::kind::cpu, 0);
  stream s(cpu);
  memory::desc src({1, depth, rows, 1}, memory::data_type::f32, tag::nhwc);
  memory::desc dst({1, cols, rows, 1}, memory::data_type::f32, tag::nhwc);
  memory::desc userWeights({cols, depth, 1, 1}, memory::data_type::f32, tag::hwio);
  memory::desc anyWeights({cols, depth, 1, 1}, memory::data_type::f32, tag::any);
  convolution_forward::primitive_desc pd(
      convolution_forward::desc(prop_kind::forward_inference,
                                algorithm::convolution_direct, src, anyWeights, dst,
                                {1, 1}, {0, 0}, {0, 0}),
      cpu);
  memory user(userWeights, cpu, filter.data()), weights(pd.weights_desc(), cpu);
  reorder(user, weights).execute(s, user, weights);
  memory srcMemory(src, cpu, in.data()), dstMemory(dst, cpu, theirs.data());
  convolution_forward conv(pd);

  std::vector<double> theirTimes, ourTimes;
  for (int i = 0; i < calls; ++i) {
    double start = now();
    conv.execute(s, {{DNNL_ARG_SRC, srcMemory}, {DNNL_ARG_WEIGHTS, weights},
                     {DNNL_ARG_DST, dstMemory}});
    s.wait();
    theirTimes.push_back(now() - start);
    start = now();
    product(in.data(), packed.data(), ours.data(), rows, depth, cols, block);
    ourTimes.push_back(now() - start);
  }
  std::sort(theirTimes.begin(), theirTimes.end());
  std::sort(ourTimes.begin(), ourTimes.end());
  double diff = 0;
  for (size_t i = 0; i < ours.size(); ++i)
    diff = std::max(diff, (double)std::fabs(ours[i] - theirs[i]));
  double flop = 2.0 * rows * depth * cols;
  printf("%s %.6g %.6g %.3g\n", pd.impl_info_str(), flop / theirTimes[calls / 2] / 1e9,
         flop / ourTimes[calls / 2] / 1e9, diff);
}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--depth-block", type=int, default=728)
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    args = parser.parse_args()
    if args.threads < 1 or args.calls < 1:
        sys.exit("pointwise_kernel.py: --threads and --calls must be at least 1")
    if args.depth_block < 2 or args.depth_block % 2:
        sys.exit("pointwise_kernel.py: --depth-block must be even and at least 2")
    shapes = []
    for text in filter(None, args.shapes.split(",")):
        try:
            rows, depth, cols = (int(x) for x in text.split("x"))
        except ValueError:
            sys.exit("pointwise_kernel.py: shape '%s' is not ROWSxDEPTHxCOLUMNS" % text)
        if min(rows, depth, cols) < 1 or depth % 2:
            sys.exit("pointwise_kernel.py: shape '%s': sizes must be positive, "
                     "the depth even" % text)
        shapes.append((rows, depth, cols))
    info = machine.describe(args.threads)
    if info["isa"] != "AVX-512":
        sys.exit("pointwise_kernel.py: the micro-kernel needs AVX-512; this "
                 "machine has %s" % info["isa"])
    print(machine.line(args.threads, info))
    with tempfile.TemporaryDirectory() as work:
        source, kernel = os.path.join(work, "harness.cpp"), os.path.join(work, "tile.s")
        binary = os.path.join(work, "harness")
        with open(source, "w") as f:
            f.write(HARNESS)
        with open(kernel, "w") as f:
            f.write(micro_kernel())
        subprocess.run(["g++", "-O2", "-fopenmp", source, kernel, "-o", binary,
                        "-ldnnl"], check=True)
        print("| rows x depth x columns | oneDNN | GFLOP/s | ours | ours / oneDNN "
              "| oneDNN of peak | ours of peak | max abs diff |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
        for rows, depth, cols in shapes:
            out = subprocess.run([binary, str(rows), str(depth), str(cols),
                                  str(args.calls), str(args.depth_block)],
                                 capture_output=True, text=True, env=env, check=True)
            impl, theirs, ours, diff = out.stdout.split()
            theirs, ours = float(theirs), float(ours)
            # Both sum the depth in float; their orders may differ.
            if float(diff) > 1e-5 * depth:
                sys.exit("pointwise_kernel.py: %d x %d x %d: ours differs from "
                         "oneDNN's by %s" % (rows, depth, cols, diff))
            peak = info["peak_gflops"]
            print("| %d x %d x %d | %s | %.0f | %.0f | %s | %.0f%% | %.0f%% | %s |"
                  % (rows, depth, cols, impl, theirs, ours,
                     "%.2f" % (ours / theirs) if theirs > 0 else "-",
                     100 * theirs / peak, 100 * ours / peak, diff))


if __name__ == "__main__":
    main()
