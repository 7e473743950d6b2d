"""What machine a benchmark ran on: the processor, its x86-64 ISA level
(the level of tfc's kernels its programs link) and its peak single
precision rate, printed beside every table so that figures from AVX2 and
AVX-512 machines are never compared. Standard library and a C compiler.

The peak is measured: the clock /proc/cpuinfo reports is the nominal one
on a virtual machine (2.25 GHz on the development machines, where oneDNN's
sgemm reaches 195 GFLOP/s on two cores, more than 2.25 GHz allows), so a
small C program runs independent chains of vector FMAs on every core and
times them; the formula's figure from the reported clock is printed too.

    python bench/machine.py [--threads 2] [--seconds S]

prints that line; with --seconds, the same FMA chains run on every
thread in windows of the peak measurement's work (about 30 ms each) until
S seconds have passed, and it prints their rate over the whole run and
the slowest, median and fastest window. The peak measurement takes the best
of three windows; a processor that lowers its clock under long runs of
512-bit FMAs (or a host whose other tenants take its cores) shows here
as a sustained rate below it, and the "of peak" fractions the benchmarks
print are then of a rate no long kernel could reach."""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

# Twelve independent accumulators cover an FMA's latency (4 cycles) on two
# FMA units; each iteration is 12 vector FMAs. -O3 unrolls the inner loop
# into registers (at -O2 the accumulators stay in memory, and the loop
# measures store forwarding, at half the rate).
_FMA_LOOP = r"""
#include <omp.h>
#include <stdio.h>
typedef float v __attribute__((vector_size(FLOATS * 4)));
/* Windows of the same work back to back, at least MIN_WINDOWS and until
   SECONDS_MS have passed, the team in step at each window's ends. Prints
   each window's rate, then the whole run's and its seconds. */
int main(void) {
  const long iterations = 200000000L / FLOATS;
  enum { kMostWindows = 100000 };
  static double seconds[kMostWindows];
  int windows = 0, more = 1;
  float sink = 0;
  double whole = omp_get_wtime();
#pragma omp parallel reduction(+ : sink)
  {
    v a[12], x, y;
    for (int i = 0; i < FLOATS; ++i) { x[i] = 0.999999f; y[i] = 1e-7f; }
    for (int j = 0; j < 12; ++j) a[j] = x * (float)j;
    for (int w = 0; more; ++w) {
#pragma omp single
      seconds[w] = omp_get_wtime();
      for (long i = 0; i < iterations; ++i)
        for (int j = 0; j < 12; ++j)
          a[j] = a[j] * x + y;
#pragma omp barrier
#pragma omp single
      {
        double now = omp_get_wtime();
        seconds[w] = now - seconds[w];
        windows = w + 1;
        more = windows < kMostWindows &&
               (windows < MIN_WINDOWS || now - whole < SECONDS_MS / 1000.0);
      }
    }
    for (int j = 0; j < 12; ++j) sink += a[j][0];
  }
  whole = omp_get_wtime() - whole;
  double flops = 2.0 * 12 * FLOATS * iterations * omp_get_max_threads();
  for (int w = 0; w < windows; ++w)
    printf("%.1f\n", flops / seconds[w] / 1e9);
  printf("%.1f %.2f\n", flops * windows / whole / 1e9, whole);
  if (sink == 42) puts("");
  return 0;
}
"""


def fma_windows(threads, isa, floats, seconds=0.0, least=1):
    """(GFLOP/s over the whole run, its seconds, each window's GFLOP/s) of
    _FMA_LOOP built for `isa`, run on `threads` threads for at least
    `least` windows and `seconds`; None without a C compiler with OpenMP
    ($CC where set, else cc or gcc), or when the loop fails."""
    wanted = os.environ.get("CC")
    compiler = (shutil.which(wanted) if wanted
                else shutil.which("cc") or shutil.which("gcc"))
    if not compiler:
        return None
    flags = {"AVX-512": ["-mavx512f", "-mfma"], "AVX2": ["-mavx2", "-mfma"]}.get(isa, [])
    with tempfile.TemporaryDirectory() as work:
        source, binary = os.path.join(work, "fma.c"), os.path.join(work, "fma")
        with open(source, "w") as f:
            f.write(_FMA_LOOP)
        build = subprocess.run([compiler, "-O3", "-fopenmp", "-DFLOATS=%d" % floats,
                                "-DMIN_WINDOWS=%d" % least,
                                "-DSECONDS_MS=%d" % round(seconds * 1000)]
                               + flags + [source, "-o", binary], capture_output=True)
        if build.returncode:
            return None
        run = subprocess.run([binary], capture_output=True, text=True,
                             env=dict(os.environ, OMP_NUM_THREADS=str(threads)))
    lines = run.stdout.split()
    if run.returncode or len(lines) < 3:
        return None
    rates = [float(x) for x in lines]
    return rates[-2], rates[-1], rates[:-2]


def measured_peak(threads, isa, floats):
    """GFLOP/s of vector FMAs on `threads` threads, the fastest of three
    windows, or None without a C compiler."""
    run = fma_windows(threads, isa, floats, least=3)
    return max(run[2]) if run else None


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
    C compiler with OpenMP, peak_measured then False)."""
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
            "peak_gflops": measured or nominal,
            "peak_measured": bool(measured)}


def line(threads, info=None):
    """One line for a benchmark's header."""
    m = info or describe(threads)
    # The rates benchmarks give as a fraction of the peak are of this one:
    # say which it is.
    peak = ("peak %.0f GFLOP/s measured (vector FMAs on every core)"
            % m["peak_gflops"] if m["peak_measured"] else
            "peak not measured (no C compiler with OpenMP to build the FMA "
            "loop): the nominal one")
    return ("machine: %s, %s, %d core(s); %s, %.0f by cores x %d floats x 2 "
            "flops per FMA x 2 FMA units x the reported %.2f GHz"
            % (m["model"], m["isa"], m["cores"], peak, m["nominal_gflops"],
               m["floats"], m["ghz"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0)
    args = parser.parse_args()
    name = os.path.basename(sys.argv[0])
    if args.threads < 1 or not 0 <= args.seconds <= 600:
        sys.exit("%s: --threads must be at least 1 and --seconds within 0 to 600"
                 % name)
    info = describe(args.threads)
    print(line(args.threads, info))
    if not args.seconds:
        return
    run = fma_windows(info["cores"], info["isa"], info["floats"], args.seconds)
    if not run:
        sys.exit("%s: the FMA loop did not build or run (it needs a C compiler "
                 "with OpenMP)" % name)
    rate, whole, windows = run
    print("sustained: %.0f GFLOP/s over %.2f s (%.0f%% of the peak above); "
          "%d window(s): slowest %.0f, median %.0f, fastest %.0f GFLOP/s"
          % (rate, whole, 100 * rate / info["peak_gflops"], len(windows),
             min(windows), statistics.median(windows), max(windows)))


if __name__ == "__main__":
    main()
