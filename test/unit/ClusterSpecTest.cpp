//===- ClusterSpecTest.cpp - cluster specs and TF_CONFIG -------------------===//

#include "tfc/Distributed/ClusterSpec.h"

#include <gtest/gtest.h>

using namespace tfc;

namespace {

std::vector<std::string> jobNames(const ClusterSpec &spec) {
  std::vector<std::string> names;
  for (const ClusterSpec::Job &job : spec.jobs)
    names.push_back(job.name);
  return names;
}

// Tests the shorthand: jobs in the order given, tasks without addresses
// until loopback ones are given, in task order from the first port.
TEST(ClusterSpecTest, ShorthandGetsLoopbackAddresses) {
  std::string error;
  std::optional<ClusterSpec> spec =
      ClusterSpec::parseShorthand("worker=2,ps=1", error);
  ASSERT_TRUE(spec) << error;
  EXPECT_EQ(jobNames(*spec), (std::vector<std::string>{"worker", "ps"}));
  EXPECT_EQ(spec->numTasks(), 3u);
  EXPECT_EQ(spec->job("worker")->tasks, (std::vector<std::string>{"", ""}));
  spec->addLoopbackAddresses(2222);
  EXPECT_EQ(spec->job("worker")->tasks,
            (std::vector<std::string>{"127.0.0.1:2222", "127.0.0.1:2223"}));
  EXPECT_EQ(spec->job("ps")->tasks,
            (std::vector<std::string>{"127.0.0.1:2224"}));
}

// Tests that cluster.json (toJson) reads back as the same cluster, as
// TF_CONFIG's cluster object, escapes included.
TEST(ClusterSpecTest, JsonReadsBack) {
  ClusterSpec spec;
  spec.jobs = {{"ps", {"p0:1", "p1:2"}}, {"worker", {"a\"b\\c:3"}}};
  std::string error;
  std::optional<TfConfig> again =
      TfConfig::parse(spec.toJson(), "cluster.json", error);
  ASSERT_TRUE(again) << error << "\n" << spec.toJson();
  EXPECT_FALSE(again->task);
  ASSERT_EQ(again->cluster.jobs.size(), 2u);
  for (const ClusterSpec::Job &job : spec.jobs)
    EXPECT_EQ(again->cluster.job(job.name)->tasks, job.tasks) << job.name;
}

// Tests TF_CONFIG with its task, and the chief: task 0 of "chief", else
// worker 0, else none.
TEST(ClusterSpecTest, TfConfigNamesItsTaskAndTheChief) {
  std::string error;
  std::optional<TfConfig> config = TfConfig::parse(
      R"({"cluster": {"worker": ["w0:1", "w1:1"], "ps": ["p0:1"]},
          "task": {"type": "worker", "index": 1}})",
      "TF_CONFIG", error);
  ASSERT_TRUE(config) << error;
  ASSERT_TRUE(config->task);
  EXPECT_EQ(config->task->str(), "/job:worker/replica:0/task:1");
  EXPECT_EQ(config->cluster.chief(), (TaskName{"worker", 0}));
  // JSON objects are unordered: jobs by name.
  EXPECT_EQ(jobNames(config->cluster),
            (std::vector<std::string>{"ps", "worker"}));

  config = TfConfig::parse(
      R"({"cluster": {"chief": ["c:1"], "worker": ["w:1"]},
          "task": {"type": "chief", "index": "0"}})",
      "TF_CONFIG", error);
  ASSERT_TRUE(config) << error;
  EXPECT_EQ(config->cluster.chief(), (TaskName{"chief", 0}));
  EXPECT_EQ(config->task, (TaskName{"chief", 0}));

  std::optional<ClusterSpec> psOnly = ClusterSpec::parseShorthand("ps=2", error);
  ASSERT_TRUE(psOnly) << error;
  EXPECT_FALSE(psOnly->chief());
}

// Tests the three forms give the same cluster.
TEST(ClusterSpecTest, FormsAgree) {
  std::string error;
  std::optional<ClusterSpec> json = ClusterSpec::parseFile(
      R"({"worker": ["w0:2222", "w1:2222"], "ps": ["p0:2222"]})", "a.json",
      error);
  ASSERT_TRUE(json) << error;
  std::optional<ClusterSpec> def = ClusterSpec::parseFile(
      R"(job { name: "ps" tasks { key: 0 value: "p0:2222" } }
         job { name: "worker" tasks { key: 1 value: "w1:2222" }
               tasks { key: 0 value: "w0:2222" } })",
      "a.pbtxt", error);
  ASSERT_TRUE(def) << error;
  EXPECT_EQ(jobNames(*json), jobNames(*def));
  for (const ClusterSpec::Job &job : json->jobs)
    EXPECT_EQ(def->job(job.name)->tasks, job.tasks) << job.name;
}

