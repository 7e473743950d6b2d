//===- CostModel.cpp - the placer's static cost model ---------------------===//
//
// White paper §3.2.1: "The cost model contains estimates of the sizes (in
// bytes) of the input and output tensors for each graph node, along with
// estimates of the computation time required for each node when presented
// with its input tensors." Estimates here come from the static shapes: a
// node's FLOPs for contractions, convolutions and pooling, the elements it
// reads and writes for every other op (they are bound by memory), over the
// device type's speed, plus a per-op overhead (a kernel launch on GPU).
// Defaults describe a server-class CPU core pair, a datacenter GPU, PCIe
// or memcpy between devices of one task, and 10 Gb/s Ethernet between
// tasks; a cost file replaces any of them, and per-node times measured on
// an earlier run replace the estimate for those nodes.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/DataType.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Placement.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace tfc {
namespace {

double elements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  double count = 1;
  for (int64_t d : tensor.getShape())
    count *= d < 0 ? 1 : double(d);
  return count;
}

int64_t dim(Value value, int64_t index) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || index >= tensor.getRank() || index < -tensor.getRank())
    return 1;
  int64_t d = tensor.getDimSize(index < 0 ? tensor.getRank() + index : index);
  return d < 0 ? 1 : d;
}

} // namespace

// The cost functions the op table names (OpTable.td).
namespace costs {

double zero(Operation *) { return 0; }

double memoryBound(Operation *node) {
  // Every element read and written once.
  double touched = 0;
  for (Value input : tfg::getDataOperands(node))
    touched += elements(input.getType());
  for (Value output : tfg::getDataResults(node))
    touched += elements(output.getType());
  return touched;
}

/// Elements of the first output (the contractions' and windows' size).
static double outputElements(Operation *node) {
  auto outputs = tfg::getDataResults(node);
  return outputs.empty() ? 0 : elements(outputs[0].getType());
}

double matMul(Operation *node) {
  auto inputs = tfg::getDataOperands(node);
  if (inputs.size() != 2)
    return memoryBound(node);
  bool transposeA = false;
  if (auto attr = node->getAttrOfType<BoolAttr>("transpose_a"))
    transposeA = attr.getValue();
  return 2 * outputElements(node) * dim(inputs[0], transposeA ? 0 : 1);
}

double batchMatMul(Operation *node) {
  auto inputs = tfg::getDataOperands(node);
  if (inputs.size() != 2)
    return memoryBound(node);
  bool adjX = false;
  if (auto attr = node->getAttrOfType<BoolAttr>("adj_x"))
    adjX = attr.getValue();
  return 2 * outputElements(node) * dim(inputs[0], adjX ? -2 : -1);
}

double convolution(Operation *node) {
  auto inputs = tfg::getDataOperands(node);
  if (inputs.size() != 2)
    return memoryBound(node);
  // (D)HWIO / HWIM filter: each output element sums the window's
  // products over Cin (over the window alone for depthwise).
  auto filter = cast<TensorType>(inputs[1].getType());
  if (!filter.hasRank() || filter.getRank() < 3)
    return memoryBound(node);
  int64_t rank = filter.getRank();
  double window = 1;
  for (int64_t d = 0; d < rank - 2; ++d)
    window *= dim(inputs[1], d);
  bool depthwise = opKindOf(node) == OpKind::DepthwiseConv2dNative;
  return 2 * outputElements(node) * window *
         (depthwise ? 1 : dim(inputs[1], rank - 2));
}

double pooling(Operation *node) {
  SmallVector<int64_t> ksize = intListAttr(node, "ksize");
  if (ksize.empty())
    return memoryBound(node);
  double window = 1;
  for (int64_t k : ksize)
    window *= double(k);
  return outputElements(node) * window;
}

double fourier(Operation *node) {
  // 5 n log2(n) per transform of n points (the radix-2 count), n the
  // larger side's transformed dimensions.
  Value side = tfg::getDataOperands(node)[0];
  Value out = tfg::getDataResults(node)[0];
  if (elements(out.getType()) > elements(side.getType()))
    side = out;
  double points = 1;
  for (int64_t axis = 1; axis <= fourierAxes(node); ++axis)
    points *= dim(side, -axis);
  return 5 * elements(side.getType()) * std::log2(std::max(points, 2.0));
}

} // namespace costs

/// Nodes that move no data and compute nothing (a transfer's time is on
/// its edge).
static bool isFree(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op && op->cost == &costs::zero;
}

CostModel::CostModel() {
  speeds["CPU"] = {5e10, 2e-6};
  speeds["GPU"] = {5e12, 1e-5};
  sameTask = {1e10, 1e-6};
  crossTask = {1.25e9, 5e-5};
}

