//===- DeviceName.cpp - TensorFlow device names ---------------------------===//

#include "tfc/Support/DeviceName.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tfc {
namespace {

/// A non-negative decimal, or "*" (left unset). False if neither.
bool parseIndex(StringRef text, std::optional<int64_t> &out) {
  if (text == "*") {
    out.reset();
    return true;
  }
  uint64_t value;
  if (text.empty() || !llvm::all_of(text, isDigit) || text.getAsInteger(10, value) ||
      value > uint64_t(INT64_MAX))
    return false;
  out = int64_t(value);
  return true;
}

/// A job or device type: a letter, then letters, digits and underscores.
bool isIdentifier(StringRef text) {
  return !text.empty() && isAlpha(text.front()) &&
         llvm::all_of(text, [](char c) { return isAlnum(c) || c == '_'; });
}

} // namespace

std::optional<DeviceName> DeviceName::parse(StringRef text) {
  DeviceName name;
  if (text.empty() || text == "/")
    return name;
  if (!text.consume_front("/"))
    return std::nullopt;
  SmallVector<StringRef> parts;
  text.split(parts, '/');
  bool seenJob = false, seenReplica = false, seenTask = false, seenDevice = false;
  for (StringRef part : parts) {
    auto [key, value] = part.split(':');
    if (key.empty() || !part.contains(':'))
      return std::nullopt;
    if (key == "job" && !seenJob) {
      seenJob = true;
      if (value != "*") {
        if (!isIdentifier(value))
          return std::nullopt;
        name.job = value.str();
      }
    } else if (key == "replica" && !seenReplica) {
      seenReplica = true;
      if (!parseIndex(value, name.replica))
        return std::nullopt;
    } else if (key == "task" && !seenTask) {
      seenTask = true;
      if (!parseIndex(value, name.task))
        return std::nullopt;
    } else if (key == "device" && !seenDevice) {
      // device:TYPE, device:TYPE:ID, device:TYPE:*, device:*.
      seenDevice = true;
      auto [type, id] = value.split(':');
      if (type != "*") {
        if (!isIdentifier(type))
          return std::nullopt;
        name.type = type.upper();
      }
      if (value.contains(':') && !parseIndex(id, name.id))
        return std::nullopt;
    } else if ((key.equals_insensitive("cpu") || key.equals_insensitive("gpu")) &&
               !seenDevice) {
      // The legacy short form /cpu:0, /gpu:*.
      seenDevice = true;
      name.type = key.upper();
      if (!parseIndex(value, name.id))
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return name;
}

std::optional<DeviceName> DeviceName::parseTyped(StringRef text,
                                                std::string &error) {
  std::optional<DeviceName> name = parse(text);
  if (!name || !name->type) {
    error = "'" + text.str() +
            "' is not a device name with a type (e.g. /cpu:0, "
            "/job:worker/task:1/device:GPU:0)";
    return std::nullopt;
  }
  return name;
}

DeviceName DeviceName::completedWith(const DeviceName &defaults) const {
  DeviceName result = *this;
  if (!result.job)
    result.job = defaults.job;
  if (!result.replica)
    result.replica = defaults.replica;
  if (!result.task)
    result.task = defaults.task;
  if (!result.type)
    result.type = defaults.type;
  if (!result.id)
    result.id = defaults.id;
  return result;
}

bool DeviceName::matches(const DeviceName &device) const {
  return (!job || job == device.job) && (!replica || replica == device.replica) &&
         (!task || task == device.task) && (!type || type == device.type) &&
         (!id || id == device.id);
}

bool DeviceName::compatibleWith(const DeviceName &other) const {
  auto agree = [](const auto &a, const auto &b) { return !a || !b || a == b; };
  return agree(job, other.job) && agree(replica, other.replica) &&
         agree(task, other.task) && agree(type, other.type) &&
         agree(id, other.id);
}

std::string DeviceName::taskStr() const {
  std::string out;
  if (job)
    out += "/job:" + *job;
  if (replica)
    out += "/replica:" + std::to_string(*replica);
  if (task)
    out += "/task:" + std::to_string(*task);
  return out;
}

std::string DeviceName::str() const {
  std::string out = taskStr();
  if (type || id)
    out += "/device:" + type.value_or("*") + ":" +
           (id ? std::to_string(*id) : "*");
  return out;
}

DeviceName localTask() {
  DeviceName name;
  name.job = "localhost";
  name.replica = 0;
  name.task = 0;
  return name;
}

} // namespace tfc
