//===- GraphUtilsTest.cpp - the graph passes' topological order -----------===//
//
// topologicalOrder is Kahn's algorithm taking the ready node earliest in
// the block first, with a quick path for a block already in an order its
// edges allow. Both must give the same order: the quick path on a block in
// order, the queue on blocks out of order, on a loop (NextIteration's edge
// back to its Merge does not count) and on a cycle (its nodes last, in
// block order).
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Transforms/GraphUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;

namespace {

/// The names of `nodes` (a graph's body, in text) in topologicalOrder.
std::vector<std::string> orderOf(const std::string &nodes) {
  MLIRContext context;
  context.loadDialect<tfc::tfg::TfgDialect>();
  std::string text = "module {\n tfg.graph #tfg.version<producer = 1, "
                     "min_consumer = 0> {\n" +
                     nodes + " }\n}\n";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  EXPECT_TRUE(module) << text;
  if (!module)
    return {};
  auto graph = *module->getOps<tfc::tfg::GraphOp>().begin();
  std::vector<std::string> names;
  for (Operation *node : tfc::topologicalOrder(graph.getBody()))
    names.push_back(tfc::tfg::getNodeName(node).str());
  return names;
}

const char *kScalar = "() -> tensor<f32>";

std::string placeholder(const char *name) {
  return std::string("  %") + name + ":2 = Placeholder name(\"" + name +
         "\") {dtype = f32, shape = #tfg.shape<>} : " + kScalar + "\n";
}

std::string neg(const char *name, const char *input) {
  return std::string("  %") + name + ":2 = Neg(%" + input + "#0) name(\"" +
         name + "\") {T = f32} : (tensor<f32>) -> tensor<f32>\n";
}

using Names = std::vector<std::string>;

TEST(TopologicalOrder, BlockInOrderIsItsOwnOrder) {
  EXPECT_EQ(orderOf(placeholder("a") + neg("b", "a") + placeholder("c") +
                    neg("d", "c") + neg("e", "b")),
            (Names{"a", "b", "c", "d", "e"}));
}

TEST(TopologicalOrder, ReadyNodeEarliestInTheBlockFirst) {
  // c reads b, which reads a, both later in the block: a goes first; then
  // b and d are ready and b is earlier; then c (position 0) before d.
  EXPECT_EQ(orderOf(neg("c", "b") + placeholder("a") + neg("b", "a") +
                    neg("d", "a")),
            (Names{"a", "b", "c", "d"}));
}

TEST(TopologicalOrder, LoopBackEdgeDoesNotCount) {
  std::string loop =
      "  %zero:2 = Const name(\"zero\") {dtype = i32, value = dense<0> : "
      "tensor<i32>} : () -> tensor<i32>\n"
      "  %enter:2 = Enter(%zero#0) name(\"enter\") {T = i32, frame_name = "
      "\"f\", is_constant = false} : (tensor<i32>) -> tensor<i32>\n"
      "  %merge:3 = Merge(%enter#0, %next#0) name(\"merge\") {N = 2 : i64, "
      "T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)\n"
      "  %next:2 = NextIteration(%merge#0) name(\"next\") {T = i32} : "
      "(tensor<i32>) -> tensor<i32>\n";
  // The Merge reads the NextIteration after it in the block: in order
  // all the same, and with the NextIteration moved first, after the Merge.
  EXPECT_EQ(orderOf(loop), (Names{"zero", "enter", "merge", "next"}));
  std::string moved =
      "  %next:2 = NextIteration(%merge#0) name(\"next\") {T = i32} : "
      "(tensor<i32>) -> tensor<i32>\n" +
      loop.substr(0, loop.find("  %next"));
  EXPECT_EQ(orderOf(moved), (Names{"zero", "enter", "merge", "next"}));
}

TEST(TopologicalOrder, CycleComesLastInBlockOrder) {
  EXPECT_EQ(orderOf(neg("x", "y") + placeholder("a") + neg("y", "x") +
                    neg("b", "a") + neg("z", "y")),
            (Names{"a", "b", "x", "y", "z"}));
}

} // namespace
