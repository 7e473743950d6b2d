//===- ClusterSpec.cpp - cluster specs in TensorFlow's forms --------------===//
//
// JSON is read into protobuf's generic Value (the library the transport
// links anyway); the ClusterDef is the schema of lib/Target/Proto.
//
//===----------------------------------------------------------------------===//

#include "tfc/Distributed/ClusterSpec.h"

#include "cluster.pb.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace tfc {
namespace {

/// More tasks than any cluster has: bounds what a spec can make tfc build.
constexpr int kMaxTasks = 65536;

using google::protobuf::Value;

bool validJobName(const std::string &name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0])))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

/// The cluster object {"worker": ["host:port", ...], ...}.
std::optional<ClusterSpec> clusterFromJson(const Value &cluster,
                                           const std::string &where,
                                           std::string &error) {
  auto fail = [&](const std::string &what) {
    error = where + ": " + what;
    return std::nullopt;
  };
  if (!cluster.has_struct_value())
    return fail("\"cluster\" must be an object of jobs");
  // JSON objects are unordered; jobs sort by name for a stable order.
  std::map<std::string, std::vector<std::string>> jobs;
  size_t total = 0;
  for (const auto &[name, tasks] : cluster.struct_value().fields()) {
    if (!validJobName(name))
      return fail("'" + name + "' is not a job name");
    if (!tasks.has_list_value() || tasks.list_value().values().empty())
      return fail("job '" + name + "' must list its tasks' addresses");
    if ((total += tasks.list_value().values_size()) > size_t(kMaxTasks))
      return fail("more than " + std::to_string(kMaxTasks) + " tasks");
    for (const Value &address : tasks.list_value().values()) {
      if (address.kind_case() != Value::kStringValue)
        return fail("job '" + name + "': task addresses are strings");
      jobs[name].push_back(address.string_value());
    }
  }
  if (jobs.empty())
    return fail("the cluster has no jobs");
  ClusterSpec spec;
  for (auto &[name, tasks] : jobs)
    spec.jobs.push_back({name, tasks});
  return spec;
}

std::optional<ClusterSpec> fromClusterDef(const std::string &text,
                                          const std::string &where,
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
  if (!parser.ParseFromString(text, &def)) {
    error = where + ": not a ClusterDef: " + collector.first;
    return std::nullopt;
  }
  ClusterSpec spec;
  int64_t total = 0;
  for (const proto::JobDef &job : def.job()) {
    if (!validJobName(job.name())) {
      error = where + ": '" + job.name() + "' is not a job name";
      return std::nullopt;
    }
    int max = -1;
    for (const auto &[index, address] : job.tasks()) {
      if (index < 0 || index >= kMaxTasks) {
        error = where + ": job '" + job.name() + "' has task index " +
                std::to_string(index) + " (0 to " +
                std::to_string(kMaxTasks - 1) + " allowed)";
        return std::nullopt;
      }
      max = std::max(max, index);
    }
    if ((total += max + 1) > kMaxTasks) {
      error = where + ": more than " + std::to_string(kMaxTasks) + " tasks";
      return std::nullopt;
    }
    ClusterSpec::Job out{job.name(), std::vector<std::string>(max + 1)};
    for (const auto &[index, address] : job.tasks())
      out.tasks[index] = address;
    if (out.tasks.empty()) {
      error = where + ": job '" + job.name() + "' has no tasks";
      return std::nullopt;
    }
    spec.jobs.push_back(std::move(out));
  }
  if (spec.jobs.empty()) {
    error = where + ": the cluster has no jobs";
    return std::nullopt;
  }
  return spec;
}

} // namespace

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string TaskName::str() const {
  return "/job:" + job + "/replica:0/task:" + std::to_string(index);
}

std::optional<TaskName> TaskName::ofDevice(const std::string &device) {
  // "/job:J/replica:R/task:T/device:TYPE:N": the job's and task's parts.
  std::optional<std::string> job;
  std::optional<int> task;
  size_t at = 0;
  while (at < device.size() && device[at] == '/') {
    size_t end = device.find('/', at + 1);
    std::string part = device.substr(at + 1, end == std::string::npos
                                                 ? std::string::npos
                                                 : end - at - 1);
    if (part.rfind("job:", 0) == 0 && part.size() > 4) {
      job = part.substr(4);
    } else if (part.rfind("task:", 0) == 0) {
      std::string digits = part.substr(5);
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      task = std::stoi(digits);
    }
    if (end == std::string::npos)
      break;
    at = end;
  }
  if (!job || !task)
    return std::nullopt;
  return TaskName{*job, *task};
}

