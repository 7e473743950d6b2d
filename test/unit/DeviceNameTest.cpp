//===- DeviceNameTest.cpp - parsing and soft matching of device names ----===//

#include "tfc/Support/DeviceName.h"

#include <gtest/gtest.h>

using tfc::DeviceName;

namespace {

DeviceName parsed(const char *text) {
  auto name = DeviceName::parse(text);
  EXPECT_TRUE(name.has_value()) << text;
  return name.value_or(DeviceName());
}

TEST(DeviceName, FullForm) {
  DeviceName name = parsed("/job:worker/replica:0/task:1/device:GPU:0");
  EXPECT_TRUE(name.isComplete());
  EXPECT_EQ(name.job, "worker");
  EXPECT_EQ(name.replica, 0);
  EXPECT_EQ(name.task, 1);
  EXPECT_EQ(name.type, "GPU");
  EXPECT_EQ(name.id, 0);
  EXPECT_EQ(name.str(), "/job:worker/replica:0/task:1/device:GPU:0");
}

TEST(DeviceName, PartialAndLegacyForms) {
  EXPECT_EQ(parsed("/cpu:0").str(), "/device:CPU:0");
  EXPECT_EQ(parsed("/gpu:1").str(), "/device:GPU:1");
  EXPECT_EQ(parsed("/GPU:*").str(), "/device:GPU:*");
  EXPECT_EQ(parsed("/device:cpu:*").str(), "/device:CPU:*");
  EXPECT_EQ(parsed("/device:GPU").str(), "/device:GPU:*");
  EXPECT_EQ(parsed("/job:ps").str(), "/job:ps");
  EXPECT_EQ(parsed("/job:*/task:3").str(), "/task:3");
  // Parts may come in any order, as TensorFlow's parser allows.
  EXPECT_EQ(parsed("/task:2/job:worker").str(), "/job:worker/task:2");
  EXPECT_EQ(parsed("").str(), "");
  EXPECT_FALSE(parsed("/device:CPU:*").isComplete());
}

TEST(DeviceName, Malformed) {
  for (const char *bad :
       {"cpu:0", "/job:", "/job:1x", "/task:-1", "/task:x", "/device:GPU:a",
        "/job:a/job:b", "/replica", "/device:CPU:0/gpu:0", "/foo:1",
        "/job:worker//task:0"})
    EXPECT_FALSE(DeviceName::parse(bad).has_value()) << bad;
}

TEST(DeviceName, SoftMatching) {
  DeviceName gpu0 = parsed("/job:worker/replica:0/task:1/device:GPU:0");
  DeviceName cpu0 = parsed("/job:worker/replica:0/task:1/device:CPU:0");
  EXPECT_TRUE(parsed("").matches(gpu0));
  EXPECT_TRUE(parsed("/gpu:0").matches(gpu0));
  EXPECT_TRUE(parsed("/device:GPU:*").matches(gpu0));
  EXPECT_TRUE(parsed("/job:worker").matches(gpu0));
  EXPECT_TRUE(parsed("/job:worker/task:1").matches(cpu0));
  EXPECT_FALSE(parsed("/job:ps").matches(gpu0));
  EXPECT_FALSE(parsed("/task:0").matches(gpu0));
  EXPECT_FALSE(parsed("/cpu:0").matches(gpu0));
  EXPECT_FALSE(parsed("/gpu:1").matches(gpu0));
  EXPECT_TRUE(gpu0.sameTask(cpu0));
  EXPECT_FALSE(gpu0.sameTask(parsed("/job:worker/replica:0/task:0/device:GPU:0")));
}

TEST(DeviceName, Completion) {
  DeviceName defaults = tfc::localTask();
  defaults.type = "CPU";
  defaults.id = 0;
  EXPECT_EQ(parsed("/gpu:1").completedWith(defaults).str(),
            "/job:localhost/replica:0/task:0/device:GPU:1");
  EXPECT_EQ(parsed("/job:ps/task:1").completedWith(defaults).str(),
            "/job:ps/replica:0/task:1/device:CPU:0");
}

} // namespace
