//===- CallStatus.h - a gRPC call's outcome, as the rendezvous says it -*- C++ -*-===//
//
// Private to lib/Distributed: the transport's calls and the chief's give
// their peer's failures the same words and codes.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_CALLSTATUS_H
#define TFC_DISTRIBUTED_CALLSTATUS_H

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Runtime/Rendezvous.h"

#include <grpcpp/support/status.h>

#include <string>

namespace tfc::distributed {

/// The outcome of a call to `task` at `address`, naming them: a refusal
/// (another run, a malformed exchange) is InvalidArgument, an abort
/// Aborted, the end of the task's input (a step's closed queue)
/// OutOfRange, anything else (the peer is lost or unreachable)
/// Unavailable.
inline RendezvousStatus statusOfCall(const grpc::Status &status,
                                     const TaskName &task,
                                     const std::string &address) {
  using Code = RendezvousStatus::Code;
  if (status.ok())
    return RendezvousStatus::ok();
  // gRPC's own words for a call past its deadline say nothing of the
  // peer: a silent peer (lost, or cut off without a reset) did not answer.
  std::string what = status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
                         ? "no answer in time"
                         : status.error_message();
  std::string message = task.str() + " at " + address + ": " + what;
  switch (status.error_code()) {
  case grpc::StatusCode::FAILED_PRECONDITION:
  case grpc::StatusCode::INVALID_ARGUMENT:
    return RendezvousStatus::error(Code::InvalidArgument, message);
  case grpc::StatusCode::ABORTED:
    return RendezvousStatus::error(Code::Aborted, message);
  case grpc::StatusCode::OUT_OF_RANGE:
    return RendezvousStatus::error(Code::OutOfRange, message);
  default:
    return RendezvousStatus::error(Code::Unavailable, message);
  }
}

} // namespace tfc::distributed

#endif // TFC_DISTRIBUTED_CALLSTATUS_H
