"""What machine a benchmark ran on: the processor, its x86-64 ISA level
(the level of tfc's kernels its programs link) and its peak single
precision rate, printed beside every table so that figures from AVX2 and
AVX-512 machines are never compared. Standard library and a C compiler.

The peak is measured: the clock /proc/cpuinfo reports is the nominal one
on a virtual machine (2.25 GHz on the development machines, where oneDNN's
sgemm reaches 195 GFLOP/s on two cores, more than 2.25 GHz allows), so a
small C program runs independent chains of vector FMAs on every core and
times them; the formula's figure from the reported clock is printed too."""

import os
import platform
import shutil
import subprocess
import tempfile

# Twelve independent accumulators cover an FMA's latency (4 cycles) on two
# FMA units; each iteration is 12 vector FMAs. -O3 unrolls the inner loop
# into registers (at -O2 the accumulators stay in memory, and the loop
# measures store forwarding, at half the rate).
_FMA_LOOP = r"""
#include <omp.h>
#include <stdio.h>
typedef float v __attribute__((vector_size(FLOATS * 4)));
int main(void) {
  const long iterations = 200000000L / FLOATS;
  double best = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    double start = omp_get_wtime();
    float sink = 0;
#pragma omp parallel reduction(+ : sink)
    {
      v a[12], x, y;
      for (int i = 0; i < FLOATS; ++i) { x[i] = 0.999999f; y[i] = 1e-7f; }
      for (int j = 0; j < 12; ++j) a[j] = x * (float)j;
      for (long i = 0; i < iterations; ++i)
        for (int j = 0; j < 12; ++j)
          a[j] = a[j] * x + y;
      for (int j = 0; j < 12; ++j) sink += a[j][0];
    }
    double seconds = omp_get_wtime() - start;
    double gflops = 2.0 * 12 * FLOATS * iterations * omp_get_max_threads() / seconds / 1e9;
    if (gflops > best) best = gflops;
    if (sink == 42) puts("");
  }
  printf("%.1f\n", best);
  return 0;
}
"""


def measured_peak(threads, isa, floats):
    """GFLOP/s of vector FMAs on `threads` threads, or None without a C
    compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        return None
    flags = {"AVX-512": ["-mavx512f", "-mfma"], "AVX2": ["-mavx2", "-mfma"]}.get(isa, [])
    with tempfile.TemporaryDirectory() as work:
        source, binary = os.path.join(work, "fma.c"), os.path.join(work, "fma")
        with open(source, "w") as f:
            f.write(_FMA_LOOP)
        build = subprocess.run([compiler, "-O3", "-fopenmp", "-DFLOATS=%d" % floats]
                               + flags + [source, "-o", binary], capture_output=True)
        if build.returncode:
            return None
        run = subprocess.run([binary], capture_output=True, text=True,
                             env=dict(os.environ, OMP_NUM_THREADS=str(threads)))
        try:
            return float(run.stdout.strip())
        except ValueError:
            return None


def _cpuinfo():
    try:
        with open("/proc/cpuinfo") as f:
            return f.read()
    except OSError:
        return ""


def describe(threads):
    """A dict: model, isa ("AVX-512", "AVX2" or "SSE2"), floats per vector,
    clock in GHz (the highest a core reports now), the nominal peak
    GFLOP/s of `threads` cores (cores x floats per vector x 2 (an FMA is
    two flops) x 2 FMA units per core (AMD Zen, Intel's server cores) x
    clock) and the measured one (peak_gflops; the nominal one without a
    C compiler)."""
    text = _cpuinfo()
    model, flags, mhz = platform.processor() or "unknown", set(), []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "model name":
            model = value
        elif key == "flags" and not flags:
            flags = set(value.split())
        elif key == "cpu MHz":
            try:
                mhz.append(float(value))
            except ValueError:
                pass
    if "avx512f" in flags:
        isa, floats = "AVX-512", 16
    elif "avx2" in flags and "fma" in flags:
        isa, floats = "AVX2", 8
    else:
        isa, floats = "SSE2", 4
    ghz = max(mhz) / 1000.0 if mhz else 0.0
    cores = min(threads, os.cpu_count() or threads)
    nominal = cores * floats * 2 * 2 * ghz
    measured = measured_peak(cores, isa, floats)
    return {"model": model, "isa": isa, "floats": floats, "ghz": ghz,
            "cores": cores, "nominal_gflops": nominal,
            "peak_gflops": measured or nominal}


def line(threads, info=None):
    """One line for a benchmark's header."""
    m = info or describe(threads)
    return ("machine: %s, %s, %d core(s); peak %.0f GFLOP/s measured (vector "
            "FMAs on every core), %.0f by cores x %d floats x 2 flops per FMA "
            "x 2 FMA units x the reported %.2f GHz"
            % (m["model"], m["isa"], m["cores"], m["peak_gflops"],
               m["nominal_gflops"], m["floats"], m["ghz"]))
