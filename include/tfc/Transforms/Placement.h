//===- Placement.h - devices, kernels and the placer's cost model ---------===//
//
// What tfc-place decides with (white paper §3.2.1): which device types have
// a kernel for a node, the static cost model of the simulated execution
// (compute time per node and device, transfer time per edge and link), and
// the placer itself, exposed for tests that compare its strategies.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_PLACEMENT_H
#define TFC_TRANSFORMS_PLACEMENT_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Dialect/Tfg/TfgDialect.h"
#include "tfc/Support/DeviceName.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tfc {

/// True if tfc has (or, for GPU, will have) a kernel for `node` on devices
/// of `deviceType`: every registered op on CPU; on GPU the op types
/// TensorFlow registers GPU kernels for, never with string tensors; nothing
/// on other device types.
bool hasKernel(llvm::StringRef deviceType, mlir::Operation *node);

/// The static cost model: a node's compute time on a device type is its
/// FLOPs (or, for memory-bound ops, elements touched) over the type's
/// speed, plus a fixed per-op overhead; an edge between devices costs the
/// link's latency plus bytes over bandwidth. Every figure can be overridden
/// from a JSON cost file, and measured times per node replace the model.
class CostModel {
public:
  struct Speed {
    double flopsPerSecond;
    double overheadSeconds;
  };
  struct Link {
    double bytesPerSecond;
    double latencySeconds;
  };

  CostModel();

  /// Reads overrides from `path`:
  ///   {"devices": {"CPU": {"flops": 5e10, "overhead_us": 2}, ...},
  ///    "links": {"same_task": {"bandwidth": 1e10, "latency_us": 1},
  ///              "cross_task": {...}},
  ///    "nodes": {"node name": {"CPU": microseconds, "GPU": ...}}}
  /// On failure returns false and sets `error` (naming the file and key).
  bool load(llvm::StringRef path, std::string &error);

  double computeSeconds(mlir::Operation *node, const DeviceName &device) const;
  double transferSeconds(mlir::Value tensor, const DeviceName &from,
                         const DeviceName &to) const;

  /// FLOPs of the node (elements touched for memory-bound ops).
  static double flops(mlir::Operation *node);
  static double bytes(mlir::Value tensor);

private:
  llvm::StringMap<Speed> speeds;
  Link sameTask, crossTask;
  llvm::StringMap<llvm::StringMap<double>> measured;
};

enum class PlacementStrategy {
  /// The paper's greedy simulation: each node, when it becomes ready, goes
  /// to the feasible device where it would finish soonest.
  Cost,
  /// Everything on the first feasible device of the list (a baseline).
  First,
  /// Nodes, in topological order, dealt to feasible devices in turn.
  RoundRobin,
  /// TF1's replica_device_setter (OSDI §4.4's parameter servers): the
  /// groups holding variables dealt in turn to the tasks of job "ps", in
  /// graph order; everything else on the chief's first device.
  ParameterServer,
};

/// The strategy `--placement` names (cost, first, round-robin,
/// parameter-server); nullopt for another name.
std::optional<PlacementStrategy> parsePlacementStrategy(llvm::StringRef name);
/// "cost, first, round-robin or parameter-server", for errors.
inline constexpr llvm::StringLiteral kPlacementStrategies =
    "cost, first, round-robin or parameter-server";

struct PlacementOptions {
  std::vector<DeviceName> devices;
  PlacementStrategy strategy = PlacementStrategy::Cost;
  bool softPlacement = false;
  CostModel costs;
  /// Where the variables an earlier entry placed live (by variableId): a
  /// variable has one home, its task's state, whichever entry touches it.
  llvm::StringMap<DeviceName> variableDevices;
};

/// Places every node of `body`: sets tfg.assigned_device to one of
/// `options.devices`. Fails, with an error naming the nodes and the
/// constraints, when a node or colocation group has no feasible device.
/// On success `makespanSeconds` is the simulated step time.
mlir::LogicalResult placeNodes(mlir::Block &body,
                               const PlacementOptions &options,
                               double &makespanSeconds);

} // namespace tfc

#endif // TFC_TRANSFORMS_PLACEMENT_H
