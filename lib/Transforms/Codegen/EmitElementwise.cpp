//===- EmitElementwise.cpp - fused elementwise loops ----------------------===//
//
// Each elementwise group (see tfc-fuse-elementwise) becomes one
// linalg.generic over the group's external inputs, broadcast by indexing
// maps, whose body computes every member element by element.
//
// The scalar code follows TensorFlow's kernels (Eigen functors), including
// their formulas where those differ from the textbook ones (Softplus' cut-
// offs, Elu's exp - 1, Round to even, FloorMod's sign rule), so that the
// program agrees with TensorFlow on edge values too. Integer division by
// zero stops the step, as in TensorFlow (checkDivisor), and INT_MIN / -1
// wraps. float32's exp, tanh, sigmoid, erf and erfc are arithmetic that
// vectorizes (MathApproximations.h). Functions the math dialect lacks are
// calls: the C library's, or the runtime's special functions (Eigen's, as
// TensorFlow's).
//
//===----------------------------------------------------------------------===//

#include "MathApproximations.h"
#include "PopulatePatterns.h"

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Transforms/Activations.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/StridedProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tfc {
namespace {

/// How an element type computes. MLIR's arith ops take signless integers,
/// so storage is signless and the signedness comes from the tensor type.
enum class Kind { Float, Signed, Unsigned, Bool };

Kind kindOf(Type type) {
  if (isa<FloatType>(type))
    return Kind::Float;
  if (type.isInteger(1))
    return Kind::Bool;
  return type.isUnsignedInteger() ? Kind::Unsigned : Kind::Signed;
}

Type elementOf(Value value) {
  return cast<TensorType>(value.getType()).getElementType();
}

/// Builds the scalar code of one node inside a linalg body.
class ScalarBuilder {
public:
  ScalarBuilder(OpBuilder &builder, Location loc, Type element)
      : b(builder), loc(loc), element(element), kind(kindOf(element)) {}

  /// The storage type: signless for integers.
  Type storage() const {
    if (auto integer = dyn_cast<IntegerType>(element))
      return b.getIntegerType(integer.getWidth());
    return element;
  }
  Value constant(double value) {
    if (kind == Kind::Float)
      return b.create<arith::ConstantOp>(loc, b.getFloatAttr(element, value));
    return b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(storage(), int64_t(value)));
  }
  bool isFloat() const { return kind == Kind::Float; }
  bool isUnsigned() const { return kind == Kind::Unsigned || kind == Kind::Bool; }

  Value add(Value x, Value y) {
    return isFloat() ? Value(b.create<arith::AddFOp>(loc, x, y))
                     : Value(b.create<arith::AddIOp>(loc, x, y));
  }
  Value sub(Value x, Value y) {
    return isFloat() ? Value(b.create<arith::SubFOp>(loc, x, y))
                     : Value(b.create<arith::SubIOp>(loc, x, y));
  }
  Value mul(Value x, Value y) {
    return isFloat() ? Value(b.create<arith::MulFOp>(loc, x, y))
                     : Value(b.create<arith::MulIOp>(loc, x, y));
  }
  Value max(Value x, Value y) {
    if (isFloat())
      return b.create<arith::MaximumFOp>(loc, x, y);
    return isUnsigned() ? Value(b.create<arith::MaxUIOp>(loc, x, y))
                        : Value(b.create<arith::MaxSIOp>(loc, x, y));
  }
  Value min(Value x, Value y) {
    if (isFloat())
      return b.create<arith::MinimumFOp>(loc, x, y);
    return isUnsigned() ? Value(b.create<arith::MinUIOp>(loc, x, y))
                        : Value(b.create<arith::MinSIOp>(loc, x, y));
  }
  /// Ordered comparisons for floats (false on NaN) except `ne`, which is
  /// true on NaN, as in C++.
  Value compare(StringRef op, Value x, Value y) {
    if (isFloat()) {
      auto predicate = llvm::StringSwitch<arith::CmpFPredicate>(op)
                           .Case("eq", arith::CmpFPredicate::OEQ)
                           .Case("ne", arith::CmpFPredicate::UNE)
                           .Case("lt", arith::CmpFPredicate::OLT)
                           .Case("le", arith::CmpFPredicate::OLE)
                           .Case("gt", arith::CmpFPredicate::OGT)
                           .Default(arith::CmpFPredicate::OGE);
      return b.create<arith::CmpFOp>(loc, predicate, x, y);
    }
    bool u = isUnsigned();
    auto predicate =
        llvm::StringSwitch<arith::CmpIPredicate>(op)
            .Case("eq", arith::CmpIPredicate::eq)
            .Case("ne", arith::CmpIPredicate::ne)
            .Case("lt", u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
            .Case("le", u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle)
            .Case("gt", u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
            .Default(u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge);
    return b.create<arith::CmpIOp>(loc, predicate, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, c, x, y);
  }
  /// Integer division: truncating or flooring, with a divisor of 0 giving
  /// 0 and -1 giving the wrapped negation, so that nothing traps.
  Value intDivide(Value x, Value y, bool floor) {
    Value zero = constant(0), one = constant(1);
    Value byZero = compare("eq", y, zero);
    if (isUnsigned())
      return select(byZero, zero,
                    b.create<arith::DivUIOp>(loc, x, select(byZero, one, y)));
    Value byMinusOne = compare("eq", y, constant(-1));
    Value safe = select(b.create<arith::OrIOp>(loc, byZero, byMinusOne), one, y);
    Value q = floor ? Value(b.create<arith::FloorDivSIOp>(loc, x, safe))
                    : Value(b.create<arith::DivSIOp>(loc, x, safe));
    return select(byZero, zero, select(byMinusOne, sub(zero, x), q));
  }
  /// Integer remainder (truncating), 0 for a divisor of 0 or -1.
  Value intRemainder(Value x, Value y) {
    Value zero = constant(0), one = constant(1);
    Value byZero = compare("eq", y, zero);
    if (isUnsigned())
      return select(byZero, zero,
                    b.create<arith::RemUIOp>(loc, x, select(byZero, one, y)));
    Value degenerate =
        b.create<arith::OrIOp>(loc, byZero, compare("eq", y, constant(-1)));
    return select(degenerate, zero,
                  b.create<arith::RemSIOp>(loc, x, select(degenerate, one, y)));
  }
  /// TensorFlow's FloorMod: the truncated remainder moved to the sign of
  /// the divisor.
  Value floorMod(Value x, Value y) {
    Value r = isFloat() ? Value(b.create<arith::RemFOp>(loc, x, y))
                        : intRemainder(x, y);
    if (isUnsigned())
      return r;
    Value zero = constant(0);
    Value fix = b.create<arith::AndIOp>(
        loc, compare("ne", r, zero),
        b.create<arith::XOrIOp>(loc, compare("lt", r, zero),
                                compare("lt", y, zero)));
    return select(fix, add(r, y), r);
  }
  Value exp(Value x) {
    if (element.isF32())
      return buildExpF32(b, loc, x);
    return b.create<math::ExpOp>(loc, x);
  }

  OpBuilder &b;
  Location loc;
  Type element;
  Kind kind;
};

/// Converts a scalar between element types as TensorFlow's Cast does:
/// float to integer truncates, anything to bool is `!= 0`.
Value castScalar(OpBuilder &b, Location loc, Value x, Type from, Type to) {
  Kind fromKind = kindOf(from), toKind = kindOf(to);
  if (from == to)
    return x;
  ScalarBuilder target(b, loc, to);
  if (toKind == Kind::Bool) {
    ScalarBuilder source(b, loc, from);
    return source.compare("ne", x, source.constant(0));
  }
  if (fromKind == Kind::Float && toKind == Kind::Float) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return b.create<arith::ExtFOp>(loc, to, x);
    return b.create<arith::TruncFOp>(loc, to, x);
  }
  if (fromKind == Kind::Float)
    return toKind == Kind::Unsigned
               ? Value(b.create<arith::FPToUIOp>(loc, target.storage(), x))
               : Value(b.create<arith::FPToSIOp>(loc, target.storage(), x));
  bool fromUnsigned = fromKind == Kind::Unsigned || fromKind == Kind::Bool;
  if (toKind == Kind::Float)
    return fromUnsigned ? Value(b.create<arith::UIToFPOp>(loc, to, x))
                        : Value(b.create<arith::SIToFPOp>(loc, to, x));
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (fromBits == toBits)
    return x;
  if (fromBits > toBits)
    return b.create<arith::TruncIOp>(loc, target.storage(), x);
  return fromUnsigned
             ? Value(b.create<arith::ExtUIOp>(loc, target.storage(), x))
             : Value(b.create<arith::ExtSIOp>(loc, target.storage(), x));
}

} // namespace

/// Whether `value` is a constant none of whose elements is zero.
static bool isNonZeroConstant(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer || opKindOf(producer) != OpKind::Const)
    return false;
  auto elements = dyn_cast_or_null<DenseIntElementsAttr>(
      producer->getAttr("value"));
  return elements && llvm::none_of(elements.getValues<APInt>(),
                                   [](const APInt &v) { return v.isZero(); });
}

