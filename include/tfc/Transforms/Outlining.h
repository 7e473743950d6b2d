//===- Outlining.h - moving step code into functions of its own -*- C++ -*-===//
//
// Two passes move parts of a step into new functions: tfc-parallelize-loops
// (a loop body that tfc_parallel_for runs on every thread) and
// tfc-split-steps (runs of a long step, so that LLVM optimizes functions of
// bounded size). Both must get the values the moved code uses from outside
// into the new function. They share the rule of what is recomputed there
// and what travels, and the struct of LLVM values it travels in.
//
// Recomputed: constants and views (memref.view, subview, get_global, ...),
// along with the views' operands, recursively. Besides being cheaper than
// a load, this keeps views of one arena derived from one base pointer in
// the new function, which is what lets LLVM see that an elementwise op
// writing over its input reads each element before writing it: views
// passed separately would look like unrelated pointers, and the vectorizer
// would add run-time alias checks or give up.
//
// Travels: everything else (the arena, a step's parameters, values
// computed earlier), as one field each of a struct: memrefs as their LLVM
// descriptors, through an unrealized cast each way that
// reconcile-unrealized-casts folds once both sides are LLVM; indices as
// i64; integers, floats and LLVM pointers as they are.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_OUTLINING_H
#define TFC_TRANSFORMS_OUTLINING_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace tfc {

/// Whether `op` may be computed again in another function from its
/// operands: a constant or a view, without regions or side effects.
bool isRecomputable(mlir::Operation *op);

/// How the values that outlined code uses from outside reach it.
struct OutsideValues {
  /// Producers to clone into the new function, each after its operands'.
  llvm::SetVector<mlir::Operation *> recomputed;
  /// Values to pass in, in first-use order.
  llvm::SetVector<mlir::Value> passed;
};

/// Sorts `used` into recomputed producers and passed values. Values for
/// which `available` holds reach the new function some other way (its
/// arguments, say) and are neither.
OutsideValues
classifyOutsideValues(llvm::ArrayRef<mlir::Value> used,
                      llvm::function_ref<bool(mlir::Value)> available);

/// A struct of LLVM values carrying MLIR values between functions.
class ValueStruct {
public:
  /// Whether a value of `type` can travel in a field.
  static bool canCarry(mlir::Type type);

  /// A struct with a field for each of `values` (each canCarry).
  ValueStruct(llvm::ArrayRef<mlir::Value> values,
              const mlir::LLVMTypeConverter &converter);

  mlir::LLVM::LLVMStructType type() const { return structType; }
  size_t size() const { return fields.size(); }

  /// One struct on the stack, at the start of `function`'s entry block (so
  /// that a loop around its use does not grow the stack).
  mlir::Value allocate(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Operation *function) const;
  /// Writes `value` (of the type of the field's value) into field `index`.
  void store(mlir::OpBuilder &b, mlir::Location loc, mlir::Value pointer,
             unsigned index, mlir::Value value) const;
  /// Reads field `index` back as a value of `type`.
  mlir::Value load(mlir::OpBuilder &b, mlir::Location loc, mlir::Value pointer,
                   unsigned index, mlir::Type type) const;

private:
  /// The address of field `index` of the struct at `pointer`.
  mlir::Value field(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Value pointer, unsigned index) const;

  llvm::SmallVector<mlir::Type> fields;
  mlir::LLVM::LLVMStructType structType;
};

} // namespace tfc

#endif // TFC_TRANSFORMS_OUTLINING_H
