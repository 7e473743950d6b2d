//===- OpTableBase.td - what a declaration of the op table says -*- tablegen -*-===//
//
// The op table (OpTable.td) declares every TensorFlow op type tfc handles:
// what it is (its family), how it becomes code (its lowering), which device
// types have a kernel for it, its shape function, its cost function, whether
// constant folding may evaluate it. Everything else in the compiler asks the
// table (OpTable.h) instead of comparing op type names.
//
// This file defines the vocabulary of those declarations. The table is
// turned into C++ by scripts/gen_op_table.py (from llvm-tblgen's JSON dump)
// at build time: the OpKind enum, the rows of the table, and the code
// generation dispatch. The op's interface (args, attrs, statefulness) is not
// repeated here: it is the op registry's (OpRegistry.h, generated from
// TensorFlow's OpDefs).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TRANSFORMS_OPTABLEBASE_TD
#define TFC_TRANSFORMS_OPTABLEBASE_TD

//===----------------------------------------------------------------------===//
// Families: the kinds of op that passes treat alike.
//===----------------------------------------------------------------------===//

class OpFamily<string doc> {
  string summary = doc;
}

def Structure : OpFamily<"graph structure: arguments, results, constants, "
                         "placeholders, no-ops, identities">;
def Elementwise : OpFamily<"each output element from the elements at the "
                           "same (broadcast) position of the inputs; fused "
                           "into generated loops">;
def Contraction : OpFamily<"matrix products (MatMul, BatchMatMul, Einsum)">;
def Window : OpFamily<"sliding windows: convolutions and pooling">;
def WindowGradient : OpFamily<"gradients of convolutions and pooling">;
def BatchNorm : OpFamily<"fused batch normalization and its gradient">;
def Normalization : OpFamily<"row-wise kernels: softmax, log-softmax, "
                             "cross entropy, local response normalization">;
def LinearAlgebra : OpFamily<"decompositions, determinants and solves of "
                             "batched matrices">;
def Spectral : OpFamily<"discrete Fourier transforms over the innermost "
                        "dimensions">;
def Quantization : OpFamily<"fake quantization of quantization-aware "
                            "training, and its gradients">;
def Reduction : OpFamily<"reductions, scans, arg-min/max, top-k, "
                         "segments, unique">;
def DataMovement : OpFamily<"ops that move or replicate elements, or make a "
                            "tensor from scalars">;
def ShapeOf : OpFamily<"ops whose value is a shape: folded to constants at "
                       "compile time">;
def State : OpFamily<"variables, their reads and updates, optimizers, "
                     "random generators">;
def ControlFlow : OpFamily<"TF1 control flow: Switch, Merge, Enter, Exit, "
                           "NextIteration, LoopCond">;
def Functional : OpFamily<"TF2 functional control flow and calls">;
def Transfer : OpFamily<"Send/Recv between partitions">;
def Checks : OpFamily<"run-time checks that stop the step: Assert, "
                        "CheckNumerics">;
def Checkpoint : OpFamily<"saving and restoring variables">;
def Strings : OpFamily<"string tensors">;
def Summaries : OpFamily<"TensorBoard's summaries, serialized Summary "
                          "protocol buffers">;
def Tables : OpFamily<"lookup tables whose contents are constants of the "
                      "graph (tfc-bind-tables)">;
def Stacks : OpFamily<"stacks of TF1 loop gradients">;
def TensorArrays : OpFamily<"TF1 TensorArrays">;
def Queues : OpFamily<"TensorFlow's queues and accumulators, which outlive "
                      "a step">;
def TensorLists : OpFamily<"TF2 TensorLists and Optionals">;
def Unclassified : OpFamily<"ops whose shape tfc knows but which nothing "
                            "lowers yet">;

//===----------------------------------------------------------------------===//
// Device types.
//===----------------------------------------------------------------------===//

class DeviceType<string name> {
  string deviceName = name;
}
def CPU : DeviceType<"CPU">;
def GPU : DeviceType<"GPU">;

//===----------------------------------------------------------------------===//
// Lowerings: how a node becomes code.
//===----------------------------------------------------------------------===//

class Lowering;

/// Not lowered: the op imports, exports and has a shape, but a graph that
/// still holds it after pruning does not compile (tfc-verify-supported).
def NotLowered : Lowering;

/// The node makes no code of its own: an argument, a constant, a variable
/// (its buffer in the state area), a no-op.
def NoCode : Lowering;

/// Code generation lowers the node with the pattern `name`, which its
/// family's file in lib/Transforms/Codegen adds (populate<Family>Patterns).
class Pattern<string name> : Lowering {
  string pattern = name;
}

