//===- Outlining.cpp - moving step code into functions of its own ---------===//

#include "tfc/Transforms/Outlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace tfc {

bool isRecomputable(Operation *op) {
  // Views, and the chain that turns one into the pointer a kernel takes
  // (StepEmitter::pointerTo).
  return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         (op->hasTrait<OpTrait::ConstantLike>() ||
          isa<memref::GetGlobalOp, memref::ViewOp, memref::SubViewOp,
              memref::ReinterpretCastOp, memref::CollapseShapeOp,
              memref::ExpandShapeOp, memref::CastOp,
              memref::ExtractAlignedPointerAsIndexOp, arith::IndexCastOp,
              LLVM::IntToPtrOp, LLVM::GEPOp>(op));
}

OutsideValues classifyOutsideValues(ArrayRef<Value> used,
                                    function_ref<bool(Value)> available) {
  OutsideValues result;
  // Depth first, so that each producer lands after its operands'.
  std::function<void(Value)> visit = [&](Value value) {
    if (available(value))
      return;
    Operation *producer = value.getDefiningOp();
    if (!producer || !isRecomputable(producer)) {
      result.passed.insert(value);
      return;
    }
    if (result.recomputed.contains(producer))
      return;
    for (Value operand : producer->getOperands())
      visit(operand);
    result.recomputed.insert(producer);
  };
  for (Value value : used)
    visit(value);
  return result;
}

bool ValueStruct::canCarry(Type type) {
  return isa<MemRefType, IndexType, IntegerType, FloatType,
             LLVM::LLVMPointerType>(type);
}

ValueStruct::ValueStruct(ArrayRef<Value> values,
                         const LLVMTypeConverter &converter) {
  for (Value value : values) {
    Type type = value.getType();
    fields.push_back(isa<MemRefType, IndexType>(type)
                         ? converter.convertType(type)
                         : type);
  }
  structType = LLVM::LLVMStructType::getLiteral(
      &converter.getContext(), fields);
}

Value ValueStruct::allocate(OpBuilder &b, Location loc,
                            Operation *function) const {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&function->getRegion(0).front());
  Value one = b.create<arith::ConstantIntOp>(loc, 1, 64);
  return b.create<LLVM::AllocaOp>(loc, LLVM::LLVMPointerType::get(
                                           b.getContext()),
                                  structType, one);
}

Value ValueStruct::field(OpBuilder &b, Location loc, Value pointer,
                         unsigned index) const {
  return b.create<LLVM::GEPOp>(loc, LLVM::LLVMPointerType::get(b.getContext()),
                               structType, pointer,
                               ArrayRef<LLVM::GEPArg>{0, int32_t(index)});
}

void ValueStruct::store(OpBuilder &b, Location loc, Value pointer,
                        unsigned index, Value value) const {
  Type type = value.getType();
  if (isa<MemRefType>(type))
    value = b.create<UnrealizedConversionCastOp>(loc, fields[index], value)
                .getResult(0);
  else if (type.isIndex())
    value = b.create<arith::IndexCastOp>(loc, fields[index], value);
  b.create<LLVM::StoreOp>(loc, value, field(b, loc, pointer, index));
}

Value ValueStruct::load(OpBuilder &b, Location loc, Value pointer,
                        unsigned index, Type type) const {
  Value value = b.create<LLVM::LoadOp>(loc, fields[index],
                                      field(b, loc, pointer, index));
  if (isa<MemRefType>(type))
    return b.create<UnrealizedConversionCastOp>(loc, type, value).getResult(0);
  if (type.isIndex())
    return b.create<arith::IndexCastOp>(loc, type, value);
  return value;
}

} // namespace tfc
