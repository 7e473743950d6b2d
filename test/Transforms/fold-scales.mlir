// Tests tfc-fold-scales: a batch norm after a convolution with a bias,
// conv(x, W) + c then * s + b, becomes conv(x, W * s) + (c * s + b): rule B
// pushes the scale through the bias, rule A into the filter, rule C merges
// the shifts. A depthwise filter takes the scale as [C, multiplier], a
// MatMul's as is. Not when the product has another use, or the scale
// varies along a dimension other than the channel.
// RUN: tfc-opt %s -split-input-file -tfc-fold-scales | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[WS:.*]]:2 = Mul(%[[W:.*]]#0, %[[S:.*]]#0) name("bn_mul/scaled/scaled_weights") {T = f32} : (tensor<3x3x2x4xf32>, tensor<4xf32>) -> tensor<3x3x2x4xf32>
// CHECK-DAG: %[[CONV:.*]]:2 = Conv2D(%{{.*}}#0, %[[WS]]#0) name("conv")
// CHECK-DAG: %[[CS:.*]]:2 = Mul(%[[C:.*]]#0, %[[S]]#0) name("bn_mul/scaled_shift")
// CHECK-DAG: %[[SHIFT:.*]]:2 = AddV2(%[[CS]]#0, %[[B:.*]]#0) name("bn_add/merged_shift")
// CHECK-DAG: %[[Y:.*]]:2 = AddV2(%[[CONV]]#0, %[[SHIFT]]#0) name("bn_add") {T = f32}
// CHECK-DAG: Relu(%[[Y]]#0) name("relu")
// CHECK-NOT: BiasAdd
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x5x5x2>} : () -> tensor<1x5x5x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x2x4xf32>} : () -> tensor<3x3x2x4xf32>
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %s:2 = Const name("s") {dtype = f32, value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<3.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %conv:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x5x5x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x5x5x4xf32>
  %bias:2 = BiasAdd(%conv#0, %c#0) name("bias") {T = f32} : (tensor<1x5x5x4xf32>, tensor<4xf32>) -> tensor<1x5x5x4xf32>
  %m:2 = Mul(%bias#0, %s#0) name("bn_mul") {T = f32} : (tensor<1x5x5x4xf32>, tensor<4xf32>) -> tensor<1x5x5x4xf32>
  %a:2 = AddV2(%m#0, %b#0) name("bn_add") {T = f32} : (tensor<1x5x5x4xf32>, tensor<4xf32>) -> tensor<1x5x5x4xf32>
  %r:2 = Relu(%a#0) name("relu") {T = f32} : (tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[SHAPE:.*]]:2 = Const name("m/channel_shape") {dtype = i64, value = dense<[2, 3]> : tensor<2xi64>}
// CHECK-DAG: %[[S2:.*]]:2 = Reshape(%[[S:.*]]#0, %[[SHAPE]]#0) name("m/channel_scale") {T = f32, Tshape = i64} : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-DAG: %[[WS:.*]]:2 = Mul(%{{.*}}#0, %[[S2]]#0) name("m/scaled_weights")
// CHECK-DAG: DepthwiseConv2dNative(%{{.*}}#0, %[[WS]]#0) name("dw")
// CHECK-DAG: %[[MS:.*]]:2 = Mul(%{{.*}}#0, %{{.*}}#0) name("mm_scale/scaled_weights") {T = f32} : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-DAG: MatMul(%{{.*}}#0, %[[MS]]#0) name("mm")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x2x3xf32>} : () -> tensor<3x3x2x3xf32>
  %s:2 = Const name("s") {dtype = f32, value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>} : () -> tensor<6xf32>
  %dw:2 = DepthwiseConv2dNative(%x#0, %w#0) name("dw") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x6xf32>
  %m:2 = Mul(%dw#0, %s#0) name("m") {T = f32} : (tensor<1x4x4x6xf32>, tensor<6xf32>) -> tensor<1x4x4x6xf32>
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<1.0> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %t:2 = Const name("t") {dtype = f32, value = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %mm:2 = MatMul(%a#0, %v#0) name("mm") {T = f32, transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %ms:2 = Mul(%t#0, %mm#0) name("mm_scale") {T = f32} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK-DAG: Mul(%{{.*}}#0, %{{.*}}#0) name("shared_scale")
// CHECK-DAG: Mul(%{{.*}}#0, %{{.*}}#0) name("row_scale")
// CHECK-NOT: scaled_weights
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<1.0> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %t:2 = Const name("t") {dtype = f32, value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %r:2 = Const name("r") {dtype = f32, value = dense<2.0> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  // The product is also used elsewhere.
  %mm:2 = MatMul(%a#0, %v#0) name("mm") {T = f32, transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %m1:2 = Mul(%mm#0, %t#0) name("shared_scale") {T = f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %u:2 = Relu(%mm#0) name("other_use") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  // The scale varies along rows.
  %mm2:2 = MatMul(%a#0, %v#0) name("mm2") {T = f32, transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %m2:2 = Mul(%mm2#0, %r#0) name("row_scale") {T = f32} : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
}
