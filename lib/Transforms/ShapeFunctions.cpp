//===- ShapeFunctions.cpp - output shapes of TensorFlow ops ---------------===//
//
// One shape function per op type, following TensorFlow's own shape
// functions: they read input shapes, attrs and known integer input values,
// and set output shapes (and, for the small integer tensors that graphs use
// to compute shapes, output values). Unknown stays unknown; an inconsistency
// is an error naming the node.
//
//===----------------------------------------------------------------------===//

#include "tfc/Transforms/ShapeInference.h"
#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfg/OpRegistry.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Queues.h"
#include "tfc/Transforms/Stacks.h"
#include "tfc/Transforms/TensorArrays.h"
#include "tfc/Transforms/Variables.h"

#include "graph.pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace mlir;

namespace tfc {

static constexpr int64_t kUnknown = ShapedType::kDynamic;

//===----------------------------------------------------------------------===//
// Shape and ShapeContext
//===----------------------------------------------------------------------===//

Shape Shape::ofRank(int64_t rank) {
  return of(SmallVector<int64_t>(rank, kUnknown));
}

Shape Shape::fromType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked ? of(ranked.getShape()) : unknown();
}

std::string Shape::str() const {
  if (!ranked)
    return "<unknown rank>";
  std::string text = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    text += (i ? "," : "") + (ShapedType::isDynamic(d) ? "?" : std::to_string(d));
  return text + "]";
}

bool Shape::isStatic() const {
  return ranked && llvm::none_of(dims, ShapedType::isDynamic);
}

int64_t Shape::numElements() const {
  if (!isStatic())
    return -1;
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

TensorType Shape::toType(Type elementType) const {
  if (!ranked)
    return UnrankedTensorType::get(elementType);
  return RankedTensorType::get(dims, elementType);
}

Shape joinShapes(const Shape &a, const Shape &b) {
  if (!a.ranked || !b.ranked || a.rank() != b.rank())
    return Shape::unknown();
  Shape joined = a;
  for (auto [d, other] : llvm::zip(joined.dims, b.dims))
    if (d != other)
      d = kUnknown;
  return joined;
}

FailureOr<Shape> refineShape(const Shape &current, const Shape &inferred) {
  if (!inferred.ranked)
    return current;
  if (!current.ranked)
    return inferred;
  if (current.rank() != inferred.rank())
    return failure();
  Shape out = current;
  for (auto [d, e] : llvm::zip(out.dims, inferred.dims)) {
    if (ShapedType::isDynamic(d))
      d = e;
    else if (!ShapedType::isDynamic(e) && d != e)
      return failure();
  }
  return out;
}

Shape meetListShapes(const Shape &a, const Shape &b) {
  if (!a.ranked || !b.ranked) {
    // What the one path knows of the elements; not the length.
    Shape known = a.ranked ? a : b;
    if (known.ranked && known.rank() > 0)
      known.dims[0] = kUnknown;
    return known;
  }
  if (a.rank() == 0 || a.rank() != b.rank())
    return Shape::unknown();
  Shape aElements = Shape::of(ArrayRef(a.dims).drop_front());
  Shape bElements = Shape::of(ArrayRef(b.dims).drop_front());
  FailureOr<Shape> met = refineShape(aElements, bElements);
  Shape out = Shape::of({a.dims[0] == b.dims[0] ? a.dims[0] : kUnknown});
  llvm::append_range(out.dims, succeeded(met)
                                   ? met->dims
                                   : joinShapes(aElements, bElements).dims);
  return out;
}

Shape elementShapeOperand(const Shape &operand,
                          const SmallVector<int64_t> *value) {
  if (!value || !operand.ranked || operand.rank() == 0)
    return Shape::unknown();
  Shape out;
  out.ranked = true;
  for (int64_t d : *value)
    out.dims.push_back(d < 0 ? kUnknown : d);
  return out;
}

ShapeContext::ShapeContext(
    Operation *node,
    std::function<const SmallVector<int64_t> *(Value)> lookupValue,
    std::function<const Shape *(Value)> lookupList)
    : node(node), lookupValue(std::move(lookupValue)),
      lookupList(std::move(lookupList)) {
  for (Value input : tfg::getDataOperands(node))
    inputs.push_back(Shape::fromType(input.getType()));
  for (Value output : tfg::getDataResults(node))
    outputs.push_back(Shape::fromType(output.getType()));
  outputValues.resize(outputs.size());
  outputLists.resize(outputs.size());
}

Shape ShapeContext::inputList(unsigned i) const {
  const Shape *shape =
      lookupList ? lookupList(tfg::getDataOperands(node)[i]) : nullptr;
  return shape ? *shape : Shape::unknown();
}

Shape ShapeContext::elementShapeInput(unsigned i) const {
  return elementShapeOperand(input(i), inputValue(i));
}

static Type elementTypeOf(Type type) {
  Type element = cast<TensorType>(type).getElementType();
  if (auto ref = dyn_cast<tfg::RefType>(element))
    return ref.getElementType();
  return element;
}

Type ShapeContext::inputElementType(unsigned i) const {
  return elementTypeOf(tfg::getDataOperands(node)[i].getType());
}

Type ShapeContext::outputElementType(unsigned i) const {
  return elementTypeOf(tfg::getDataResults(node)[i].getType());
}

const SmallVector<int64_t> *ShapeContext::inputValue(unsigned i) const {
  return lookupValue(tfg::getDataOperands(node)[i]);
}

std::optional<SmallVector<int64_t>> ShapeContext::inputAsShape(unsigned i) const {
  // The elements of `value`, a vector or a scalar (one element), known or
  // not; false when their number is unknown.
  std::function<bool(Value, SmallVector<int64_t> &)> elements =
      [&](Value value, SmallVector<int64_t> &out) {
        if (const SmallVector<int64_t> *known = lookupValue(value)) {
          out.append(known->begin(), known->end());
          return true;
        }
        Operation *piece = value.getDefiningOp();
        OpKind kind = piece && tfg::isNode(piece) ? opKindOf(piece) : OpKind::Unknown;
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (kind == OpKind::ConcatV2 || kind == OpKind::Pack) {
          OperandRange parts = tfg::getDataOperands(piece);
          if (kind == OpKind::ConcatV2) {
            std::optional<SmallVector<int64_t>> axis =
                constantInts(parts.back());
            if (!axis || axis->size() != 1 || ((*axis)[0] != 0 && (*axis)[0] != -1))
              return false;
            parts = parts.drop_back();
          }
          for (Value part : parts)
            if (!elements(part, out))
              return false;
          return true;
        }
        if (kind == OpKind::ExpandDims)
          return elements(tfg::getDataOperands(piece)[0], out);
        // An unknown scalar, or a vector of known length.
        if (type && type.getRank() == 0) {
          out.push_back(ShapedType::kDynamic);
          return true;
        }
        if (type && type.getRank() == 1 && !type.isDynamicDim(0)) {
          out.append(type.getDimSize(0), ShapedType::kDynamic);
          return true;
        }
        return false;
      };
  SmallVector<int64_t> out;
  if (!elements(tfg::getDataOperands(node)[i], out))
    return std::nullopt;
  return out;
}

Attribute ShapeContext::attr(StringRef name) const {
  if (Attribute a = node->getAttr(name))
    return a;
  if (const proto::OpDef *opDef = OpRegistry::get().lookup(tfg::getOpType(node)))
    for (const auto &def : opDef->attr())
      if (def.name() == name && def.has_default_value()) {
        const proto::AttrValue &v = def.default_value();
        Builder b(node->getContext());
        if (v.value_case() == proto::AttrValue::kI)
          return b.getI64IntegerAttr(v.i());
        if (v.value_case() == proto::AttrValue::kB)
          return b.getBoolAttr(v.b());
        if (v.value_case() == proto::AttrValue::kS)
          return b.getStringAttr(v.s());
        if (v.value_case() == proto::AttrValue::kList) {
          SmallVector<Attribute> ints;
          for (int64_t x : v.list().i())
            ints.push_back(b.getI64IntegerAttr(x));
          return b.getArrayAttr(ints);
        }
      }
  return {};
}

int64_t ShapeContext::intAttr(StringRef name, int64_t otherwise) const {
  auto a = dyn_cast_or_null<IntegerAttr>(attr(name));
  return a ? a.getInt() : otherwise;
}

bool ShapeContext::boolAttr(StringRef name, bool otherwise) const {
  auto a = dyn_cast_or_null<BoolAttr>(attr(name));
  return a ? a.getValue() : otherwise;
}

StringRef ShapeContext::stringAttr(StringRef name) const {
  auto a = dyn_cast_or_null<StringAttr>(attr(name));
  return a ? a.getValue() : StringRef();
}

SmallVector<int64_t> ShapeContext::intListAttr(StringRef name) const {
  SmallVector<int64_t> values;
  if (auto list = dyn_cast_or_null<ArrayAttr>(attr(name)))
    for (Attribute a : list)
      if (auto i = dyn_cast<IntegerAttr>(a))
        values.push_back(i.getInt());
  return values;
}

void ShapeContext::setOutputValue(unsigned i, SmallVector<int64_t> value) {
  outputValues[i] = std::move(value);
}

LogicalResult ShapeContext::error(const Twine &message) const {
  return node->emitError() << "node '" << tfg::getNodeName(node) << "' ("
                           << tfg::getOpType(node) << "): " << message;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::optional<SmallVector<int64_t>> normalizeAxes(ArrayRef<int64_t> axes,
                                                  int64_t rank) {
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    std::optional<int64_t> dim = normalizeAxis(axis, rank);
    if (!dim)
      return std::nullopt;
    normalized.push_back(*dim);
  }
  llvm::sort(normalized);
  normalized.erase(std::unique(normalized.begin(), normalized.end()),
                   normalized.end());
  return normalized;
}

// The shape functions the op table names (OpTable.td), and their helpers.
namespace shapes {

/// The values of small integer tensors are tracked up to this size.
constexpr size_t kMaxTrackedValue = 64;

std::string str(const Shape &s) { return s.str(); }

/// Merges two sizes that must be equal; false on conflict.
bool mergeDim(int64_t &into, int64_t other) {
  if (ShapedType::isDynamic(into))
    into = other;
  else if (!ShapedType::isDynamic(other) && into != other)
    return false;
  return true;
}

/// NumPy broadcasting.
FailureOr<Shape> broadcast(ShapeContext &c, const Shape &a, const Shape &b) {
  if (!a.ranked || !b.ranked)
    return Shape::unknown();
  size_t rank = std::max(a.dims.size(), b.dims.size());
  Shape out = Shape::ofRank(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.dims.size() ? 1 : a.dims[i - (rank - a.dims.size())];
    int64_t y = i < rank - b.dims.size() ? 1 : b.dims[i - (rank - b.dims.size())];
    if (x == 1)
      out.dims[i] = y;
    else if (y == 1)
      out.dims[i] = x;
    else if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y))
      out.dims[i] = ShapedType::isDynamic(x) ? y : x;
    else if (x != y) {
      (void)c.error("shapes " + str(a) + " and " + str(b) +
                    " do not broadcast");
      return failure();
    } else
      out.dims[i] = x;
  }
  // A dimension that is unknown on one side and 1 on the other is unknown.
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.dims.size() ? 1 : a.dims[i - (rank - a.dims.size())];
    int64_t y = i < rank - b.dims.size() ? 1 : b.dims[i - (rank - b.dims.size())];
    if ((ShapedType::isDynamic(x) && y == 1) || (ShapedType::isDynamic(y) && x == 1))
      out.dims[i] = kUnknown;
  }
  return out;
}

/// Elementwise integer arithmetic on known values (scalars broadcast).
template <typename Fn>
LogicalResult binaryValue(ShapeContext &c, Fn fn) {
  const auto *a = c.inputValue(0), *b = c.inputValue(1);
  if (!a || !b)
    return success();
  if (a->size() != b->size() && a->size() != 1 && b->size() != 1)
    return success();
  SmallVector<int64_t> out;
  for (size_t i = 0, n = std::max(a->size(), b->size()); i < n; ++i) {
    int64_t x = (*a)[a->size() == 1 ? 0 : i], y = (*b)[b->size() == 1 ? 0 : i];
    std::optional<int64_t> v = fn(x, y);
    if (!v)
      return success();
    out.push_back(*v);
  }
  c.setOutputValue(0, out);
  return success();
}

bool isIntegerElement(Type t) { return isa<IntegerType>(t); }

//===----------------------------------------------------------------------===//
// Shape functions by family
//===----------------------------------------------------------------------===//

LogicalResult sameAsInput0(ShapeContext &c) {
  if (c.numInputs() > 0)
    for (unsigned i = 0; i < c.numOutputs(); ++i)
      c.setOutput(i, c.input(0));
  return success();
}

LogicalResult sameAsInput1(ShapeContext &c) {
  c.setOutput(0, c.input(1));
  return success();
}

