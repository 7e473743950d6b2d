//===- Transport.cpp - tensors between the tasks of a cluster -------------===//
//
// The server side keeps an inbox of arrived tensors by (step, key); a
// _Recv takes its tensor from there, waiting on a condition variable until
// it arrives or the rendezvous is aborted. The client side pushes a
// tensor with one unary call carrying the message as a gRPC byte buffer of
// two slices: the encoded header (TensorCoding.h) and the sender's own
// buffer, referenced, not copied; the call returns when the receiver holds
// the bytes, so the buffer is the sender's again. gRPC's message limit is
// lifted (tensors larger than its 2 GiB maximum are refused, naming the
// tensor). An abort cancels the calls in flight.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/Transport.h"
#include "tfc/Distributed/SharedMemory.h"
#include "tfc/Distributed/TensorCoding.h"

#include "CallStatus.h"
#include "task_service.grpc.pb.h"

#include <grpc/support/log.h>
#include <grpcpp/grpcpp.h>

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>
#include <grpcpp/impl/codegen/client_unary_call.h>

#include <climits>
#include <cstring>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace tfc::distributed {

using Status = RendezvousStatus;
using Code = RendezvousStatus::Code;

namespace {

constexpr char kSendTensorMethod[] = "/tfc.distributed.TaskService/SendTensor";

/// The receiving task named by a rendezvous key's third part.
std::optional<TaskName> receiverOf(const std::string &key) {
  size_t first = key.find(';');
  size_t second = first == std::string::npos ? first : key.find(';', first + 1);
  size_t third =
      second == std::string::npos ? second : key.find(';', second + 1);
  if (third == std::string::npos)
    return std::nullopt;
  return TaskName::ofDevice(key.substr(second + 1, third - second - 1));
}

/// A tensor that has arrived: the message as received (its slices are
/// gRPC's, shared, not copied, or one of the transport's own holding a
/// shared tensor's bytes) and where its data is.
struct Arrival {
  grpc::ByteBuffer message;
  std::vector<grpc::Slice> slices;
  DecodedTensor decoded;

  std::vector<Span> pieces() const {
    std::vector<Span> out;
    for (const grpc::Slice &slice : slices)
      out.push_back({slice.begin(), slice.size()});
    return out;
  }
};

} // namespace

/// The credentials of the task's calls: its certificate, and the CA its
/// peers' must be signed by; plain TCP without TLS.
static std::shared_ptr<grpc::ChannelCredentials>
channelCredentials(const std::optional<TransportOptions::Tls> &tls) {
  if (!tls)
    return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = tls->rootCerts;
  ssl.pem_private_key = tls->privateKey;
  ssl.pem_cert_chain = tls->certChain;
  return grpc::SslCredentials(ssl);
}

/// The credentials of the task's server: it requires every caller's
/// certificate and verifies it against the CA.
static std::shared_ptr<grpc::ServerCredentials>
serverCredentials(const std::optional<TransportOptions::Tls> &tls) {
  if (!tls)
    return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl(
      GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  ssl.pem_root_certs = tls->rootCerts;
  ssl.pem_key_cert_pairs.push_back({tls->privateKey, tls->certChain});
  return grpc::SslServerCredentials(ssl);
}

/// HTTP/2's settings for tensors of megabytes, on both ends of a
/// connection: the largest frames HTTP/2 allows and a flow-control window
/// that lets a large tensor flow without waiting for window updates.
template <typename Set> static void setStreamArguments(Set set) {
  set(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, (1 << 24) - 1);
  set(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1 << 26);
  set(GRPC_ARG_HTTP2_WRITE_BUFFER_SIZE, 1 << 24);
  set(GRPC_ARG_HTTP2_BDP_PROBE, 0);
}

/// Tensors up to this size are copied into their message and sent without
/// waiting for the receiver (sendWithoutWaiting); larger ones go through
/// shared memory to a task on the same host, copied into a region and sent
/// without waiting too (but for the first, which learns whether the peer
/// maps regions), or else from the sender's buffer, zero-copy, and the
/// send waits.
constexpr int64_t kCopiedSendBytes = 64 << 10;

/// The error of a tensor delivered twice in one step.
static grpc::Status sentTwice(const std::pair<int64_t, std::string> &id,
                       const std::string &sender) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                      "'" + id.second + "' sent twice in step " +
                          std::to_string(id.first) + " (by " + sender + ")");
}

/// A _Recv waiting for its tensor: a shared tensor that arrives meanwhile
/// is copied straight into its buffer.
struct Waiter {
  void *data;
  int64_t bytes;
  /// A delivery is copying into `data` (the _Recv may not return before it
  /// ends), or has.
  bool filling = false, filled = false;
};