/// A graph pass replaces every node of the op before code generation (the
/// pass's flag names it).
class RewrittenBy<string flag> : Lowering {
  string pass = flag;
}

//===----------------------------------------------------------------------===//
// The declaration of one op.
//===----------------------------------------------------------------------===//

class TfcOp<string type, OpFamily opFamily, Lowering opLowering> {
  /// The TensorFlow op type, as the registry names it.
  string opType = type;
  OpFamily family = opFamily;
  Lowering lowering = opLowering;
  /// The device types with a kernel for the op: placement's feasible set
  /// (white paper §3.2.1). GPU lists what TensorFlow 2.21 registers GPU
  /// kernels for among the ops tfc compiles, so that a placement made now
  /// stays valid once GPU code generation exists.
  list<DeviceType> devices = !if(!eq(!cast<string>(opLowering), "NotLowered"),
                                 [], [CPU]);
  /// The shape function (ShapeFunctions.cpp, namespace tfc::shapes), or ""
  /// when shape inference leaves the op's outputs as the importer typed them.
  string shape = "";
  /// The cost function (CostModel.cpp, namespace tfc::costs): floating point
  /// operations of one run.
  string cost = "memoryBound";
  /// Whether output i is input i's memory, maybe with another shape (no
  /// code, no buffer of its own); with `aliasOperand` >= 0, every output is
  /// that input's memory.
  bit alias = 0;
  int aliasOperand = -1;
  /// For TF1's ref-typed variants (RefMerge, RefSwitch, ...), the op they
  /// are the ref form of, which they behave as in every pass; "" for the
  /// others.
  string refFormOf = "";
  /// Whether the op writes a variable it is given (a ref or a resource
  /// handle): assignments, optimizer updates, scatters into variables.
  bit writesVariable = 0;
  /// What the lowering does with the op's attributes, other than those
  /// that its element types and input counts carry (T, dtype, N: the types
  /// check those). One entry per attribute:
  ///   "name"            every value is computed as TensorFlow computes it;
  ///   "name=v1|v2"      only these values are (bools true/false, ints and
  ///                     strings as written, int lists as 1,2,2,1);
  ///   "name:ignored"    no value changes the result (a lock, a name, a
  ///                     hint for another device).
  /// An attribute not listed must have the registry's default value: a node
  /// with another is refused by tfc-verify-supported, naming the attribute,
  /// so that no lowering ever ignores an attribute it does not handle. The
  /// generator refuses entries that name no attribute of the op, and a
  /// lowered op whose required attributes are not all listed.
  list<string> attrs = [];
  /// Whether tfc-fold-constants may evaluate the op, by compiling it, when
  /// its inputs are constants (stateful ops never are, whatever this
  /// says): ops code generation writes. An op a pass rewrites is folded by
  /// that pass, if at all.
  bit folds = !or(!isa<Pattern>(opLowering),
                  !eq(!cast<string>(opLowering), "NoCode"));
}

/// An elementwise op: fused into loops, memory-bound. Its scalar
/// computation is emitScalar's (Codegen/EmitElementwise.cpp) unless
/// `floatBody` gives it.
class ElementwiseOp<string type, string shapeFunction = "sameAsInput0">
    : TfcOp<type, Elementwise, Pattern<"Group">> {
  let shape = shapeFunction;
  /// The op's value on floating point elements, as a C++ expression of an
  /// OpBuilder `b`, a Location `loc` and the input elements `x` (and `y`,
  /// `z`; all of them: `in`), which may call a C function of the elements
  /// with `call("name", in)` (`name` on double, `name`f on float); other
  /// element types are refused. Empty: written in emitScalar.
  code floatBody = "";
}

/// A float op that is one op of MLIR's math dialect on its input: one
/// declaration is all it takes.
class MathUnaryOp<string type, string mathOp> : ElementwiseOp<type> {
  let floatBody = "b.create<math::" # mathOp # ">(loc, x)";
}

/// A binary elementwise op whose inputs broadcast.
class BinaryOp<string type> : ElementwiseOp<type, "broadcastBinary">;

/// An alias: output i is input i, seen with another shape.
class AliasOp<string type, string shapeFunction = "sameAsInput0",
              OpFamily opFamily = Structure>
    : TfcOp<type, opFamily, Pattern<"Alias">> {
  let shape = shapeFunction;
  let alias = 1;
}

/// An op with a shape function that nothing lowers yet.
class KnownOp<string type, string shapeFunction,
              OpFamily opFamily = Unclassified>
    : TfcOp<type, opFamily, NotLowered> {
  let shape = shapeFunction;
}

#endif // TFC_TRANSFORMS_OPTABLEBASE_TD
