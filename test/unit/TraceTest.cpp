//===- TraceTest.cpp - execution traces: recording and Chrome JSON --------===//

#include "tfc/Runtime/Trace.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

using namespace tfc::trace;

namespace {

const Event *findSlice(const ProcessTrace &trace, const std::string &name) {
  for (const Event &event : trace.events)
    if (event.kind == Event::Kind::Slice && event.name == name)
      return &event;
  return nullptr;
}

std::vector<const Event *> flows(const ProcessTrace &trace) {
  std::vector<const Event *> result;
  for (const Event &event : trace.events)
    if (event.kind != Event::Kind::Slice)
      result.push_back(&event);
  return result;
}

} // namespace

// One test: the recorder is the process's, and recording, once on, stays.
TEST(TraceTest, RecordsThreadsSlicesAndFlows) {
  // Off: nothing is recorded.
  recordStep(7, nowNs());
  recordTransfer("a;1;b;t;0:0", /*send=*/true);
  EXPECT_TRUE(collect("p").events.empty());

  enable();
  ASSERT_TRUE(enabled());
  std::thread device([] {
    nameThread("/job:w/replica:0/task:0/device:CPU:1");
    int64_t start = nowNs();
    recordTransfer("a;1;b;t;0:0", /*send=*/true);
    recordSlice("mm\tMatMul", start);
    recordSlice("relu\tBiasAdd+Relu\tbias,relu", start);
  });
  device.join();
  int64_t start = nowNs();
  recordTransfer("a;1;b;t;0:0", /*send=*/false);
  recordStep(0, start);
  // A second exchange of the same key is a flow of its own.
  recordTransfer("a;1;b;t;0:0", /*send=*/true);
  recordTransfer("a;1;b;t;0:0", /*send=*/false);

  ProcessTrace trace = collect("/job:w/replica:0/task:0");
  // The device thread recorded first, so it is thread 0; this thread named
  // no device: the driver's.
  ASSERT_EQ(trace.threads.size(), 2u);
  EXPECT_EQ(trace.threads[0], "/job:w/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(trace.threads[1], "driver");

  const Event *mm = findSlice(trace, "mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->op, "MatMul");
  EXPECT_EQ(mm->thread, 0u);
  EXPECT_GE(mm->durationNs, 0);
  const Event *fused = findSlice(trace, "relu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op, "BiasAdd+Relu");
  EXPECT_EQ(fused->members, "bias,relu");
  const Event *step = findSlice(trace, "step 0");
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->op, "Step");

  // The n-th send and the n-th receive of a key share an id; the next
  // exchange has another.
  std::vector<const Event *> ends = flows(trace);
  ASSERT_EQ(ends.size(), 4u);
  EXPECT_EQ(ends[0]->kind, Event::Kind::FlowStart); // the device thread's
  EXPECT_EQ(ends[1]->kind, Event::Kind::FlowEnd);
  EXPECT_EQ(ends[0]->flow, ends[1]->flow);
  EXPECT_EQ(ends[2]->flow, ends[3]->flow);
  EXPECT_NE(ends[0]->flow, ends[2]->flow);

  // Renamed: a between-graph replica's threads name its own task.
  renameTask("/job:w/replica:0/task:0", "/job:w/replica:0/task:3");
  EXPECT_EQ(collect("p").threads[0], "/job:w/replica:0/task:3/device:CPU:1");
  renameTask("", "");
}

TEST(TraceTest, ChromeJson) {
  ProcessTrace own;
  own.name = "chief \"0\"";
  own.threads = {"/device:CPU:0"};
  Event slice;
  slice.name = "a\\b";
  slice.op = "MatMul";
  slice.startNs = 1234567;
  slice.durationNs = 2500;
  own.events.push_back(slice);
  ProcessTrace other;
  other.name = "ps";
  other.threads = {"/device:CPU:0"};
  Event flow;
  flow.kind = Event::Kind::FlowEnd;
  flow.flow = 0xabcdef;
  flow.startNs = 100;
  other.events.push_back(flow);
  other.offsetNs = -600;
  other.offsetWithinNs = 40;
  std::string json = chromeTraceJson({own, other});
  // Names escaped; microseconds to the nanosecond; the offset applied.
  EXPECT_NE(json.find("\"name\":\"chief \\\"0\\\"\""), std::string::npos);
  EXPECT_NE(json.find("\"name\":\"a\\\\b\",\"cat\":\"MatMul\",\"ts\":1234.567,"
                      "\"dur\":2.500,\"pid\":0,\"tid\":0"),
            std::string::npos);
  EXPECT_NE(json.find("{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"transfer\","
                      "\"cat\":\"transfer\",\"id\":\"0x0000000000abcdef\","
                      "\"ts\":-0.500,\"pid\":1,\"tid\":0}"),
            std::string::npos);
  EXPECT_NE(json.find("\"clock_offsets\":{\"ps\":{\"offset_us\":-0.600,"
                      "\"within_us\":0.040}}"),
            std::string::npos);
}
