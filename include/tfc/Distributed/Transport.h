//===- Transport.h - tensors between the tasks of a cluster -----*- C++ -*-===//
//
// White paper §3.2.2 across processes: each task of a compiled cluster
// serves tfc's TaskService (task_service.proto) over gRPC, and its _Send
// of a tensor another task receives pushes the tensor to that task's
// server, which keeps it until the _Recv with the same key takes it. The
// runtime sees this as a tfc_rendezvous (Rendezvous.h), made by
// Transport::createRendezvous through tfc_runtime_options.
//
// Keys are TensorFlow's rendezvous keys, whose third part names the
// receiving device and so the task a tensor goes to; messages carry the
// step id, so a tensor for the next step that arrives early waits for it,
// and the job's incarnation, so a process of an earlier run is refused. A
// send returns once the receiving task holds the bytes: the sender's buffer
// goes on the wire as is (TensorCoding.h) and is not copied, or, to a task
// on the same host, through shared memory (SharedMemory.h).
//
// Standard C++ and gRPC only (programs link it).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_TRANSPORT_H
#define TFC_DISTRIBUTED_TRANSPORT_H

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Runtime/Rendezvous.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace grpc {
class Channel;
class Service;
} // namespace grpc

namespace tfc::distributed {

struct TransportOptions {
  /// Every task and its address.
  ClusterSpec cluster;
  /// The task this process is.
  TaskName task;
  /// The job's incarnation, the same in every task of one run.
  uint64_t incarnation = 0;
  /// Where the server listens, "HOST:PORT" (port 0: any free one); empty:
  /// the task's own address in the cluster.
  std::string bind;
  /// Other services the task's server serves too (its TaskControl's).
  std::vector<grpc::Service *> services;
  /// Mutual TLS (PEM texts): the task's certificate chain and private key,
  /// and the CA that signs every task's. A peer, client or server, without
  /// a certificate of that CA (for its host, when it is the server) is
  /// refused. Absent: plain TCP.
  struct Tls {
    std::string certChain, privateKey, rootCerts;
  };
  std::optional<Tls> tls;
  /// Whether tensors larger than 64 KiB to a task on this host go through
  /// shared memory (when that task can map it; else over TCP).
  bool sharedMemory = true;
};

class Transport;

/// Between-graph replication (white paper §4.4 and OSDI §4.2, TensorFlow's
/// replica_device_setter): the graph is worker 0's, the template replica,
/// and each worker k runs it as its own client, its own step loop, while a
/// parameter server runs the ps's part of every worker's steps, at once.
/// The steps of client k have ids scopedStep(k, step), so that each
/// client's steps follow their own sequence; client 0 is the chief, whose
/// ids are the step numbers themselves (its once-run entries' negative
/// ones included: init -3, local init -2, chief init -1). Client k's start
/// at k << 40, its once-run entries first (kOnceSteps numbers).
constexpr int kClientStepBits = 40;
constexpr int64_t kOnceSteps = 8;
inline int64_t scopedStep(int client, int64_t step) {
  return client == 0 ? step
                     : (int64_t(client) << kClientStepBits) + kOnceSteps + step;
}
inline int clientOfStep(int64_t stepId) {
  return stepId < 0 ? 0 : int(stepId >> kClientStepBits);
}
/// The step number a step id scopes (scopedStep's `step`).
inline int64_t stepOfScoped(int64_t stepId) {
  int client = clientOfStep(stepId);
  return client == 0 ? stepId
                     : stepId - (int64_t(client) << kClientStepBits) - kOnceSteps;
}

/// The exchanges of one client's steps: their step ids are client
/// `client`'s, and keys naming the template replica's task (worker 0) are
/// rewritten to name `replica` (worker k), as if the graph had been built
/// for worker k; empty `templateTask`: keys as they are.
struct RendezvousScope {
  Transport *transport = nullptr;
  int client = 0;
  std::string templateTask, replica;
};

class Transport {
public:
  /// Starts the task's server; null, with `error` saying why (naming the
  /// address), when it cannot listen.
  static std::unique_ptr<Transport> start(const TransportOptions &options,
                                          std::string &error);
  /// Stops the server; pending receives fail.
  ~Transport();

  /// The port the server listens on.
  int port() const;
  /// What this task has sent to other tasks: tensors, their bytes, and how
  /// many of them went through shared memory.
  struct TransferStats {
    int64_t tensors = 0, bytes = 0, sharedMemory = 0;
  };
  TransferStats transferStats() const;
  /// Ok, or the first failure of a small tensor's send, which does not wait
  /// for its receiver (the task's health check reports it to the chief).
  RendezvousStatus sendFailure() const;
  /// Sets a peer's address (a test learns the ports its tasks picked).
  void setAddress(const TaskName &task, const std::string &address);

  /// Starts step `step` (a step id, scopedStep's): its tensors are those
  /// the rendezvous of its client exchange from now on; what earlier steps
  /// of that client left goes, and an abort of an earlier step is
  /// forgotten. The rendezvous' reset() only clears an abort: the step is
  /// the client's to say (the chief's, or a between-graph worker's).
  void beginStep(int64_t step);
  /// Client 0's current step id.
  int64_t step() const;
  /// Fails every pending and later send and receive of `client`'s steps
  /// with `status` until its next beginStep (a step another task ended).
  void abort(int client, const RendezvousStatus &status);

  /// Between-graph replication, on a task that serves the workers (a ps):
  /// worker `client` is lost (the chief says so, or an exchange with it
  /// failed here), `why`. Its step here is abandoned: its exchanges fail
  /// with RendezvousStatus::Abandoned, which ends the step as at the end of
  /// input, until forgetClient; the other clients' go on.
  void abandonClient(int client, const std::string &why);
  /// Ok, or the Abandoned status of a lost client.
  RendezvousStatus clientAbandoned(int client) const;
  /// The lost client's step is over: what it left goes, and its next
  /// steps (a new process of that worker, rejoined) start from its first.
  void forgetClient(int client);

  /// The job's incarnation, which a task takes from the chief when it
  /// connects (0 until then: every tensor is refused).
  uint64_t incarnation() const;
  void setIncarnation(uint64_t incarnation);

  /// The task this transport serves, and a channel to `task`'s server
  /// (null when the cluster has no address for it), with its address.
  const TaskName &task() const;
  std::shared_ptr<grpc::Channel> channelTo(const TaskName &task,
                                           std::string *address = nullptr);

  /// A rendezvous over this transport, which must outlive it: client 0's
  /// (the chief's steps).
  std::unique_ptr<tfc_rendezvous> makeRendezvous();
  /// The same as a tfc_runtime_options::create_rendezvous, given the
  /// Transport as its context.
  static tfc_rendezvous *createRendezvous(void *transport);

  /// A rendezvous for the steps of one client (RendezvousScope), which
  /// must outlive neither the transport nor the scope.
  std::unique_ptr<tfc_rendezvous> makeRendezvous(const RendezvousScope &scope);
  /// The same as a tfc_runtime_options::create_rendezvous, given a
  /// RendezvousScope as its context.
  static tfc_rendezvous *createScopedRendezvous(void *scope);

  struct Impl;

private:
  explicit Transport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace tfc::distributed

#endif // TFC_DISTRIBUTED_TRANSPORT_H