/// Buffers for the shared tensors that arrive before their _Recv waits,
/// kept for the next: a large tensor staged every step (a worker receiving
/// from two ps tasks at once gets one of them early) would otherwise map a
/// fresh buffer each time, and fault in its pages on every copy (about 25
/// ms a step for 50 MB). At most a few are kept, the most recently freed.
class StagingPool {
public:
  /// A slice of `bytes` whose buffer comes back here when gRPC drops it.
  grpc::Slice take(size_t bytes) {
    std::unique_ptr<Buffer> buffer;
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      auto &free = state->free;
      for (auto it = free.begin(); it != free.end(); ++it)
        if ((*it)->bytes == bytes) {
          buffer = std::move(*it);
          free.erase(it);
          break;
        }
    }
    if (!buffer)
      buffer.reset(new Buffer{state, std::make_unique<char[]>(bytes), bytes});
    char *data = buffer->data.get();
    return grpc::Slice(data, bytes, &StagingPool::release, buffer.release());
  }

private:
  struct State;
  struct Buffer {
    /// The pool it returns to, if the transport still exists.
    std::weak_ptr<State> pool;
    std::unique_ptr<char[]> data;
    size_t bytes;
  };
  struct State {
    std::mutex mutex;
    std::vector<std::unique_ptr<Buffer>> free;
  };
  static constexpr size_t kKept = 4;

  static void release(void *opaque) {
    std::unique_ptr<Buffer> buffer(static_cast<Buffer *>(opaque));
    std::shared_ptr<State> state = buffer->pool.lock();
    if (!state)
      return;
    std::lock_guard<std::mutex> lock(state->mutex);
    state->free.push_back(std::move(buffer));
    if (state->free.size() > kKept)
      state->free.erase(state->free.begin());
  }

  std::shared_ptr<State> state = std::make_shared<State>();
};

/// Whether tensors to one receiving address go through shared memory, and
/// the regions that held them, free for the next.
struct SharedPeer {
  /// Unknown until the first large tensor: the address must be this host's
  /// and the receiver must be able to map the region.
  enum { Untried, Works, Refused } state = Untried;
  std::vector<std::unique_ptr<SharedRegion>> free;
};

struct Transport::Impl {
  TransportOptions options;
  std::string self; // This task, as keys name it.
  int boundPort = 0;

  std::mutex mutex;
  std::condition_variable arrived;
  /// The exchanges of each client's steps (client 0: the chief's, or
  /// this worker's own).
  struct Client {
    /// The current step id (scopedStep); none yet: the client's first.
    std::optional<int64_t> step;
    /// Fails the step's exchanges until the client's next step.
    std::optional<Status> aborted;
    /// A between-graph worker that a ps serves: the worker's task, and,
    /// once it is lost, why (its exchanges fail until forgetClient).
    std::optional<TaskName> replica;
    std::optional<Status> abandoned;
    /// The calls in flight, cancelled by an abort.
    std::set<grpc::ClientContext *> calls;
  };
  std::map<int, Client> clients;
  int64_t currentStepOf(int client) const {
    auto found = clients.find(client);
    return found != clients.end() && found->second.step
               ? *found->second.step
               : scopedStep(client, client ? -kOnceSteps : -3);
  }
  /// Why the client's exchanges fail now, if they do (the mutex held).
  const std::optional<Status> &failureOf(int client) {
    if (shutdown)
      return shutdown;
    Client &state = clients[client];
    return state.abandoned ? state.abandoned : state.aborted;
  }
  /// Set as the transport stops: every exchange fails.
  std::optional<Status> shutdown;
  std::map<std::pair<int64_t, std::string>, Arrival> inbox;
  std::map<std::pair<int64_t, std::string>, Waiter *> waiters;
  /// Sends in flight that the sender did not wait for
  /// (sendWithoutWaiting), and the first that failed: it fails this task's
  /// next transfer and its health check.
  int unwaitedSends = 0;
  std::condition_variable unwaitedSendsDone;
  std::optional<Status> sendFailure;
  std::map<std::string, std::shared_ptr<grpc::Channel>> channels;
  /// By receiving address.
  std::map<std::string, SharedPeer> sharedPeers;
  /// The regions of senders on this host that sent here.
  SharedRegionMap sharedRegions;
  StagingPool staging;

