// Tests tfc-fuse-elementwise: chains fuse into their consumer's group; a
// value used twice, a shape change, a non-elementwise consumer or another
// device ends a group.
// RUN: tfc-opt %s -split-input-file -tfc-fuse-elementwise | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: AddV2({{.*}}) name("add") {T = f32, tfc.fused_into = "relu"}
// CHECK-DAG: Mul({{.*}}) name("mul") {T = f32, tfc.fused_into = "relu"}
// CHECK-DAG: Relu({{.*}}) name("relu") {T = f32}
// CHECK-DAG: Exp({{.*}}) name("twice") {T = f32}
// CHECK-DAG: Neg({{.*}}) name("small") {T = f32}
// CHECK-DAG: Tanh({{.*}}) name("before_matmul") {T = f32}
// CHECK-DAG: Sigmoid({{.*}}) name("other_device") device("/cpu:1") {T = f32}
// CHECK-DAG: Cast({{.*}}) name("cast") {DstT = f32, SrcT = i32, tfc.fused_into = "sum"}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %y:2 = Placeholder name("y") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<3xf32>
  // add and mul chain into relu (y broadcasts; shapes of the chain agree).
  %add:2 = AddV2(%x#0, %y#0) name("add") {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %mul:2 = Mul(%add#0, %x#0) name("mul") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %relu:2 = Relu(%mul#0) name("relu") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // Used twice: materialized.
  %twice:2 = Exp(%x#0) name("twice") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u1:2 = Neg(%twice#0) name("u1") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u2:2 = Abs(%twice#0) name("u2") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // The consumer has another shape (it broadcasts this value).
  %small:2 = Neg(%y#0) name("small") {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
  %big:2 = AddV2(%x#0, %small#0) name("big") {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // The consumer is a MatMul.
  %t:2 = Tanh(%x#0) name("before_matmul") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3>} : () -> tensor<3x3xf32>
  %mm:2 = MatMul(%t#0, %w#0) name("mm") {T = f32} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %s:2 = Sigmoid(%x#0) name("other_device") device("/cpu:1") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n:2 = Neg(%s#0) name("n") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // A Cast fuses: element types may differ, shapes agree.
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xi32>
  %cast:2 = Cast(%i#0) name("cast") {DstT = f32, SrcT = i32} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %sum:2 = AddV2(%cast#0, %x#0) name("sum") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
}

// -----

// A convolution claims its epilogue: bias (a per-channel vector), then a
// residual (a tensor of the output's shape), then ReLU; the group's root is
// the ReLU and the convolution joins it. The convolution whose output is
// also used elsewhere keeps its value, and its bias stays a loop.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Conv2D({{.*}}) name("conv") {{.*}}tfc.fused_into = "relu"
// CHECK-DAG: AddV2({{.*}}) name("bias") {T = f32, tfc.fused_into = "relu"}
// CHECK-DAG: AddV2({{.*}}) name("residual") {T = f32, tfc.fused_into = "relu"}
// CHECK-DAG: Relu({{.*}}) name("relu") {T = f32}
// CHECK-DAG: Conv2D({{.*}}) name("shared_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]}
// CHECK-DAG: AddV2({{.*}}) name("shared_bias") {T = f32}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x2x2xf32>} : () -> tensor<3x3x2x2xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %conv:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x4x2xf32>
  %bias:2 = AddV2(%conv#0, %b#0) name("bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %res:2 = AddV2(%x#0, %bias#0) name("residual") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %relu:2 = Relu(%res#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sc:2 = Conv2D(%x#0, %w#0) name("shared_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x4x2xf32>
  %sb:2 = AddV2(%sc#0, %b#0) name("shared_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %other:2 = Neg(%sc#0) name("other_use") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A MaxPoolGrad claims the ReluGrad after it when the ReluGrad's features
// are the pooling's input; not when they are another tensor, nor when
// the pooling gradient is used elsewhere too.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: MaxPoolGrad({{.*}}) name("pool_grad") {{.*}}tfc.fused_into = "relu_grad"
// CHECK-DAG: ReluGrad({{.*}}) name("relu_grad") {T = f32}
// CHECK-DAG: MaxPoolGrad({{.*}}) name("other_features_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]}
// CHECK-DAG: MaxPoolGrad({{.*}}) name("shared_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %z:2 = Placeholder name("z") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x2x2x2>} : () -> tensor<1x2x2x2xf32>
  %relu:2 = Relu(%x#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %rg:2 = ReluGrad(%pg#0, %relu#0) name("relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %og:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("other_features_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %org:2 = ReluGrad(%og#0, %z#0) name("other_relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("shared_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %srg:2 = ReluGrad(%sg#0, %relu#0) name("shared_relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sn:2 = Neg(%sg#0) name("shared_use") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A training batch norm takes in the ReLU that alone reads its y: the ReLU
// goes and its users read y. Not an inference batch norm's, nor a ReLU
// that has control inputs.
// CHECK-LABEL: tfg.graph
// CHECK: %[[NORM:[0-9]+]]:7 = FusedBatchNormV3({{.*}}) name("norm") {{.*}}tfc.activation = "Relu"
// CHECK-NOT: name("relu")
// CHECK: Neg(%[[NORM]]#0) name("after_relu")
// CHECK: FusedBatchNormV3({{.*}}) name("inference_norm")
// CHECK-NOT: tfc.activation
// CHECK: Relu({{.*}}) name("inference_relu")
// CHECK: Relu({{.*}}) [{{.*}}] name("controlled_relu")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %s:2 = Const name("s") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %e:2 = Const name("e") {dtype = f32, value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %after:2 = Neg(%relu#0) name("after_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %ibn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %s#0, %s#0) name("inference_norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = false} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %irelu:2 = Relu(%ibn#0) name("inference_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %cbn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("controlled_norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %crelu:2 = Relu(%cbn#0) [%x#1] name("controlled_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}
