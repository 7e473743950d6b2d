//===- StepPicture.h - what a picture of the step shows ---------*- C++ -*-===//
//
// The step of a module at any stage, as the boxes a picture draws and the
// edges between its nodes: the DOT writer and the HTML page draw the same
// StepPicture, each in its own way.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_GRAPHVIZ_STEPPICTURE_H
#define TFC_TARGET_GRAPHVIZ_STEPPICTURE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tfc {

/// A box of the picture or a node in one. The root holds a box per
/// device (a partition, or the nodes placement put on one device; one box
/// "graph" before placement); a device box holds name scopes (TensorBoard's
/// habit: a Keras layer is one box), each scope its inner scopes, fusion
/// groups (in their root's scope) and nodes; a fusion group its members.
struct PictureItem {
  enum class Kind { Root, Device, Scope, Fused, Node };
  Kind kind;
  /// A device's name, a scope's last name part, a fusion group's or a
  /// node's last name part.
  std::string label;
  /// The node (Node) or the tfc.fusion_group (Fused).
  mlir::Operation *op = nullptr;
  /// The device box's number among the picture's devices (its colour).
  unsigned device = 0;
  PictureItem *parent = nullptr;
  std::vector<std::unique_ptr<PictureItem>> children;
  /// Children that are scopes, by name.
  std::map<std::string, PictureItem *> scopes;

  PictureItem *add(Kind kind, std::string label, mlir::Operation *op);
  /// The path of scopes from the device box ("a/b"); a node's full name.
  std::string path() const;
  /// The nodes within, at any depth.
  unsigned countNodes() const;
};

struct PictureEdge {
  enum class Kind { Data, Control, Transfer };
  PictureItem *from, *to;
  Kind kind;
};

struct StepPicture {
  PictureItem root{PictureItem::Kind::Root, "", nullptr};
  std::vector<PictureEdge> edges;
  unsigned devices = 0;
};

/// The step of `module`: its graph, or its partitions, each device's nodes
/// in scopes; a fusion group's inputs drawn to the members that read them
/// and its outputs from its root.
StepPicture pictureStep(mlir::ModuleOp module);

/// Whether `node` is a _Send or a _Recv.
bool isTransfer(mlir::Operation *node);

/// Fill colours of the device boxes, in turn (light, so labels read).
extern const char *const kDeviceColours[];
extern const unsigned kNumDeviceColours;

/// A node's full name and op, its device and the type of each result,
/// one to a line: what hovering over it shows.
std::string nodeTooltip(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TARGET_GRAPHVIZ_STEPPICTURE_H