  /// Takes a message a peer sent (`peer` names it in errors).
  grpc::Status deliver(const grpc::ByteBuffer &message, const std::string &peer);
  /// Copies a shared tensor's bytes, into a waiting _Recv's buffer or else
  /// into `arrival`; fills in `arrival`'s data.
  grpc::Status landShared(const SharedTensor &shared,
                          const std::pair<int64_t, std::string> &id,
                          const std::string &sender, Arrival &arrival,
                          bool &landed);
  Status send(int client, const char *key, const void *data, int64_t bytes);
  /// `status`, a failed exchange of `client` with `peer`: when the peer is
  /// the client's own worker (this task a ps that serves it), the worker is
  /// lost and its step abandoned here, the rest served on (the mutex held).
  Status failedExchange(int client, const TaskName &peer, Status status);
  void abandon(int client, const Status &why);
  Transport::TransferStats stats;
  /// Counts a tensor sent to another task.
  void sent(int64_t bytes, bool sharedMemory) {
    std::lock_guard<std::mutex> lock(mutex);
    ++stats.tensors;
    stats.bytes += bytes;
    stats.sharedMemory += sharedMemory;
  }
  /// Sends a large tensor through shared memory when `address` is this
  /// host's and its task can map the region; false when it cannot (the
  /// tensor must go over TCP), else true with `status` the send's.
  bool sendShared(int client, const TensorHeader &header, const void *data,
                  int64_t bytes, const TaskName &receiver,
                  const std::string &address, Status &status);
  /// One SendTensor call of `client`'s to `receiver`, answered when it
  /// holds the tensor; `code`, when given, is the call's gRPC status.
  Status call(int client, const grpc::ByteBuffer &request,
              const TaskName &receiver, const std::string &address,
              grpc::StatusCode *code = nullptr);
  /// Sends `request`, which holds its own copy of the tensor (its bytes,
  /// or a shared region's description), without waiting for the receiver:
  /// the sender's step goes on at once. `done` runs (the mutex held) when
  /// the call is over, or at once if the send fails before it starts.
  Status sendWithoutWaiting(int client, grpc::ByteBuffer request,
                            const TaskName &receiver,
                            const std::string &address,
                            std::function<void()> done = {});
  Status recv(int client, const char *key, void *data, int64_t bytes);
  void abort(int client, const Status &status);
  void reset(int client);

  std::string addressOf(const TaskName &task) {
    std::lock_guard<std::mutex> lock(mutex);
    const ClusterSpec::Job *job = options.cluster.job(task.job);
    if (!job || task.index < 0 || size_t(task.index) >= job->tasks.size())
      return "";
    return job->tasks[task.index];
  }

  std::shared_ptr<grpc::Channel> channelTo(const std::string &address) {
    std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<grpc::Channel> &channel = channels[address];
    if (!channel) {
      grpc::ChannelArguments arguments;
      arguments.SetMaxSendMessageSize(-1);
      arguments.SetMaxReceiveMessageSize(-1);
      // A peer that comes up late is reached within a second of it (gRPC
      // would back off to two minutes between attempts). The "minimum
      // backoff" is gRPC's time a connection attempt has for its
      // handshake: its default, 20 s, since a loaded host may take more
      // than 100 ms to answer, and a refused connection fails at once.
      arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
      arguments.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 20000);
      arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
      setStreamArguments([&](const char *name, int value) {
        arguments.SetInt(name, value);
      });
      channel = grpc::CreateCustomChannel(
          address, channelCredentials(options.tls), arguments);
    }
    return channel;
  }

  /// The service: one raw method, the message read from gRPC's slices.
  class Service : public TaskService::WithRawCallbackMethod_SendTensor<
                      TaskService::Service> {
  public:
    explicit Service(Impl &impl) : impl(impl) {}
    grpc::ServerUnaryReactor *SendTensor(grpc::CallbackServerContext *context,
                                         const grpc::ByteBuffer *request,
                                         grpc::ByteBuffer *response) override {
      grpc::Status status = impl.deliver(*request, context->peer());
      // An empty TensorAck.
      grpc::Slice empty;
      *response = grpc::ByteBuffer(&empty, 1);
      grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
      reactor->Finish(status);
      return reactor;
    }

  private:
    Impl &impl;
  };

  std::unique_ptr<Service> service;
  std::unique_ptr<grpc::Server> server;
};

grpc::Status Transport::Impl::deliver(const grpc::ByteBuffer &message,
                                      const std::string &peer) {
  Arrival arrival;
  arrival.message = message; // Shares the slices.
  if (!arrival.message.Dump(&arrival.slices).ok())
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "unreadable tensor message from " + peer);
  std::string error;
  if (!decodeTensorMessage(arrival.pieces(), arrival.decoded, error))
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "malformed tensor message from " + peer + ": " + error);
  const TensorHeader &header = arrival.decoded.header;
  std::string sender = header.sender.empty() ? peer : header.sender;
  std::optional<TaskName> receiver = receiverOf(header.key);
  if (!receiver || !(*receiver == options.task))
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        self + " is not the receiver of '" + header.key +
                            "' (from " + sender + ")");
  // Whether the tensor is of this run and step (asked again after a shared
  // tensor's copy: the step may have ended meanwhile).
  auto refusal = [&]() -> std::optional<grpc::Status> {
    if (header.incarnation != options.incarnation)
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          self + " refuses a tensor from " + sender +
                              ": it belongs to another run of the job "
                              "(incarnation " +
                              std::to_string(header.incarnation) + ", not " +
                              std::to_string(options.incarnation) + ")");
    if (header.stepId < currentStepOf(clientOfStep(header.stepId)))
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "'" + header.key + "' from " + sender +
                              " is for step " + std::to_string(header.stepId) +
                              ", which " + self + " has finished");
    return std::nullopt;
  };
  auto id = std::make_pair(header.stepId, header.key);
  if (header.shared) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (std::optional<grpc::Status> refused = refusal())
        return *refused;
    }
    bool landed = false;
    grpc::Status status = landShared(*header.shared, id, sender, arrival, landed);
    if (!status.ok() || landed)
      return status;
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (std::optional<grpc::Status> refused = refusal())
    return *refused;
  auto [it, inserted] = inbox.try_emplace(id);
  if (!inserted)
    return sentTwice(id, sender);
  it->second = std::move(arrival);
  arrived.notify_all();
  return grpc::Status::OK;
}

