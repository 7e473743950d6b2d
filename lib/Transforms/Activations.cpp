//===- Activations.cpp - activations of several nodes ---------------------===//
//
// See Activations.h.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/Activations.h"
#include "tfc/Dialect/Tfc/TfcDialect.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Runtime/tfc_runtime.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"

#include <cmath>

using namespace mlir;

namespace tfc {
namespace {

/// Whether `value` is a one-element float constant equal to `want` (to
/// float precision: 1/6 is not a float).
bool isConstant(Value value, double want) {
  std::optional<double> got = scalarFloatConstant(valueOutsideGroup(value));
  return got && std::abs(*got - want) <= 1e-7 * std::abs(want);
}

Value resultOf(Operation *node) { return tfg::getDataResults(node)[0]; }

/// The operand of `node` other than `value` if `node` is a binary op of
/// `kind` reading `value` once; null otherwise.
Value otherOperand(Operation *node, OpKind kind, Value value) {
  if (!node || opKindOf(node) != kind)
    return {};
  OperandRange in = tfg::getDataOperands(node);
  if (in.size() != 2 || in[0] == in[1])
    return {};
  return in[0] == value ? in[1] : in[1] == value ? in[0] : Value();
}

/// Whether `node` divides `value` by 6, or multiplies it by 1/6.
bool dividesBySix(Operation *node, Value value) {
  if (node && opKindOf(node) == OpKind::RealDiv) {
    OperandRange in = tfg::getDataOperands(node);
    return in.size() == 2 && in[0] == value && isConstant(in[1], 6.0);
  }
  Value factor = otherOperand(node, OpKind::Mul, value);
  return factor && isConstant(factor, 1.0 / 6.0);
}

/// Swish of x from x's two readers `first` ([x * 1 ->] sigmoid) and
/// `second` (x * the sigmoid).
std::optional<ActivationNodes> swishOf(Value x, Operation *first,
                                       Operation *second) {
  ActivationNodes swish{TFC_ACTIVATION_SWISH, {}};
  Operation *sigmoid = first;
  if (Value beta = otherOperand(first, OpKind::Mul, x); beta && isConstant(beta, 1.0)) {
    swish.nodes.push_back(first);
    sigmoid = soleReader(resultOf(first));
  }
  if (!sigmoid || opKindOf(sigmoid) != OpKind::Sigmoid ||
      soleReader(resultOf(sigmoid)) != second ||
      otherOperand(second, OpKind::Mul, x) != resultOf(sigmoid))
    return std::nullopt;
  swish.nodes.append({sigmoid, second});
  return swish;
}

/// Hard swish of x from x's two readers `first` (x + 3 -> relu6) and
/// `second` (x times: relu6 / 6, or relu6 and then / 6).
std::optional<ActivationNodes> hardSwishOf(Value x, Operation *first,
                                           Operation *second) {
  Value three = otherOperand(first, OpKind::AddV2, x);
  if (!three)
    three = otherOperand(first, OpKind::Add, x);
  if (!three || !isConstant(three, 3.0))
    return std::nullopt;
  Operation *relu6 = soleReader(resultOf(first));
  if (!relu6 || opKindOf(relu6) != OpKind::Relu6)
    return std::nullopt;
  Operation *next = soleReader(resultOf(relu6));
  // x * (relu6(x + 3) / 6)
  if (next != second && dividesBySix(next, resultOf(relu6)) &&
      soleReader(resultOf(next)) == second &&
      otherOperand(second, OpKind::Mul, x) == resultOf(next))
    return ActivationNodes{TFC_ACTIVATION_HARD_SWISH, {first, relu6, next, second}};
  // (x * relu6(x + 3)) / 6
  if (next == second && otherOperand(second, OpKind::Mul, x) == resultOf(relu6)) {
    Operation *division = soleReader(resultOf(second));
    if (dividesBySix(division, resultOf(second)))
      return ActivationNodes{TFC_ACTIVATION_HARD_SWISH, {first, relu6, second, division}};
  }
  return std::nullopt;
}

/// GELU of x from x's two readers `first` (x * 0.5) and `second` (-x,
/// then times 1/sqrt(2), erfc, and times the first): tf.nn.gelu's exact
/// form, 0.5 * x * erfc(-x / sqrt(2)), as Keras' graph computes it.
std::optional<ActivationNodes> geluOf(Value x, Operation *first,
                                      Operation *second) {
  Value half = otherOperand(first, OpKind::Mul, x);
  if (!half || !isConstant(half, 0.5) || !second ||
      opKindOf(second) != OpKind::Neg)
    return std::nullopt;
  Operation *scale = soleReader(resultOf(second));
  Value factor = otherOperand(scale, OpKind::Mul, resultOf(second));
  if (!factor || !isConstant(factor, 1.0 / std::sqrt(2.0)))
    return std::nullopt;
  Operation *erfc = soleReader(resultOf(scale));
  if (!erfc || opKindOf(erfc) != OpKind::Erfc)
    return std::nullopt;
  Operation *product = soleReader(resultOf(erfc));
  if (!product || soleReader(resultOf(first)) != product ||
      otherOperand(product, OpKind::Mul, resultOf(first)) != resultOf(erfc))
    return std::nullopt;
  return ActivationNodes{TFC_ACTIVATION_GELU,
                         {first, second, scale, erfc, product}};
}

} // namespace

std::optional<ActivationNodes> activationOf(Operation *node) {
  if (tfg::getDataResults(node).size() != 1)
    return std::nullopt;
  Value x = resultOf(node);
  if (llvm::range_size(x.getUses()) != 2)
    return std::nullopt;
  auto uses = x.getUses().begin();
  Operation *a = uses->getOwner(), *b = std::next(uses)->getOwner();
  if (a == b || !tfg::isNode(a) || !tfg::isNode(b))
    return std::nullopt;
  for (auto [first, second] : {std::pair(a, b), std::pair(b, a)}) {
    if (std::optional<ActivationNodes> swish = swishOf(x, first, second))
      return swish;
    if (std::optional<ActivationNodes> hardSwish = hardSwishOf(x, first, second))
      return hardSwish;
    if (std::optional<ActivationNodes> gelu = geluOf(x, first, second))
      return gelu;
  }
  return std::nullopt;
}

} // namespace tfc
