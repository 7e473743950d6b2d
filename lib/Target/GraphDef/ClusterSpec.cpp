//===- ClusterSpec.cpp - cluster specs in TensorFlow's forms --------------===//

#include "tfc/Target/ClusterSpec.h"

#include "cluster.pb.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cstdlib>
#include <map>

using namespace llvm;

namespace tfc {
namespace {

/// More tasks than any cluster has: bounds what a spec can make tfc build.
constexpr int kMaxTasks = 65536;

bool validJobName(StringRef name) {
  return !name.empty() && isAlpha(name.front()) &&
         llvm::all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

/// {"worker": ["host:port", ...], ...}, or TF_CONFIG around it.
std::optional<ClusterSpec> fromJson(StringRef text, StringRef where,
                                    std::string &error) {
  auto fail = [&](const Twine &what) {
    error = (where + ": " + what).str();
    return std::nullopt;
  };
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return fail(toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  if (!root)
    return fail("expected a JSON object");
  if (const json::Value *cluster = root->get("cluster"))
    root = cluster->getAsObject();
  if (!root)
    return fail("\"cluster\" must be an object of jobs");
  // JSON objects are unordered; jobs sort by name for a stable order.
  std::map<std::string, std::vector<std::string>> jobs;
  for (const auto &[name, tasks] : *root) {
    if (!validJobName(name))
      return fail("'" + name.str() + "' is not a job name");
    const json::Array *list = tasks.getAsArray();
    if (!list || list->empty())
      return fail("job '" + name.str() + "' must list its tasks' addresses");
    for (const json::Value &address : *list) {
      std::optional<StringRef> text = address.getAsString();
      if (!text)
        return fail("job '" + name.str() + "': task addresses are strings");
      jobs[name.str()].push_back(text->str());
    }
  }
  if (jobs.empty())
    return fail("the cluster has no jobs");
  ClusterSpec spec;
  for (auto &[name, tasks] : jobs)
    spec.jobs.push_back({name, tasks});
  return spec;
}

std::optional<ClusterSpec> fromClusterDef(StringRef text, StringRef where,
                                          std::string &error) {
  proto::ClusterDef def;
  google::protobuf::TextFormat::Parser parser;
  struct Collector : google::protobuf::io::ErrorCollector {
    std::string first;
    void AddError(int line, int column, const std::string &message) override {
      if (first.empty())
        first = "line " + std::to_string(line + 1) + ":" +
                std::to_string(column + 1) + ": " + message;
    }
  } collector;
  parser.RecordErrorsTo(&collector);
  if (!parser.ParseFromString(std::string(text), &def)) {
    error = (where + ": not a ClusterDef: " + collector.first).str();
    return std::nullopt;
  }
  ClusterSpec spec;
  int64_t total = 0;
  for (const proto::JobDef &job : def.job()) {
    if (!validJobName(job.name())) {
      error = (where + ": '" + job.name() + "' is not a job name").str();
      return std::nullopt;
    }
    int max = -1;
    for (const auto &[index, address] : job.tasks()) {
      if (index < 0 || index >= kMaxTasks) {
        error = (where + ": job '" + job.name() + "' has task index " +
                 Twine(index) + " (0 to " + Twine(kMaxTasks - 1) + " allowed)")
                    .str();
        return std::nullopt;
      }
      max = std::max(max, index);
    }
    if ((total += max + 1) > kMaxTasks) {
      error = (where + ": more than " + Twine(kMaxTasks) + " tasks").str();
      return std::nullopt;
    }
    ClusterSpec::Job out{job.name(), std::vector<std::string>(max + 1)};
    for (const auto &[index, address] : job.tasks())
      out.tasks[index] = address;
    if (out.tasks.empty()) {
      error = (where + ": job '" + job.name() + "' has no tasks").str();
      return std::nullopt;
    }
    spec.jobs.push_back(std::move(out));
  }
  if (spec.jobs.empty()) {
    error = (where + ": the cluster has no jobs").str();
    return std::nullopt;
  }
  return spec;
}

} // namespace

std::optional<ClusterSpec> ClusterSpec::parseShorthand(StringRef text,
                                                       std::string &error) {
  ClusterSpec spec;
  SmallVector<StringRef> entries;
  text.split(entries, ',');
  unsigned total = 0;
  for (StringRef entry : entries) {
    auto [name, count] = entry.split('=');
    unsigned tasks = 0;
    if (!validJobName(name) || count.getAsInteger(10, tasks) || tasks == 0 ||
        (total += tasks) > unsigned(kMaxTasks)) {
      error = ("--cluster '" + text + "': expected JOB=TASKS,... (e.g. "
               "worker=2,ps=1), a TF_CONFIG JSON file or a ClusterDef file")
                  .str();
      return std::nullopt;
    }
    for (const ClusterSpec::Job &job : spec.jobs)
      if (job.name == name) {
        error = ("--cluster '" + text + "': job '" + name + "' appears twice").str();
        return std::nullopt;
      }
    spec.jobs.push_back({name.str(), std::vector<std::string>(tasks)});
  }
  return spec;
}

std::optional<ClusterSpec> ClusterSpec::parseFile(StringRef text, StringRef where,
                                                  std::string &error) {
  if (text.ltrim().starts_with("{"))
    return fromJson(text, where, error);
  return fromClusterDef(text, where, error);
}

std::optional<ClusterSpec> ClusterSpec::parse(StringRef spec, std::string &error) {
  if (spec == "env") {
    const char *config = std::getenv("TF_CONFIG");
    if (!config || !*config) {
      error = "--cluster env: TF_CONFIG is not set";
      return std::nullopt;
    }
    return fromJson(config, "TF_CONFIG", error);
  }
  if (spec.contains('=') && !spec.contains('/'))
    return parseShorthand(spec, error);
  auto buffer = MemoryBuffer::getFile(spec);
  if (!buffer) {
    error = ("--cluster " + spec + ": " + buffer.getError().message()).str();
    return std::nullopt;
  }
  return parseFile((*buffer)->getBuffer(), spec, error);
}

std::vector<DeviceName> ClusterSpec::devices(const std::vector<DeviceName> &perTask) const {
  std::vector<DeviceName> local = perTask;
  if (local.empty()) {
    DeviceName cpu;
    cpu.type = "CPU";
    cpu.id = 0;
    local.push_back(cpu);
  }
  std::vector<DeviceName> result;
  for (const Job &job : jobs)
    for (size_t task = 0; task < job.tasks.size(); ++task) {
      DeviceName where;
      where.job = job.name;
      where.replica = 0;
      where.task = int64_t(task);
      for (const DeviceName &device : local) {
        // A device that names its own task belongs to that task only.
        if ((device.job && device.job != where.job) ||
            (device.task && device.task != where.task))
          continue;
        DeviceName complete = device;
        complete.job = where.job;
        complete.replica = complete.replica.value_or(0);
        complete.task = where.task;
        complete.id = complete.id.value_or(0);
        result.push_back(complete);
      }
    }
  return result;
}

} // namespace tfc