/// Identity-like ops: input 0's shape, and its value when known.
LogicalResult identity(ShapeContext &c) {
  if (failed(sameAsInput0(c)))
    return failure();
  if (c.numOutputs() == 1 && c.numInputs() >= 1 && c.inputValue(0))
    c.setOutputValue(0, *c.inputValue(0));
  return success();
}

/// Switch: both outputs are its data input, shape and value (the one alive
/// carries it), so that a cond's branches see what the graph passed in.
LogicalResult switchOp(ShapeContext &c) {
  for (unsigned i = 0; i < c.numOutputs(); ++i) {
    c.setOutput(i, c.input(0));
    if (const SmallVector<int64_t> *value = c.inputValue(0))
      c.setOutputValue(i, *value);
  }
  return success();
}

/// IdentityN: output i is input i, shape and value (Keras 3 wraps its
/// custom gradients, swish's among them, in one).
LogicalResult identityN(ShapeContext &c) {
  for (unsigned i = 0; i < c.numOutputs() && i < c.numInputs(); ++i) {
    c.setOutput(i, c.input(i));
    if (const SmallVector<int64_t> *value = c.inputValue(i))
      c.setOutputValue(i, *value);
  }
  return success();
}

LogicalResult broadcastBinary(ShapeContext &c) {
  FailureOr<Shape> out = broadcast(c, c.input(0), c.input(1));
  if (failed(out))
    return failure();
  c.setOutput(0, *out);
  if (!isIntegerElement(c.outputElementType(0)))
    return success();
  OpKind kind = opKindOf(c.getNode());
  auto checked = [](auto op) {
    return [op](int64_t x, int64_t y) -> std::optional<int64_t> {
      return op(x, y);
    };
  };
  if (kind == OpKind::Add || kind == OpKind::AddV2)
    return binaryValue(c, checked([](int64_t x, int64_t y) { return x + y; }));
  if (kind == OpKind::Sub)
    return binaryValue(c, checked([](int64_t x, int64_t y) { return x - y; }));
  if (kind == OpKind::Mul)
    return binaryValue(c, checked([](int64_t x, int64_t y) { return x * y; }));
  if (kind == OpKind::Maximum)
    return binaryValue(c, checked([](int64_t x, int64_t y) { return std::max(x, y); }));
  if (kind == OpKind::Minimum)
    return binaryValue(c, checked([](int64_t x, int64_t y) { return std::min(x, y); }));
  // Comparisons of known integers: 1 or 0 (a SelectV2 may pick a size by
  // one, as TensorFlow's linspace does).
  using Compare = std::function<bool(int64_t, int64_t)>;
  static const std::pair<OpKind, Compare> comparisons[] = {
      {OpKind::Equal, std::equal_to<int64_t>()},
      {OpKind::NotEqual, std::not_equal_to<int64_t>()},
      {OpKind::Less, std::less<int64_t>()},
      {OpKind::LessEqual, std::less_equal<int64_t>()},
      {OpKind::Greater, std::greater<int64_t>()},
      {OpKind::GreaterEqual, std::greater_equal<int64_t>()}};
  for (const auto &[comparison, compare] : comparisons)
    if (kind == comparison)
      return binaryValue(c, [&](int64_t x, int64_t y) -> std::optional<int64_t> {
        return compare(x, y) ? 1 : 0;
      });
  if (kind == OpKind::FloorDiv)
    return binaryValue(c, [](int64_t x, int64_t y) -> std::optional<int64_t> {
      if (y == 0)
        return std::nullopt;
      int64_t q = x / y;
      return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    });
  return success();
}

/// Every input broadcast against the others (SelectV2, Betainc).
LogicalResult broadcastAll(ShapeContext &c) {
  Shape out = c.input(0);
  for (unsigned i = 1; i < c.numInputs(); ++i) {
    FailureOr<Shape> next = broadcast(c, out, c.input(i));
    if (failed(next))
      return failure();
    out = *next;
  }
  c.setOutput(0, out);
  return success();
}

/// SelectV2: the inputs broadcast; its value where the condition is a
/// constant and the chosen values are known (TensorFlow's linspace picks
/// its slices' sizes so, with a constant condition).
LogicalResult selectV2(ShapeContext &c) {
  if (failed(broadcastAll(c)))
    return failure();
  // The condition: a bool Const's or a known comparison's 1s and 0s.
  SmallVector<bool> chosen;
  if (const auto *known = c.inputValue(0))
    for (int64_t v : *known)
      chosen.push_back(v != 0);
  const auto *a = c.inputValue(1), *b = c.inputValue(2);
  if (chosen.empty() || !a || !b)
    return success();
  size_t n = std::max({chosen.size(), a->size(), b->size()});
  auto at = [&](auto &values, size_t i) { return values[values.size() == 1 ? 0 : i]; };
  for (size_t size : {chosen.size(), a->size(), b->size()})
    if (size != 1 && size != n)
      return success();
  SmallVector<int64_t> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(at(chosen, i) ? at(*a, i) : at(*b, i));
  c.setOutputValue(0, out);
  return success();
}

/// EncodePng: a string per image of [..., height, width, channels].
LogicalResult encodePng(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (!in.ranked)
    return success();
  if (in.rank() < 3)
    return c.error("images of rank " + std::to_string(in.rank()) +
                   ": expected [..., height, width, channels]");
  c.setOutput(0, Shape::of(ArrayRef<int64_t>(in.dims).drop_back(3)));
  return success();
}

