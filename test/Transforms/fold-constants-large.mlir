// Tests tfc-fold-constants on results larger than TensorFlow's 10 MiB
// limit: a 12 MiB filter scaled per output channel folds (the product
// replaces the filter, no larger than it), while a 12 MiB broadcast of two
// small constants stays an op.
// RUN: tfc-opt %s -tfc-fold-constants | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: Const name("scaled") {dtype = f32, value = dense<6.000000e+00> : tensor<1536x2048xf32>}
// CHECK-DAG: %[[OUTER:.*]]:2 = Mul(%{{.*}}#0, %{{.*}}#0) name("outer")
// CHECK-NOT: Mul(
// CHECK-DAG: AddV2(%{{.*}}#0, %[[OUTER]]#0) name("z")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %w:2 = Const name("w") {dtype = f32, value = dense<2.0> : tensor<1536x2048xf32>} : () -> tensor<1536x2048xf32>
  %tiled:2 = Const name("t") {dtype = f32, value = dense<3.0> : tensor<2048xf32>} : () -> tensor<2048xf32>
  %scaled:2 = Mul(%w#0, %tiled#0) name("scaled") {T = f32} : (tensor<1536x2048xf32>, tensor<2048xf32>) -> tensor<1536x2048xf32>
  %column:2 = Const name("column") {dtype = f32, value = dense<1.5> : tensor<1536x1xf32>} : () -> tensor<1536x1xf32>
  %outer:2 = Mul(%column#0, %tiled#0) name("outer") {T = f32} : (tensor<1536x1xf32>, tensor<2048xf32>) -> tensor<1536x2048xf32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1536x2048>} : () -> tensor<1536x2048xf32>
  %y:2 = AddV2(%x#0, %scaled#0) name("y") {T = f32} : (tensor<1536x2048xf32>, tensor<1536x2048xf32>) -> tensor<1536x2048xf32>
  %z:2 = AddV2(%y#0, %outer#0) name("z") {T = f32} : (tensor<1536x2048xf32>, tensor<1536x2048xf32>) -> tensor<1536x2048xf32>
}