grpc::Status Transport::Impl::landShared(
    const SharedTensor &shared, const std::pair<int64_t, std::string> &id,
    const std::string &sender, Arrival &arrival, bool &landed) {
  std::string error;
  std::shared_ptr<const SharedMapping> mapping = sharedRegions.map(
      shared, arrival.decoded.header.incarnation, error);
  // UNIMPLEMENTED tells the sender to send this tensor, and the next, over
  // TCP.
  if (!mapping)
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                        self + " cannot map the shared memory of " + sender +
                            ": " + error);
  Waiter *waiter = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = waiters.find(id);
    if (found != waiters.end()) {
      if (found->second->filling || found->second->filled)
        return sentTwice(id, sender);
      // A _Recv of another size takes the tensor from the inbox and says so.
      if (found->second->bytes == int64_t(shared.bytes)) {
        waiter = found->second;
        waiter->filling = true;
      }
    }
  }
  if (waiter) {
    std::memcpy(waiter->data, mapping->data(), size_t(shared.bytes));
    std::lock_guard<std::mutex> lock(mutex);
    waiter->filling = false;
    waiter->filled = true;
    arrived.notify_all();
    landed = true;
    return grpc::Status::OK;
  }
  // No _Recv waits yet: the bytes wait in a slice of the transport's.
  grpc::Slice staged = staging.take(size_t(shared.bytes));
  std::memcpy(const_cast<uint8_t *>(staged.begin()), mapping->data(),
              size_t(shared.bytes));
  arrival.slices = {staged};
  arrival.decoded.dataOffset = 0;
  arrival.decoded.dataBytes = shared.bytes;
  return grpc::Status::OK;
}

/// Whether HOST:PORT (or [HOST]:PORT) names this host: its host resolves
/// to an address a socket here can bind.
static bool isLocalAddress(const std::string &address) {
  size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return false;
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  addrinfo hints = {};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0)
    return false;
  bool local = false;
  for (addrinfo *at = found; at && !local; at = at->ai_next) {
    int fd = socket(at->ai_family, SOCK_STREAM, 0);
    if (fd < 0)
      continue;
    // Port 0 of the address: only an address of this host binds.
    local = ::bind(fd, at->ai_addr, at->ai_addrlen) == 0;
    close(fd);
  }
  freeaddrinfo(found);
  return local;
}

Status Transport::Impl::send(int client, const char *key, const void *data,
                             int64_t bytes) {
  std::optional<TaskName> receiver = receiverOf(key);
  if (!receiver)
    return Status::error(Code::InvalidArgument,
                         std::string("rendezvous key '") + key +
                             "' names no receiving task");
  if (bytes < 0)
    return Status::error(Code::InvalidArgument,
                         std::string("'") + key + "': a size of " +
                             std::to_string(bytes) + " bytes");
  int64_t step;
  uint64_t incarnation;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const std::optional<Status> &failure = failureOf(client))
      return *failure;
    step = currentStepOf(client);
    incarnation = options.incarnation;
  }
  TensorHeader header{incarnation, step, key, self, std::nullopt};
  if (*receiver == options.task) {
    // Another device of this task: into its own inbox (a copy, as the
    // in-process rendezvous makes).
    std::string prefix = encodeTensorPrefix(header, uint64_t(bytes));
    grpc::Slice copy[2] = {grpc::Slice(prefix),
                           grpc::Slice(data, size_t(bytes))};
    grpc::Status status =
        deliver(grpc::ByteBuffer(copy, bytes > 0 ? 2 : 1), self);
    return status.ok() ? Status::ok()
                       : Status::error(Code::InvalidArgument,
                                       status.error_message());
  }
  std::string address = addressOf(*receiver);
  if (address.empty())
    return Status::error(Code::InvalidArgument,
                         "'" + std::string(key) + "' goes to " +
                             receiver->str() +
                             ", which the cluster has no address for");
  // A small tensor is copied and sent without waiting for the receiver's
  // answer (a round trip saved on every step); a large one goes through
  // shared memory to a task on this host, else from the sender's buffer,
  // which the call holds until the receiver has it.
  if (bytes <= kCopiedSendBytes) {
    std::string prefix = encodeTensorPrefix(header, uint64_t(bytes));
    grpc::Slice copied[2] = {grpc::Slice(prefix),
                             grpc::Slice(data, size_t(bytes))};
    Status status = sendWithoutWaiting(
        client, grpc::ByteBuffer(copied, bytes > 0 ? 2 : 1), *receiver,
        address);
    if (status.isOk())
      sent(bytes, false);
    return status;
  }
  Status shared = Status::ok();
  if (options.sharedMemory &&
      sendShared(client, header, data, bytes, *receiver, address, shared)) {
    if (shared.isOk())
      sent(bytes, true);
    return shared;
  }
  if (bytes > INT_MAX - 4096)
    return Status::error(Code::InvalidArgument,
                         std::string("'") + key + "': " +
                             std::to_string(bytes) +
                             " bytes are more than one gRPC message holds");
  std::string prefix = encodeTensorPrefix(header, uint64_t(bytes));
  grpc::Slice slices[2] = {
      grpc::Slice(prefix),
      grpc::Slice(data, size_t(bytes), grpc::Slice::STATIC_SLICE)};
  Status status =
      call(client, grpc::ByteBuffer(slices, 2), *receiver, address);
  if (status.isOk())
    sent(bytes, false);
  return status;
}

