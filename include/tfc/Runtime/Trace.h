//===- Trace.h - execution traces of compiled programs ----------*- C++ -*-===//
//
// What `--trace FILE.json` records (the white paper's EEG view): a slice
// for every node a step runs (kernel call, generated loop, fused group),
// on the thread of its partition, with its name and op type; a slice for
// every step of the driver; and a flow from each _Send to the _Recv that
// takes its tensor. Written as a Chrome trace (the JSON object format:
// `traceEvents` of complete events with microsecond `ts` and `dur`),
// which Perfetto and chrome://tracing open.
//
// Recording is off until enable(): the generated step asks
// tfc_trace_enabled() once per call and branches around each node's two
// clock reads, so a program run without --trace pays one predictable
// branch per node. Each thread appends to a buffer of its own (its lock
// uncontended but while the events are collected); the process keeps at
// most kMaxEvents.
//
// A distributed job's chief collects every task's events (collect(), sent
// over the transport) and writes them on its own timeline, each task's
// clock offset estimated from the quickest of a few round trips that read
// its clock (Control.cpp); the trace's `otherData.clock_offsets` states
// each offset and its bound.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_TRACE_H
#define TFC_RUNTIME_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tfc::trace {

/// The events one process keeps at most (about 48 bytes each); those
/// after are counted and dropped, and the trace says how many.
constexpr int64_t kMaxEvents = int64_t(1) << 22;

/// Starts recording (process-wide; idempotent).
void enable();
bool enabled();

/// Nanoseconds on this process's trace clock: the steady clock (on Linux
/// CLOCK_MONOTONIC, one clock for the processes of a host).
int64_t nowNs();

/// A slice of the thread's own: `label` is "NAME\tOP" or "NAME\tOP\tMEMBERS"
/// (a static string: the generated code's), from `startNs` to now.
void recordSlice(const char *label, int64_t startNs);
/// The driver's step `step` (the init entries are steps -3, -2, -1), from
/// `startNs` to now.
void recordStep(int64_t step, int64_t startNs);
/// The thread's name in the trace: the device of the partition it runs.
void nameThread(const char *name);
/// Threads named after a device of task `from` (a prefix such as
/// "/job:worker/replica:0/task:0") are named after task `to` instead: a
/// between-graph worker runs the template replica's code.
void renameTask(const std::string &from, const std::string &to);
/// A transfer under rendezvous `key` leaves (send) or arrives (recv):
/// the n-th send of a key and the n-th receive of it are one flow.
void recordTransfer(const char *key, bool send);

/// One event as collect() returns it.
struct Event {
  enum class Kind : uint8_t { Slice, FlowStart, FlowEnd };
  Kind kind = Kind::Slice;
  /// Index into the process's threads.
  uint32_t thread = 0;
  int64_t startNs = 0, durationNs = 0;
  /// A slice: the node's name, its op type ("Step" for a driver's step),
  /// and a fused group's member nodes ("a,b,c"); a flow: empty.
  std::string name, op, members;
  /// A flow's id, the same at both ends.
  uint64_t flow = 0;
};

/// A process's events, on its own clock.
struct ProcessTrace {
  std::string name;
  std::vector<std::string> threads;
  std::vector<Event> events;
  int64_t dropped = 0;
  /// Added to every timestamp to put them on the writer's clock, and how
  /// far from the truth that may be (negative: the writer's own process,
  /// no offset).
  int64_t offsetNs = 0, offsetWithinNs = -1;
};

/// This process's events so far, its threads named; `name` names the
/// process (the task).
ProcessTrace collect(const std::string &name);

/// The Chrome trace of `processes` (one pid each, in order), as text.
std::string chromeTraceJson(const std::vector<ProcessTrace> &processes);

/// Writes chromeTraceJson to `path` atomically; false and `error` naming
/// the file when it could not.
bool writeChromeTrace(const std::string &path,
                      const std::vector<ProcessTrace> &processes,
                      std::string &error);

} // namespace tfc::trace

#endif // TFC_RUNTIME_TRACE_H
