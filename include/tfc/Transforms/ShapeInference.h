//===- ShapeInference.h - per-op shape functions ----------------*- C++ -*-===//
//
// Shape inference computes, for each node, the shapes of its outputs from
// the shapes of its inputs, its attrs, and the values of small integer
// inputs when they are known at compile time (a Reshape's target shape, a
// reduction's axes, shapes computed from Shape/StridedSlice/Pack, ...).
// One shape function per op type, named by the op table (OpTable.td) and
// defined in ShapeFunctions.cpp; the pass that drives them is
// InferShapes.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_SHAPEINFERENCE_H
#define TFC_TRANSFORMS_SHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>

namespace tfc {

/// A shape that may have unknown dimensions (kDynamic) or an unknown rank.
struct Shape {
  bool ranked = false;
  llvm::SmallVector<int64_t, 4> dims;

  static Shape unknown() { return {}; }
  static Shape of(llvm::ArrayRef<int64_t> dims) {
    return {true, llvm::SmallVector<int64_t, 4>(dims)};
  }
  static Shape scalar() { return of({}); }
  static Shape vector(int64_t n) { return of({n}); }
  /// Rank `rank`, every dimension unknown.
  static Shape ofRank(int64_t rank);
  static Shape fromType(mlir::Type type);

  int64_t rank() const { return ranked ? dims.size() : -1; }
  bool isStatic() const;
  /// Number of elements, or -1 when unknown.
  int64_t numElements() const;
  mlir::TensorType toType(mlir::Type elementType) const;
  /// "[2,?,3]", or "<unknown rank>": how messages show a shape.
  std::string str() const;
  bool operator==(const Shape &other) const {
    return ranked == other.ranked && dims == other.dims;
  }
};

/// Joins shapes seen along different paths (a Merge): dimensions known and
/// equal on all stay, others become unknown.
Shape joinShapes(const Shape &a, const Shape &b);

/// The more precise of two shapes of one value (what is known in either);
/// failure if they conflict.
mlir::FailureOr<Shape> refineShape(const Shape &current, const Shape &inferred);

/// The shape of a TensorList as the dense tensor it holds: [length,
/// element dims...], where elements of one list have one shape (as
/// TensorListStack needs). Paths that meet (a Merge, a write) agree on the
/// elements' dimensions, so what one path knows holds for all; lengths
/// that differ (pushes in a loop) become unknown.
Shape meetListShapes(const Shape &a, const Shape &b);

/// The shape an `element_shape` operand of the list ops gives: its value
/// (-1 an unknown dimension), or an unknown rank for a scalar -1.
Shape elementShapeOperand(const Shape &operand,
                          const llvm::SmallVector<int64_t> *value);

/// What a shape function reads and writes for one node.
class ShapeContext {
public:
  ShapeContext(mlir::Operation *node,
               std::function<const llvm::SmallVector<int64_t> *(mlir::Value)>
                   lookupValue,
               std::function<const Shape *(mlir::Value)> lookupList = nullptr);

  mlir::Operation *getNode() const { return node; }
  unsigned numInputs() const { return inputs.size(); }
  unsigned numOutputs() const { return outputs.size(); }
  const Shape &input(unsigned i) const { return inputs[i]; }
  mlir::Type inputElementType(unsigned i) const;
  mlir::Type outputElementType(unsigned i) const;

  /// The value of integer input `i`, flattened, if known.
  const llvm::SmallVector<int64_t> *inputValue(unsigned i) const;
  /// Integer vector input `i` as a shape (TensorFlow's partial shape
  /// tensors): its value where known; else, where it is put together
  /// (ConcatV2 along 0, Pack, ExpandDims of a scalar), the pieces' values
  /// where known and ShapedType::kDynamic for the others; nullopt when
  /// not even its length is known.
  std::optional<llvm::SmallVector<int64_t>> inputAsShape(unsigned i) const;

  /// The dense shape of TensorList input `i` (meetListShapes), or unknown.
  Shape inputList(unsigned i) const;
  /// The `element_shape` operand `i` of a list op (elementShapeOperand).
  Shape elementShapeInput(unsigned i) const;

  /// Attrs of the node, or the OpDef default.
  mlir::Attribute attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name, int64_t otherwise = 0) const;
  bool boolAttr(llvm::StringRef name, bool otherwise = false) const;
  llvm::StringRef stringAttr(llvm::StringRef name) const;
  llvm::SmallVector<int64_t> intListAttr(llvm::StringRef name) const;

  void setOutput(unsigned i, Shape shape) { outputs[i] = std::move(shape); }
  /// Records the value of integer output `i` (a small 1-D or scalar tensor).
  void setOutputValue(unsigned i, llvm::SmallVector<int64_t> value);
  const Shape &output(unsigned i) const { return outputs[i]; }
  /// Records the dense shape of TensorList output `i`.
  void setOutputList(unsigned i, Shape shape) { outputLists[i] = std::move(shape); }
  const std::optional<Shape> &outputList(unsigned i) const {
    return outputLists[i];
  }
  const std::optional<llvm::SmallVector<int64_t>> &outputValue(unsigned i) const {
    return outputValues[i];
  }

