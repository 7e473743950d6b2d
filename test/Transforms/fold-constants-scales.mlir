// A batch norm's scale and shift over constant statistics (what
// tfc-decompose-batch-norm leaves for inference), folded by
// tfc-fold-constants itself: Rsqrt, Sqrt and Neg of a Const are computed
// in the pass, as the generated code would (1 / sqrt(x), each operation
// correctly rounded), so no evaluator program runs (`evaluated` stays 0).
// RUN: tfc-opt %s -tfc-fold-constants | FileCheck %s
// RUN: tfc-opt %s -tfc-fold-constants -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// scale = gamma * rsqrt(variance + epsilon) = [2, 3] * rsqrt([4, 0.25]);
// shift = beta + -mean * scale. rsqrt(2) is 1/sqrt(2) rounded to the
// nearest float, 0.707106769 (0.70710677 or 0.707106829 if a step rounded
// otherwise).
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Const name("scale") {dtype = f32, value = dense<[1.000000e+00, 6.000000e+00]> : tensor<2xf32>}
// CHECK-DAG: Const name("shift") {dtype = f32, value = dense<[-5.000000e-01, 6.500000e+00]> : tensor<2xf32>}
// CHECK-DAG: Const name("root") {dtype = f32, value = dense<[2.000000e+00, 5.000000e-01]> : tensor<2xf32>}
// CHECK-DAG: Const name("inverse_root2") {dtype = f32, value = dense<0.707106769> : tensor<f32>}
// CHECK-NOT: Rsqrt(
// CHECK-NOT: Sqrt(
// CHECK-NOT: Neg(
// STATS: FoldConstantsPass
// STATS-NEXT: (S) 9 folded
// STATS-NEXT: (S) 0 evaluated
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %variance:2 = Const name("variance") {dtype = f32, value = dense<[3.0, -0.75]> : tensor<2xf32>} : () -> tensor<2xf32>
  %epsilon:2 = Const name("epsilon") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %gamma:2 = Const name("gamma") {dtype = f32, value = dense<[2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %beta:2 = Const name("beta") {dtype = f32, value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean:2 = Const name("mean") {dtype = f32, value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %sum:2 = AddV2(%variance#0, %epsilon#0) name("sum") {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %inverse:2 = Rsqrt(%sum#0) name("inverse") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %scale:2 = Mul(%gamma#0, %inverse#0) name("scale") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %negated:2 = Neg(%mean#0) name("negated") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %offset:2 = Mul(%negated#0, %scale#0) name("offset") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %shift:2 = AddV2(%beta#0, %offset#0) name("shift") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %root:2 = Sqrt(%sum#0) name("root") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %inverse_root2:2 = Rsqrt(%two#0) name("inverse_root2") {T = f32} : (tensor<f32>) -> tensor<f32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %y:2 = Mul(%x#0, %scale#0) name("y") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %z:2 = AddV2(%y#0, %shift#0) name("z") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r:2 = Mul(%root#0, %inverse_root2#0) name("r") {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
}