bool Transport::Impl::sendShared(int client, const TensorHeader &header,
                                 const void *data, int64_t bytes,
                                 const TaskName &receiver,
                                 const std::string &address, Status &status) {
  std::unique_ptr<SharedRegion> region;
  bool untried;
  {
    std::lock_guard<std::mutex> lock(mutex);
    SharedPeer &peer = sharedPeers[address];
    if (peer.state == SharedPeer::Refused)
      return false;
    untried = peer.state == SharedPeer::Untried;
    // The smallest free region the tensor fits; when none does, one goes,
    // so that a task holds regions only for the sends it makes at once.
    auto best = peer.free.end();
    for (auto at = peer.free.begin(); at != peer.free.end(); ++at)
      if ((*at)->capacity() >= size_t(bytes) &&
          (best == peer.free.end() || (*at)->capacity() < (*best)->capacity()))
        best = at;
    if (best != peer.free.end()) {
      region = std::move(*best);
      peer.free.erase(best);
    } else if (!peer.free.empty()) {
      peer.free.pop_back();
    }
  }
  auto refuse = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    SharedPeer &peer = sharedPeers[address];
    peer.state = SharedPeer::Refused;
    peer.free.clear();
    return false;
  };
  if (untried && !isLocalAddress(address))
    return refuse();
  if (!region) {
    std::string error;
    region = SharedRegion::create(size_t(bytes), header.incarnation, error);
    if (!region)
      return refuse();
  }
  std::memcpy(region->data(), data, size_t(bytes));
  TensorHeader described = header;
  described.shared = region->describe(uint64_t(bytes));
  grpc::Slice message(encodeTensorPrefix(described, 0));
  if (!untried) {
    // The region holds the bytes: the step need not wait for the receiver
    // to copy them out. The region returns to the pool when it has.
    SharedRegion *held = region.release();
    status = sendWithoutWaiting(
        client, grpc::ByteBuffer(&message, 1), receiver, address,
        [this, address, held] {
          sharedPeers[address].free.push_back(std::unique_ptr<SharedRegion>(held));
        });
    return true;
  }
  grpc::StatusCode code;
  status = call(client, grpc::ByteBuffer(&message, 1), receiver, address,
                &code);
  if (code == grpc::StatusCode::UNIMPLEMENTED)
    return refuse();
  std::lock_guard<std::mutex> lock(mutex);
  SharedPeer &peer = sharedPeers[address];
  if (status.isOk())
    peer.state = SharedPeer::Works;
  peer.free.push_back(std::move(region));
  return true;
}

Status Transport::Impl::call(int client, const grpc::ByteBuffer &request,
                             const TaskName &receiver,
                             const std::string &address,
                             grpc::StatusCode *code) {
  if (code)
    *code = grpc::StatusCode::CANCELLED;
  std::shared_ptr<grpc::Channel> channel = channelTo(address);
  grpc::ClientContext context;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const std::optional<Status> &failure = failureOf(client))
      return *failure;
    if (sendFailure)
      return *sendFailure;
    clients[client].calls.insert(&context);
  }
  grpc::ByteBuffer response;
  grpc::internal::RpcMethod method(kSendTensorMethod,
                                   grpc::internal::RpcMethod::NORMAL_RPC,
                                   channel);
  grpc::Status status =
      grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
          channel.get(), method, &context, request, &response);
  std::lock_guard<std::mutex> lock(mutex);
  clients[client].calls.erase(&context);
  if (code)
    *code = status.error_code();
  if (status.ok())
    return Status::ok();
  if (const std::optional<Status> &failure = failureOf(client))
    return *failure;
  return failedExchange(client, receiver,
                        statusOfCall(status, receiver, address));
}

