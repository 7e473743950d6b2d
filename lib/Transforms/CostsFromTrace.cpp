//===- CostsFromTrace.cpp - measured node times for the placer ------------===//
//
// See tfc/Transforms/CostsFromTrace.h.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/CostsFromTrace.h"
#include "tfc/Support/DeviceName.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <vector>

namespace tfc {

bool costsFromTrace(llvm::StringRef traceText, std::string &costs,
                    size_t &nodes, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(traceText);
  if (!parsed) {
    error = "not JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *events =
      root ? root->getArray("traceEvents") : nullptr;
  if (!events) {
    error = "not a Chrome trace: no traceEvents array";
    return false;
  }
  auto eventError = [&](size_t index, const std::string &what) {
    error = "traceEvents[" + std::to_string(index) + "]: " + what;
    return false;
  };
  // Each thread's device type, from its name (a device's full name).
  std::map<std::pair<int64_t, int64_t>, std::string> deviceTypes;
  for (size_t i = 0; i < events->size(); ++i) {
    const llvm::json::Object *event = (*events)[i].getAsObject();
    if (!event)
      return eventError(i, "not an object");
    if (event->getString("ph") != llvm::StringRef("M") ||
        event->getString("name") != llvm::StringRef("thread_name"))
      continue;
    std::optional<int64_t> pid = event->getInteger("pid"),
                           tid = event->getInteger("tid");
    const llvm::json::Object *args = event->getObject("args");
    std::optional<llvm::StringRef> name =
        args ? args->getString("name") : std::nullopt;
    if (!pid || !tid || !name)
      return eventError(i, "a thread_name without pid, tid or args.name");
    if (std::optional<DeviceName> device = DeviceName::parse(*name);
        device && device->type)
      deviceTypes[{*pid, *tid}] = *device->type;
  }
  // node -> device type -> durations (microseconds).
  std::map<std::string, std::map<std::string, std::vector<double>>> times;
  for (size_t i = 0; i < events->size(); ++i) {
    const llvm::json::Object *event = (*events)[i].getAsObject();
    if (event->getString("ph") != llvm::StringRef("X"))
      continue;
    std::optional<int64_t> pid = event->getInteger("pid"),
                           tid = event->getInteger("tid");
    std::optional<llvm::StringRef> name = event->getString("name"),
                                   op = event->getString("cat");
    std::optional<double> duration = event->getNumber("dur");
    if (!pid || !tid || !name || !op || !duration || *duration < 0)
      return eventError(i, "a complete event needs pid, tid, name, cat and "
                           "a duration >= 0");
    auto type = deviceTypes.find({*pid, *tid});
    // The driver's steps, and threads of no device.
    if (type == deviceTypes.end() || *op == "Step" || op->starts_with("_"))
      continue;
    llvm::SmallVector<llvm::StringRef> members;
    const llvm::json::Object *args = event->getObject("args");
    std::optional<llvm::StringRef> fused =
        args ? args->getString("fused") : std::nullopt;
    if (fused)
      llvm::SplitString(*fused, members, ",");
    else
      members.push_back(*name);
    for (llvm::StringRef member : members)
      times[member.str()][type->second].push_back(*duration /
                                                  double(members.size()));
  }
  // Written by hand for the figures: microseconds to the nanosecond, as
  // the trace has them.
  nodes = times.size();
  costs.clear();
  llvm::raw_string_ostream out(costs);
  llvm::json::OStream json(out, /*IndentSize=*/2);
  json.object([&] {
    json.attributeObject("nodes", [&] {
      for (auto &[node, byType] : times)
        json.attributeObject(node, [&] {
          for (auto &[type, samples] : byType) {
            std::sort(samples.begin(), samples.end());
            size_t n = samples.size();
            double median = n % 2 ? samples[n / 2]
                                  : (samples[n / 2 - 1] + samples[n / 2]) / 2;
            json.attributeBegin(type);
            json.rawValue(llvm::formatv("{0:F3}", median).str());
            json.attributeEnd();
          }
        });
    });
  });
  out << "\n";
  return true;
}

} // namespace tfc