LogicalResult select(ShapeContext &c) {
  Shape out = c.input(1);
  if (out.ranked && c.input(2).ranked) {
    if (out.rank() != c.input(2).rank())
      return c.error("then and else have different ranks");
    for (auto [d, e] : llvm::zip(out.dims, c.input(2).dims))
      if (!mergeDim(d, e))
        return c.error("then " + str(c.input(1)) + " and else " +
                       str(c.input(2)) + " differ");
  } else if (!out.ranked) {
    out = c.input(2);
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult sameAsAllInputs(ShapeContext &c) {
  Shape out = c.input(0);
  for (unsigned i = 1; i < c.numInputs(); ++i) {
    const Shape &in = c.input(i);
    if (!out.ranked) {
      out = in;
      continue;
    }
    if (!in.ranked)
      continue;
    if (in.rank() != out.rank())
      return c.error("inputs have different ranks");
    for (auto [d, e] : llvm::zip(out.dims, in.dims))
      if (!mergeDim(d, e))
        return c.error("inputs " + str(c.input(0)) + " and " + str(in) +
                       " differ");
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult matMul(ShapeContext &c) {
  const Shape &a = c.input(0), &b = c.input(1);
  if (!a.ranked || !b.ranked) {
    c.setOutput(0, Shape::ofRank(2));
    return success();
  }
  if (a.rank() != 2 || b.rank() != 2)
    return c.error("operands must be matrices, got " + str(a) + " and " + str(b));
  bool ta = c.boolAttr("transpose_a"), tb = c.boolAttr("transpose_b");
  int64_t m = a.dims[ta ? 1 : 0], k = a.dims[ta ? 0 : 1];
  int64_t k2 = b.dims[tb ? 1 : 0], n = b.dims[tb ? 0 : 1];
  if (!mergeDim(k, k2))
    return c.error("inner dimensions of " + str(a) + " and " + str(b) +
                   " do not match");
  c.setOutput(0, Shape::of({m, n}));
  return success();
}

LogicalResult batchMatMul(ShapeContext &c) {
  const Shape &a = c.input(0), &b = c.input(1);
  if (!a.ranked || !b.ranked)
    return success();
  if (a.rank() < 2 || b.rank() < 2)
    return c.error("operands must have rank >= 2");
  bool adjX = c.boolAttr("adj_x"), adjY = c.boolAttr("adj_y");
  int64_t m = a.dims[a.rank() - (adjX ? 1 : 2)], k = a.dims[a.rank() - (adjX ? 2 : 1)];
  int64_t k2 = b.dims[b.rank() - (adjY ? 1 : 2)], n = b.dims[b.rank() - (adjY ? 2 : 1)];
  if (!mergeDim(k, k2))
    return c.error("inner dimensions of " + str(a) + " and " + str(b) +
                   " do not match");
  Shape batchA = Shape::of(ArrayRef<int64_t>(a.dims).drop_back(2));
  Shape batchB = Shape::of(ArrayRef<int64_t>(b.dims).drop_back(2));
  FailureOr<Shape> batch = broadcast(c, batchA, batchB);
  if (failed(batch))
    return failure();
  Shape out = *batch;
  out.dims.push_back(m);
  out.dims.push_back(n);
  c.setOutput(0, out);
  return success();
}

LogicalResult einsum(ShapeContext &c) {
  StringRef equation = c.stringAttr("equation");
  auto [lhs, rhs] = equation.split("->");
  if (!equation.contains("->") || equation.contains("..."))
    return success(); // Implicit outputs and ellipses: left unknown.
  SmallVector<StringRef> operands;
  lhs.split(operands, ',');
  if (operands.size() != c.numInputs())
    return c.error("equation '" + equation + "' does not match the inputs");
  llvm::DenseMap<char, int64_t> sizes;
  for (auto [i, labels] : llvm::enumerate(operands)) {
    const Shape &s = c.input(i);
    if (!s.ranked)
      continue;
    if (static_cast<int64_t>(labels.size()) != s.rank())
      return c.error("equation '" + equation + "': operand " +
                     std::to_string(i) + " has rank " + std::to_string(s.rank()));
    for (auto [label, d] : llvm::zip(labels, s.dims)) {
      auto [it, inserted] = sizes.try_emplace(label, d);
      if (!inserted && !mergeDim(it->second, d))
        return c.error("equation '" + equation + "': label '" +
                       std::string(1, label) + "' has two sizes");
    }
  }
  Shape out = Shape::ofRank(rhs.size());
  for (auto [i, label] : llvm::enumerate(rhs)) {
    auto it = sizes.find(label);
    if (it != sizes.end())
      out.dims[i] = it->second;
  }
  c.setOutput(0, out);
  return success();
}

/// Spatial output size of a window op.
int64_t windowOutput(int64_t in, int64_t window, int64_t stride,
                     int64_t dilation, StringRef padding, int64_t padBefore,
                     int64_t padAfter) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(window))
    return kUnknown;
  int64_t effective = (window - 1) * dilation + 1;
  if (padding == "SAME")
    return (in + stride - 1) / stride;
  if (padding == "EXPLICIT")
    in += padBefore + padAfter;
  return in < effective ? 0 : (in - effective) / stride + 1;
}

/// Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool: NHWC or NCHW.
LogicalResult window2D(ShapeContext &c, bool isConv, bool isDepthwise) {
  const Shape &input = c.input(0);
  if (!input.ranked) {
    c.setOutput(0, Shape::ofRank(4));
    return success();
  }
  if (input.rank() != 4)
    return c.error("input must have rank 4, got " + str(input));
  bool nchw = c.stringAttr("data_format") == "NCHW";
  unsigned h = nchw ? 2 : 1, w = nchw ? 3 : 2, ch = nchw ? 1 : 3;
  SmallVector<int64_t> strides = c.intListAttr("strides");
  SmallVector<int64_t> dilations = c.intListAttr("dilations");
  if (strides.size() != 4)
    return c.error("strides must have 4 values");
  if (dilations.size() != 4)
    dilations.assign(4, 1);
  int64_t kh, kw, outChannels;
  if (isConv) {
    const Shape &filter = c.input(1);
    if (!filter.ranked) {
      c.setOutput(0, Shape::ofRank(4));
      return success();
    }
    if (filter.rank() != 4)
      return c.error("filter must have rank 4, got " + str(filter));
    kh = filter.dims[0];
    kw = filter.dims[1];
    int64_t inChannels = input.dims[ch];
    if (!mergeDim(inChannels, isDepthwise ? filter.dims[2] : kUnknown) ||
        (!isDepthwise && !ShapedType::isDynamic(inChannels) &&
         !ShapedType::isDynamic(filter.dims[2]) &&
         inChannels % filter.dims[2] != 0))
      return c.error("input channels of " + str(input) +
                     " do not match filter " + str(filter));
    outChannels = isDepthwise
                      ? (ShapedType::isDynamic(filter.dims[2]) ||
                                 ShapedType::isDynamic(filter.dims[3])
                             ? kUnknown
                             : filter.dims[2] * filter.dims[3])
                      : filter.dims[3];
  } else {
    SmallVector<int64_t> ksize = c.intListAttr("ksize");
    if (ksize.size() != 4)
      return c.error("ksize must have 4 values");
    kh = ksize[h];
    kw = ksize[w];
    outChannels = input.dims[ch];
  }
  StringRef padding = c.stringAttr("padding");
  SmallVector<int64_t> pads = c.intListAttr("explicit_paddings");
  auto pad = [&](unsigned dim, unsigned side) {
    return pads.size() == 8 ? pads[2 * dim + side] : 0;
  };
  Shape out = input;
  out.dims[h] = windowOutput(input.dims[h], kh, strides[h], dilations[h],
                             padding, pad(h, 0), pad(h, 1));
  out.dims[w] = windowOutput(input.dims[w], kw, strides[w], dilations[w],
                             padding, pad(w, 0), pad(w, 1));
  out.dims[ch] = outChannels;
  c.setOutput(0, out);
  return success();
}

/// Conv3D, MaxPool3D and AvgPool3D on NDHWC: windows over d, h and w.
static LogicalResult window3D(ShapeContext &c, bool isConv) {
  const Shape &input = c.input(0);
  if (!input.ranked) {
    c.setOutput(0, Shape::ofRank(5));
    return success();
  }
  if (input.rank() != 5)
    return c.error("input must have rank 5, got " + str(input));
  if (c.stringAttr("data_format") == "NCDHW")
    return success();
  SmallVector<int64_t> strides = c.intListAttr("strides");
  SmallVector<int64_t> dilations = c.intListAttr("dilations");
  if (strides.size() != 5)
    return c.error("strides must have 5 values");
  if (dilations.size() != 5)
    dilations.assign(5, 1);
  SmallVector<int64_t> window(5, 1);
  int64_t outChannels = input.dims[4];
  if (isConv) {
    const Shape &filter = c.input(1);
    if (!filter.ranked) {
      c.setOutput(0, Shape::ofRank(5));
      return success();
    }
    if (filter.rank() != 5)
      return c.error("filter must have rank 5, got " + str(filter));
    int64_t inChannels = input.dims[4];
    if (!mergeDim(inChannels, filter.dims[3]))
      return c.error("input channels of " + str(input) +
                     " do not match filter " + str(filter));
    for (unsigned d = 0; d < 3; ++d)
      window[d + 1] = filter.dims[d];
    outChannels = filter.dims[4];
  } else {
    window = c.intListAttr("ksize");
    if (window.size() != 5)
      return c.error("ksize must have 5 values");
  }
  Shape out = input;
  for (unsigned d = 1; d <= 3; ++d)
    out.dims[d] = windowOutput(input.dims[d], window[d], strides[d],
                               dilations[d], c.stringAttr("padding"), 0, 0);
  out.dims[4] = outChannels;
  c.setOutput(0, out);
  return success();
}

/// Dilation2D: a window of the filter's [rows, cols] at `rates`, depth
/// kept.
LogicalResult dilation2D(ShapeContext &c) {
  const Shape &input = c.input(0), &filter = c.input(1);
  if (!input.ranked || !filter.ranked) {
    c.setOutput(0, Shape::ofRank(4));
    return success();
  }
  if (input.rank() != 4 || filter.rank() != 3)
    return c.error("input must have rank 4 and filter rank 3, got " +
                   str(input) + " and " + str(filter));
  SmallVector<int64_t> strides = c.intListAttr("strides");
  SmallVector<int64_t> rates = c.intListAttr("rates");
  if (strides.size() != 4 || rates.size() != 4)
    return c.error("strides and rates must have 4 values");
  int64_t depth = input.dims[3];
  if (!mergeDim(depth, filter.dims[2]))
    return c.error("input depth of " + str(input) + " does not match filter " +
                   str(filter));
  Shape out = input;
  for (unsigned d = 1; d <= 2; ++d)
    out.dims[d] = windowOutput(input.dims[d], filter.dims[d - 1], strides[d],
                               rates[d], c.stringAttr("padding"), 0, 0);
  out.dims[3] = depth;
  c.setOutput(0, out);
  return success();
}

LogicalResult conv3D(ShapeContext &c) { return window3D(c, true); }
LogicalResult pool3D(ShapeContext &c) { return window3D(c, false); }

LogicalResult conv2D(ShapeContext &c) { return window2D(c, true, false); }
LogicalResult depthwiseConv2D(ShapeContext &c) {
  return window2D(c, true, true);
}
LogicalResult pool2D(ShapeContext &c) { return window2D(c, false, false); }

/// The per-channel vector of a batch norm's input x (NHWC or NCHW).
Shape batchNormChannels(ShapeContext &c, const Shape &x) {
  Shape channels = Shape::ofRank(1);
  if (x.ranked && x.rank() == 4) {
    bool nchw = c.stringAttr("data_format") == "NCHW";
    channels.dims[0] = x.dims[nchw ? 1 : 3];
  }
  return channels;
}

LogicalResult fusedBatchNorm(ShapeContext &c) {
  c.setOutput(0, c.input(0));
  Shape channels = batchNormChannels(c, c.input(0));
  for (unsigned i = 1; i < c.numOutputs(); ++i)
    c.setOutput(i, channels);
  // Reserve space 3 of V3 is opaque; TensorFlow's CPU kernel leaves it
  // empty.
  if (c.numOutputs() == 6)
    c.setOutput(5, Shape::vector(0));
  return success();
}

/// UnsortedSegmentSum: [num_segments] + data's dims after segment_ids'.
/// The segment ops: [segments] + the rows' shape. Segments are
/// num_segments (output_dim0 for the gradients) where the op has it, else
/// one more than the last id, when the ids are known. A row is data's
/// shape after the ids' dims (the unsorted ops), or after its first.
LogicalResult segmentReduction(ShapeContext &c) {
  std::optional<SegmentForm> form = segmentFormOf(opKindOf(c.getNode()));
  unsigned idsInput = form->idsOperand();
  const Shape &data = c.input(0), &ids = c.input(idsInput);
  if (!data.ranked || !ids.ranked)
    return success();
  int64_t skipped = form->sparse ? 1 : ids.rank();
  if (skipped > data.rank())
    return c.error("segment_ids " + str(ids) + " have more dims than data " +
                   str(data));
  Shape out = Shape::ofRank(1 + data.rank() - skipped);
  out.dims[0] = kUnknown;
  if (form->counted) {
    if (const auto *segments = c.inputValue(idsInput + 1);
        segments && segments->size() == 1)
      out.dims[0] = (*segments)[0];
  } else if (const auto *values = c.inputValue(idsInput)) {
    out.dims[0] = values->empty() ? 0 : values->back() + 1;
  }
  for (int64_t d = skipped; d < data.rank(); ++d)
    out.dims[1 + d - skipped] = data.dims[d];
  c.setOutput(0, out);
  return success();
}

/// The ops of diagonals (diagonalFormOf), as TensorFlow's shape functions
/// size them: a band of upper - lower + 1 diagonals is a dimension of its
/// own unless it is one diagonal.
LogicalResult diagonals(ShapeContext &c) {
  DiagonalForm form = *diagonalFormOf(opKindOf(c.getNode()));
  const Shape &in = c.input(0);
  if (form.mode == DiagonalForm::Set) {
    c.setOutput(0, in);
    return success();
  }
  if (!in.ranked)
    return success();
  if (form.ofTensor) {
    Shape out = in;
    if (form.mode == DiagonalForm::Make)
      out.dims.append(in.dims.begin(), in.dims.end());
    else if (in.rank() % 2)
      return c.error("DiagPart needs an even rank, not " + str(in));
    else
      out.dims.resize(in.rank() / 2);
    c.setOutput(0, out);
    return success();
  }
  int64_t lower = 0, upper = 0;
  if (form.kOperand >= 0) {
    const auto *k = c.inputValue(form.kOperand);
    if (!k || k->empty() || k->size() > 2)
      return success();
    lower = k->front();
    upper = k->back();
  }
  int64_t bands = upper - lower + 1;
  if (form.mode == DiagonalForm::Part) {
    if (in.rank() < 2)
      return c.error("needs a matrix, not " + str(in));
    int64_t rows = in.dims[in.rank() - 2], cols = in.dims.back();
    Shape out = Shape::of(ArrayRef(in.dims).drop_back(2));
    if (bands > 1)
      out.dims.push_back(bands);
    out.dims.push_back(ShapedType::isDynamic(rows) || ShapedType::isDynamic(cols)
                           ? kUnknown
                           : std::min(rows + std::min<int64_t>(upper, 0),
                                      cols - std::max<int64_t>(lower, 0)));
    c.setOutput(0, out);
    return success();
  }
  // Make: num_rows and num_cols, -1 for the least that holds the band.
  int64_t length = in.rank() ? in.dims.back() : kUnknown;
  Shape out = Shape::of(ArrayRef(in.dims).drop_back(bands > 1 ? 2 : 1));
  int64_t rows = -1, cols = -1;
  if (form.kOperand >= 0) {
    const auto *numRows = c.inputValue(2), *numCols = c.inputValue(3);
    if (!numRows || !numCols)
      return success();
    rows = (*numRows)[0];
    cols = (*numCols)[0];
  }
  int64_t fewestRows = length - std::min<int64_t>(upper, 0);
  int64_t fewestCols = length + std::max<int64_t>(lower, 0);
  if (rows == -1 && cols == -1)
    rows = cols = std::max(fewestRows, fewestCols);
  else if (rows == -1)
    rows = fewestRows;
  else if (cols == -1)
    cols = fewestCols;
  if (ShapedType::isDynamic(length))
    rows = cols = kUnknown;
  out.dims.push_back(rows);
  out.dims.push_back(cols);
  c.setOutput(0, out);
  return success();
}

/// FakeQuantWithMinMaxVars(PerChannel)Gradient: the inputs' gradient,
/// then min's and max's (their shapes).
LogicalResult fakeQuantGradient(ShapeContext &c) {
  c.setOutput(0, c.input(1));
  c.setOutput(1, c.input(2));
  c.setOutput(2, c.input(3));
  return success();
}

/// The linear algebra ops on [..., m, n] matrices: decompositions keep
/// the shape, determinants drop the matrix dims, solves take the
/// right-hand sides'; Qr, Svd and SelfAdjointEigV2 as TensorFlow sizes
/// their outputs (a vector output not computed is [0]).
LogicalResult linearAlgebra(ShapeContext &c) {
  OpKind kind = opKindOf(c.getNode());
  const Shape &in = c.input(0);
  if (kind == OpKind::MatrixSolve || kind == OpKind::MatrixTriangularSolve) {
    c.setOutput(0, c.input(1));
    return success();
  }
  if (!in.ranked)
    return success();
  if (in.rank() < 2)
    return c.error("needs matrices, not " + str(in));
  int64_t m = in.dims[in.rank() - 2], n = in.dims.back();
  Shape batch = Shape::of(ArrayRef(in.dims).drop_back(2));
  auto with = [&](std::initializer_list<int64_t> dims) {
    Shape out = batch;
    out.dims.append(dims.begin(), dims.end());
    return out;
  };
  int64_t fewer = ShapedType::isDynamic(m) || ShapedType::isDynamic(n)
                      ? kUnknown
                      : std::min(m, n);
  bool full = c.boolAttr("full_matrices");
  switch (kind) {
  case OpKind::MatrixDeterminant:
    c.setOutput(0, batch);
    break;
  case OpKind::LogMatrixDeterminant:
    c.setOutput(0, batch);
    c.setOutput(1, batch);
    break;
  case OpKind::Qr:
    c.setOutput(0, with({m, full ? m : fewer}));
    c.setOutput(1, with({full ? m : fewer, n}));
    break;
  case OpKind::Svd:
    c.setOutput(0, with({fewer}));
    if (c.boolAttr("compute_uv", true)) {
      c.setOutput(1, with({m, full ? m : fewer}));
      c.setOutput(2, with({n, full ? n : fewer}));
    } else {
      c.setOutput(1, Shape::of({0}));
      c.setOutput(2, Shape::of({0}));
    }
    break;
  case OpKind::SelfAdjointEigV2:
    c.setOutput(0, with({n}));
    c.setOutput(1, c.boolAttr("compute_v", true) ? in : Shape::of({0}));
    break;
  default:
    c.setOutput(0, in);
  }
  return success();
}

/// FusedBatchNormGrad/V2/V3: x's shape, then the per-channel gradients of
/// scale and offset, then two opaque scalars (as TensorFlow's CPU kernel
/// allocates them).
LogicalResult fusedBatchNormGrad(ShapeContext &c) {
  c.setOutput(0, c.input(1));
  Shape channels = batchNormChannels(c, c.input(1));
  c.setOutput(1, channels);
  c.setOutput(2, channels);
  for (unsigned i = 3; i < c.numOutputs(); ++i)
    c.setOutput(i, Shape::scalar());
  return success();
}

/// The gradients of windowed ops whose output shape is a constant operand:
/// Conv2DBackpropInput and its depthwise form (input_sizes, operand 0),
/// Conv2DBackpropFilter and its depthwise form (filter_sizes, operand 1),
/// AvgPoolGrad (orig_input_shape, operand 0); the 3-D convolution's
/// (5 values).
LogicalResult shapeFromOperand(ShapeContext &c, unsigned operand) {
  OpKind kind = opKindOf(c.getNode());
  size_t rank = kind == OpKind::Conv3DBackpropInputV2 ||
                        kind == OpKind::Conv3DBackpropFilterV2 ||
                        kind == OpKind::AvgPool3DGrad
                    ? 5
                    : 4;
  if (const auto *dims = c.inputValue(operand)) {
    if (dims->size() != rank)
      return c.error("the output shape operand must have " +
                     std::to_string(rank) + " values");
    c.setOutput(0, Shape::of(*dims));
  } else {
    c.setOutput(0, Shape::ofRank(int64_t(rank)));
  }
  return success();
}

LogicalResult shapeInInput0(ShapeContext &c) { return shapeFromOperand(c, 0); }
LogicalResult shapeInInput1(ShapeContext &c) { return shapeFromOperand(c, 1); }

/// ScatterNd: the shape its third input gives.
LogicalResult scatterNd(ShapeContext &c) {
  if (const auto *dims = c.inputValue(2)) {
    if (llvm::any_of(*dims, [](int64_t d) { return d < 0; }))
      return c.error("the shape has a negative dimension");
    c.setOutput(0, Shape::of(*dims));
  }
  return success();
}

LogicalResult reshape(ShapeContext &c) {
  const SmallVector<int64_t> *target = c.inputValue(1);
  const Shape &shapeArg = c.input(1);
  if (!target) {
    // Some of the target's dimensions may still be known (a gradient's
    // Reshape to [Size(indices), 4]).
    std::optional<SmallVector<int64_t>> partial = c.inputAsShape(1);
    if (partial && llvm::all_of(*partial, [](int64_t d) {
          return d >= 0 || d == kUnknown;
        })) {
      c.setOutput(0, Shape::of(*partial));
      return success();
    }
    if (shapeArg.isStatic() && shapeArg.rank() == 1)
      c.setOutput(0, Shape::ofRank(shapeArg.dims[0]));
    return success();
  }
  Shape out = Shape::of(*target);
  int64_t known = 1, unknownAt = -1;
  for (auto [i, d] : llvm::enumerate(out.dims)) {
    if (d == -1) {
      if (unknownAt >= 0)
        return c.error("shape has more than one -1");
      unknownAt = i;
      d = kUnknown;
    } else if (d < 0) {
      return c.error("shape has negative size " + std::to_string(d));
    } else {
      known *= d;
    }
  }
  int64_t total = c.input(0).numElements();
  if (total >= 0) {
    if (unknownAt >= 0) {
      if (known == 0 || total % known != 0)
        return c.error("cannot reshape " + str(c.input(0)) + " to " +
                       str(Shape::of(*target)));
      out.dims[unknownAt] = total / known;
    } else if (known != total) {
      return c.error("cannot reshape " + str(c.input(0)) + " (" +
                     std::to_string(total) + " elements) to " + str(out));
    }
  }
  c.setOutput(0, out);
  if (c.inputValue(0))
    c.setOutputValue(0, *c.inputValue(0));
  return success();
}

LogicalResult transpose(ShapeContext &c) {
  const Shape &in = c.input(0);
  const SmallVector<int64_t> *perm = c.inputValue(1);
  if (!perm) {
    if (in.ranked)
      c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  if (!in.ranked) {
    c.setOutput(0, Shape::ofRank(perm->size()));
    return success();
  }
  if (static_cast<int64_t>(perm->size()) != in.rank())
    return c.error("perm has " + std::to_string(perm->size()) +
                   " values for rank " + std::to_string(in.rank()));
  Shape out = Shape::ofRank(in.rank());
  for (auto [i, p] : llvm::enumerate(*perm)) {
    std::optional<int64_t> axis = normalizeAxis(p, in.rank());
    if (!axis)
      return c.error("perm value " + std::to_string(p) + " out of range");
    out.dims[i] = in.dims[*axis];
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult concatV2(ShapeContext &c) {
  unsigned n = c.numInputs() - 1;
  const SmallVector<int64_t> *axisValue = c.inputValue(n);
  int64_t rank = -1;
  for (unsigned i = 0; i < n; ++i)
    if (c.input(i).ranked)
      rank = c.input(i).rank();
  if (rank < 0)
    return success();
  if (!axisValue || axisValue->size() != 1) {
    c.setOutput(0, Shape::ofRank(rank));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis((*axisValue)[0], rank);
  if (!axis)
    return c.error("axis " + std::to_string((*axisValue)[0]) +
                   " out of range for rank " + std::to_string(rank));
  Shape out = Shape::ofRank(rank);
  out.dims[*axis] = 0;
  SmallVector<int64_t> values;
  bool allValues = true;
  for (unsigned i = 0; i < n; ++i) {
    const Shape &in = c.input(i);
    if (!in.ranked) {
      out.dims[*axis] = kUnknown;
      allValues = false;
      continue;
    }
    if (in.rank() != rank)
      return c.error("inputs have different ranks");
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *axis) {
        if (!ShapedType::isDynamic(out.dims[d]))
          out.dims[d] = ShapedType::isDynamic(in.dims[d]) ? kUnknown
                                                          : out.dims[d] + in.dims[d];
      } else if (!mergeDim(out.dims[d], in.dims[d])) {
        return c.error("inputs " + str(c.input(0)) + " and " + str(in) +
                       " differ outside the axis");
      }
    }
    if (const auto *v = c.inputValue(i))
      values.append(v->begin(), v->end());
    else
      allValues = false;
  }
  c.setOutput(0, out);
  if (allValues && rank == 1)
    c.setOutputValue(0, values);
  return success();
}

LogicalResult pack(ShapeContext &c) {
  Shape element = c.input(0);
  for (unsigned i = 1; i < c.numInputs(); ++i)
    element = element.ranked ? element : c.input(i);
  if (!element.ranked)
    return success();
  int64_t rank = element.rank() + 1;
  std::optional<int64_t> axis = normalizeAxis(c.intAttr("axis"), rank);
  if (!axis)
    return c.error("axis out of range");
  Shape out = element;
  out.dims.insert(out.dims.begin() + *axis, c.numInputs());
  c.setOutput(0, out);
  SmallVector<int64_t> values;
  for (unsigned i = 0; i < c.numInputs(); ++i) {
    const auto *v = c.inputValue(i);
    if (!v || v->size() != 1 || element.rank() != 0)
      return success();
    values.push_back((*v)[0]);
  }
  c.setOutputValue(0, values);
  return success();
}

LogicalResult unpack(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (!in.ranked)
    return success();
  std::optional<int64_t> axis = normalizeAxis(c.intAttr("axis"), in.rank());
  if (!axis)
    return c.error("axis out of range");
  Shape out = in;
  out.dims.erase(out.dims.begin() + *axis);
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    c.setOutput(i, out);
  return success();
}

/// Squeeze with squeeze_dims, ExpandDims with its axis input.
LogicalResult squeeze(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (!in.ranked)
    return success();
  SmallVector<int64_t> axes = c.intListAttr("squeeze_dims");
  Shape out;
  out.ranked = true;
  for (auto [i, d] : llvm::enumerate(in.dims)) {
    bool listed = llvm::any_of(axes, [&](int64_t a) {
      return normalizeAxis(a, in.rank()) == static_cast<int64_t>(i);
    });
    if (axes.empty() ? d == 1 : listed) {
      if (listed && !ShapedType::isDynamic(d) && d != 1)
        return c.error("cannot squeeze dimension " + std::to_string(i) +
                       " of size " + std::to_string(d));
      continue;
    }
    if (axes.empty() && ShapedType::isDynamic(d))
      return success(); // Whether it is squeezed is unknown.
    out.dims.push_back(d);
  }
  c.setOutput(0, out);
  if (c.inputValue(0))
    c.setOutputValue(0, *c.inputValue(0));
  return success();
}

LogicalResult expandDims(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *axisValue = c.inputValue(1);
  if (!in.ranked)
    return success();
  if (!axisValue || axisValue->size() != 1) {
    c.setOutput(0, Shape::ofRank(in.rank() + 1));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis((*axisValue)[0], in.rank() + 1);
  if (!axis)
    return c.error("axis out of range");
  Shape out = in;
  out.dims.insert(out.dims.begin() + *axis, 1);
  c.setOutput(0, out);
  if (c.inputValue(0))
    c.setOutputValue(0, *c.inputValue(0));
  return success();
}

/// Reductions over the axes of input 1.
LogicalResult reduction(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *axes = c.inputValue(1);
  bool keepDims = c.boolAttr("keep_dims");
  if (!in.ranked)
    return success();
  if (!axes) {
    if (keepDims)
      c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  SmallVector<bool> reduced(in.rank(), false);
  for (int64_t a : *axes) {
    std::optional<int64_t> axis = normalizeAxis(a, in.rank());
    if (!axis)
      return c.error("reduction axis " + std::to_string(a) +
                     " out of range for " + str(in));
    reduced[*axis] = true;
  }
  Shape out;
  out.ranked = true;
  for (auto [i, d] : llvm::enumerate(in.dims))
    if (!reduced[i])
      out.dims.push_back(d);
    else if (keepDims)
      out.dims.push_back(1);
  c.setOutput(0, out);
  // Sum and Prod of a known integer vector.
  OpKind kind = opKindOf(c.getNode());
  const auto *value = c.inputValue(0);
  if (value && in.rank() == 1 && out.rank() == 0 &&
      (kind == OpKind::Prod || kind == OpKind::Sum)) {
    int64_t acc = kind == OpKind::Prod ? 1 : 0;
    for (int64_t v : *value)
      acc = kind == OpKind::Prod ? acc * v : acc + v;
    c.setOutputValue(0, {acc});
  }
  return success();
}

LogicalResult argMinMax(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *axisValue = c.inputValue(1);
  if (!in.ranked)
    return success();
  if (!axisValue || axisValue->size() != 1) {
    c.setOutput(0, Shape::ofRank(in.rank() - 1));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis((*axisValue)[0], in.rank());
  if (!axis)
    return c.error("axis out of range");
  Shape out = in;
  out.dims.erase(out.dims.begin() + *axis);
  c.setOutput(0, out);
  return success();
}

LogicalResult shapeOp(ShapeContext &c) {
  for (unsigned i = 0; i < c.numOutputs(); ++i) {
    const Shape &in = c.input(i);
    c.setOutput(i, in.ranked ? Shape::vector(in.rank()) : Shape::ofRank(1));
    if (in.isStatic())
      c.setOutputValue(i, SmallVector<int64_t>(in.dims.begin(), in.dims.end()));
  }
  return success();
}

LogicalResult sizeOp(ShapeContext &c) {
  c.setOutput(0, Shape::scalar());
  if (c.input(0).isStatic())
    c.setOutputValue(0, {c.input(0).numElements()});
  return success();
}

LogicalResult rankOp(ShapeContext &c) {
  c.setOutput(0, Shape::scalar());
  if (c.input(0).ranked)
    c.setOutputValue(0, {c.input(0).rank()});
  return success();
}

LogicalResult fill(ShapeContext &c) {
  const auto *dims = c.inputValue(0);
  if (dims) {
    c.setOutput(0, Shape::of(*dims));
    // A small integer fill of known value.
    const auto *value = c.inputValue(1);
    int64_t n = Shape::of(*dims).numElements();
    if (value && value->size() == 1 && n >= 0 &&
        n <= static_cast<int64_t>(kMaxTrackedValue) && dims->size() <= 1)
      c.setOutputValue(0, SmallVector<int64_t>(n, (*value)[0]));
  } else if (c.input(0).isStatic() && c.input(0).rank() == 1) {
    c.setOutput(0, Shape::ofRank(c.input(0).dims[0]));
  }
  return success();
}

/// ResizeBilinear/ResizeNearestNeighbor: [N, size[0], size[1], C].
LogicalResult resize(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *size = c.inputValue(1);
  if (in.ranked && in.rank() != 4)
    return c.error("images must be rank 4, got " + str(in));
  Shape out = Shape::ofRank(4);
  if (in.ranked) {
    out.dims[0] = in.dims[0];
    out.dims[3] = in.dims[3];
  }
  if (size && size->size() == 2) {
    out.dims[1] = (*size)[0];
    out.dims[2] = (*size)[1];
  }
  c.setOutput(0, out);
  return success();
}

/// CropAndResize: [boxes, crop_height, crop_width, depth].
LogicalResult cropAndResize(ShapeContext &c) {
  const Shape &image = c.input(0), &boxes = c.input(1);
  const auto *size = c.inputValue(3);
  if (image.ranked && image.rank() != 4)
    return c.error("images must be rank 4, got " + str(image));
  Shape out = Shape::ofRank(4);
  if (boxes.ranked && boxes.rank() == 2)
    out.dims[0] = boxes.dims[0];
  if (size && size->size() == 2) {
    out.dims[1] = (*size)[0];
    out.dims[2] = (*size)[1];
  }
  if (image.ranked)
    out.dims[3] = image.dims[3];
  c.setOutput(0, out);
  return success();
}

/// BroadcastArgs: the shape two shapes broadcast to.
LogicalResult broadcastArgs(ShapeContext &c) {
  const auto *a = c.inputValue(0), *b = c.inputValue(1);
  if (!a || !b) {
    c.setOutput(0, Shape::ofRank(1));
    return success();
  }
  size_t rank = std::max(a->size(), b->size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a->size() ? 1 : (*a)[i - (rank - a->size())];
    int64_t y = i < rank - b->size() ? 1 : (*b)[i - (rank - b->size())];
    if (x != y && x != 1 && y != 1)
      return c.error("shapes do not broadcast");
    out[i] = x == 1 ? y : x;
  }
  c.setOutput(0, Shape::vector(rank));
  c.setOutputValue(0, out);
  return success();
}

/// ConcatOffset: where each of the shapes starts in their concatenation
/// along concat_dim.
LogicalResult concatOffset(ShapeContext &c) {
  for (unsigned i = 0; i + 1 < c.numInputs(); ++i)
    c.setOutput(i, c.input(i + 1));
  const auto *axis = c.inputValue(0);
  if (!axis || axis->size() != 1)
    return success();
  int64_t offset = 0;
  for (unsigned i = 0; i + 1 < c.numInputs(); ++i) {
    const auto *shape = c.inputValue(i + 1);
    if (!shape)
      return success();
    int64_t rank = shape->size(), dim = (*axis)[0] < 0 ? (*axis)[0] + rank
                                                       : (*axis)[0];
    if (dim < 0 || dim >= rank)
      return c.error("concat_dim is out of range");
    SmallVector<int64_t> at(rank, 0);
    at[dim] = offset;
    offset += (*shape)[dim];
    c.setOutputValue(i, at);
  }
  return success();
}

/// Bincount ([size]) and DenseBincount (the input's rows, [size] each).
LogicalResult bincount(ShapeContext &c) {
  const auto *size = c.inputValue(1);
  int64_t bins = size && size->size() == 1 ? (*size)[0] : kUnknown;
  const Shape &in = c.input(0);
  Shape out = Shape::of({bins});
  if (opKindOf(c.getNode()) == OpKind::DenseBincount && in.ranked &&
      in.rank() == 2)
    out = Shape::of({in.dims[0], bins});
  c.setOutput(0, out);
  return success();
}

/// RFFT and IRFFT (1D, 2D, 3D): the input's shape with the transformed
/// dimensions fft_length, the last one halved plus one on the complex
/// side (RFFT's output).
LogicalResult fourier(ShapeContext &c) {
  const Shape &in = c.input(0);
  int64_t axes = fourierAxes(c.getNode());
  if (!in.ranked)
    return success();
  if (in.rank() < axes)
    return c.error("needs at least " + std::to_string(axes) +
                   " dimensions, got " + in.str());
  const auto *lengths = c.inputValue(1);
  if (lengths && int64_t(lengths->size()) != axes)
    return c.error("fft_length has " + std::to_string(lengths->size()) +
                   " elements, not " + std::to_string(axes));
  Shape out = in;
  for (int64_t i = 0; i < axes; ++i) {
    int64_t length = lengths ? (*lengths)[i] : kUnknown;
    if (length < 0 && lengths)
      return c.error("fft_length must not be negative");
    out.dims[in.rank() - axes + i] = length;
  }
  bool realToComplex = tfg::getOpType(c.getNode()).starts_with("RFFT");
  if (realToComplex && lengths)
    out.dims.back() = lengths->back() / 2 + 1;
  c.setOutput(0, out);
  return success();
}

/// TopKV2: the input's shape with the last dim k, for both outputs.
LogicalResult topK(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *k = c.inputValue(1);
  if (!in.ranked || in.rank() < 1)
    return success();
  Shape out = in;
  out.dims.back() = k && k->size() == 1 ? (*k)[0] : kUnknown;
  if (k && k->size() == 1 && !ShapedType::isDynamic(in.dims.back()) &&
      (*k)[0] > in.dims.back())
    return c.error("k = " + std::to_string((*k)[0]) +
                   " exceeds the last dimension, " + std::to_string(in.dims.back()));
  c.setOutput(0, out);
  c.setOutput(1, out);
  return success();
}

/// RestoreV2: the tensors' shapes are in the checkpoint, not the graph; a
/// saver assigns each to its variable (through Identity for resource
/// variables), whose declared shape it must have. An output with no such
/// use stays unknown.
LogicalResult restoreV2(ShapeContext &c) {
  for (auto [port, result] : llvm::enumerate(tfg::getDataResults(c.getNode()))) {
    std::optional<Shape> shape;
    bool agreed = true;
    SmallVector<Value> worklist = {result};
    while (!worklist.empty() && agreed) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (!tfg::isNode(user))
          continue;
        OpKind kind = opKindOf(user);
        if (kind == OpKind::Identity) {
          worklist.push_back(user->getResult(0));
          continue;
        }
        if ((kind != OpKind::Assign && kind != OpKind::AssignVariableOp) ||
            use.getOperandNumber() != 1)
          continue;
        Operation *variable = variableNodeOf(user->getOperand(0));
        auto declared =
            variable ? variable->getAttrOfType<tfg::ShapeAttr>("shape") : nullptr;
        if (!declared || declared.getUnranked())
          continue;
        Shape found = Shape::of(declared.getDims());
        agreed = !shape || shape->dims == found.dims;
        shape = found;
      }
    }
    if (shape && agreed)
      c.setOutput(port, *shape);
  }
  return success();
}

/// StringJoin: its inputs are scalars or all of one shape.
LogicalResult stringJoin(ShapeContext &c) {
  Shape out = Shape::of({});
  for (unsigned i = 0; i < c.numInputs(); ++i) {
    const Shape &in = c.input(i);
    if (!in.ranked)
      return success();
    if (in.rank() == 0)
      continue;
    if (out.rank() != 0 && out.dims != in.dims)
      return c.error("inputs " + str(out) + " and " + str(in) +
                     " are neither scalars nor of one shape");
    out = in;
  }
  c.setOutput(0, out);
  return success();
}

/// Unique: idx has the input's length; the values as many as are distinct,
/// which only the data decides. A Unique tfc-bound-unique claimed has the
/// input's length, the bound, where its uses do not see the difference
/// (tfc-bound-dynamic-rows gives any other its bound).
LogicalResult unique(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (!in.ranked)
    return success();
  if (in.rank() != 1)
    return c.error("x " + str(in) + " is not a vector");
  c.setOutput(0, c.getNode()->hasAttr(kPadNegativeAttr)
                     ? in
                     : Shape::vector(kUnknown));
  c.setOutput(1, in);
  return success();
}

/// Where: [count, rank], count the input's nonzero elements, which only
/// the data decides (tfc-bound-dynamic-rows gives it its bound).
LogicalResult where(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (in.rank() == 0)
    return c.error("input is a scalar, which TensorFlow's kernel refuses");
  if (in.ranked)
    c.setOutput(0, Shape::of({kUnknown, in.rank()}));
  return success();
}

/// DynamicPartition: each output [?] + data's dimensions past those of
/// partitions, as many rows as only the data decides
/// (tfc-bound-dynamic-rows gives them their bound).
LogicalResult dynamicPartition(ShapeContext &c) {
  const Shape &data = c.input(0), &partitions = c.input(1);
  if (!data.ranked || !partitions.ranked)
    return success();
  if (partitions.rank() > data.rank())
    return c.error("partitions " + str(partitions) + " have more dimensions "
                   "than data " + str(data));
  Shape out = Shape::of({kUnknown});
  llvm::append_range(out.dims, ArrayRef(data.dims).drop_front(partitions.rank()));
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    c.setOutput(i, out);
  return success();
}

/// Whether `indices` is an output of a DynamicPartition of 0, 1, ..., n-1
/// (what embedding_lookup over sharded tables and DynamicPartition's
/// gradient stitch by); n, or -1.
static int64_t partitionedPositions(Value indices) {
  Operation *partition = indices.getDefiningOp();
  if (!partition || opKindOf(partition) != OpKind::DynamicPartition)
    return -1;
  Value positions = tfg::getDataOperands(partition)[0];
  // Range(0, n, 1), reshaped or not, before constant folding makes it a
  // constant: partitioned, n is the number of partitions, which must be
  // as many as the positions.
  Operation *range = positions.getDefiningOp();
  if (range && opKindOf(range) == OpKind::Reshape)
    range = tfg::getDataOperands(range)[0].getDefiningOp();
  if (range && opKindOf(range) == OpKind::Range) {
    OperandRange bounds = tfg::getDataOperands(range);
    auto start = constantInts(bounds[0]), delta = constantInts(bounds[2]);
    auto partitions =
        dyn_cast<RankedTensorType>(tfg::getDataOperands(partition)[1].getType());
    // One position per partition (not rows of several).
    auto shape = dyn_cast<RankedTensorType>(positions.getType());
    bool counting = start && delta && start->size() == 1 && delta->size() == 1 &&
                    (*start)[0] == 0 && (*delta)[0] == 1 && partitions &&
                    partitions.hasStaticShape() && shape &&
                    shape.getShape() == partitions.getShape();
    return counting ? partitions.getNumElements() : -1;
  }
  std::optional<SmallVector<int64_t>> data = constantInts(positions);
  if (!data)
    return -1;
  for (auto [i, v] : llvm::enumerate(*data))
    if (v != int64_t(i))
      return -1;
  return int64_t(data->size());
}

/// DynamicStitch and ParallelDynamicStitch: as many rows as the largest
/// index + 1, each shaped as data's slices past the indices' dimensions.
/// The largest index is known when the indices are constants, or when
/// they are the partitions of 0..n-1 (a stitch of every position: n).
LogicalResult dynamicStitch(ShapeContext &c) {
  unsigned n = c.numInputs() / 2;
  if (n == 0)
    return success();
  int64_t rows = 0;
  for (unsigned i = 0; i < n && rows != kUnknown; ++i) {
    const auto *values = c.inputValue(i);
    if (!values) {
      rows = kUnknown;
      break;
    }
    for (int64_t v : *values)
      rows = std::max(rows, v + 1);
  }
  if (rows == kUnknown) {
    OperandRange operands = tfg::getDataOperands(c.getNode());
    Operation *partition = operands[0].getDefiningOp();
    int64_t positions = partitionedPositions(operands[0]);
    for (unsigned i = 1; i < n && positions >= 0; ++i)
      if (operands[i].getDefiningOp() != partition ||
          partitionedPositions(operands[i]) != positions)
        positions = -1;
    if (positions >= 0)
      rows = positions;
  }
  const Shape &indices = c.input(0), &data = c.input(n);
  if (!indices.ranked || !data.ranked)
    return success();
  if (data.rank() < indices.rank())
    return c.error("data " + str(data) + " has fewer dimensions than indices " +
                   str(indices));
  Shape out = Shape::of({rows});
  llvm::append_range(out.dims, ArrayRef(data.dims).drop_front(indices.rank()));
  c.setOutput(0, out);
  return success();
}

/// NonMaxSuppressionV2-V5: the selected indices (and V5's scores) as many
/// as the data selects, or max_output_size when padded; V4 and V5 also
/// say how many are valid.
LogicalResult nonMaxSuppression(ShapeContext &c) {
  const Shape &boxes = c.input(0);
  if (boxes.ranked && (boxes.rank() != 2 || (boxes.dims[1] != kUnknown &&
                                             boxes.dims[1] != 4)))
    return c.error("boxes " + str(boxes) + " are not [num_boxes, 4]");
  int64_t length = kUnknown;
  auto pad = c.getNode()->getAttrOfType<BoolAttr>("pad_to_max_output_size");
  if (pad && pad.getValue())
    if (const auto *size = c.inputValue(2); size && size->size() == 1)
      length = std::max<int64_t>((*size)[0], 0);
  unsigned selections = opKindOf(c.getNode()) == OpKind::NonMaxSuppressionV5 ? 2 : 1;
  for (unsigned i = 0; i < selections; ++i)
    c.setOutput(i, Shape::vector(length));
  if (c.numOutputs() > selections)
    c.setOutput(selections, Shape::scalar());
  return success();
}

LogicalResult broadcastTo(ShapeContext &c) {
  if (const auto *shape = c.inputValue(1))
    c.setOutput(0, Shape::of(*shape));
  else if (c.input(1).isStatic() && c.input(1).rank() == 1)
    c.setOutput(0, Shape::ofRank(c.input(1).dims[0]));
  return success();
}

LogicalResult tile(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *multiples = c.inputValue(1);
  if (!in.ranked)
    return success();
  if (!multiples) {
    c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  if (static_cast<int64_t>(multiples->size()) != in.rank())
    return c.error("multiples do not match the rank");
  Shape out = in;
  for (auto [d, m] : llvm::zip(out.dims, *multiples))
    if (!ShapedType::isDynamic(d))
      d *= m;
  c.setOutput(0, out);
  return success();
}

/// DepthToSpace and SpaceToDepth (NHWC): blocks of block_size x
/// block_size pixels trade places with groups of channels.
static LogicalResult blockSpace(ShapeContext &c, bool toSpace) {
  const Shape &in = c.input(0);
  int64_t b = c.intAttr("block_size");
  if (b < 2)
    return c.error("block_size must be at least 2");
  if (!in.ranked)
    return success();
  if (in.rank() != 4)
    return c.error("the input must have rank 4");
  Shape out = in;
  auto known = [](int64_t d) { return !ShapedType::isDynamic(d); };
  if (toSpace) {
    if (known(in.dims[3]) && in.dims[3] % (b * b))
      return c.error("the depth " + std::to_string(in.dims[3]) +
                     " is not a multiple of block_size squared");
    for (int d : {1, 2})
      if (known(in.dims[d]))
        out.dims[d] = in.dims[d] * b;
    if (known(in.dims[3]))
      out.dims[3] = in.dims[3] / (b * b);
  } else {
    for (int d : {1, 2}) {
      if (known(in.dims[d]) && in.dims[d] % b)
        return c.error("the height and width must be multiples of block_size");
      if (known(in.dims[d]))
        out.dims[d] = in.dims[d] / b;
    }
    if (known(in.dims[3]))
      out.dims[3] = in.dims[3] * b * b;
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult depthToSpace(ShapeContext &c) { return blockSpace(c, true); }
LogicalResult spaceToDepth(ShapeContext &c) { return blockSpace(c, false); }

/// BatchToSpaceND: the batch split into blocks of the spatial dims, then
/// cropped; SpaceToBatchND the other way, after padding.
static LogicalResult batchSpace(ShapeContext &c, bool toSpace) {
  const Shape &in = c.input(0);
  const auto *block = c.inputValue(1);
  const auto *edges = c.inputValue(2);
  if (!in.ranked)
    return success();
  if (!block || !edges) {
    c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  int64_t m = block->size();
  if (m < 1 || m >= in.rank() || static_cast<int64_t>(edges->size()) != 2 * m)
    return c.error("block_shape and " +
                   std::string(toSpace ? "crops" : "paddings") +
                   " do not match the input's rank");
  int64_t blocks = 1;
  for (int64_t b : *block) {
    if (b < 1)
      return c.error("block_shape must be positive");
    blocks *= b;
  }
  Shape out = in;
  auto known = [](int64_t d) { return !ShapedType::isDynamic(d); };
  if (known(in.dims[0])) {
    if (toSpace && in.dims[0] % blocks)
      return c.error("the batch is not a multiple of the block size");
    out.dims[0] = toSpace ? in.dims[0] / blocks : in.dims[0] * blocks;
  }
  for (int64_t i = 0; i < m; ++i) {
    int64_t d = in.dims[1 + i], b = (*block)[i];
    int64_t before = (*edges)[2 * i], after = (*edges)[2 * i + 1];
    if (before < 0 || after < 0)
      return c.error("crops and paddings must not be negative");
    if (!known(d))
      continue;
    if (toSpace) {
      out.dims[1 + i] = d * b - before - after;
      if (out.dims[1 + i] < 0)
        return c.error("crops are larger than the output");
    } else {
      if ((d + before + after) % b)
        return c.error("the padded spatial size is not a multiple of the block");
      out.dims[1 + i] = (d + before + after) / b;
    }
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult batchToSpaceND(ShapeContext &c) { return batchSpace(c, true); }
LogicalResult spaceToBatchND(ShapeContext &c) { return batchSpace(c, false); }

/// GatherNd: indices [..., k] pick slices params[i0, ..., ik-1]; the
/// output is indices' leading dims, then params' dims after the k-th.
LogicalResult gatherNd(ShapeContext &c) {
  const Shape &params = c.input(0), &indices = c.input(1);
  if (!params.ranked || !indices.ranked)
    return success();
  if (indices.rank() < 1)
    return c.error("indices must have rank 1 or more");
  int64_t k = indices.dims.back();
  if (ShapedType::isDynamic(k))
    return success();
  if (k > params.rank())
    return c.error("indices index " + std::to_string(k) + " dims of a rank " +
                   std::to_string(params.rank()) + " tensor");
  SmallVector<int64_t> dims(indices.dims.begin(), indices.dims.end() - 1);
  dims.append(params.dims.begin() + k, params.dims.end());
  c.setOutput(0, Shape::of(dims));
  return success();
}

LogicalResult pad(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *paddings = c.inputValue(1);
  if (!in.ranked)
    return success();
  if (!paddings) {
    c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  if (static_cast<int64_t>(paddings->size()) != 2 * in.rank())
    return c.error("paddings do not match the rank");
  Shape out = in;
  for (auto [i, d] : llvm::enumerate(out.dims))
    if (!ShapedType::isDynamic(d))
      d += (*paddings)[2 * i] + (*paddings)[2 * i + 1];
  c.setOutput(0, out);
  return success();
}

LogicalResult slice(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *begin = c.inputValue(1), *size = c.inputValue(2);
  if (!size) {
    if (in.ranked)
      c.setOutput(0, Shape::ofRank(in.rank()));
    return success();
  }
  Shape out = Shape::of(*size);
  for (auto [i, d] : llvm::enumerate(out.dims))
    if (d == -1)
      d = begin && in.ranked && !ShapedType::isDynamic(in.dims[i])
              ? in.dims[i] - (*begin)[i]
              : kUnknown;
  c.setOutput(0, out);
  const auto *value = c.inputValue(0);
  if (value && begin && in.rank() == 1 && out.isStatic()) {
    int64_t b = (*begin)[0], n = out.dims[0];
    if (b >= 0 && b + n <= static_cast<int64_t>(value->size()))
      c.setOutputValue(0, SmallVector<int64_t>(value->begin() + b,
                                               value->begin() + b + n));
  }
  return success();
}

/// TensorFlow's StridedSlice, for known begin/end/strides.
LogicalResult stridedSlice(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *beginV = c.inputValue(1), *endV = c.inputValue(2),
             *stridesV = c.inputValue(3);
  if (!in.ranked || !stridesV)
    return success();
  // Indices of the step (x[i] in a loop): the shrunk dimensions leave the
  // output all the same, and the ranges of known ends keep their size.
  OperandRange operands = tfg::getDataOperands(c.getNode());
  SliceIndices begin = sliceIndices(operands[1], stridesV->size(), beginV),
               end = sliceIndices(operands[2], stridesV->size(), endV);
  std::string message;
  FailureOr<StridedSliceSpec> spec = resolveStridedSlice(
      in.dims, begin.values, end.values, *stridesV, c.intAttr("begin_mask"),
      c.intAttr("end_mask"), c.intAttr("ellipsis_mask"),
      c.intAttr("new_axis_mask"), c.intAttr("shrink_axis_mask"), message,
      begin.known, end.known);
  if (failed(spec))
    return c.error(message);
  c.setOutput(0, Shape::of(spec->outputDims));
  if (!beginV || !endV)
    return success();
  // Values of a sliced 1-D known vector (the common shape[1:] and shape[0]).
  const auto *value = c.inputValue(0);
  if (value && in.rank() == 1) {
    const StridedSliceDim &d = spec->dims[0];
    SmallVector<int64_t> sliced;
    for (int64_t i = 0; i < (d.shrink ? 1 : d.count); ++i)
      sliced.push_back((*value)[d.begin + i * d.stride]);
    c.setOutputValue(0, sliced);
  }
  return success();
}

/// StridedSliceGrad: the sliced input's shape, its first input's value.
LogicalResult stridedSliceGrad(ShapeContext &c) {
  if (const auto *dims = c.inputValue(0))
    c.setOutput(0, Shape::of(*dims));
  else if (c.input(0).isStatic() && c.input(0).rank() == 1)
    c.setOutput(0, Shape::ofRank(c.input(0).dims[0]));
  return success();
}

LogicalResult gatherV2(ShapeContext &c) {
  const Shape &params = c.input(0), &indices = c.input(1);
  bool hasAxis = c.numInputs() == 3;
  const auto *axisValue = hasAxis ? c.inputValue(2) : nullptr;
  if (!params.ranked || !indices.ranked || (hasAxis && !axisValue))
    return success();
  int64_t batchDims = c.intAttr("batch_dims");
  std::optional<int64_t> axis =
      normalizeAxis(hasAxis ? (*axisValue)[0] : 0, params.rank());
  if (!axis)
    return c.error("axis out of range");
  if (batchDims < 0)
    batchDims += indices.rank();
  Shape out;
  out.ranked = true;
  out.dims.append(params.dims.begin(), params.dims.begin() + *axis);
  out.dims.append(indices.dims.begin() + batchDims, indices.dims.end());
  out.dims.append(params.dims.begin() + *axis + 1, params.dims.end());
  c.setOutput(0, out);
  const auto *pv = c.inputValue(0), *iv = c.inputValue(1);
  if (pv && iv && params.rank() == 1 && *axis == 0) {
    SmallVector<int64_t> values;
    for (int64_t i : *iv) {
      if (i < 0 || i >= static_cast<int64_t>(pv->size()))
        return success();
      values.push_back((*pv)[i]);
    }
    c.setOutputValue(0, values);
  }
  return success();
}

LogicalResult oneHot(ShapeContext &c) {
  const Shape &indices = c.input(0);
  const auto *depth = c.inputValue(1);
  if (!indices.ranked)
    return success();
  int64_t axis = c.intAttr("axis", -1);
  Shape out = indices;
  int64_t position = axis == -1 ? indices.rank() : axis;
  if (position < 0 || position > indices.rank())
    return c.error("axis out of range");
  out.dims.insert(out.dims.begin() + position, depth ? (*depth)[0] : kUnknown);
  c.setOutput(0, out);
  return success();
}

/// The value of a float scalar Const feeding input `i` of the node.
std::optional<double> constantFloat(ShapeContext &c, unsigned i) {
  return scalarFloatConstant(tfg::getDataOperands(c.getNode())[i]);
}

LogicalResult range(ShapeContext &c) {
  // Float ranges: the size TensorFlow computes, ceil(|limit - start| /
  // |delta|).
  if (isa<FloatType>(c.outputElementType(0))) {
    std::optional<double> start = constantFloat(c, 0),
                          limit = constantFloat(c, 1),
                          delta = constantFloat(c, 2);
    if (start && limit && delta && *delta != 0)
      c.setOutput(0, Shape::vector(std::max<int64_t>(
                         0, int64_t(std::ceil(std::abs((*limit - *start) / *delta))))));
    else
      c.setOutput(0, Shape::ofRank(1));
    return success();
  }
  const auto *start = c.inputValue(0), *limit = c.inputValue(1),
             *delta = c.inputValue(2);
  if (!start || !limit || !delta || (*delta)[0] == 0) {
    c.setOutput(0, Shape::ofRank(1));
    return success();
  }
  int64_t s = (*start)[0], l = (*limit)[0], d = (*delta)[0];
  int64_t n = d > 0 ? std::max<int64_t>(0, (l - s + d - 1) / d)
                    : std::max<int64_t>(0, (s - l - d - 1) / -d);
  c.setOutput(0, Shape::vector(n));
  if (n <= static_cast<int64_t>(kMaxTrackedValue)) {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(s + i * d);
    c.setOutputValue(0, values);
  }
  return success();
}

/// Shapes given by a node attr: Placeholder's shape, VariableV2's shape.
LogicalResult fromShapeAttr(ShapeContext &c) {
  if (auto shape = dyn_cast_or_null<tfg::ShapeAttr>(c.attr("shape")))
    if (!shape.getUnranked())
      c.setOutput(0, Shape::of(shape.getDims()));
  return success();
}

/// EnsureShape: its input's shape, which must be compatible with the
/// `shape` attr (TensorFlow's run-time check, made at compile time), with
/// the dimensions the attr knows filled in.
LogicalResult ensureShape(ShapeContext &c) {
  Shape in = c.input(0);
  auto attr = dyn_cast_or_null<tfg::ShapeAttr>(c.attr("shape"));
  if (!attr || attr.getUnranked()) {
    c.setOutput(0, in);
    return success();
  }
  auto unknown = [](int64_t d) { return d < 0 || ShapedType::isDynamic(d); };
  Shape wanted = Shape::ofRank(attr.getDims().size());
  for (auto [i, d] : llvm::enumerate(attr.getDims()))
    if (!unknown(d))
      wanted.dims[i] = d;
  if (!in.ranked) {
    c.setOutput(0, wanted);
    return success();
  }
  bool compatible = in.rank() == wanted.rank();
  Shape out = in;
  for (size_t i = 0; compatible && i < in.dims.size(); ++i) {
    if (unknown(wanted.dims[i]))
      continue;
    if (!unknown(in.dims[i]) && in.dims[i] != wanted.dims[i])
      compatible = false;
    out.dims[i] = wanted.dims[i];
  }
  if (!compatible)
    return c.error("the input's shape " + str(in) +
                   " is not compatible with the shape the node ensures, " +
                   str(wanted));
  c.setOutput(0, out);
  return success();
}

LogicalResult constOp(ShapeContext &c) {
  auto value = dyn_cast_or_null<DenseElementsAttr>(c.attr("value"));
  if (!value)
    return success();
  c.setOutput(0, Shape::of(value.getType().getShape()));
  // (Booleans as 1 and 0, as comparisons give them.)
  if (isa<IntegerType>(value.getElementType()) &&
      value.getNumElements() <= static_cast<int64_t>(kMaxTrackedValue)) {
    bool isBool = value.getElementType().isInteger(1);
    SmallVector<int64_t> values;
    for (const APInt &v : value.getValues<APInt>())
      values.push_back(isBool ? int64_t(v.getZExtValue()) : v.getSExtValue());
    c.setOutputValue(0, values);
  }
  return success();
}

/// The declared shape of the variable a handle points to (through loops
/// and conds too); null when it cannot be traced or is unranked.
tfg::ShapeAttr declaredVariableShape(Value handle) {
  Operation *variable = variableNodeOf(handle);
  auto shape = variable ? variable->getAttrOfType<tfg::ShapeAttr>("shape") : nullptr;
  return shape && !shape.getUnranked() ? shape : nullptr;
}

/// ReadVariableOp and ResourceGather: the variable's shape, from the
/// VarHandleOp that made the handle.
LogicalResult readVariable(ShapeContext &c) {
  auto shape = declaredVariableShape(tfg::getDataOperands(c.getNode())[0]);
  if (!shape)
    return success();
  if (opKindOf(c.getNode()) == OpKind::ReadVariableOp) {
    c.setOutput(0, Shape::of(shape.getDims()));
    return success();
  }
  // ResourceGather: indices' shape, then the variable's trailing dims.
  const Shape &indices = c.input(1);
  if (!indices.ranked || shape.getDims().empty())
    return success();
  Shape out = indices;
  out.dims.append(shape.getDims().begin() + 1, shape.getDims().end());
  c.setOutput(0, out);
  return success();
}

/// VariableShape: the variable's declared shape, as a value (the
/// gradients of loops that pass a weight's handle ask for it).
LogicalResult variableShape(ShapeContext &c) {
  auto shape = declaredVariableShape(tfg::getDataOperands(c.getNode())[0]);
  if (!shape) {
    c.setOutput(0, Shape::ofRank(1));
    return success();
  }
  c.setOutput(0, Shape::vector(shape.getDims().size()));
  if (llvm::none_of(shape.getDims(), [](int64_t d) { return d < 0; }))
    c.setOutputValue(0, SmallVector<int64_t>(shape.getDims()));
  return success();
}

/// StackPushV2 outputs the element it pushes; StackPopV2 an element of
/// the shape every push to its stack pushed (joined).
LogicalResult stackPush(ShapeContext &c) {
  c.setOutput(0, c.input(1));
  return success();
}

LogicalResult stackPop(ShapeContext &c) {
  Operation *stack = stackNodeOf(tfg::getDataOperands(c.getNode())[0]);
  if (!stack)
    return success();
  std::optional<Shape> pushed;
  for (Operation *push : pushesTo(stack)) {
    Shape each = Shape::fromType(tfg::getDataOperands(push)[1].getType());
    pushed = pushed ? joinShapes(*pushed, each) : each;
  }
  if (pushed)
    c.setOutput(0, *pushed);
  return success();
}

/// QueueDequeueV2: one element of the queue; QueueDequeueManyV2: `n` of
/// them, stacked; QueueDequeueUpToV2: as many as the data decides, up to
/// `n` (planned for `n` once tfc-bound-dynamic-rows has added their count,
/// a last scalar result).
LogicalResult queueDequeue(ShapeContext &c) {
  Operation *queue = queueNodeOf(tfg::getDataOperands(c.getNode())[0]);
  if (!queue)
    return success();
  OpKind kind = opKindOf(c.getNode());
  std::optional<int64_t> count = 1;
  unsigned components = c.numOutputs();
  if (kind == OpKind::QueueDequeueManyV2 || kind == OpKind::QueueDequeueUpToV2) {
    const SmallVector<int64_t> *n = c.inputValue(1);
    count = n && n->size() == 1 ? std::optional<int64_t>((*n)[0]) : std::nullopt;
    if (count && *count < 0)
      return c.error("n = " + std::to_string(*count) + " is negative");
  }
  if (kind == OpKind::QueueDequeueUpToV2) {
    auto types = c.getNode()->getAttrOfType<ArrayAttr>("component_types");
    bool counted = types && c.numOutputs() == types.size() + 1;
    if (counted) {
      components = types.size();
      c.setOutput(components, Shape::of({}));
    } else {
      count = std::nullopt;
    }
  }
  for (unsigned k = 0; k < components; ++k) {
    std::optional<Shape> element = queueComponentShape(queue, k);
    if (!element || !element->ranked)
      continue;
    if (opKindOf(c.getNode()) == OpKind::QueueDequeueV2) {
      c.setOutput(k, *element);
      continue;
    }
    Shape out = Shape::of({count ? *count : ShapedType::kDynamic});
    llvm::append_range(out.dims, element->dims);
    c.setOutput(k, out);
  }
  return success();
}

/// An accumulator's take: the accumulator's shape.
LogicalResult accumulatorTake(ShapeContext &c) {
  Operation *accumulator =
      accumulatorNodeOf(tfg::getDataOperands(c.getNode())[0]);
  auto shape = accumulator
                   ? accumulator->getAttrOfType<tfg::ShapeAttr>("shape")
                   : tfg::ShapeAttr();
  if (shape && !shape.getUnranked())
    c.setOutput(0, Shape::of(shape.getDims()));
  return success();
}

/// A sparse accumulator's take: rows of a number the data decides (their
/// indices, their values) and the dense shape, one element per dimension
/// of the values.
LogicalResult sparseAccumulatorTake(ShapeContext &c) {
  Operation *accumulator =
      accumulatorNodeOf(tfg::getDataOperands(c.getNode())[0]);
  c.setOutput(0, Shape::of({ShapedType::kDynamic}));
  std::optional<SmallVector<int64_t>> row =
      accumulator ? sparseRowShape(accumulator) : std::nullopt;
  if (!row)
    return success();
  Shape values = Shape::of({ShapedType::kDynamic});
  llvm::append_range(values.dims, *row);
  c.setOutput(1, values);
  c.setOutput(2, Shape::vector(values.rank()));
  return success();
}

/// TensorArrayReadV3: an element; TensorArrayGatherV3: one per index.
LogicalResult tensorArrayRead(ShapeContext &c) {
  Operation *forward =
      forwardArrayOf(tensorArrayOf(tfg::getDataOperands(c.getNode())[0]));
  if (!forward)
    return success();
  std::optional<SmallVector<int64_t>> element = tensorArrayElementShape(forward);
  if (!element)
    return success();
  Shape out = Shape::of(*element);
  if (opKindOf(c.getNode()) == OpKind::TensorArrayConcatV3) {
    // The elements [k, ...] one after another, and their lengths.
    std::optional<int64_t> size = tensorArraySize(forward);
    if (!size || out.dims.empty())
      return success();
    out.dims[0] *= *size;
    c.setOutput(0, out);
    c.setOutput(1, Shape::vector(*size));
    return success();
  }
  if (opKindOf(c.getNode()) == OpKind::TensorArrayGatherV3) {
    const Shape &indices = c.input(1);
    if (!indices.ranked)
      return success();
    out.dims.insert(out.dims.begin(), indices.dims.begin(), indices.dims.end());
  }
  c.setOutput(0, out);
  return success();
}

LogicalResult merge(ShapeContext &c) {
  Shape out;
  bool first = true;
  for (unsigned i = 0; i < c.numInputs(); ++i) {
    out = first ? c.input(i) : joinShapes(out, c.input(i));
    first = false;
  }
  c.setOutput(0, out);
  c.setOutput(1, Shape::scalar());
  return success();
}

LogicalResult softmaxCrossEntropy(ShapeContext &c) {
  const Shape &logits = c.input(0);
  Shape batch = Shape::ofRank(1);
  if (logits.ranked && logits.rank() == 2)
    batch.dims[0] = logits.dims[0];
  c.setOutput(0, batch);
  c.setOutput(1, logits.ranked ? logits : Shape::ofRank(2));
  return success();
}

LogicalResult broadcastGradientArgs(ShapeContext &c) {
  c.setOutput(0, Shape::ofRank(1));
  c.setOutput(1, Shape::ofRank(1));
  const auto *a = c.inputValue(0), *b = c.inputValue(1);
  if (!a || !b)
    return success();
  // Which dimensions of each input were broadcast to the output shape.
  size_t rank = std::max(a->size(), b->size());
  SmallVector<int64_t> ra, rb;
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a->size() ? 1 : (*a)[i - (rank - a->size())];
    int64_t y = i < rank - b->size() ? 1 : (*b)[i - (rank - b->size())];
    if (x == 1 && y != 1)
      ra.push_back(i);
    else if (y == 1 && x != 1)
      rb.push_back(i);
    else if (x == 1 && y == 1) {
      ra.push_back(i);
      rb.push_back(i);
    } else if (x != y) {
      return c.error("shapes do not broadcast");
    }
  }
  c.setOutput(0, Shape::vector(ra.size()));
  c.setOutput(1, Shape::vector(rb.size()));
  c.setOutputValue(0, ra);
  c.setOutputValue(1, rb);
  return success();
}

LogicalResult biasAddGrad(ShapeContext &c) {
  const Shape &in = c.input(0);
  if (!in.ranked)
    return success();
  bool nchw = c.stringAttr("data_format") == "NCHW";
  c.setOutput(0, Shape::vector(in.dims[nchw && in.rank() >= 3 ? 1 : in.rank() - 1]));
  return success();
}

/// _TfcDenseStringSplit and _TfcDenseUnicodeDecode: `columns` tokens (code
/// points) per string, and each string's number of its own.
LogicalResult denseStringSplit(ShapeContext &c) {
  Shape in = c.input(0);
  if (in.ranked && in.rank() != 1)
    return c.error("input must be a vector, not " + str(in));
  int64_t rows = in.ranked ? in.dims[0] : kUnknown;
  c.setOutput(0, Shape::of({rows, c.intAttr("columns", kUnknown)}));
  c.setOutput(1, Shape::of({rows}));
  return success();
}

/// Every output a scalar (a TensorArray's handle and flow).
LogicalResult scalarOutput(ShapeContext &c) {
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    c.setOutput(i, Shape::scalar());
  return success();
}

/// An accumulator's handle: a vector of 2, as TensorFlow's shape function
/// says for both kinds (a MetaGraph's _output_shapes carry it), though
/// the resource form's handle is one resource.
LogicalResult accumulatorHandle(ShapeContext &c) {
  c.setOutput(0, Shape::of({2}));
  return success();
}

/// A Philox key [1] and counter [2] (and the algorithm, a scalar).
LogicalResult randomKeyCounter(ShapeContext &c) {
  c.setOutput(0, Shape::of({1}));
  c.setOutput(1, Shape::of({2}));
  if (c.numOutputs() == 3)
    c.setOutput(2, Shape::scalar());
  return success();
}

LogicalResult castOp(ShapeContext &c) {
  c.setOutput(0, c.input(0));
  if (c.inputValue(0) && isIntegerElement(c.inputElementType(0)) &&
      isIntegerElement(c.outputElementType(0))) {
    SmallVector<int64_t> value = *c.inputValue(0);
    // To bool: 1 for every value but 0.
    if (c.outputElementType(0).isInteger(1))
      for (int64_t &v : value)
        v = v != 0;
    c.setOutputValue(0, value);
  }
  return success();
}

LogicalResult splitOp(ShapeContext &c) {
  const Shape &in = c.input(1);
  const auto *axisValue = c.inputValue(0);
  if (!in.ranked)
    return success();
  Shape out = Shape::ofRank(in.rank());
  if (axisValue) {
    std::optional<int64_t> axis = normalizeAxis((*axisValue)[0], in.rank());
    if (!axis)
      return c.error("axis out of range");
    out = in;
    int64_t n = c.numOutputs();
    if (!ShapedType::isDynamic(in.dims[*axis])) {
      if (in.dims[*axis] % n != 0)
        return c.error("dimension " + std::to_string(in.dims[*axis]) +
                       " does not split into " + std::to_string(n));
      out.dims[*axis] /= n;
    }
  }
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    c.setOutput(i, out);
  return success();
}

LogicalResult splitVOp(ShapeContext &c) {
  const Shape &in = c.input(0);
  const auto *sizes = c.inputValue(1), *axisValue = c.inputValue(2);
  if (!in.ranked)
    return success();
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    c.setOutput(i, Shape::ofRank(in.rank()));
  if (!sizes || !axisValue || sizes->size() != c.numOutputs())
    return success();
  std::optional<int64_t> axis = normalizeAxis((*axisValue)[0], in.rank());
  if (!axis)
    return c.error("axis out of range");
  int64_t known = 0, unknownAt = -1;
  for (auto [i, s] : llvm::enumerate(*sizes))
    if (s == -1)
      unknownAt = i;
    else
      known += s;
  for (unsigned i = 0; i < c.numOutputs(); ++i) {
    Shape out = in;
    int64_t s = (*sizes)[i];
    out.dims[*axis] = s != -1 ? s
                      : ShapedType::isDynamic(in.dims[*axis]) ? kUnknown
                                                              : in.dims[*axis] - known;
    (void)unknownAt;
    c.setOutput(i, out);
  }
  // A known vector (a shape split into outer, inner dimensions, as
  // tf.signal.frame does) splits into known pieces.
  if (const auto *value = c.inputValue(0); value && in.rank() == 1) {
    int64_t offset = 0;
    for (unsigned i = 0; i < c.numOutputs(); ++i) {
      int64_t s = (*sizes)[i] != -1 ? (*sizes)[i] : int64_t(value->size()) - known;
      if (s < 0 || offset + s > int64_t(value->size()))
        return success();
      c.setOutputValue(i, SmallVector<int64_t>(value->begin() + offset,
                                               value->begin() + offset + s));
      offset += s;
    }
  }
  return success();
}

/// Random ops and Empty: the shape is the value of input 0.
LogicalResult shapeFromInput0Value(ShapeContext &c) {
  if (const auto *dims = c.inputValue(0))
    c.setOutput(0, Shape::of(*dims));
  else if (c.input(0).isStatic() && c.input(0).rank() == 1)
    c.setOutput(0, Shape::ofRank(c.input(0).dims[0]));
  return success();
}

/// Functional control flow: the output_shapes attr, when TensorFlow wrote
/// it (one shape per output).
LogicalResult fromOutputShapesAttr(ShapeContext &c) {
  auto shapes = dyn_cast_or_null<ArrayAttr>(c.attr("output_shapes"));
  if (!shapes || shapes.size() != c.numOutputs())
    return success();
  for (auto [i, attr] : llvm::enumerate(shapes))
    if (auto shape = dyn_cast<tfg::ShapeAttr>(attr))
      if (!shape.getUnranked())
        c.setOutput(i, Shape::of(shape.getDims()));
  return success();
}

/// TensorList handles are scalar variants. Each list also has the shape of
/// the dense tensor it holds, [length, element...] (setOutputList), which
/// the ops that read elements take their shapes from.
namespace {
void tensorListHandle(ShapeContext &c) {
  for (unsigned i = 0; i < c.numOutputs(); ++i)
    if (isa<tfg::VariantType>(c.outputElementType(i)))
      c.setOutput(i, Shape::scalar());
}
/// [length, element...], or unknown when the element rank is.
Shape listShape(int64_t length, const Shape &element) {
  if (!element.ranked)
    return Shape::unknown();
  Shape out = Shape::of({length});
  llvm::append_range(out.dims, element.dims);
  return out;
}
/// The elements of a list's dense shape.
Shape elementsOf(const Shape &list) {
  if (!list.ranked || list.rank() == 0)
    return Shape::unknown();
  return Shape::of(ArrayRef(list.dims).drop_front());
}
int64_t lengthOf(const Shape &list) {
  return list.ranked && list.rank() > 0 ? list.dims[0] : kUnknown;
}
/// What two sources say of one element shape: the more precise, or what
/// they agree on where they conflict (a shape error for the kernel).
Shape bothElements(const Shape &a, const Shape &b) {
  FailureOr<Shape> met = refineShape(a, b);
  return succeeded(met) ? *met : joinShapes(a, b);
}
} // namespace

/// The ops that make a list: its length and elements from their operands.
LogicalResult tensorListMake(ShapeContext &c) {
  tensorListHandle(c);
  auto scalarInput = [&](unsigned i) {
    const auto *v = c.inputValue(i);
    return v && v->size() == 1 && (*v)[0] >= 0 ? (*v)[0] : kUnknown;
  };
  switch (opKindOf(c.getNode())) {
  case OpKind::EmptyTensorList:
    c.setOutputList(0, listShape(0, c.elementShapeInput(0)));
    break;
  case OpKind::TensorListReserve:
    // (A list that grows in a loop, tfc-bound-growable-lists: of a length
    // the loop decides, which its first round must not take for n.)
    c.setOutputList(0, listShape(c.getNode()->hasAttr(kListCapacityAttr)
                                     ? kUnknown
                                     : scalarInput(1),
                                 c.elementShapeInput(0)));
    break;
  case OpKind::TensorListFromTensor:
    c.setOutputList(0, listShape(lengthOf(c.input(0)),
                                 bothElements(elementsOf(c.input(0)),
                                              c.elementShapeInput(1))));
    break;
  case OpKind::TensorListScatter:
  case OpKind::TensorListScatterV2: {
    int64_t length = opKindOf(c.getNode()) == OpKind::TensorListScatterV2
                         ? scalarInput(3)
                         : kUnknown;
    c.setOutputList(0, listShape(length, bothElements(elementsOf(c.input(0)),
                                                      c.elementShapeInput(2))));
    break;
  }
  case OpKind::TensorListResize:
    c.setOutputList(0, listShape(scalarInput(1), elementsOf(c.inputList(0))));
    break;
  default:
    break;
  }
  return success();
}

/// The ops that write to a list: its elements as the list and the written
/// tensor say; pushes lengthen it, and so may a SetItem that grows it.
LogicalResult tensorListWrite(ShapeContext &c) {
  tensorListHandle(c);
  Shape list = c.inputList(0);
  int64_t length = lengthOf(list);
  Shape written;
  switch (opKindOf(c.getNode())) {
  case OpKind::TensorListSetItem:
    written = c.input(2);
    // (A write that grows the list makes its length the data's.)
    if (growsList(c.getNode()))
      length = kUnknown;
    break;
  case OpKind::TensorListPushBack:
    written = c.input(1);
    if (length != kUnknown)
      ++length;
    break;
  case OpKind::TensorListScatterIntoExistingList:
    written = elementsOf(c.input(1));
    break;
  default:
    return success();
  }
  c.setOutputList(0,
                  listShape(length, bothElements(elementsOf(list), written)));
  return success();
}

/// The ops that read elements: their shapes from the list's, refined by
/// their element_shape operand.
LogicalResult tensorListRead(ShapeContext &c) {
  Shape list = c.inputList(0);
  auto element = [&](unsigned operand) {
    return bothElements(elementsOf(list), c.elementShapeInput(operand));
  };
  switch (opKindOf(c.getNode())) {
  case OpKind::TensorListGetItem:
    c.setOutput(0, element(2));
    break;
  case OpKind::TensorListPopBack: {
    tensorListHandle(c);
    int64_t length = lengthOf(list);
    c.setOutputList(0, listShape(length == kUnknown ? kUnknown : length - 1,
                                 element(1)));
    c.setOutput(1, element(1));
    break;
  }
  case OpKind::TensorListStack: {
    int64_t n = c.intAttr("num_elements", -1);
    Shape stacked = listShape(n >= 0 ? n : lengthOf(list), element(1));
    if (stacked.ranked)
      c.setOutput(0, stacked);
    break;
  }
  case OpKind::TensorListGather: {
    Shape indices = c.input(1);
    Shape elements = element(2);
    if (indices.ranked && elements.ranked) {
      Shape out = indices;
      llvm::append_range(out.dims, elements.dims);
      c.setOutput(0, out);
    }
    break;
  }
  default:
    break;
  }
  return success();
}

/// Optimizer apply ops: the output is the variable (input 0).
LogicalResult applyOp(ShapeContext &c) {
  if (c.numOutputs() == 1)
    c.setOutput(0, c.input(0));
  return success();
}

} // namespace shapes

SliceIndices sliceIndices(Value vector, size_t n,
                          const SmallVector<int64_t> *value) {
  SliceIndices indices;
  indices.values.assign(n, 0);
  indices.known.assign(n, false);
  std::optional<SmallVector<int64_t>> constant = constantInts(vector);
  if (!value && constant)
    value = &*constant;
  if (value && value->size() == n) {
    indices.values.assign(value->begin(), value->end());
    indices.known.assign(n, true);
    return indices;
  }
  Operation *pack = vector.getDefiningOp();
  if (!pack || !tfg::isNode(pack) || opKindOf(pack) != OpKind::Pack ||
      tfg::getDataOperands(pack).size() != n)
    return indices;
  for (auto [i, scalar] : llvm::enumerate(tfg::getDataOperands(pack)))
    if (std::optional<SmallVector<int64_t>> entry = constantInts(scalar);
        entry && entry->size() == 1) {
      indices.values[i] = entry->front();
      indices.known[i] = true;
    }
  return indices;
}

FailureOr<StridedSliceSpec>
resolveStridedSlice(ArrayRef<int64_t> inputDims, ArrayRef<int64_t> begin,
                    ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
                    int64_t beginMask, int64_t endMask, int64_t ellipsisMask,
                    int64_t newAxisMask, int64_t shrinkMask,
                    std::string &error, ArrayRef<bool> beginKnown,
                    ArrayRef<bool> endKnown) {
  size_t n = strides.size();
  if (begin.size() != n || end.size() != n ||
      (!beginKnown.empty() && beginKnown.size() != n) ||
      (!endKnown.empty() && endKnown.size() != n)) {
    error = "begin, end and strides differ in length";
    return failure();
  }
  auto bit = [](int64_t mask, size_t i) { return bool((mask >> i) & 1); };
  int64_t rank = inputDims.size();

  // Expand the sparse spec (with an ellipsis and new axes) to one entry per
  // input dimension, remembering where new axes go in the output.
  struct Entry {
    int64_t begin, end, stride;
    bool beginMasked, endMasked, shrink;
    int64_t entry;
    bool beginKnown, endKnown;
  };
  SmallVector<Entry> dense;
  SmallVector<int64_t> plan; // Per output position: dense index, or -1.
  int64_t specified = 0;
  for (size_t i = 0; i < n; ++i)
    if (!bit(newAxisMask, i) && !bit(ellipsisMask, i))
      ++specified;
  bool sawEllipsis = false;
  auto whole = [&] {
    plan.push_back(dense.size());
    dense.push_back({0, 0, 1, true, true, false, -1, true, true});
  };
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsisMask, i)) {
      if (sawEllipsis) {
        error = "more than one ellipsis";
        return failure();
      }
      sawEllipsis = true;
      for (int64_t k = 0; k < rank - specified; ++k)
        whole();
      continue;
    }
    if (bit(newAxisMask, i)) {
      plan.push_back(-1);
      continue;
    }
    plan.push_back(dense.size());
    dense.push_back({begin[i], end[i], strides[i], bit(beginMask, i),
                     bit(endMask, i), bit(shrinkMask, i), int64_t(i),
                     beginKnown.empty() || beginKnown[i],
                     endKnown.empty() || endKnown[i]});
  }
  while (int64_t(dense.size()) < rank)
    whole();
  if (int64_t(dense.size()) != rank) {
    error = "slice spec has more dimensions than the input";
    return failure();
  }

  StridedSliceSpec spec;
  spec.dims.resize(rank);
  for (int64_t index : plan) {
    if (index < 0) {
      spec.outputDims.push_back(1);
      spec.outputSource.push_back(-1);
      continue;
    }
    const Entry &d = dense[index];
    StridedSliceDim &out = spec.dims[index];
    int64_t size = inputDims[index];
    if (d.stride == 0) {
      error = "stride 0";
      return failure();
    }
    out.stride = d.stride;
    out.shrink = d.shrink;
    out.entry = d.entry;
    // (A shrunk dimension reads its begin only; a masked end is unused.)
    out.atRunTime = d.shrink ? !d.beginKnown
                             : (!d.beginKnown && !d.beginMasked) ||
                                   (!d.endKnown && !d.endMasked);
    if (out.atRunTime && d.shrink) {
      out.count = 1;
      out.stride = 1;
      continue;
    }
    if (out.atRunTime) {
      out.count = kUnknown;
      spec.outputDims.push_back(kUnknown);
      spec.outputSource.push_back(index);
      continue;
    }
    if (ShapedType::isDynamic(size)) {
      out.count = kUnknown;
      if (!d.shrink) {
        spec.outputDims.push_back(kUnknown);
        spec.outputSource.push_back(index);
      }
      continue;
    }
    if (d.shrink) {
      int64_t b = d.begin < 0 ? d.begin + size : d.begin;
      if (b < 0 || b >= size) {
        error = "index " + std::to_string(d.begin) +
                " out of range for dimension of size " + std::to_string(size);
        return failure();
      }
      out.begin = b;
      out.count = 1;
      out.stride = 1;
      continue;
    }
    // Negative indices count from the end; then clamp to where a walk in
    // the stride's direction can start or stop.
    auto clampIndex = [&](int64_t x) {
      if (x < 0)
        x += size;
      return d.stride > 0 ? std::clamp<int64_t>(x, 0, size)
                          : std::clamp<int64_t>(x, -1, size - 1);
    };
    int64_t b = d.beginMasked ? (d.stride > 0 ? 0 : size - 1) : clampIndex(d.begin);
    int64_t e = d.endMasked ? (d.stride > 0 ? size : -1) : clampIndex(d.end);
    out.begin = b;
    out.count = d.stride > 0
                    ? std::max<int64_t>(0, (e - b + d.stride - 1) / d.stride)
                    : std::max<int64_t>(0, (b - e - d.stride - 1) / -d.stride);
    spec.outputDims.push_back(out.count);
    spec.outputSource.push_back(index);
  }
  return spec;
}

} // namespace tfc