Status Transport::Impl::failedExchange(int client, const TaskName &peer,
                                       Status status) {
  const std::optional<TaskName> &replica = clients[client].replica;
  if (status.getCode() != Code::Unavailable || !replica || !(*replica == peer))
    return status;
  abandon(client, Status::error(Code::Abandoned, status.getMessage()));
  return *clients[client].abandoned;
}

void Transport::Impl::abandon(int client, const Status &why) {
  Client &state = clients[client];
  if (!state.abandoned)
    state.abandoned = why;
  for (grpc::ClientContext *call : state.calls)
    call->TryCancel();
  arrived.notify_all();
}

Status Transport::Impl::sendWithoutWaiting(int client, grpc::ByteBuffer request,
                                           const TaskName &receiver,
                                           const std::string &address,
                                           std::function<void()> done) {
  struct Call {
    grpc::ClientContext context;
    grpc::ByteBuffer request, response;
  };
  auto *call = new Call;
  call->request = std::move(request);
  std::shared_ptr<grpc::Channel> channel = channelTo(address);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const std::optional<Status> &failure = failureOf(client);
    if (failure || sendFailure) {
      delete call;
      if (done)
        done();
      return failure ? *failure : *sendFailure;
    }
    clients[client].calls.insert(&call->context);
    ++unwaitedSends;
  }
  grpc::internal::RpcMethod method(kSendTensorMethod,
                                   grpc::internal::RpcMethod::NORMAL_RPC,
                                   channel);
  grpc::internal::CallbackUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel.get(), method, &call->context, &call->request, &call->response,
      [this, client, call, receiver, address, done](grpc::Status status) {
        std::lock_guard<std::mutex> lock(mutex);
        clients[client].calls.erase(&call->context);
        if (done)
          done();
        // (A lost worker's step is abandoned; any other failure fails
        // this task's next transfer.)
        if (!status.ok() && !failureOf(client) && !sendFailure) {
          Status failed = failedExchange(
              client, receiver, statusOfCall(status, receiver, address));
          if (failed.getCode() != Code::Abandoned)
            sendFailure = failed;
        }
        delete call;
        if (--unwaitedSends == 0)
          unwaitedSendsDone.notify_all();
        // A receive waiting here learns of the failure.
        arrived.notify_all();
      });
  return Status::ok();
}

Status Transport::Impl::recv(int client, const char *key, void *data,
                             int64_t bytes) {
  std::unique_lock<std::mutex> lock(mutex);
  auto id = std::make_pair(currentStepOf(client), std::string(key));
  // Registered while this waits, for a shared tensor to land in.
  Waiter waiter{data, bytes};
  bool registered = false;
  auto done = [&](Status status) {
    if (registered)
      waiters.erase(id);
    return status;
  };
  while (true) {
    if (waiter.filled)
      return done(Status::ok());
    if (!waiter.filling) {
      const std::optional<Status> &failure = failureOf(client);
      if (failure || sendFailure)
        return done(failure ? *failure : *sendFailure);
    }
    auto it = inbox.find(id);
    if (it != inbox.end()) {
      Arrival arrival = std::move(it->second);
      inbox.erase(it);
      if (registered)
        waiters.erase(id);
      if (int64_t(arrival.decoded.dataBytes) != bytes)
        return Status::error(
            Code::InvalidArgument,
            "'" + std::string(key) + "' from " +
                arrival.decoded.header.sender + " has " +
                std::to_string(arrival.decoded.dataBytes) + " bytes, " + self +
                " expects " + std::to_string(bytes));
      // The copy runs unlocked: other tensors arrive meanwhile.
      lock.unlock();
      copyFromPieces(arrival.pieces(), arrival.decoded.dataOffset, data,
                     size_t(bytes));
      return Status::ok();
    }
    if (!registered)
      registered = waiters.emplace(id, &waiter).second;
    arrived.wait(lock);
  }
}

void Transport::Impl::abort(int client, const Status &status) {
  std::lock_guard<std::mutex> lock(mutex);
  Client &state = clients[client];
  if (!state.aborted)
    state.aborted = status;
  for (grpc::ClientContext *call : state.calls)
    call->TryCancel();
  arrived.notify_all();
}

void Transport::Impl::reset(int client) {
  std::lock_guard<std::mutex> lock(mutex);
  clients[client].aborted.reset();
}

void Transport::beginStep(int64_t step) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  // What earlier steps of the client left (a tensor nobody received) goes;
  // tensors that came early for this step or later stay, and so do other
  // clients'.
  int client = clientOfStep(step);
  int64_t first = client == 0 ? INT64_MIN : scopedStep(client, -kOnceSteps);
  impl->inbox.erase(impl->inbox.lower_bound({first, ""}),
                    impl->inbox.lower_bound({step, ""}));
  Impl::Client &state = impl->clients[client];
  state.step = step;
  state.aborted.reset();
}