double CostModel::bytes(Value tensor) {
  Type type = tensor.getType();
  int bits = 32;
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    Type element = ranked.getElementType();
    if (element.isIntOrFloat())
      bits = std::max(8u, element.getIntOrFloatBitWidth());
  }
  return elements(type) * bits / 8;
}

double CostModel::flops(Operation *node) {
  const OpInfo *op = lookupOp(node);
  return op ? op->cost(node) : costs::memoryBound(node);
}

double CostModel::computeSeconds(Operation *node, const DeviceName &device) const {
  StringRef type = device.type.value_or("CPU");
  auto node_it = measured.find(tfg::getNodeName(node));
  if (node_it != measured.end()) {
    auto time = node_it->second.find(type);
    if (time != node_it->second.end())
      return time->second;
  }
  if (isFree(node))
    return 0;
  auto it = speeds.find(type);
  Speed speed = it == speeds.end() ? speeds.lookup("CPU") : it->second;
  return speed.overheadSeconds + flops(node) / speed.flopsPerSecond;
}

double CostModel::transferSeconds(Value tensor, const DeviceName &from,
                                  const DeviceName &to) const {
  if (from == to)
    return 0;
  const Link &link = from.sameTask(to) ? sameTask : crossTask;
  return link.latencySeconds + bytes(tensor) / link.bytesPerSecond;
}

bool CostModel::load(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = path.str() + ": " + buffer.getError().message();
    return false;
  }
  auto parsed = llvm::json::parse((*buffer)->getBuffer());
  if (!parsed) {
    error = path.str() + ": " + llvm::toString(parsed.takeError());
    return false;
  }
  auto fail = [&](const std::string &what) {
    error = path.str() + ": " + what;
    return false;
  };
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return fail("expected a JSON object");
  for (const auto &[key, value] : *root)
    if (key != "devices" && key != "links" && key != "nodes")
      return fail("unknown key \"" + key.str() +
                  "\" (expected devices, links or nodes)");
  // A positive number at `object[key]`, if present.
  auto number = [&](const llvm::json::Object &object, StringRef key,
                    StringRef where, double scale, double &out) {
    const llvm::json::Value *value = object.get(key);
    if (!value)
      return true;
    std::optional<double> d = value->getAsNumber();
    if (!d || *d <= 0)
      return fail(where.str() + "." + key.str() + " must be a positive number");
    out = *d * scale;
    return true;
  };
  if (const llvm::json::Value *devices = root->get("devices")) {
    const llvm::json::Object *object = devices->getAsObject();
    if (!object)
      return fail("devices must be an object");
    for (const auto &[type, spec] : *object) {
      const llvm::json::Object *fields = spec.getAsObject();
      std::string where = "devices." + type.str();
      if (!fields)
        return fail(where + " must be an object");
      Speed &speed = speeds.try_emplace(type.str(), speeds.lookup("CPU")).first->second;
      if (!number(*fields, "flops", where, 1, speed.flopsPerSecond) ||
          !number(*fields, "overhead_us", where, 1e-6, speed.overheadSeconds))
        return false;
    }
  }
  if (const llvm::json::Value *links = root->get("links")) {
    const llvm::json::Object *object = links->getAsObject();
    if (!object)
      return fail("links must be an object");
    for (const auto &[name, spec] : *object) {
      std::string where = "links." + name.str();
      if (name != "same_task" && name != "cross_task")
        return fail(where + ": expected same_task or cross_task");
      const llvm::json::Object *fields = spec.getAsObject();
      if (!fields)
        return fail(where + " must be an object");
      Link &link = name == "same_task" ? sameTask : crossTask;
      if (!number(*fields, "bandwidth", where, 1, link.bytesPerSecond) ||
          !number(*fields, "latency_us", where, 1e-6, link.latencySeconds))
        return false;
    }
  }
  if (const llvm::json::Value *nodes = root->get("nodes")) {
    const llvm::json::Object *object = nodes->getAsObject();
    if (!object)
      return fail("nodes must be an object");
    for (const auto &[name, times] : *object) {
      const llvm::json::Object *fields = times.getAsObject();
      std::string where = "nodes." + name.str();
      if (!fields)
        return fail(where + " must be an object");
      for (const auto &[type, value] : *fields) {
        std::optional<double> us = value.getAsNumber();
        if (!us || *us < 0)
          return fail(where + "." + type.str() + " must be a number >= 0");
        measured[name.str()][type.str()] = *us * 1e-6;
      }
    }
  }
  return true;
}

} // namespace tfc
