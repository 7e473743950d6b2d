//===- DeviceName.h - TensorFlow device names and their matching ---------===//
//
// A TensorFlow device name is a path of optional parts,
//
//   /job:worker/replica:0/task:1/device:GPU:0
//
// each of which may be left out (`/device:GPU:0`, `/job:ps`) or given as a
// wildcard (`/device:CPU:*`, `/job:*`), plus the legacy short forms `/cpu:0`
// and `/gpu:1`. A name with every part set is *complete* and names one
// device; any other name is a *specification* that matches every complete
// name agreeing with it on the parts it sets (TensorFlow's soft matching,
// DeviceNameUtils::IsSpecification). Device types are compared in upper
// case, so `/device:cpu:0` and `/cpu:0` both mean CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_SUPPORT_DEVICENAME_H
#define TFC_SUPPORT_DEVICENAME_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tfc {

struct DeviceName {
  std::optional<std::string> job;
  std::optional<int64_t> replica;
  std::optional<int64_t> task;
  std::optional<std::string> type;
  std::optional<int64_t> id;

  /// Parses a full or partial name; the empty string sets nothing. Returns
  /// nullopt when `text` is not a device name (the caller names it).
  static std::optional<DeviceName> parse(llvm::StringRef text);

  /// A name that says its device type, as --devices and cluster devices
  /// need; otherwise nullopt, and `error` says why, naming `text`.
  static std::optional<DeviceName> parseTyped(llvm::StringRef text,
                                              std::string &error);

  /// Every part set.
  bool isComplete() const { return job && replica && task && type && id; }

  /// The parts this name leaves unset are taken from `defaults`.
  DeviceName completedWith(const DeviceName &defaults) const;

  /// True if every part set here equals that part of `device`.
  bool matches(const DeviceName &device) const;

  /// True if no part is set in both with different values: some complete
  /// name could match both specifications.
  bool compatibleWith(const DeviceName &other) const;

  /// Same job, replica and task: one address space (one process).
  bool sameTask(const DeviceName &other) const {
    return job == other.job && replica == other.replica && task == other.task;
  }

  /// The canonical form: the parts that are set, in the order
  /// job/replica/task/device, e.g. "/job:ps/device:CPU:*".
  std::string str() const;

  /// "/job:J/replica:R/task:T" (the parts that are set).
  std::string taskStr() const;

  bool operator==(const DeviceName &other) const {
    return sameTask(other) && type == other.type && id == other.id;
  }
  bool operator!=(const DeviceName &other) const { return !(*this == other); }
};

/// The device of a single-process program: /job:localhost/replica:0/task:0.
DeviceName localTask();

} // namespace tfc

#endif // TFC_SUPPORT_DEVICENAME_H
