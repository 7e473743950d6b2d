//===- SharedMemory.cpp - large tensors between tasks on one host ---------===//
//
// A region is a memfd named "tfc-<incarnation>", sized once, mapped once
// and faulted in when made (MAP_POPULATE), so that a tensor's copy into it
// runs at memory speed; its first page holds the magic and the token, the
// tensor's bytes follow.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/SharedMemory.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tfc::distributed {

namespace {

constexpr char kMagic[8] = {'t', 'f', 'c', 's', 'h', 'm', '0', '1'};
/// The most regions a receiver keeps mapped.
constexpr size_t kMaxMappings = 16;

std::string regionName(uint64_t incarnation) {
  char name[32];
  std::snprintf(name, sizeof name, "tfc-%016llx",
                static_cast<unsigned long long>(incarnation));
  return name;
}

std::string systemError(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

} // namespace

const std::string &hostIdentity() {
  static const std::string identity = [] {
    std::string boot;
    std::ifstream("/proc/sys/kernel/random/boot_id") >> boot;
    char namespaceLink[64] = {};
    ssize_t length =
        readlink("/proc/self/ns/pid", namespaceLink, sizeof namespaceLink - 1);
    // Without either, no other process can be told to be on this host.
    if (boot.empty() || length <= 0)
      return std::string();
    return boot + "/" + std::string(namespaceLink, size_t(length));
  }();
  return identity;
}

std::unique_ptr<SharedRegion> SharedRegion::create(size_t capacity,
                                                   uint64_t incarnation,
                                                   std::string &error) {
  if (hostIdentity().empty()) {
    error = "this host's identity is unknown";
    return nullptr;
  }
  // Whole megabytes, so that tensors of about one size share a region.
  size_t size = kSharedDataOffset + ((capacity + (1 << 20) - 1) & ~size_t((1 << 20) - 1));
  int fd = memfd_create(regionName(incarnation).c_str(), MFD_CLOEXEC);
  if (fd < 0) {
    error = systemError("memfd_create");
    return nullptr;
  }
  if (ftruncate(fd, off_t(size)) != 0) {
    error = systemError("ftruncate");
    close(fd);
    return nullptr;
  }
  void *base = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_POPULATE, fd, 0);
  if (base == MAP_FAILED) {
    error = systemError("mmap");
    close(fd);
    return nullptr;
  }
  uint64_t token;
  do
    token = (uint64_t(std::random_device()()) << 32) | std::random_device()();
  while (token == 0);
  auto *bytes = static_cast<uint8_t *>(base);
  std::memcpy(bytes, kMagic, sizeof kMagic);
  std::memcpy(bytes + sizeof kMagic, &token, sizeof token);
  return std::unique_ptr<SharedRegion>(
      new SharedRegion(fd, bytes, size, token));
}

SharedRegion::~SharedRegion() {
  munmap(base, size);
  close(fd);
}

SharedTensor SharedRegion::describe(uint64_t bytes) const {
  SharedTensor shared;
  shared.host = hostIdentity();
  shared.pid = getpid();
  shared.fd = fd;
  shared.token = token;
  shared.bytes = bytes;
  return shared;
}

SharedMapping::~SharedMapping() {
  munmap(const_cast<uint8_t *>(base), size);
}

uint64_t SharedMapping::token() const {
  uint64_t token;
  std::memcpy(&token, base + sizeof kMagic, sizeof token);
  return token;
}

/// Maps the region `shared` names, checking that it is one: a memfd of
/// the job's name, with the magic and the token.
static std::shared_ptr<const SharedMapping>
mapRegion(const SharedTensor &shared, uint64_t incarnation,
          std::string &error) {
  std::string path = "/proc/" + std::to_string(shared.pid) + "/fd/" +
                     std::to_string(shared.fd);
  std::string expected = "/memfd:" + regionName(incarnation) + " (deleted)";
  char target[128] = {};
  ssize_t length = readlink(path.c_str(), target, sizeof target - 1);
  if (length < 0)
    return error = systemError(path), nullptr;
  if (std::string(target, size_t(length)) != expected)
    return error = path + " is not a region of this job", nullptr;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return error = systemError(path), nullptr;
  struct stat status;
  if (fstat(fd, &status) != 0 || size_t(status.st_size) < kSharedDataOffset) {
    close(fd);
    return error = path + " is not a region of this job", nullptr;
  }
  size_t size = size_t(status.st_size);
  void *base = mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  close(fd);
  if (base == MAP_FAILED)
    return error = systemError("mmap " + path), nullptr;
  auto mapping =
      std::make_shared<const SharedMapping>(static_cast<uint8_t *>(base), size);
  if (std::memcmp(base, kMagic, sizeof kMagic) != 0)
    return error = path + " is not a region of this job", nullptr;
  return mapping;
}

std::shared_ptr<const SharedMapping>
SharedRegionMap::map(const SharedTensor &shared, uint64_t incarnation,
                     std::string &error) {
  if (shared.host != hostIdentity() || shared.host.empty()) {
    error = "the sender is on another host or in another process namespace";
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto id = std::make_pair(shared.pid, shared.fd);
  auto found = mappings.find(id);
  std::shared_ptr<const SharedMapping> mapping;
  if (found != mappings.end() && found->second.incarnation == incarnation &&
      found->second.mapping->token() == shared.token) {
    mapping = found->second.mapping;
  } else {
    // New, or the sender has replaced the region behind that fd.
    mapping = mapRegion(shared, incarnation, error);
    if (!mapping)
      return nullptr;
    if (mapping->token() != shared.token) {
      error = "the sender's region no longer holds the tensor";
      return nullptr;
    }
    if (found == mappings.end() && mappings.size() >= kMaxMappings) {
      auto oldest = mappings.begin();
      for (auto at = mappings.begin(); at != mappings.end(); ++at)
        if (at->second.lastUse < oldest->second.lastUse)
          oldest = at;
      mappings.erase(oldest);
    }
  }
  mappings[id] = {mapping, incarnation, ++uses};
  if (shared.bytes > mapping->capacity()) {
    error = "the sender's region holds " + std::to_string(mapping->capacity()) +
            " bytes, not " + std::to_string(shared.bytes);
    return nullptr;
  }
  return mapping;
}

} // namespace tfc::distributed