/// Stops the step, as TensorFlow's CPU kernels do, when the integer
/// divisor `y` of `node` is zero: a branch to tfc_fail per element, left
/// out where the divisor is a constant without zeros. (The quotient that
/// follows keeps its guard: the branch does not return.)
static void checkDivisor(StepEmitter &step, Operation *node, Value y,
                         Location loc) {
  if (isNonZeroConstant(tfg::getDataOperands(node)[1]))
    return;
  OpBuilder &b = step.builder;
  Value zero = b.create<arith::ConstantOp>(loc, b.getZeroAttr(y.getType()));
  Value byZero = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, y, zero);
  auto branch = b.create<scf::IfOp>(loc, byZero, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  step.callKernel(loc, "tfc_fail",
                  {step.stringPointer(loc, tfg::nodeLabel(node) +
                                               ": integer division by zero")},
                  {});
}

/// The scalar computation of an elementwise node that reads or writes
/// complex numbers, in MLIR's complex dialect (complex-to-standard writes
/// its formulas: Smith's division, a scaled modulus). Real operands of a
/// complex result (Complex's, a Cast's) and real results of complex
/// operands (Real, Imag, ComplexAbs, Angle, comparisons) are here too.
static FailureOr<Value> emitComplexScalar(StepEmitter &step, Operation *node,
                                          ArrayRef<Value> in, Location loc) {
  OpBuilder &b = step.builder;
  OpKind kind = opKindOf(node);
  Type element = elementOf(tfg::getDataResults(node)[0]);
  Type operandElement = tfg::getDataOperands(node).empty()
                            ? element
                            : elementOf(tfg::getDataOperands(node).back());
  auto complexType = dyn_cast<ComplexType>(element);
  // A complex value from real and imaginary parts of any real type.
  auto make = [&](Value re, Value im, ComplexType type) -> Value {
    return b.create<complex::CreateOp>(loc, type, re, im);
  };
  auto constant = [&](double re, ComplexType type) {
    return complexConstant(b, loc, type, re);
  };
  switch (kind) {
  case OpKind::Complex:
    return make(in[0], in[1], complexType);
  case OpKind::Real:
    return Value(b.create<complex::ReOp>(loc, in[0]));
  case OpKind::Imag:
    return Value(b.create<complex::ImOp>(loc, in[0]));
  case OpKind::ComplexAbs:
    return Value(b.create<complex::AbsOp>(loc, in[0]));
  case OpKind::Angle:
    return Value(b.create<math::Atan2Op>(loc, b.create<complex::ImOp>(loc, in[0]),
                                         b.create<complex::ReOp>(loc, in[0])));
  case OpKind::Equal:
    return Value(b.create<complex::EqualOp>(loc, in[0], in[1]));
  case OpKind::NotEqual:
    return Value(b.create<complex::NotEqualOp>(loc, in[0], in[1]));
  case OpKind::Select:
  case OpKind::SelectV2:
    return Value(b.create<arith::SelectOp>(loc, in[0], in[1], in[2]));
  case OpKind::Cast: {
    // Real to complex: the imaginary part 0; complex to real: the real
    // part, as TensorFlow's Cast (complex to bool: x != 0).
    if (complexType) {
      Type part = complexType.getElementType();
      if (auto from = dyn_cast<ComplexType>(operandElement))
        return make(castScalar(b, loc, b.create<complex::ReOp>(loc, in[0]),
                               from.getElementType(), part),
                    castScalar(b, loc, b.create<complex::ImOp>(loc, in[0]),
                               from.getElementType(), part),
                    complexType);
      return make(castScalar(b, loc, in[0], operandElement, part),
                  b.create<arith::ConstantOp>(loc, b.getFloatAttr(part, 0.0)),
                  complexType);
    }
    auto from = cast<ComplexType>(operandElement);
    if (element.isInteger(1))
      return Value(b.create<complex::NotEqualOp>(
          loc, in[0], constant(0.0, from)));
    return castScalar(b, loc, b.create<complex::ReOp>(loc, in[0]),
                      from.getElementType(), element);
  }
  default:
    break;
  }
  if (!complexType)
    return step.error(node) << "no code generation for this op on "
                            << operandElement;
  switch (kind) {
  case OpKind::Add:
  case OpKind::AddV2:
    return Value(b.create<complex::AddOp>(loc, in[0], in[1]));
  case OpKind::AddN:
  case OpKind::AccumulateNV2: {
    Value sum = in[0];
    for (Value v : in.drop_front())
      sum = b.create<complex::AddOp>(loc, sum, v);
    return sum;
  }
  case OpKind::Sub:
    return Value(b.create<complex::SubOp>(loc, in[0], in[1]));
  case OpKind::Mul:
    return Value(b.create<complex::MulOp>(loc, in[0], in[1]));
  case OpKind::RealDiv:
  case OpKind::Div:
    return Value(b.create<complex::DivOp>(loc, in[0], in[1]));
  case OpKind::DivNoNan:
  case OpKind::MulNoNan: {
    // 0 where y is 0 (tf.sign of a complex number divides by its modulus
    // so).
    Value product = kind == OpKind::DivNoNan
                        ? Value(b.create<complex::DivOp>(loc, in[0], in[1]))
                        : Value(b.create<complex::MulOp>(loc, in[0], in[1]));
    Value zero = constant(0.0, complexType);
    return Value(b.create<arith::SelectOp>(
        loc, b.create<complex::EqualOp>(loc, in[1], zero), zero, product));
  }
  case OpKind::Reciprocal:
  case OpKind::Inv:
    return Value(b.create<complex::DivOp>(loc, constant(1.0, complexType), in[0]));
  case OpKind::Neg:
    return Value(b.create<complex::NegOp>(loc, in[0]));
  case OpKind::Conj:
    return Value(b.create<complex::ConjOp>(loc, in[0]));
  case OpKind::Square:
    return Value(b.create<complex::MulOp>(loc, in[0], in[0]));
  case OpKind::SquaredDifference: {
    // TensorFlow's: (x - y) * conj(x - y), a real value as a complex one.
    Value d = b.create<complex::SubOp>(loc, in[0], in[1]);
    return Value(b.create<complex::MulOp>(loc, d, b.create<complex::ConjOp>(loc, d)));
  }
  case OpKind::Sign:
    return Value(b.create<complex::SignOp>(loc, in[0]));
  case OpKind::Exp:
    return Value(b.create<complex::ExpOp>(loc, in[0]));
  case OpKind::Log:
    return Value(b.create<complex::LogOp>(loc, in[0]));
  case OpKind::Sqrt:
    return Value(b.create<complex::SqrtOp>(loc, in[0]));
  case OpKind::Rsqrt:
    return Value(b.create<complex::RsqrtOp>(loc, in[0]));
  case OpKind::Sin:
    return Value(b.create<complex::SinOp>(loc, in[0]));
  case OpKind::Cos:
    return Value(b.create<complex::CosOp>(loc, in[0]));
  case OpKind::Tan:
    return Value(b.create<complex::TanOp>(loc, in[0]));
  case OpKind::Tanh:
    return Value(b.create<complex::TanhOp>(loc, in[0]));
  case OpKind::Pow:
    return Value(b.create<complex::PowOp>(loc, in[0], in[1]));
  case OpKind::ZerosLike:
    return constant(0.0, complexType);
  case OpKind::OnesLike:
    return constant(1.0, complexType);
  default:
    return step.error(node) << "no code generation for this op on " << element;
  }
}

