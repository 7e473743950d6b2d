//===- Rendezvous.h - where _Send meets _Recv, for transports ---*- C++ -*-===//
//
// White paper §3.2.2: a _Send hands its tensor to the rendezvous under the
// edge's key; the _Recv with the same key takes it, waiting until it is
// there. This is the interface a transport implements: the runtime's own
// in-process rendezvous serves the partitions of one program, and a
// transport between processes (gRPC, lib/Distributed) plugs in through
// tfc_runtime_options::create_rendezvous without editing the runtime.
//
// Every operation can fail, and a rendezvous can be aborted: a _Recv for a
// tensor whose sender is lost fails instead of waiting forever. A failed
// _Send or _Recv ends the step (tfc_recv prints the status's message and
// ends the process; see tfc_runtime.h for the exit statuses).
//
// Standard C++ only (the runtime never includes MLIR or LLVM headers).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_RUNTIME_RENDEZVOUS_H
#define TFC_RUNTIME_RENDEZVOUS_H

#include "tfc/Runtime/tfc_runtime.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tfc {

/// What a rendezvous operation came to.
class RendezvousStatus {
public:
  enum class Code {
    Ok,
    /// The rendezvous was aborted (abort()); the message says why.
    Aborted,
    /// A peer is lost or unreachable: the job may continue after a restart
    /// from its latest checkpoint.
    Unavailable,
    /// The exchange itself is wrong: a key sent twice in one step, a size
    /// that differs from the one expected.
    InvalidArgument,
    /// Another task's part of the step found its input ended (a queue of
    /// that task closed and empty): the run of steps ends, as when a queue
    /// of this process is (TensorFlow's OutOfRangeError).
    OutOfRange,
    /// The client whose step this is (a between-graph worker, served by a
    /// ps) was lost: this task abandons the step, which ends here as at
    /// the end of input, and goes on serving the other clients.
    Abandoned,
  };

  static RendezvousStatus ok() { return {}; }
  static RendezvousStatus error(Code code, std::string message) {
    return RendezvousStatus(code, std::move(message));
  }

  bool isOk() const { return code == Code::Ok; }
  Code getCode() const { return code; }
  const std::string &getMessage() const { return message; }

private:
  RendezvousStatus() = default;
  RendezvousStatus(Code code, std::string message)
      : code(code), message(std::move(message)) {}

  Code code = Code::Ok;
  std::string message;
};

} // namespace tfc

/// The interface (the C ABI's opaque `tfc_rendezvous`). A key is used once
/// per step; reset() starts the next step. Implementations are called from
/// the partitions' threads concurrently.
struct tfc_rendezvous {
  using Status = tfc::RendezvousStatus;

  virtual ~tfc_rendezvous() = default;
  /// Makes `bytes` bytes at `data` available under `key`. The bytes may be
  /// read after send returns only if the implementation copied them: the
  /// sender's buffer may be reused by the next kernel.
  virtual Status send(const char *key, const void *data, int64_t bytes) = 0;
  /// Waits for `key` and copies its `bytes` bytes to `data`; fails at once
  /// when the rendezvous is aborted, or when it is aborted while waiting.
  virtual Status recv(const char *key, void *data, int64_t bytes) = 0;
  /// Fails every pending and later send and recv with `status` (not Ok)
  /// until reset().
  virtual void abort(const Status &status) = 0;
  /// Forgets this step's tensors and any abort: the next step begins.
  virtual void reset() = 0;
  /// The key as it crosses (a between-graph replica's names its own task),
  /// which names the transfer in a trace (Trace.h).
  virtual std::string traceKey(const char *key) { return key; }
};

namespace tfc {

using Rendezvous = tfc_rendezvous;

/// The rendezvous of one process: the partitions of a program exchange
/// tensors through memory.
std::unique_ptr<Rendezvous> makeLocalRendezvous();

} // namespace tfc

#endif // TFC_RUNTIME_RENDEZVOUS_H
