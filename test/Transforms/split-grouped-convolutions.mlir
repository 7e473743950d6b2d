// Tests tfc-split-grouped-convolutions: a Conv2D whose filter has fewer
// input channels than its input becomes a Split of each, one Conv2D per
// group with the node's attributes, and a ConcatV2 that keeps its name and
// users (one input channel per group: a depthwise convolution); an
// ungrouped Conv2D stays; a grouping the shapes refuse is an
// error naming the node.
// RUN: tfc-opt %s -split-input-file -tfc-split-grouped-convolutions -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[AXIS:.*]]:2 = Const name("conv/group_axis") {dtype = i32, value = dense<3> : tensor<i32>}
// CHECK-DAG: %[[XS:.*]]:3 = Split(%[[AXIS]]#0, %{{.*}}) name("conv/input_groups") {T = f32, num_split = 2 : i64} : (tensor<i32>, tensor<1x5x5x4xf32>) -> (tensor<1x5x5x2xf32>, tensor<1x5x5x2xf32>)
// CHECK-DAG: %[[WS:.*]]:3 = Split(%[[AXIS]]#0, %{{.*}}) name("conv/filter_groups") {T = f32, num_split = 2 : i64} : (tensor<i32>, tensor<3x3x2x6xf32>) -> (tensor<3x3x2x3xf32>, tensor<3x3x2x3xf32>)
// CHECK-DAG: %[[G0:.*]]:2 = Conv2D(%[[XS]]#0, %[[WS]]#0) name("conv/group_0") {T = f32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-DAG: %[[G1:.*]]:2 = Conv2D(%[[XS]]#1, %[[WS]]#1) name("conv/group_1")
// CHECK-DAG: %[[Y:.*]]:2 = ConcatV2(%[[G0]]#0, %[[G1]]#0, %[[AXIS]]#0) name("conv") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<i32>) -> tensor<1x3x3x6xf32>
// CHECK-DAG: Relu(%[[Y]]#0) name("relu")
// CHECK-DAG: Conv2D(%{{.*}}, %{{.*}}) name("whole")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x5x5x4>} : () -> tensor<1x5x5x4xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3x2x6>} : () -> tensor<3x3x2x6xf32>
  %c:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x3x3x6xf32>
  %r:2 = Relu(%c#0) name("relu") {T = f32} : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x6xf32>
  %v:2 = Placeholder name("v") {dtype = f32, shape = #tfg.shape<3x3x4x6>} : () -> tensor<3x3x4x6xf32>
  %u:2 = Conv2D(%x#0, %v#0) name("whole") {T = f32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x3x3x6xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x5x5x4>} : () -> tensor<1x5x5x4xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3x2x5>} : () -> tensor<3x3x2x5xf32>
  // expected-error @+1 {{node 'odd' (Conv2D): a filter of 2 input and 5 output channels does not group an input of 4 channels}}
  %c:2 = Conv2D(%x#0, %w#0) name("odd") {T = f32, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x2x5xf32>) -> tensor<1x3x3x5xf32>
}

// -----

// One input channel per group: a depthwise convolution of the filter
// reshaped to [kh, kw, C, O/C], keeping the name; dilated, it is split.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[TO:.*]]:2 = Const name("dw/depthwise_shape") {dtype = i32, value = dense<[3, 3, 4, 2]> : tensor<4xi32>}
// CHECK-DAG: %[[F:.*]]:2 = Reshape(%{{.*}}, %[[TO]]#0) name("dw/depthwise_filter") {T = f32, Tshape = i32} : (tensor<3x3x1x8xf32>, tensor<4xi32>) -> tensor<3x3x4x2xf32>
// CHECK-DAG: %[[D:.*]]:2 = DepthwiseConv2dNative(%{{.*}}, %[[F]]#0) name("dw") {T = f32, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x3x3x8xf32>
// CHECK-DAG: Relu(%[[D]]#0) name("relu")
// CHECK-DAG: Conv2D({{.*}}) name("dilated/group_3")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x5x5x4>} : () -> tensor<1x5x5x4xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3x1x8>} : () -> tensor<3x3x1x8xf32>
  %c:2 = Conv2D(%x#0, %w#0) name("dw") {T = f32, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x1x8xf32>) -> tensor<1x3x3x8xf32>
  %r:2 = Relu(%c#0) name("relu") {T = f32} : (tensor<1x3x3x8xf32>) -> tensor<1x3x3x8xf32>
  %d:2 = Conv2D(%x#0, %w#0) name("dilated") {T = f32, padding = "VALID", dilations = [1, 2, 2, 1], strides = [1, 1, 1, 1]} : (tensor<1x5x5x4xf32>, tensor<3x3x1x8xf32>) -> tensor<1x1x1x8xf32>
}
