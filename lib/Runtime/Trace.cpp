//===- Trace.cpp - execution traces: recording and Chrome's JSON ----------===//
//
// See tfc/Runtime/Trace.h. The generated code's entry points are at the
// end (tfc_runtime.h).
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/Trace.h"
#include "tfc/Runtime/Checkpoint.h"
#include "tfc/Runtime/tfc_runtime.h"

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

namespace tfc::trace {
namespace {

/// An event as recorded: the label is a static string (the generated
/// code's), a flow's id is final.
struct RawEvent {
  int64_t startNs, endNs;
  const char *label;
  /// A step's number, or a flow's id.
  uint64_t value;
  Event::Kind kind;
};

/// One thread's events, appended by that thread only. Its lock is only
/// ever contended by collect(), which a task's CollectTrace may call while
/// its threads still record (a ps's queue runners run until the job ends).
struct ThreadBuffer {
  std::mutex mutex;
  std::string name;
  std::vector<RawEvent> events;
};

struct Recorder {
  std::atomic<bool> on{false};
  std::atomic<int64_t> recorded{0}, dropped{0};
  /// Guards the list of buffers (a thread's first event adds its own) and
  /// the transfer counts; never a buffer's events.
  std::mutex mutex;
  std::vector<std::unique_ptr<ThreadBuffer>> threads;
  /// renameTask's.
  std::string renamedFrom, renamedTo;
  /// How many times each key was sent and received so far.
  std::map<std::string, uint64_t> sends, receives;
};

Recorder &recorder() {
  static Recorder *instance = new Recorder; // outlives every thread
  return *instance;
}

thread_local ThreadBuffer *currentThread = nullptr;

ThreadBuffer &threadBuffer() {
  if (!currentThread) {
    Recorder &r = recorder();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.threads.push_back(std::make_unique<ThreadBuffer>());
    currentThread = r.threads.back().get();
  }
  return *currentThread;
}

void append(const RawEvent &event) {
  Recorder &r = recorder();
  if (r.recorded.fetch_add(1, std::memory_order_relaxed) >= kMaxEvents) {
    r.dropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  ThreadBuffer &buffer = threadBuffer();
  std::lock_guard<std::mutex> lock(buffer.mutex);
  buffer.events.push_back(event);
}

/// FNV-1a, 64 bits.
uint64_t hashOf(const char *text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (; *text; ++text)
    hash = (hash ^ uint8_t(*text)) * 0x100000001b3ull;
  return hash;
}

void appendEscaped(std::string &out, const std::string &text) {
  out += '"';
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  out += '"';
}

/// Microseconds, to the nanosecond.
std::string micros(int64_t ns) {
  uint64_t magnitude = ns < 0 ? 0 - uint64_t(ns) : uint64_t(ns);
  char text[32];
  std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "",
                magnitude / 1000, unsigned(magnitude % 1000));
  return text;
}

} // namespace

void enable() { recorder().on.store(true, std::memory_order_relaxed); }

bool enabled() { return recorder().on.load(std::memory_order_relaxed); }

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void recordSlice(const char *label, int64_t startNs) {
  append({startNs, nowNs(), label, 0, Event::Kind::Slice});
}

void recordStep(int64_t step, int64_t startNs) {
  if (enabled())
    append({startNs, nowNs(), nullptr, uint64_t(step), Event::Kind::Slice});
}

void nameThread(const char *name) {
  ThreadBuffer &buffer = threadBuffer();
  std::lock_guard<std::mutex> lock(buffer.mutex);
  if (buffer.name != name)
    buffer.name = name;
}

void renameTask(const std::string &from, const std::string &to) {
  Recorder &r = recorder();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.renamedFrom = from;
  r.renamedTo = to;
}

void recordTransfer(const char *key, bool send) {
  if (!enabled())
    return;
  uint64_t count;
  {
    Recorder &r = recorder();
    std::lock_guard<std::mutex> lock(r.mutex);
    count = (send ? r.sends : r.receives)[key]++;
  }
  // The n-th exchange of a key on each side: one id at both ends, in
  // this process or another.
  uint64_t id = hashOf(key) ^ (count * 0x9e3779b97f4a7c15ull);
  int64_t now = nowNs();
  append({now, now, nullptr, id,
          send ? Event::Kind::FlowStart : Event::Kind::FlowEnd});
}

ProcessTrace collect(const std::string &name) {
  Recorder &r = recorder();
  ProcessTrace trace;
  trace.name = name;
  trace.dropped = r.dropped.load();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t t = 0; t < r.threads.size(); ++t) {
    ThreadBuffer &buffer = *r.threads[t];
    std::lock_guard<std::mutex> bufferLock(buffer.mutex);
    std::string thread = buffer.name.empty() ? "driver" : buffer.name;
    if (!r.renamedFrom.empty() && thread.rfind(r.renamedFrom + "/", 0) == 0)
      thread = r.renamedTo + thread.substr(r.renamedFrom.size());
    trace.threads.push_back(thread);
    for (const RawEvent &raw : buffer.events) {
      Event event;
      event.kind = raw.kind;
      event.thread = uint32_t(t);
      event.startNs = raw.startNs;
      event.durationNs = raw.endNs - raw.startNs;
      if (raw.kind != Event::Kind::Slice) {
        event.flow = raw.value;
      } else if (!raw.label) {
        int64_t step = int64_t(raw.value);
        event.name = step >= 0 ? "step " + std::to_string(step)
                     : step == -3 ? "init"
                     : step == -2 ? "local init"
                                  : "chief init";
        event.op = "Step";
      } else {
        // NAME\tOP[\tMEMBERS]
        const char *tab = std::strchr(raw.label, '\t');
        event.name = tab ? std::string(raw.label, tab) : raw.label;
        if (tab) {
          const char *next = std::strchr(tab + 1, '\t');
          event.op = next ? std::string(tab + 1, next) : tab + 1;
          if (next)
            event.members = next + 1;
        }
      }
      trace.events.push_back(std::move(event));
    }
  }
  return trace;
}