std::optional<TfConfig> TfConfig::parse(const std::string &json,
                                        const std::string &where,
                                        std::string &error) {
  auto fail = [&](const std::string &what) {
    error = where + ": " + what;
    return std::nullopt;
  };
  Value root;
  auto status = google::protobuf::util::JsonStringToMessage(json, &root);
  if (!status.ok()) {
    // Its first line: the parser's message goes on with the text around.
    std::string message(status.message());
    return fail("not JSON: " + message.substr(0, message.find('\n')));
  }
  if (!root.has_struct_value())
    return fail("expected a JSON object");
  const auto &fields = root.struct_value().fields();
  // TF_CONFIG, or just its cluster object.
  auto cluster = fields.find("cluster");
  std::optional<ClusterSpec> spec = clusterFromJson(
      cluster == fields.end() ? root : cluster->second, where, error);
  if (!spec)
    return std::nullopt;
  TfConfig config{*spec, std::nullopt};
  auto task = fields.find("task");
  if (cluster == fields.end() || task == fields.end())
    return config;
  if (!task->second.has_struct_value())
    return fail("\"task\" must be an object with \"type\" and \"index\"");
  const auto &taskFields = task->second.struct_value().fields();
  auto type = taskFields.find("type");
  auto index = taskFields.find("index");
  if (type == taskFields.end() ||
      type->second.kind_case() != Value::kStringValue)
    return fail("\"task\" needs a \"type\" naming a job");
  // The index is a number (or, as some launchers write it, a string).
  double number = -1;
  if (index == taskFields.end())
    number = 0;
  else if (index->second.kind_case() == Value::kNumberValue)
    number = index->second.number_value();
  else if (index->second.kind_case() == Value::kStringValue &&
           !index->second.string_value().empty() &&
           index->second.string_value().find_first_not_of("0123456789") ==
               std::string::npos &&
           index->second.string_value().size() < 6)
    number = std::atoi(index->second.string_value().c_str());
  if (!(number >= 0 && number < kMaxTasks) || std::floor(number) != number)
    return fail("\"task\" \"index\" must be a task number");
  TaskName name{type->second.string_value(), int(number)};
  const ClusterSpec::Job *job = config.cluster.job(name.job);
  if (!job)
    return fail("the task's job '" + name.job + "' is not in the cluster");
  if (size_t(name.index) >= job->tasks.size())
    return fail("job '" + name.job + "' has no task " +
                std::to_string(name.index) + " (it has " +
                std::to_string(job->tasks.size()) + ")");
  config.task = name;
  return config;
}

std::optional<ClusterSpec> ClusterSpec::parseShorthand(const std::string &text,
                                                       std::string &error) {
  auto fail = [&](const std::string &what) {
    error = "--cluster '" + text + "': " + what;
    return std::nullopt;
  };
  const std::string usage = "expected JOB=TASKS,... (e.g. worker=2,ps=1), a "
                            "TF_CONFIG JSON file or a ClusterDef file";
  ClusterSpec spec;
  size_t total = 0;
  std::istringstream entries(text);
  std::string entry;
  // getline drops a trailing empty entry; "worker=1," must fail too.
  if (text.empty() || text.back() == ',')
    return fail(usage);
  while (std::getline(entries, entry, ',')) {
    size_t equals = entry.find('=');
    std::string name = entry.substr(0, equals);
    std::string count =
        equals == std::string::npos ? "" : entry.substr(equals + 1);
    if (!validJobName(name) || count.empty() || count.size() > 6 ||
        count.find_first_not_of("0123456789") != std::string::npos)
      return fail(usage);
    size_t tasks = std::stoul(count);
    if (tasks == 0 || (total += tasks) > size_t(kMaxTasks))
      return fail(usage);
    if (spec.job(name))
      return fail("job '" + name + "' appears twice");
    spec.jobs.push_back({name, std::vector<std::string>(tasks)});
  }
  return spec;
}

std::optional<ClusterSpec> ClusterSpec::parseFile(const std::string &text,
                                                  const std::string &where,
                                                  std::string &error) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    std::optional<TfConfig> config = TfConfig::parse(text, where, error);
    if (!config)
      return std::nullopt;
    return config->cluster;
  }
  return fromClusterDef(text, where, error);
}

std::optional<ClusterSpec> ClusterSpec::parse(const std::string &spec,
                                              std::string &error) {
  if (spec == "env") {
    const char *config = std::getenv("TF_CONFIG");
    if (!config || !*config) {
      error = "--cluster env: TF_CONFIG is not set";
      return std::nullopt;
    }
    std::optional<TfConfig> parsed = TfConfig::parse(config, "TF_CONFIG", error);
    if (!parsed)
      return std::nullopt;
    return parsed->cluster;
  }
  if (spec.find('=') != std::string::npos && spec.find('/') == std::string::npos)
    return parseShorthand(spec, error);
  std::ifstream file(spec, std::ios::binary);
  if (!file) {
    error = "--cluster " + spec + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return parseFile(text.str(), spec, error);
}

size_t ClusterSpec::numTasks() const {
  size_t total = 0;
  for (const Job &job : jobs)
    total += job.tasks.size();
  return total;
}

const ClusterSpec::Job *ClusterSpec::job(const std::string &name) const {
  for (const Job &job : jobs)
    if (job.name == name)
      return &job;
  return nullptr;
}

std::optional<TaskName> ClusterSpec::chief() const {
  for (const char *name : {"chief", "worker"})
    if (job(name))
      return TaskName{name, 0};
  return std::nullopt;
}

void ClusterSpec::addLoopbackAddresses(int firstPort) {
  int port = firstPort;
  for (Job &job : jobs)
    for (std::string &address : job.tasks)
      if (address.empty())
        address = "127.0.0.1:" + std::to_string(port++);
}

std::string ClusterSpec::toJson() const {
  std::string out = "{";
  for (size_t j = 0; j < jobs.size(); ++j) {
    out += (j ? ", " : "") + jsonString(jobs[j].name) + ": [";
    for (size_t t = 0; t < jobs[j].tasks.size(); ++t)
      out += (t ? ", " : "") + jsonString(jobs[j].tasks[t]);
    out += "]";
  }
  return out + "}";
}

} // namespace tfc

namespace tfc {

bool isBetweenGraphJob(const std::string &outDir) {
  std::ifstream file(outDir + "/" + kReplicationFile);
  std::string mode;
  return file >> mode && mode == "between-graph";
}

std::string flagForWorker(const std::string &flag, int index) {
  std::string result = flag;
  const std::string marker = "{index}";
  for (size_t at = result.find(marker); at != std::string::npos;
       at = result.find(marker, at))
    result.replace(at, marker.size(), std::to_string(index));
  return result;
}

} // namespace tfc