// Tests that bad specs give one line naming where and what.
TEST(ClusterSpecTest, BadSpecsNameTheProblem) {
  auto errorOf = [](auto parse) {
    std::string error;
    EXPECT_FALSE(parse(error));
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    return error;
  };
  for (const char *text : {"", "worker", "worker=", "worker=0", "=2",
                           "worker=1,", "worker=x", "2w=1", "worker=9999999"})
    EXPECT_NE(errorOf([&](std::string &e) {
                return ClusterSpec::parseShorthand(text, e).has_value();
              }).find("expected JOB=TASKS"),
              std::string::npos)
        << text;
  EXPECT_NE(errorOf([](std::string &e) {
              return ClusterSpec::parseShorthand("worker=1,worker=2", e)
                  .has_value();
            }).find("job 'worker' appears twice"),
            std::string::npos);
  struct {
    const char *json, *message;
  } configs[] = {
      {"[1]", "TF_CONFIG: expected a JSON object"},
      {"{\"cluster\": {\"worker\": \"w:1\"}}",
       "job 'worker' must list its tasks' addresses"},
      {"{\"cluster\": {\"worker\": [1]}}", "task addresses are strings"},
      {"{\"cluster\": {}}", "the cluster has no jobs"},
      {"{\"cluster\": {\"w-x\": [\"a:1\"]}}", "'w-x' is not a job name"},
      {"{\"cluster\": {\"worker\": [\"a:1\"]}, \"task\": {\"type\": \"ps\"}}",
       "the task's job 'ps' is not in the cluster"},
      {"{\"cluster\": {\"worker\": [\"a:1\"]}, "
       "\"task\": {\"type\": \"worker\", \"index\": 1}}",
       "job 'worker' has no task 1 (it has 1)"},
      {"{\"cluster\": {\"worker\": [\"a:1\"]}, "
       "\"task\": {\"type\": \"worker\", \"index\": 0.5}}",
       "\"index\" must be a task number"},
      {"{\"cluster\": {\"worker\": [\"a:1\"]}, \"task\": 3}",
       "\"task\" must be an object"},
      {"{not json", "TF_CONFIG: not JSON"},
  };
  for (const auto &c : configs)
    EXPECT_NE(errorOf([&](std::string &e) {
                return TfConfig::parse(c.json, "TF_CONFIG", e).has_value();
              }).find(c.message),
              std::string::npos)
        << c.json;
  EXPECT_NE(errorOf([](std::string &e) {
              return ClusterSpec::parseFile("job { nme: \"x\" }", "c.pbtxt", e)
                  .has_value();
            }).find("c.pbtxt: not a ClusterDef: line 1:"),
            std::string::npos);
  EXPECT_NE(errorOf([](std::string &e) {
              return ClusterSpec::parseFile(
                         "job { name: \"w\" tasks { key: -1 value: \"a\" } }",
                         "c.pbtxt", e)
                  .has_value();
            }).find("has task index -1"),
            std::string::npos);
}

// Tests reading the task out of a device name, as the transport reads the
// receiver out of a rendezvous key; names without a job or task name none.
TEST(ClusterSpecTest, TaskOfDevice) {
  std::optional<TaskName> task =
      TaskName::ofDevice("/job:ps/replica:0/task:12/device:CPU:0");
  ASSERT_TRUE(task);
  EXPECT_EQ(task->job, "ps");
  EXPECT_EQ(task->index, 12);
  EXPECT_EQ(task->str(), "/job:ps/replica:0/task:12");
  EXPECT_FALSE(TaskName::ofDevice("/device:CPU:0"));
  EXPECT_FALSE(TaskName::ofDevice("/job:ps/device:CPU:0"));
  EXPECT_FALSE(TaskName::ofDevice("/job:ps/task:x"));
  EXPECT_FALSE(TaskName::ofDevice("/job:ps/task:99999999999"));
  EXPECT_FALSE(TaskName::ofDevice(""));
}

} // namespace
