//===- OpTable.h - what each op is, in one place ----------------*- C++ -*-===//
//
// The op table: one row per TensorFlow op type that tfc handles, generated
// from the declarations of OpTable.td. A row says the op's family, how it
// becomes code (its lowering), which device types have a kernel for it, its
// shape and cost functions, whether it is an alias of an input and whether
// constant folding may evaluate it. Passes ask the table (or the queries
// below, which read it) instead of comparing op type names.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_OPTABLE_H
#define TFC_TRANSFORMS_OPTABLE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>

namespace tfc {

class ShapeContext;

/// The kinds of op that passes treat alike (OpTableBase.td says what each
/// holds).
enum class OpFamily : uint8_t {
#define GET_OP_FAMILIES
#define TFC_OP_FAMILY(name, summary) name,
#include "tfc/Transforms/OpTable.inc"
};

/// One enumerator per declared op type, spelled like it (an internal op
/// `_X` is `InternalX`); Unknown for every other op type.
enum class OpKind : uint16_t {
  Unknown = 0,
#define GET_OP_KINDS
#include "tfc/Transforms/OpTable.inc"
};

/// How a node becomes code.
enum class Lowering : uint8_t {
  /// Known (it has a shape) but not compiled: tfc-verify-supported refuses it.
  NotLowered,
  /// No code of its own: an argument, a constant, a variable, a no-op.
  NoCode,
  /// Lowered by the code generation pattern `loweredBy` names
  /// (lib/Transforms/Codegen/PopulatePatterns.h).
  Pattern,
  /// Replaced before code generation by the graph pass `rewrittenBy`.
  RewrittenBy,
};

/// Device types as bits of OpInfo::devices.
enum DeviceTypeBit : uint8_t { kDeviceCPU = 1, kDeviceGPU = 2 };

/// One row of the op table.
struct OpInfo {
  llvm::StringLiteral type;
  OpKind kind;
  /// For TF1's ref-typed variants (RefMerge, ...), the op they are the ref
  /// form of; `kind` for every other op.
  OpKind plainKind;
  OpFamily family;
  Lowering lowering;
  /// The pattern's name (Lowering::Pattern) or the pass flag
  /// (Lowering::RewrittenBy).
  llvm::StringLiteral loweredBy;
  uint8_t devices;
  /// Output i is input i's memory (input `aliasOperand` when >= 0).
  bool alias;
  int8_t aliasOperand;
  /// Writes a variable it is given (assignments, optimizer updates).
  bool writesVariable;
  /// tfc-fold-constants may evaluate it (code generation writes it).
  bool folds;
  /// Null when shape inference leaves the outputs as imported.
  mlir::LogicalResult (*shape)(ShapeContext &);
  /// Floating point operations of one run (CostModel.cpp).
  double (*cost)(mlir::Operation *);
  /// What the lowering does with the op's attributes: OpTableBase.td's
  /// `attrs` entries, joined by ';' (attrDeclaration reads them).
  llvm::StringLiteral attrs;

  bool isLowered() const { return lowering != Lowering::NotLowered; }
  bool hasKernelOn(uint8_t deviceBit) const { return devices & deviceBit; }
};

/// The row of `opType`, or null when tfc does not handle it.
const OpInfo *lookupOp(llvm::StringRef opType);
/// The row of a node's op type, or null (also for non-node operations).
const OpInfo *lookupOp(mlir::Operation *node);
/// A node's OpKind (Unknown for undeclared op types and non-nodes).
OpKind opKindOf(mlir::Operation *node);
/// A node's OpKind, a ref-typed variant's being its plain form's (Merge
/// for RefMerge): for the passes to which the two are the same op.
OpKind plainOpKindOf(mlir::Operation *node);
/// Every row, sorted by op type.
llvm::ArrayRef<OpInfo> opTable();
/// The name of a family, as OpTable.td spells it.
llvm::StringRef familyName(OpFamily family);

//===----------------------------------------------------------------------===//
// Attributes: what a lowering handles
//===----------------------------------------------------------------------===//

/// What the lowering of an op does with one of its attributes.
struct AttrDeclaration {
  enum Use : uint8_t {
    /// Not declared: only the registry's default value is handled.
    DefaultOnly,
    /// Every value is computed as TensorFlow computes it.
    Any,
    /// Only `values` are (as attrValueText writes them).
    Only,
    /// No value changes the result.
    Ignored,
  };
  Use use = DefaultOnly;
  llvm::SmallVector<llvm::StringRef> values;
};

/// The declaration of attribute `name` in `op`'s row.
AttrDeclaration attrDeclaration(const OpInfo &op, llvm::StringRef name);

/// An attribute value as the op table writes values: true/false, an
/// integer, a string's text, an int list as 1,2,2,1; other values as MLIR
/// prints them.
std::string attrValueText(mlir::Attribute value);

/// Checks the attributes `attrs` of a node of `op` against what its
/// lowering declares: empty when the lowering handles every value, else
/// what it does not, one line naming the attribute and its value and
/// saying what tfc handles ("resize_if_index_out_of_bounds=true: tfc
/// handles only false"). The attributes the node's types carry are not
/// checked; an op the registry does not know has none to check.
std::string unhandledAttr(const OpInfo &op, mlir::DictionaryAttr attrs);

//===----------------------------------------------------------------------===//
// Queries that passes share (each reads the table)
//===----------------------------------------------------------------------===//

/// Whether `node` computes each output element from the elements at the
/// same (broadcast) position of its inputs (a lowered Elementwise op with
/// one result). Such nodes fuse into loops.
bool isElementwise(mlir::Operation *node);

/// What tfc-verify-supported refuses in a pruned, inlined module: op types
/// nothing lowers, and attribute values no lowering handles, each with its
/// nodes in IR order (a SavedModel's restore op, which
/// tfc-freeze-variables replaces, aside).
struct Refusals {
  using Groups = llvm::MapVector<std::string, llvm::SmallVector<mlir::Operation *>,
                                 std::map<std::string, unsigned>>;
  Groups unsupported, unhandled;
};
Refusals findRefusals(mlir::ModuleOp module);

/// Whether each element of `node`'s one output is computed from the
/// elements at its position of its inputs (scalars broadcast) alone: the
/// elementwise family, the string ops of one string each (StringLower,
/// StaticRegexReplace, ...) and lookups in tables (of their keys).
bool isPerElement(mlir::Operation *node);

/// Whether output i of `node` is input i itself, maybe with another shape
/// (Identity, Reshape, Squeeze, ...), or both outputs of a Switch its data
/// input: no code, no buffer of its own.
bool isAlias(mlir::Operation *node);

/// The input whose memory output `port` of an alias node is.
mlir::Value aliasedInput(mlir::Operation *node, unsigned port);

/// Whether `node` is a TF1 control-flow primitive (Switch, Merge, Enter,
/// Exit, NextIteration, LoopCond, ControlTrigger): never folded or
/// forwarded, whatever its inputs.
bool isControlFlow(mlir::Operation *node);

/// Whether `node` is the gradient of a convolution or a pooling.
bool isWindowGradient(mlir::Operation *node);

/// Whether `node` is FusedBatchNorm or FusedBatchNormGrad (any version).
bool isBatchNorm(mlir::Operation *node);

} // namespace tfc

#endif // TFC_TRANSFORMS_OPTABLE_H