/// The scalar computation of one elementwise node on element values.
static FailureOr<Value> emitScalar(StepEmitter &step, Operation *node,
                                   ArrayRef<Value> in, Location loc) {
  OpKind kind = opKindOf(node);
  Type element = elementOf(tfg::getDataResults(node)[0]);
  // Comparisons compute in their operands' type; everything else in the
  // result's.
  Type operandElement = tfg::getDataOperands(node).empty()
                            ? element
                            : elementOf(tfg::getDataOperands(node).back());
  if (isa<ComplexType>(element) || isa<ComplexType>(operandElement))
    return emitComplexScalar(step, node, in, loc);
  ScalarBuilder s(step.builder, loc, element);
  ScalarBuilder operands(step.builder, loc, operandElement);
  auto unsupportedType = [&]() -> FailureOr<Value> {
    return step.error(node) << "no code generation for this op on " << element;
  };
  // A C function of the elements, `name` on double and `name`f on float
  // (the C library's, or the runtime's); narrower floats compute in float.
  auto call = [&](StringRef name, ArrayRef<Value> args) -> Value {
    OpBuilder &b = step.builder;
    Type type = element.isF64() ? b.getF64Type() : b.getF32Type();
    SmallVector<Value> widened;
    for (Value arg : args)
      widened.push_back(arg.getType() == type
                            ? arg
                            : Value(b.create<arith::ExtFOp>(loc, type, arg)));
    std::string symbol = (name + (element.isF64() ? "" : "f")).str();
    SmallVector<Type> types(args.size(), type);
    func::FuncOp f = step.kernel(symbol, types);
    f.setType(b.getFunctionType(types, type));
    Value result = b.create<func::CallOp>(loc, f, widened).getResult(0);
    return type == element ? result
                           : Value(b.create<arith::TruncFOp>(loc, element, result));
  };

  // Types every kind supports.
  switch (kind) {
  case OpKind::Cast: {
    // Truncate=true from float32 to bfloat16 drops the low 16 mantissa
    // bits (the paper's lossy transfer format) instead of rounding; NaN
    // stays NaN.
    if (boolAttr(node, "Truncate") && operandElement.isF32() &&
        element.isBF16()) {
      Value bits = step.builder.create<arith::BitcastOp>(
          loc, step.builder.getI32Type(), in[0]);
      Value high = step.builder.create<arith::ShRUIOp>(
          loc, bits, step.builder.create<arith::ConstantIntOp>(loc, 16, 32));
      Value half = step.builder.create<arith::TruncIOp>(
          loc, step.builder.getI16Type(), high);
      Value isNan = step.builder.create<arith::CmpFOp>(
          loc, arith::CmpFPredicate::UNO, in[0], in[0]);
      Value quietNan =
          step.builder.create<arith::ConstantIntOp>(loc, 0x7FC0, 16);
      Value chosen =
          step.builder.create<arith::SelectOp>(loc, isNan, quietNan, half);
      return Value(step.builder.create<arith::BitcastOp>(loc, element, chosen));
    }
    // Elsewhere Truncate changes only casts that narrow a float, which
    // round here.
    if (boolAttr(node, "Truncate") && isa<FloatType>(operandElement) &&
        isa<FloatType>(element) &&
        element.getIntOrFloatBitWidth() < operandElement.getIntOrFloatBitWidth())
      return step.error(node) << "Truncate=true is handled only from float32 "
                                 "to bfloat16, not to "
                              << element;
    return castScalar(step.builder, loc, in[0], operandElement, element);
  }
  case OpKind::Equal:
    return operands.compare("eq", in[0], in[1]);
  case OpKind::NotEqual:
    return operands.compare("ne", in[0], in[1]);
  case OpKind::Less:
    return operands.compare("lt", in[0], in[1]);
  case OpKind::LessEqual:
    return operands.compare("le", in[0], in[1]);
  case OpKind::Greater:
    return operands.compare("gt", in[0], in[1]);
  case OpKind::GreaterEqual:
    return operands.compare("ge", in[0], in[1]);
  case OpKind::Select:
  case OpKind::SelectV2:
    return s.select(in[0], in[1], in[2]);
  case OpKind::ZerosLike:
    return s.kind == Kind::Bool
               ? Value(step.builder.create<arith::ConstantIntOp>(loc, 0, 1))
               : s.constant(0);
  case OpKind::OnesLike:
    return s.kind == Kind::Bool
               ? Value(step.builder.create<arith::ConstantIntOp>(loc, 1, 1))
               : s.constant(1);
  case OpKind::LogicalAnd:
    return Value(step.builder.create<arith::AndIOp>(loc, in[0], in[1]));
  case OpKind::LogicalOr:
    return Value(step.builder.create<arith::OrIOp>(loc, in[0], in[1]));
  case OpKind::LogicalNot:
    return Value(step.builder.create<arith::XOrIOp>(
        loc, in[0], step.builder.create<arith::ConstantIntOp>(loc, 1, 1)));
  case OpKind::Bucketize: {
    // The number of boundaries not above x (upper_bound's index: NaN is
    // past them all), compared in float (double for double input).
    OpBuilder &b = step.builder;
    Type compute = operandElement.isF64() ? b.getF64Type() : b.getF32Type();
    Value x = in[0];
    if (!isa<FloatType>(operandElement))
      x = b.create<arith::SIToFPOp>(loc, compute, x);
    Value count = b.create<arith::ConstantIntOp>(loc, 0, 32);
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 32);
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
    if (auto boundaries = node->getAttrOfType<ArrayAttr>("boundaries"))
      for (Attribute boundary : boundaries) {
        double value = cast<FloatAttr>(boundary).getValueAsDouble();
        Value bound = b.create<arith::ConstantOp>(
            loc, b.getFloatAttr(compute, compute.isF32() ? float(value) : value));
        Value below = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, bound);
        count = b.create<arith::AddIOp>(
            loc, count, b.create<arith::SelectOp>(loc, below, zero, one));
      }
    return count;
  }
  case OpKind::ApproximateEqual:
    return operands.compare(
        "lt", step.builder.create<math::AbsFOp>(loc, operands.sub(in[0], in[1])),
        operands.constant(floatAttr(node, "tolerance", 1e-5)));
  case OpKind::IsNan:
    return Value(step.builder.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::UNO, in[0], in[0]));
  case OpKind::IsInf:
  case OpKind::IsFinite: {
    Value magnitude = step.builder.create<math::AbsFOp>(loc, in[0]);
    Value inf = operands.constant(std::numeric_limits<double>::infinity());
    return operands.compare(kind == OpKind::IsInf ? "eq" : "lt", magnitude,
                            inf);
  }
  default:
    break;
  }
  if (s.kind == Kind::Bool)
    return unsupportedType();

  // Arithmetic on numbers.
  switch (kind) {
  case OpKind::Add:
  case OpKind::AddV2:
  case OpKind::BiasAdd:
  case OpKind::BiasAddV1:
    return s.add(in[0], in[1]);
  case OpKind::AddN:
  case OpKind::AccumulateNV2: {
    Value sum = in[0];
    for (Value v : in.drop_front())
      sum = s.add(sum, v);
    return sum;
  }
  case OpKind::Sub:
    return s.sub(in[0], in[1]);
  case OpKind::Mul:
    return s.mul(in[0], in[1]);
  case OpKind::Maximum:
    return s.max(in[0], in[1]);
  case OpKind::Minimum:
    return s.min(in[0], in[1]);
  case OpKind::ClipByValue:
    return s.max(s.min(in[0], in[2]), in[1]);
  case OpKind::SquaredDifference: {
    Value d = s.sub(in[0], in[1]);
    return s.mul(d, d);
  }
  case OpKind::Square:
    return s.mul(in[0], in[0]);
  case OpKind::Neg:
    return s.isFloat() ? Value(step.builder.create<arith::NegFOp>(loc, in[0]))
                       : s.sub(s.constant(0), in[0]);
  case OpKind::Relu:
    return s.max(in[0], s.constant(0)); // NaN propagates, as in TensorFlow.
  case OpKind::Relu6:
    return s.min(s.max(in[0], s.constant(0)), s.constant(6));
  case OpKind::Sign: {
    Value zero = s.constant(0);
    Value sign = s.select(s.compare("gt", in[0], zero), s.constant(1), zero);
    if (s.isUnsigned())
      return sign;
    sign = s.select(s.compare("lt", in[0], zero), s.constant(-1), sign);
    // NaN keeps its sign: NaN.
    return s.isFloat() ? s.select(s.compare("ne", in[0], in[0]), in[0], sign)
                       : sign;
  }
  default:
    break;
  }
  if (!s.isFloat()) {
    if (llvm::is_contained({OpKind::Div, OpKind::TruncateDiv, OpKind::FloorDiv,
                            OpKind::TruncateMod, OpKind::Mod, OpKind::FloorMod},
                           kind))
      checkDivisor(step, node, in[1], loc);
    switch (kind) {
    case OpKind::Abs:
      return s.isUnsigned()
                 ? in[0]
                 : Value(step.builder.create<math::AbsIOp>(loc, in[0]));
    case OpKind::Div:
    case OpKind::TruncateDiv:
      return s.intDivide(in[0], in[1], /*floor=*/false);
    case OpKind::FloorDiv:
      return s.intDivide(in[0], in[1], /*floor=*/!s.isUnsigned());
    case OpKind::TruncateMod:
    case OpKind::Mod:
      return s.intRemainder(in[0], in[1]);
    case OpKind::FloorMod:
      return s.floorMod(in[0], in[1]);
    case OpKind::Reciprocal:
    case OpKind::Inv:
      return s.intDivide(s.constant(1), in[0], /*floor=*/false);
    case OpKind::Pow:
      return Value(step.builder.create<math::IPowIOp>(loc, in[0], in[1]));
    case OpKind::Floor:
    case OpKind::Ceil:
    case OpKind::Round:
    case OpKind::Rint:
      return in[0];
    case OpKind::PopulationCount:
      return castScalar(step.builder, loc,
                        step.builder.create<math::CtPopOp>(loc, in[0]),
                        operandElement, element);
    case OpKind::BitwiseAnd:
      return Value(step.builder.create<arith::AndIOp>(loc, in[0], in[1]));
    case OpKind::BitwiseOr:
      return Value(step.builder.create<arith::OrIOp>(loc, in[0], in[1]));
    case OpKind::BitwiseXor:
      return Value(step.builder.create<arith::XOrIOp>(loc, in[0], in[1]));
    case OpKind::Invert:
      return Value(step.builder.create<arith::XOrIOp>(loc, in[0], s.constant(-1)));
    case OpKind::LeftShift:
    case OpKind::RightShift: {
      // TensorFlow clamps the shift to [0, bits - 1]; a right shift of a
      // signed integer is arithmetic.
      int64_t bits = element.getIntOrFloatBitWidth();
      Value shift = s.max(s.min(in[1], s.constant(bits - 1)), s.constant(0));
      if (kind == OpKind::LeftShift)
        return Value(step.builder.create<arith::ShLIOp>(loc, in[0], shift));
      return s.isUnsigned()
                 ? Value(step.builder.create<arith::ShRUIOp>(loc, in[0], shift))
                 : Value(step.builder.create<arith::ShRSIOp>(loc, in[0], shift));
    }
    default:
      return unsupportedType();
    }
  }

  // Floating point.
  auto one = [&] { return s.constant(1); };
  // What the op table's floatBody declarations see (OpTableBase.td).
  OpBuilder &b = step.builder;
  Value x = in[0];
  Value y = in.size() > 1 ? in[1] : Value();
  Value z = in.size() > 2 ? in[2] : Value();
  (void)y, (void)z;
  // float32's transcendental functions as arithmetic that vectorizes
  // (MathApproximations.h); double keeps the C library's.
  if (element.isF32()) {
    switch (kind) {
    case OpKind::Tanh:
      return buildTanhF32(b, loc, x);
    case OpKind::Sigmoid:
      return buildSigmoidF32(b, loc, x);
    case OpKind::Erf:
      return buildErfF32(b, loc, x);
    case OpKind::Erfc:
      return buildErfcF32(b, loc, x);
    default:
      break;
    }
  }
  switch (kind) {
#define GET_ELEMENTWISE_FLOAT_BODIES
#include "tfc/Transforms/OpTable.inc"
  case OpKind::RealDiv:
  case OpKind::Div:
    return Value(step.builder.create<arith::DivFOp>(loc, in[0], in[1]));
  case OpKind::DivNoNan:
  case OpKind::MulNoNan: {
    Value product =
        kind == OpKind::DivNoNan
            ? Value(step.builder.create<arith::DivFOp>(loc, in[0], in[1]))
            : s.mul(in[0], in[1]);
    return s.select(s.compare("eq", in[1], s.constant(0)), s.constant(0),
                    product);
  }
  case OpKind::FloorDiv:
    return Value(step.builder.create<math::FloorOp>(
        loc, step.builder.create<arith::DivFOp>(loc, in[0], in[1])));
  case OpKind::TruncateDiv:
    return Value(step.builder.create<math::TruncOp>(
        loc, step.builder.create<arith::DivFOp>(loc, in[0], in[1])));
  case OpKind::FloorMod:
    return s.floorMod(in[0], in[1]);
  case OpKind::TruncateMod:
  case OpKind::Mod:
    return Value(step.builder.create<arith::RemFOp>(loc, in[0], in[1]));
  case OpKind::Pow:
    return Value(step.builder.create<math::PowFOp>(loc, in[0], in[1]));
  case OpKind::Abs:
    return Value(step.builder.create<math::AbsFOp>(loc, in[0]));
  case OpKind::Reciprocal:
  case OpKind::Inv:
    return Value(step.builder.create<arith::DivFOp>(loc, one(), in[0]));
  case OpKind::Exp:
    return s.exp(in[0]);
  // 0 where x is 0, whatever y.
  case OpKind::Xdivy:
  case OpKind::Xlogy:
  case OpKind::Xlog1py: {
    Value right = kind == OpKind::Xdivy
                      ? Value(b.create<arith::DivFOp>(loc, x, y))
                      : s.mul(x, kind == OpKind::Xlogy
                                     ? Value(b.create<math::LogOp>(loc, y))
                                     : call("log1p", y));
    return s.select(s.compare("eq", x, s.constant(0)), s.constant(0), right);
  }
  // MLIR 19 lowers log1p and expm1 as log(1 + x) and exp(x) - 1, which
  // lose small arguments: call the C library.
  case OpKind::Log1p:
    return call("log1p", x);
  case OpKind::Expm1:
    return call("expm1", x);
  // No erfc in MLIR 19's math dialect, and 1 - erf(x) loses the tail.
  case OpKind::Erfc:
    return call("erfc", x);
  case OpKind::Floor:
    return Value(step.builder.create<math::FloorOp>(loc, in[0]));
  case OpKind::Ceil:
    return Value(step.builder.create<math::CeilOp>(loc, in[0]));
  case OpKind::Round:
  case OpKind::Rint: // Half to even, as TensorFlow.
    return Value(step.builder.create<math::RoundEvenOp>(loc, in[0]));
  case OpKind::Sigmoid: {
    Value e = s.exp(step.builder.create<arith::NegFOp>(loc, in[0]));
    return Value(
        step.builder.create<arith::DivFOp>(loc, one(), s.add(one(), e)));
  }
  case OpKind::Softsign:
    return Value(step.builder.create<arith::DivFOp>(
        loc, in[0],
        s.add(step.builder.create<math::AbsFOp>(loc, in[0]), one())));
  case OpKind::Softplus: {
    // Linear above -threshold, exponential below threshold.
    double threshold =
        std::log(element.isF64() ? std::numeric_limits<double>::epsilon()
                                 : std::numeric_limits<float>::epsilon()) +
        2.0;
    Value e = s.exp(in[0]);
    Value middle =
        Value(step.builder.create<math::LogOp>(loc, s.add(e, one())));
    Value low =
        s.select(s.compare("lt", in[0], s.constant(threshold)), e, middle);
    return s.select(s.compare("gt", in[0], s.constant(-threshold)), in[0], low);
  }
  case OpKind::Elu:
  case OpKind::Selu: {
    bool selu = kind == OpKind::Selu;
    Value negative = s.sub(s.exp(in[0]), one());
    Value positive = in[0];
    if (selu) {
      negative = s.mul(negative, s.constant(1.7580993408473768599402175208123));
      positive = s.mul(positive, s.constant(1.0507009873554804934193349852946));
    }
    return s.select(s.compare("lt", in[0], s.constant(0)), negative, positive);
  }
  case OpKind::LeakyRelu:
    return s.select(s.compare("gt", in[0], s.constant(0)), in[0],
                    s.mul(in[0], s.constant(floatAttr(node, "alpha", 0.2))));
  // Gradients, as TensorFlow's functors write them. (value, gradient):
  case OpKind::TanhGrad:
    return s.mul(in[1], s.sub(one(), s.mul(in[0], in[0])));
  case OpKind::SigmoidGrad:
    return s.mul(s.mul(in[1], in[0]), s.sub(one(), in[0]));
  case OpKind::RsqrtGrad:
    return s.mul(s.mul(s.constant(-0.5), s.mul(in[1], in[0])),
                 s.mul(in[0], in[0]));
  case OpKind::SqrtGrad:
    return Value(step.builder.create<arith::DivFOp>(
        loc, s.mul(s.constant(0.5), in[1]), in[0]));
  case OpKind::ReciprocalGrad:
  case OpKind::InvGrad:
    return s.mul(s.mul(step.builder.create<arith::NegFOp>(loc, in[1]), in[0]),
                 in[0]);
  default:
    break;
  }
  // (gradient, features or outputs):
  Value zero = s.constant(0);
  switch (kind) {
  case OpKind::ReluGrad:
    return s.select(s.compare("gt", in[1], zero), in[0], zero);
  case OpKind::Relu6Grad:
    return s.select(step.builder.create<arith::AndIOp>(
                        loc, s.compare("gt", in[1], zero),
                        s.compare("lt", in[1], s.constant(6))),
                    in[0], zero);
  case OpKind::EluGrad:
    return s.select(s.compare("lt", in[1], zero),
                    s.mul(s.add(in[1], one()), in[0]), in[0]);
  case OpKind::SeluGrad:
    return s.select(
        s.compare("lt", in[1], zero),
        s.mul(in[0],
              s.add(in[1], s.constant(1.7580993408473768599402175208123))),
        s.mul(in[0], s.constant(1.0507009873554804934193349852946)));
  case OpKind::LeakyReluGrad:
    return s.select(s.compare("gt", in[1], zero), in[0],
                    s.mul(in[0], s.constant(floatAttr(node, "alpha", 0.2))));
  case OpKind::SoftplusGrad:
    return Value(step.builder.create<arith::DivFOp>(
        loc, in[0],
        s.add(s.exp(step.builder.create<arith::NegFOp>(loc, in[1])), one())));
  case OpKind::SoftsignGrad: {
    Value d = s.add(one(), step.builder.create<math::AbsFOp>(loc, in[1]));
    return Value(step.builder.create<arith::DivFOp>(loc, in[0], s.mul(d, d)));
  }
  default:
    return step.error(node) << "no code generation for this op yet";
  }
}