void Transport::abandonClient(int client, const std::string &why) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->abandon(client, Status::error(Code::Abandoned, why));
}

RendezvousStatus Transport::clientAbandoned(int client) const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  auto found = impl->clients.find(client);
  return found != impl->clients.end() && found->second.abandoned
             ? *found->second.abandoned
             : Status::ok();
}

void Transport::forgetClient(int client) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  auto found = impl->clients.find(client);
  if (found == impl->clients.end())
    return;
  // What the lost worker's steps left goes, and its next incarnation's
  // steps start again from its first.
  impl->inbox.erase(
      impl->inbox.lower_bound({scopedStep(client, -kOnceSteps), ""}),
      impl->inbox.lower_bound({scopedStep(client + 1, -kOnceSteps), ""}));
  std::optional<TaskName> replica = found->second.replica;
  found->second = Impl::Client();
  found->second.replica = replica;
}

namespace {

/// The runtime's view of a transport, for one client's steps.
class TransportRendezvous : public tfc_rendezvous {
public:
  TransportRendezvous(Transport::Impl &impl, int client)
      : impl(impl), client(client) {}
  Status send(const char *key, const void *data, int64_t bytes) override {
    return impl.send(client, key, data, bytes);
  }
  Status recv(const char *key, void *data, int64_t bytes) override {
    return impl.recv(client, key, data, bytes);
  }
  void abort(const Status &status) override { impl.abort(client, status); }
  void reset() override { impl.reset(client); }

protected:
  Transport::Impl &impl;
  int client;
};

/// A replica's rendezvous: the keys the template replica's code names
/// (worker 0's devices) name the replica's instead. A key is a constant of
/// the generated code, so each is rewritten once and kept by its address.
class ReplicaRendezvous : public TransportRendezvous {
public:
  ReplicaRendezvous(Transport::Impl &impl, const RendezvousScope &scope)
      : TransportRendezvous(impl, scope.client),
        templateTask(*TaskName::ofDevice(scope.templateTask)),
        replica(scope.replica) {}
  Status send(const char *key, const void *data, int64_t bytes) override {
    return impl.send(client, rewrite(key).c_str(), data, bytes);
  }
  Status recv(const char *key, void *data, int64_t bytes) override {
    return impl.recv(client, rewrite(key).c_str(), data, bytes);
  }
  std::string traceKey(const char *key) override { return rewrite(key); }

private:
  TaskName templateTask;
  std::string replica;
  std::mutex mutex;
  /// By the address of the generated code's constant, for a step's keys.
  std::unordered_map<const char *, std::string> rewritten;
  /// By their text up to the iteration, for the keys of a loop's
  /// iterations, which the runtime writes into buffers of its own.
  std::unordered_map<std::string, std::string> rewrittenPrefixes;

  std::string rewrite(const char *key) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t length = std::strlen(key);
    if (length >= 4 && std::strcmp(key + length - 4, ";0:0") == 0) {
      auto [it, inserted] = rewritten.try_emplace(key);
      if (inserted)
        it->second = rewriteKey(key);
      return it->second;
    }
    const char *iteration = std::strrchr(key, ':');
    std::string prefix(key, iteration ? iteration - key : length);
    auto [it, inserted] = rewrittenPrefixes.try_emplace(prefix);
    if (inserted)
      it->second = rewriteKey(prefix);
    return it->second + (iteration ? iteration : "");
  }

  /// "SRC;INCARNATION;DST;NAME;FRAME": SRC and DST, when on the template's
  /// task, move to the replica's, their device part kept.
  std::string rewriteKey(const std::string &key) const {
    std::string result;
    size_t start = 0;
    for (int part = 0; start <= key.size(); ++part) {
      size_t end = key.find(';', start);
      if (end == std::string::npos)
        end = key.size();
      std::string piece = key.substr(start, end - start);
      std::optional<TaskName> task =
          part == 0 || part == 2 ? TaskName::ofDevice(piece) : std::nullopt;
      size_t device = piece.find("/device:");
      if (task && *task == templateTask && device != std::string::npos)
        piece = replica + piece.substr(device);
      result += (part ? ";" : "") + piece;
      start = end + 1;
    }
    return result;
  }
};

} // namespace

Transport::Transport(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}

Transport::~Transport() {
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->shutdown =
        Status::error(Code::Aborted, impl->self + " is shutting down");
    for (auto &[client, state] : impl->clients)
      for (grpc::ClientContext *call : state.calls)
        call->TryCancel();
    impl->arrived.notify_all();
  }
  {
    // The copied sends still in flight end (cancelled) before the server.
    std::unique_lock<std::mutex> lock(impl->mutex);
    impl->unwaitedSendsDone.wait(lock, [&] { return impl->unwaitedSends == 0; });
  }
  impl->server->Shutdown();
  impl->server->Wait();
}

