//===- Activations.h - activations of several nodes -------------*- C++ -*-===//
//
// A convolution's or a dense layer's kernel applies an activation to its
// output as it writes it (enum tfc_activation in tfc_runtime.h). ReLU and
// ReLU6 are one node each; three are spelled with several: swish, x *
// sigmoid(x) (Keras' x * sigmoid(beta * x) with beta a constant 1;
// EfficientNet's), hard swish, x * relu6(x + 3) / 6 (MobileNetV3's; as x
// times relu6(x + 3) / 6 or divided after, the division also as a product
// by 1/6), and GELU, x * 0.5 * erfc(-x * (1/sqrt(2))) (tf.nn.gelu's exact
// form; a transformer's MLP). tfc-fuse-elementwise claims those nodes
// into the kernel's epilogue, and code generation reads which activation
// they are back out of the group: one matcher for both.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_ACTIVATIONS_H
#define TFC_TRANSFORMS_ACTIVATIONS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace tfc {

/// An activation of several nodes: its kind (an enum tfc_activation) and
/// its nodes in dependency order, the last computing the activation.
struct ActivationNodes {
  int64_t kind;
  llvm::SmallVector<mlir::Operation *> nodes;
};

/// The swish, hard swish or GELU of `node`'s value (its only data
/// result) when its users compute exactly that: they are its only
/// readers, each reads nothing of the chain but earlier nodes of it and x
/// (and a constant), and only the chain reads each. Inside a
/// tfc.fusion_group, a constant is the group's input (valueOutsideGroup).
std::optional<ActivationNodes> activationOf(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TRANSFORMS_ACTIVATIONS_H