  /// Reports an inconsistency; the message is prefixed with the node.
  mlir::LogicalResult error(const llvm::Twine &message) const;

private:
  mlir::Operation *node;
  std::function<const llvm::SmallVector<int64_t> *(mlir::Value)> lookupValue;
  std::function<const Shape *(mlir::Value)> lookupList;
  llvm::SmallVector<Shape> inputs, outputs;
  llvm::SmallVector<std::optional<llvm::SmallVector<int64_t>>> outputValues;
  llvm::SmallVector<std::optional<Shape>> outputLists;
};

// The shape function of each op type is named by its row of the op table
// (OpTable.h) and defined in ShapeFunctions.cpp, namespace tfc::shapes.

/// A StridedSlice resolved against its input's shape: for each input
/// dimension, the first index read, the count read and the step (negative:
/// backwards); shrunk dimensions read one index and leave the output.
struct StridedSliceDim {
  int64_t begin = 0, count = 0, stride = 1;
  bool shrink = false;
  /// The entry of the sparse spec (begin, end and strides) that slices the
  /// dimension, or -1 (an ellipsis' or an unspecified trailing dimension).
  int64_t entry = -1;
  /// Whether the slice depends on begin and end values unknown at compile
  /// time: a shrunk dimension then reads the index begin[entry] (begin is
  /// 0 here), and any other its count is unknown.
  bool atRunTime = false;
};
struct StridedSliceSpec {
  llvm::SmallVector<StridedSliceDim> dims; // One per input dimension.
  /// The output's dims, new axes (size 1) included; kDynamic where the
  /// input's dim is unknown.
  llvm::SmallVector<int64_t> outputDims;
  /// For each output dim, the input dimension it walks, or -1 (new axis).
  llvm::SmallVector<int64_t> outputSource;
};

/// Resolves TensorFlow's sparse StridedSlice spec (begin/end/strides with
/// begin, end, ellipsis, new-axis and shrink-axis masks) on a shape whose
/// rank is known. Dimensions of unknown size get count kDynamic. Where
/// `beginKnown` or `endKnown` (one flag per entry; empty: all known) says
/// an entry's value is the step's, the dimension it slices is `atRunTime`
/// unless its mask makes the value unused.
mlir::FailureOr<StridedSliceSpec>
resolveStridedSlice(llvm::ArrayRef<int64_t> inputDims,
                    llvm::ArrayRef<int64_t> begin, llvm::ArrayRef<int64_t> end,
                    llvm::ArrayRef<int64_t> strides, int64_t beginMask,
                    int64_t endMask, int64_t ellipsisMask, int64_t newAxisMask,
                    int64_t shrinkMask, std::string &error,
                    llvm::ArrayRef<bool> beginKnown = {},
                    llvm::ArrayRef<bool> endKnown = {});

/// The entries of a StridedSlice's begin or end vector `vector` (of `n`
/// entries) known at compile time: every entry of a constant (or of
/// `value`, its value when shape inference knows it), or the constant
/// scalars of a Pack (x[i, 1:4] packs i with 1). Unknown entries are 0.
struct SliceIndices {
  llvm::SmallVector<int64_t> values;
  llvm::SmallVector<bool> known;
};
SliceIndices sliceIndices(mlir::Value vector, size_t n,
                          const llvm::SmallVector<int64_t> *value = nullptr);

/// Known values of small integer tensors, by value.
using KnownValues = llvm::DenseMap<mlir::Value, llvm::SmallVector<int64_t>>;
/// The dense shapes of TensorList values (meetListShapes), by value.
using ListShapes = llvm::DenseMap<mlir::Value, Shape>;

/// `axis` (negative: from the end) as a dimension of a rank-`rank` tensor;
/// nullopt if out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);
/// A reduction's axes as dimensions of a rank-`rank` tensor: each
/// normalized, sorted, without repeats; nullopt if one is out of range.
std::optional<llvm::SmallVector<int64_t>> normalizeAxes(llvm::ArrayRef<int64_t> axes,
                                                        int64_t rank);

/// Refines the result types of the nodes of `body` (what tfc-infer-shapes
/// does to each body). Counts refined results in `refined`; if `values` is
/// given, it receives the known integer values, and `lists` the dense
/// shapes of the TensorLists.
mlir::LogicalResult inferShapes(mlir::Block &body, unsigned &refined,
                                KnownValues *values = nullptr,
                                ListShapes *lists = nullptr);

} // namespace tfc

#endif // TFC_TRANSFORMS_SHAPEINFERENCE_H