std::unique_ptr<Transport> Transport::start(const TransportOptions &options,
                                            std::string &error) {
  // gRPC's own log lines would come beside the one line a failure gives,
  // which says the same naming the task: off.
  static std::once_flag quiet;
  std::call_once(quiet, [] { gpr_set_log_function([](gpr_log_func_args *) {}); });
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->self = options.task.str();
  std::string bind =
      options.bind.empty() ? impl->addressOf(options.task) : options.bind;
  if (bind.empty()) {
    error = impl->self + " has no address in the cluster to listen on";
    return nullptr;
  }
  // The configured address is listened on when it is this host's; a name
  // for the task that only others resolve (a Kubernetes service) gets the
  // port on all interfaces, said once.
  if (options.bind.empty() && !isLocalAddress(bind)) {
    size_t colon = bind.rfind(':');
    std::string all = "[::]" + bind.substr(colon == std::string::npos ? bind.size() : colon);
    std::fprintf(stderr,
                 "%s: warning: %s is not an address of this host; listening "
                 "on %s (all interfaces)\n",
                 impl->self.c_str(), bind.c_str(), all.c_str());
    bind = all;
  }
  impl->service = std::make_unique<Impl::Service>(*impl);
  grpc::ServerBuilder builder;
  // One process per port: gRPC would otherwise share a port in use
  // (SO_REUSEPORT) and split the traffic between the two.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(INT_MAX);
  setStreamArguments([&](const char *name, int value) {
    builder.AddChannelArgument(name, value);
  });
  builder.SetMaxSendMessageSize(INT_MAX);
  builder.AddListeningPort(bind, serverCredentials(options.tls),
                           &impl->boundPort);
  builder.RegisterService(impl->service.get());
  for (grpc::Service *service : options.services)
    builder.RegisterService(service);
  impl->server = builder.BuildAndStart();
  if (!impl->server || impl->boundPort == 0) {
    error = impl->self + " cannot listen on " + bind +
            " (the port is in use, or the address is not this host's)";
    return nullptr;
  }
  return std::unique_ptr<Transport>(new Transport(std::move(impl)));
}

int Transport::port() const { return impl->boundPort; }

Transport::TransferStats Transport::transferStats() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->stats;
}

Status Transport::sendFailure() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->sendFailure ? *impl->sendFailure : Status::ok();
}

void Transport::setAddress(const TaskName &task, const std::string &address) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  for (ClusterSpec::Job &job : impl->options.cluster.jobs)
    if (job.name == task.job) {
      if (job.tasks.size() <= size_t(task.index))
        job.tasks.resize(task.index + 1);
      job.tasks[task.index] = address;
      return;
    }
  ClusterSpec::Job job{task.job, {}};
  job.tasks.resize(task.index + 1);
  job.tasks[task.index] = address;
  impl->options.cluster.jobs.push_back(job);
}

void Transport::abort(int client, const Status &status) {
  impl->abort(client, status);
}

int64_t Transport::step() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->currentStepOf(0);
}

uint64_t Transport::incarnation() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->options.incarnation;
}

void Transport::setIncarnation(uint64_t incarnation) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->options.incarnation = incarnation;
}

const TaskName &Transport::task() const { return impl->options.task; }

std::shared_ptr<grpc::Channel> Transport::channelTo(const TaskName &task,
                                                    std::string *address) {
  std::string where = impl->addressOf(task);
  if (address)
    *address = where;
  return where.empty() ? nullptr : impl->channelTo(where);
}

std::unique_ptr<tfc_rendezvous> Transport::makeRendezvous() {
  return std::make_unique<TransportRendezvous>(*impl, 0);
}

std::unique_ptr<tfc_rendezvous>
Transport::makeRendezvous(const RendezvousScope &scope) {
  if (scope.templateTask.empty() || scope.templateTask == scope.replica)
    return std::make_unique<TransportRendezvous>(*impl, scope.client);
  // Served here for another task (a ps's client): a failed exchange with
  // that worker loses the worker, not this task.
  std::optional<TaskName> replica = TaskName::ofDevice(scope.replica);
  if (replica && !(*replica == impl->options.task)) {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->clients[scope.client].replica = replica;
  }
  return std::make_unique<ReplicaRendezvous>(*impl, scope);
}

tfc_rendezvous *Transport::createScopedRendezvous(void *scope) {
  auto *given = static_cast<const RendezvousScope *>(scope);
  return given->transport->makeRendezvous(*given).release();
}

tfc_rendezvous *Transport::createRendezvous(void *transport) {
  return static_cast<Transport *>(transport)->makeRendezvous().release();
}

} // namespace tfc::distributed
