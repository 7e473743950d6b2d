//===- PlacementTest.cpp - the cost placer against naive placements -------===//
//
// The paper's claim for its placer (white paper §3.2.1), checked on a test
// graph under tfc's static cost model: two independent towers of large
// MatMuls joined by an add, then a chain of elementwise ops. The greedy
// simulation runs the towers on two devices at once and keeps the chain
// together, so its simulated makespan beats putting everything on one
// device and dealing nodes round-robin.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/Placement.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir;

namespace {

std::string testGraph() {
  std::string text =
      "module {\n tfg.graph #tfg.version<producer = 1, min_consumer = 0> "
      "attributes {tfg.entry = \"step\"} {\n"
      "  %x:2 = _Arg name(\"x\") {T = f32, index = 0} : () -> tensor<512x512xf32>\n";
  const char *type = "tensor<512x512xf32>";
  auto matmul = [&](const std::string &out, const std::string &in) {
    text += "  %" + out + ":2 = MatMul(%" + in + "#0, %x#0) name(\"" + out +
            "\") {T = f32, transpose_a = false, transpose_b = false} : (" +
            type + ", " + type + ") -> " + type + "\n";
  };
  for (const char *tower : {"a", "b"}) {
    std::string previous = "x";
    for (int i = 0; i < 3; ++i) {
      std::string name = std::string(tower) + std::to_string(i);
      matmul(name, previous);
      previous = name;
    }
  }
  text += std::string("  %s:2 = AddV2(%a2#0, %b2#0) name(\"s\") {T = f32} : (") +
          type + ", " + type + ") -> " + type + "\n";
  std::string previous = "s";
  for (int i = 0; i < 8; ++i) {
    std::string name = "e" + std::to_string(i);
    text += "  %" + name + ":2 = Tanh(%" + previous + "#0) name(\"" + name +
            "\") {T = f32} : (" + type + ") -> " + type + "\n";
    previous = name;
  }
  text += "  %r = _Retval(%" + previous + "#0) name(\"r\") {T = f32, index = 0} : (" +
          type + ") -> ()\n }\n}\n";
  return text;
}

double makespan(tfc::PlacementStrategy strategy) {
  MLIRContext context;
  context.loadDialect<tfc::tfg::TfgDialect>();
  context.allowUnregisteredDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(testGraph(), &context);
  EXPECT_TRUE(module);
  if (!module)
    return -1;
  auto graph = *module->getOps<tfc::tfg::GraphOp>().begin();
  tfc::PlacementOptions options;
  for (const char *device : {"/job:localhost/replica:0/task:0/device:CPU:0",
                             "/job:localhost/replica:0/task:0/device:CPU:1"})
    options.devices.push_back(*tfc::DeviceName::parse(device));
  options.strategy = strategy;
  double seconds = -1;
  EXPECT_TRUE(succeeded(tfc::placeNodes(graph.getBody(), options, seconds)));
  // Every node got one of the devices.
  for (Operation &node : graph.getBody())
    EXPECT_TRUE(tfc::tfg::getAssignedDevice(&node).starts_with("/job:localhost"));
  return seconds;
}

TEST(Placement, CostModelBeatsNaivePlacements) {
  double cost = makespan(tfc::PlacementStrategy::Cost);
  double first = makespan(tfc::PlacementStrategy::First);
  double roundRobin = makespan(tfc::PlacementStrategy::RoundRobin);
  EXPECT_GT(cost, 0);
  EXPECT_LT(cost, first);
  EXPECT_LT(cost, roundRobin);
  // The towers overlap: well under the one-device time.
  EXPECT_LT(cost, 0.75 * first);
}

} // namespace
