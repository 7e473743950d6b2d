// Tests tfc-decompose-batch-norm: an inference FusedBatchNormV3 becomes
// x * s + b with s = scale * rsqrt(variance + epsilon), b = offset - mean *
// s, keeping its name and users; NCHW reshapes s and b to [C, 1, 1]; its
// statistics outputs' users read its mean and variance inputs (an empty
// constant for reserve_space_3); a training node stays.
// RUN: tfc-opt %s -split-input-file -tfc-decompose-batch-norm | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[EPS:.*]]:2 = Const name("bn/epsilon") {dtype = f32, value = dense<1.000000e-03> : tensor<f32>}
// CHECK-DAG: %[[VE:.*]]:2 = AddV2(%[[V:.*]]#0, %[[EPS]]#0) name("bn/variance_epsilon")
// CHECK-DAG: %[[INV:.*]]:2 = Rsqrt(%[[VE]]#0) name("bn/inverse_stddev")
// CHECK-DAG: %[[S:.*]]:2 = Mul(%[[SCALE:.*]]#0, %[[INV]]#0) name("bn/scale_factor")
// CHECK-DAG: %[[MS:.*]]:2 = Mul(%[[MEAN:.*]]#0, %[[S]]#0) name("bn/mean_scaled")
// CHECK-DAG: %[[B:.*]]:2 = Sub(%[[OFFSET:.*]]#0, %[[MS]]#0) name("bn/shift")
// CHECK-DAG: %[[XS:.*]]:2 = Mul(%[[X:.*]]#0, %[[S]]#0) name("bn/scaled")
// CHECK-DAG: %[[Y:.*]]:2 = AddV2(%[[XS]]#0, %[[B]]#0) name("bn") {T = f32}
// CHECK-DAG: Relu(%[[Y]]#0) name("relu")
// CHECK-NOT: FusedBatchNormV3
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3x3x4>} : () -> tensor<2x3x3x4xf32>
  %c:2 = Placeholder name("c") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %c#0, %c#0, %c#0, %c#0) name("bn") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.000000e-03 : f32, exponential_avg_factor = 1.000000e+00 : f32, is_training = false} : (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<*xf32>)
  %r:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[SHAPE:.*]]:2 = Const name("bn/channel_shape") {dtype = i32, value = dense<[4, 1, 1]> : tensor<3xi32>}
// CHECK-DAG: Reshape(%{{.*}}#0, %[[SHAPE]]#0) name("bn/scale_factor_nchw") {T = f32, Tshape = i32} : (tensor<4xf32>, tensor<3xi32>) -> tensor<4x1x1xf32>
// CHECK-DAG: Reshape(%{{.*}}#0, %[[SHAPE]]#0) name("bn/shift_nchw")
// CHECK-DAG: AddV2({{.*}}) name("bn") {T = f32} : (tensor<2x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x4x3x3>} : () -> tensor<2x4x3x3xf32>
  %c:2 = Placeholder name("c") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %c#0, %c#0, %c#0, %c#0) name("bn") {T = f32, U = f32, data_format = "NCHW", epsilon = 1.000000e-03 : f32, is_training = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<*xf32>)
  %r:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[M:.*]]:2 = Placeholder name("m")
// CHECK-DAG: %[[V:.*]]:2 = Placeholder name("v")
// CHECK-DAG: %[[E:.*]]:2 = Const name("statistics_used/reserve_space_3") {dtype = f32, value = dense<> : tensor<0xf32>}
// CHECK-DAG: FusedBatchNormV3({{.*}}) name("training")
// CHECK-DAG: Identity(%[[M]]#0) name("batch_mean_used")
// CHECK-DAG: Identity(%[[V]]#0) name("batch_variance_used")
// CHECK-DAG: FusedBatchNormGradV3(%{{.*}}#0, %{{.*}}#0, %{{.*}}#0, %[[M]]#0, %[[V]]#0, %[[E]]#0) name("frozen_grad")
// CHECK-NOT: name("statistics_used") {{.*}}FusedBatchNormV3
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3x3x4>} : () -> tensor<2x3x3x4xf32>
  %c:2 = Placeholder name("c") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %m:2 = Placeholder name("m") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %v:2 = Placeholder name("v") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %t:7 = FusedBatchNormV3(%x#0, %c#0, %c#0, %c#0, %c#0) name("training") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.000000e-03 : f32, is_training = true} : (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<*xf32>)
  // A frozen batch norm of a fine-tuned model: its gradient reads its
  // statistics outputs.
  %s:7 = FusedBatchNormV3(%x#0, %c#0, %c#0, %m#0, %v#0) name("statistics_used") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.000000e-03 : f32, is_training = false} : (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<*xf32>)
  %bm:2 = Identity(%s#1) name("batch_mean_used") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %bv:2 = Identity(%s#2) name("batch_variance_used") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %g:6 = FusedBatchNormGradV3(%s#0, %x#0, %c#0, %s#3, %s#4, %s#5) name("frozen_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.000000e-03 : f32, is_training = false} : (tensor<2x3x3x4xf32>, tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<*xf32>) -> (tensor<2x3x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<0xf32>, tensor<0xf32>)
}