std::string chromeTraceJson(const std::vector<ProcessTrace> &processes) {
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto open = [&] {
    if (!first)
      out += ",\n";
    first = false;
  };
  auto ids = [&](size_t pid, uint32_t tid) {
    out += ",\"pid\":" + std::to_string(pid) + ",\"tid\":" +
           std::to_string(tid);
  };
  for (size_t pid = 0; pid < processes.size(); ++pid) {
    const ProcessTrace &process = processes[pid];
    open();
    out += "{\"ph\":\"M\",\"name\":\"process_name\"";
    ids(pid, 0);
    out += ",\"args\":{\"name\":";
    appendEscaped(out, process.name);
    out += "}}";
    open();
    out += "{\"ph\":\"M\",\"name\":\"process_sort_index\"";
    ids(pid, 0);
    out += ",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
    for (uint32_t tid = 0; tid < process.threads.size(); ++tid) {
      open();
      out += "{\"ph\":\"M\",\"name\":\"thread_name\"";
      ids(pid, tid);
      out += ",\"args\":{\"name\":";
      appendEscaped(out, process.threads[tid]);
      out += "}}";
    }
    for (const Event &event : process.events) {
      open();
      std::string ts = micros(event.startNs + process.offsetNs);
      if (event.kind != Event::Kind::Slice) {
        char id[24];
        std::snprintf(id, sizeof id, "0x%016" PRIx64, event.flow);
        out += event.kind == Event::Kind::FlowStart
                   ? "{\"ph\":\"s\""
                   : "{\"ph\":\"f\",\"bp\":\"e\"";
        out += ",\"name\":\"transfer\",\"cat\":\"transfer\",\"id\":\"";
        out += id;
        out += "\",\"ts\":" + ts;
        ids(pid, event.thread);
        out += "}";
        continue;
      }
      out += "{\"ph\":\"X\",\"name\":";
      appendEscaped(out, event.name);
      out += ",\"cat\":";
      appendEscaped(out, event.op);
      out += ",\"ts\":" + ts + ",\"dur\":" + micros(event.durationNs);
      ids(pid, event.thread);
      out += ",\"args\":{\"op\":";
      appendEscaped(out, event.op);
      if (!event.members.empty()) {
        out += ",\"fused\":";
        appendEscaped(out, event.members);
      }
      out += "}}";
    }
  }
  // What a reader needs to trust the timeline: each task's clock offset
  // and its bound, and the events a process dropped.
  out += "\n],\"otherData\":{\"producer\":\"tfc\",\"clock_offsets\":{";
  bool firstOffset = true;
  for (const ProcessTrace &process : processes) {
    if (process.offsetWithinNs < 0)
      continue;
    out += firstOffset ? "" : ",";
    firstOffset = false;
    appendEscaped(out, process.name);
    out += ":{\"offset_us\":" + micros(process.offsetNs) +
           ",\"within_us\":" + micros(process.offsetWithinNs) + "}";
  }
  out += "},\"dropped_events\":{";
  bool firstDropped = true;
  for (const ProcessTrace &process : processes) {
    if (process.dropped == 0)
      continue;
    out += firstDropped ? "" : ",";
    firstDropped = false;
    appendEscaped(out, process.name);
    out += ":" + std::to_string(process.dropped);
  }
  out += "}}}\n";
  return out;
}

bool writeChromeTrace(const std::string &path,
                      const std::vector<ProcessTrace> &processes,
                      std::string &error) {
  return rt::writeFileAtomically(path, chromeTraceJson(processes), error);
}

} // namespace tfc::trace

extern "C" {

int32_t tfc_trace_enabled(void) { return tfc::trace::enabled(); }

int64_t tfc_trace_now(void) { return tfc::trace::nowNs(); }

void tfc_trace_node(const char *label, int64_t start_ns) {
  tfc::trace::recordSlice(label, start_ns);
}

void tfc_trace_thread(const char *device) { tfc::trace::nameThread(device); }

} // extern "C"