namespace {

/// A fusion group (tfc-fuse-elementwise), or an elementwise node alone (a
/// group of one): one linalg.generic whose inputs are the group's inputs,
/// broadcast to the root's shape; a convolution or a max pooling gradient
/// and what its kernel applies: one kernel call.
class GroupPattern : public NodePattern {
public:
  using NodePattern::NodePattern;

private:
  /// What a kernel applies after `producer` as it writes: the epilogue
  /// `chain` (tfc-fuse-elementwise's) read into an Epilogue whose root is
  /// the chain's last node, or the producer when the chain is empty.
  FailureOr<Epilogue> epilogueOf(Operation *producer,
                                 ArrayRef<Operation *> chain) const {
    Epilogue epilogue;
    epilogue.root = chain.empty() ? producer : chain.back();
    Value value = tfg::getDataResults(producer)[0];
    Operation *previous = producer;
    for (Operation *member : chain) {
      OpKind kind = opKindOf(member);
      // Swish, hard swish or GELU: the members left are its nodes.
      if (std::optional<ActivationNodes> activation = activationOf(previous)) {
        epilogue.activation = activation->kind;
        break;
      }
      if (kind == OpKind::Reshape) {
        // A dense layer's rows, reshaped: the same buffer.
      } else if (kind == OpKind::Relu || kind == OpKind::Relu6) {
        epilogue.activation = kind == OpKind::Relu ? TFC_ACTIVATION_RELU
                                                   : TFC_ACTIVATION_RELU6;
      } else if (kind == OpKind::Add || kind == OpKind::AddV2 ||
                 kind == OpKind::BiasAdd) {
        OperandRange in = tfg::getDataOperands(member);
        Value other = in[0] == value ? in[1] : in[0];
        if (other.getType() == value.getType())
          epilogue.residual = other;
        else
          epilogue.bias = other;
      } else {
        // tfc-fuse-elementwise put nothing else in an epilogue.
        return step.error(member) << "not part of an epilogue";
      }
      value = tfg::getDataResults(member)[0];
      previous = member;
    }
    return epilogue;
  }

protected:
  LogicalResult lower(Operation *node) const override {
    // Members in dependency order, the root last. Inside a group, the
    // members read the group's inputs as block arguments, and the root's
    // value is the group's (memrefFor).
    SmallVector<Operation *> members = nodesComputedBy(node);
    Operation *root = members.back();
    Location loc = root->getLoc();
    Value rootResult = tfg::getDataResults(root)[0];
    auto outType = cast<RankedTensorType>(rootResult.getType());
    int64_t rank = outType.getRank();
    llvm::DenseSet<Operation *> inGroup(members.begin(), members.end());

    // A max pooling gradient and its ReluGrad: one kernel call.
    if (opKindOf(members.front()) == OpKind::MaxPoolGrad)
      return step.emitWindowGradient(members.front(), root);
    // Attention: one kernel call.
    if (isBatchedProduct(members.front()) && !denseLayerOf(members.front()))
      return step.emitAttention(members);
    auto isKind = [](OpKind kind) {
      return [kind](Operation *member) { return opKindOf(member) == kind; };
    };
    // An expansion and the depthwise convolution after it, each with its
    // epilogue: one kernel call.
    auto depthwise =
        llvm::find_if(members, isKind(OpKind::DepthwiseConv2dNative));
    if (opKindOf(members.front()) == OpKind::Conv2D &&
        depthwise != members.end()) {
      ArrayRef<Operation *> all(members);
      size_t at = depthwise - members.begin();
      FailureOr<Epilogue> pointwise =
          epilogueOf(all.front(), all.slice(1, at - 1));
      FailureOr<Epilogue> second = epilogueOf(*depthwise, all.drop_front(at + 1));
      if (failed(pointwise) || failed(second))
        return failure();
      return step.emitPointwiseDepthwise(all.front(), *pointwise, *depthwise,
                                         *second);
    }
    // A depthwise convolution (maybe after a ReLU it applies to its input)
    // and the 1x1 convolution after it, each with its epilogue, maybe a
    // MaxPool of the 1x1's output last: one kernel call. Two such groups
    // where the second's depthwise reads the first's output (a pair),
    // likewise.
    auto separableGroup = [&](ArrayRef<Operation *> all)
        -> FailureOr<StepEmitter::SeparableGroup> {
      StepEmitter::SeparableGroup group;
      if (opKindOf(all.back()) == OpKind::MaxPool) {
        group.pool = all.back();
        all = all.drop_back();
      }
      auto depthwiseAt =
          llvm::find_if(all, isKind(OpKind::DepthwiseConv2dNative));
      auto pointwiseAt =
          std::find_if(depthwiseAt, all.end(), isKind(OpKind::Conv2D));
      if (pointwiseAt == all.end())
        return failure();
      size_t at = depthwiseAt - all.begin(), pat = pointwiseAt - all.begin();
      group.inputActivation = at == 1 ? all.front() : nullptr;
      group.depthwise = all[at];
      group.pointwise = all[pat];
      FailureOr<Epilogue> first =
          epilogueOf(group.depthwise, all.slice(at + 1, pat - at - 1));
      FailureOr<Epilogue> second =
          epilogueOf(group.pointwise, all.drop_front(pat + 1));
      if (failed(first) || failed(second))
        return failure();
      group.first = *first;
      group.second = *second;
      return group;
    };
    auto pointwise =
        std::find_if(depthwise, members.end(), isKind(OpKind::Conv2D));
    if (pointwise != members.end()) {
      ArrayRef<Operation *> all(members);
      // A pair's second group starts at its depthwise convolution.
      auto secondDepthwise = std::find_if(
          pointwise, members.end(), isKind(OpKind::DepthwiseConv2dNative));
      size_t split = secondDepthwise - members.begin();
      FailureOr<StepEmitter::SeparableGroup> first =
          separableGroup(all.take_front(split));
      if (failed(first))
        return failure();
      if (split == all.size())
        return step.emitDepthwisePointwise(*first);
      FailureOr<StepEmitter::SeparableGroup> second =
          separableGroup(all.drop_front(split));
      if (failed(second))
        return failure();
      return step.emitSeparablePair(*first, *second);
    }
    // A convolution or a dense layer and its epilogue: one kernel call.
    if (!isElementwise(members.front())) {
      Operation *producer = members.front();
      FailureOr<Epilogue> epilogue =
          epilogueOf(producer, ArrayRef(members).drop_front());
      if (failed(epilogue))
        return failure();
      if (denseLayerOf(producer))
        return step.emitDense(producer, &*epilogue);
      return step.emitWindow(producer, &*epilogue);
    }

    // External tensor values with the map each is read through; a value
    // read two ways (Select's row condition) is two inputs.
    SmallVector<std::pair<Value, AffineMap>> inputs;
    auto mapOf = [&](Operation *member, unsigned index, Value operand) {
      auto type = cast<RankedTensorType>(operand.getType());
      // Select (v1): a vector condition picks whole rows of higher-rank x.
      if (opKindOf(member) == OpKind::Select && index == 0 &&
          type.getRank() == 1 && rank > 1)
        return AffineMap::get(rank, 0, step.builder.getAffineDimExpr(0),
                              step.context);
      // BiasAdd on NCHW: the bias runs along dim 1.
      auto format = member->getAttrOfType<StringAttr>("data_format");
      if (opKindOf(member) == OpKind::BiasAdd && index == 1 && format &&
          format.getValue() == "NCHW" && rank >= 2)
        return AffineMap::get(rank, 0, step.builder.getAffineDimExpr(1),
                              step.context);
      // Right-aligned broadcasting: size-1 (and missing) dims read index 0.
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        int64_t outDim = rank - type.getRank() + d;
        exprs.push_back(type.getDimSize(d) == 1 &&
                                outType.getDimSize(outDim) != 1
                            ? step.builder.getAffineConstantExpr(0)
                            : step.builder.getAffineDimExpr(outDim));
      }
      return AffineMap::get(rank, 0, exprs, step.context);
    };
    // Nodes that read only their input's shape read no element of it.
    auto readsElements = [](Operation *member) {
      OpKind kind = opKindOf(member);
      return kind != OpKind::ZerosLike && kind != OpKind::OnesLike;
    };
    for (Operation *member : members) {
      if (!readsElements(member))
        continue;
      for (auto [index, operand] :
           llvm::enumerate(tfg::getDataOperands(member))) {
        if (inGroup.contains(operand.getDefiningOp()))
          continue;
        std::pair<Value, AffineMap> input(operand,
                                          mapOf(member, index, operand));
        if (!llvm::is_contained(inputs, input))
          inputs.push_back(input);
      }
    }
    SmallVector<Value> inputMemrefs;
    SmallVector<AffineMap> maps;
    for (auto [value, map] : inputs) {
      Value memref = step.memrefFor(value);
      if (!memref)
        return step.error(root) << "an input has no buffer";
      inputMemrefs.push_back(memref);
      maps.push_back(map);
    }
    maps.push_back(step.builder.getMultiDimIdentityMap(rank));
    FailureOr<Value> output = step.outputFor(root);
    if (failed(output))
      return failure();

    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    LogicalResult result = success();
    step.builder.create<linalg::GenericOp>(
        loc, inputMemrefs, *output, maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          OpBuilder::InsertionGuard guard(step.builder);
          step.builder.setInsertionPoint(nested.getInsertionBlock(),
                                         nested.getInsertionPoint());
          // The scalar of each (value, map) read, and of each member.
          llvm::DenseMap<Value, Value> scalars;
          auto scalarOf = [&](Operation *member, unsigned index,
                              Value operand) {
            if (Value computed = scalars.lookup(operand))
              return computed;
            auto it = llvm::find(
                inputs, std::make_pair(operand, mapOf(member, index, operand)));
            return Value(args[it - inputs.begin()]);
          };
          Value last;
          for (Operation *member : members) {
            SmallVector<Value> in;
            if (readsElements(member))
              for (auto [index, operand] :
                   llvm::enumerate(tfg::getDataOperands(member)))
                in.push_back(scalarOf(member, index, operand));
            FailureOr<Value> v = emitScalar(step, member, in, nestedLoc);
            if (failed(v)) {
              result = failure();
              v = Value(args.back()); // Keep the body well formed.
            }
            scalars[tfg::getDataResults(member)[0]] = *v;
            last = *v;
          }
          step.builder.create<linalg::YieldOp>(nestedLoc, last);
        });
    return result;
  }
};

} // namespace

void populateElementwisePatterns(CodegenPatterns &patterns) {
  patterns.add<GroupPattern>("Group");
  patterns.addForFusionGroups<GroupPattern>();
}

} // namespace tfc
