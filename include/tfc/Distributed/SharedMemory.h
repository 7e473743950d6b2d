//===- SharedMemory.h - large tensors between tasks on one host -*- C++ -*-===//
//
// Over loopback TCP a tensor is copied four times (into the socket, out of
// it, by HTTP/2's framing into gRPC's slices, and into the _Recv's
// buffer), and one core's worth of loopback moves about 4 GB/s. Tasks on
// one host skip all that: the sender copies the tensor into a shared
// memory region it owns (a memfd), tells the receiver over gRPC where it
// is, and the receiver maps the region, once, and copies the bytes into
// the _Recv's buffer. Two memory copies, about ten times loopback's rate.
//
// A receiver maps a region through /proc/PID/fd/FD, which the kernel
// allows for a process of the same user in the same process-id namespace;
// tasks in separate containers or of other users fail there and the
// sender goes back to TCP. The receiver only maps a memfd named for the
// job's incarnation whose first bytes are tfc's magic and the token the
// message gives, so a message cannot make it read any other file.
//
// Linux and standard C++ only (programs link it).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_SHAREDMEMORY_H
#define TFC_DISTRIBUTED_SHAREDMEMORY_H

#include "tfc/Distributed/TensorCoding.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace tfc::distributed {

/// Where a tensor's bytes start in a region: past the magic and token,
/// page-aligned.
constexpr size_t kSharedDataOffset = 4096;

/// This host as the same-host path sees it: the kernel's boot id and this
/// process's pid namespace. A sender and a receiver with the same identity
/// may share regions.
const std::string &hostIdentity();

/// A region this process writes tensors into for receivers on its host.
class SharedRegion {
public:
  /// A region for tensors of up to `capacity` bytes, of the job of
  /// `incarnation`; null, with `error` saying why, when the host has none
  /// to give.
  static std::unique_ptr<SharedRegion> create(size_t capacity,
                                              uint64_t incarnation,
                                              std::string &error);
  ~SharedRegion();
  SharedRegion(const SharedRegion &) = delete;
  SharedRegion &operator=(const SharedRegion &) = delete;

  /// Where a tensor's bytes go.
  uint8_t *data() const { return base + kSharedDataOffset; }
  size_t capacity() const { return size - kSharedDataOffset; }
  /// What a message says of a tensor of `bytes` bytes written to data().
  SharedTensor describe(uint64_t bytes) const;

private:
  SharedRegion(int fd, uint8_t *base, size_t size, uint64_t token)
      : fd(fd), base(base), size(size), token(token) {}
  int fd;
  uint8_t *base;
  size_t size;
  uint64_t token;
};

/// A sender's region mapped read-only by a receiver.
class SharedMapping {
public:
  SharedMapping(const uint8_t *base, size_t size) : base(base), size(size) {}
  ~SharedMapping();
  SharedMapping(const SharedMapping &) = delete;
  SharedMapping &operator=(const SharedMapping &) = delete;

  const uint8_t *data() const { return base + kSharedDataOffset; }
  size_t capacity() const { return size - kSharedDataOffset; }
  uint64_t token() const;

private:
  const uint8_t *base;
  size_t size;
};

/// The regions of the senders of one receiver, each mapped once and kept
/// while its sender uses it (a sender that replaces a region gives it a
/// new token; the oldest mappings go beyond a few).
class SharedRegionMap {
public:
  /// The region `shared` names, holding its bytes, of the job of
  /// `incarnation`; null, with `error` saying why, when it cannot be
  /// mapped here (another host or namespace, no permission, not a region
  /// of this job, too small).
  std::shared_ptr<const SharedMapping> map(const SharedTensor &shared,
                                           uint64_t incarnation,
                                           std::string &error);

private:
  struct Mapped {
    std::shared_ptr<const SharedMapping> mapping;
    /// The job it was mapped for, and when it was last used.
    uint64_t incarnation, lastUse;
  };
  std::mutex mutex;
  /// By sender process and region fd.
  std::map<std::pair<int64_t, int64_t>, Mapped> mappings;
  uint64_t uses = 0;
};

} // namespace tfc::distributed

#endif // TFC_DISTRIBUTED_SHAREDMEMORY_H
