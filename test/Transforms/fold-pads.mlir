// Tests tfc-fold-pads: Keras' ZeroPadding2D ((0, 1), (0, 1)) before a
// VALID stride-2 depthwise convolution becomes the convolution's EXPLICIT
// padding [0, 0, 0, 1, 0, 1, 0, 0], reading the image itself; a Pad into a
// convolution with explicit padding of its own adds to it. Not when the
// Pad has another reader, pads the batch or channel dimension, pads more
// than the filter's extent minus one, or the convolution pads SAME. A
// MaxPool takes a Pad of a ReLU's or ReLU6's output (ResNet's first
// pooling); a Pad of a value that may be negative when the MaxPool has no
// padding of its own, marked tfc.zero_padding; not one wider than its
// window minus one.
// RUN: tfc-opt %s -split-input-file -tfc-fold-pads | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: %[[X:.*]]:2 = Placeholder name("x")
// CHECK: DepthwiseConv2dNative(%[[X]]#0, %{{.*}}#0) name("depthwise") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 0, 1, 0, 1, 0, 0], padding = "EXPLICIT", strides = [1, 2, 2, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x1xf32>) -> tensor<1x3x3x3xf32>
// CHECK: Conv2D(%[[X]]#0, %{{.*}}#0) name("conv") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 2, 1, 1, 2, 0, 0], padding = "EXPLICIT", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x7x7x2xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x6x6x3>} : () -> tensor<1x6x6x3xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%x#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x7x7x3xf32>
  %dw:2 = Const name("dw") {dtype = f32, value = dense<0.5> : tensor<3x3x3x1xf32>} : () -> tensor<3x3x3x1xf32>
  %d:2 = DepthwiseConv2dNative(%pad#0, %dw#0) name("depthwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x7x3xf32>, tensor<3x3x3x1xf32>) -> tensor<1x3x3x3xf32>
  %q:2 = Const name("q") {dtype = i64, value = dense<[[0, 0], [1, 0], [0, 1], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %pad2:2 = Pad(%x#0, %q#0) name("pad2") {T = f32, Tpaddings = i64} : (tensor<1x6x6x3xf32>, tensor<4x2xi64>) -> tensor<1x7x7x3xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x3x2xf32>} : () -> tensor<3x3x3x2xf32>
  %c:2 = Conv2D(%pad2#0, %w#0) name("conv") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], padding = "EXPLICIT", strides = [1, 1, 1, 1]} : (tensor<1x7x7x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x7x7x2xf32>
}

// -----

// Left as they are: a Pad also read elsewhere, a Pad of the channels, a
// Pad wider than the filter's extent minus one (3 > 2), a SAME convolution.
// CHECK-LABEL: tfg.graph
// CHECK: name("shared") {T = f32, data_format = "NHWC", padding = "VALID"
// CHECK: name("channels") {T = f32, data_format = "NHWC", padding = "VALID"
// CHECK: name("wide") {T = f32, data_format = "NHWC", padding = "VALID"
// CHECK: name("same") {T = f32, data_format = "NHWC", padding = "SAME"
// CHECK-NOT: EXPLICIT
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x6x6x3>} : () -> tensor<1x6x6x3xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x3x2xf32>} : () -> tensor<3x3x3x2xf32>
  %w4:2 = Const name("w4") {dtype = f32, value = dense<0.5> : tensor<3x3x4x2xf32>} : () -> tensor<3x3x4x2xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%x#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %s:2 = Conv2D(%pad#0, %w#0) name("shared") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x6x6x2xf32>
  %n:2 = Neg(%pad#0) name("other_reader") {T = f32} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %pc:2 = Const name("pc") {dtype = i32, value = dense<[[0, 0], [0, 0], [0, 0], [0, 1]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %padc:2 = Pad(%x#0, %pc#0) name("padc") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x6x6x4xf32>
  %c:2 = Conv2D(%padc#0, %w4#0) name("channels") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x6x6x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pw:2 = Const name("pw") {dtype = i32, value = dense<[[0, 0], [3, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %padw:2 = Pad(%x#0, %pw#0) name("padw") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x9x6x3xf32>
  %v:2 = Conv2D(%padw#0, %w#0) name("wide") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x9x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x7x4x2xf32>
  %p2:2 = Const name("p2") {dtype = i32, value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pads:2 = Pad(%x#0, %p2#0) name("pads") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %m:2 = Conv2D(%pads#0, %w#0) name("same") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x8x8x2xf32>
}

// -----

// ResNet's ZeroPadding2D(1) and 3x3 stride-2 max pooling after a ReLU (and
// after a ReLU6) become the pooling's EXPLICIT padding: the zeros are never
// above a window's maximum. The Pad of a value that may be negative
// (ResNetV2's convolution output) too, with tfc.zero_padding: the pooling
// counts those zeros. Left as they are: a Pad of 3 before a 3x3 window (a
// window in the padding alone would see only zeros), and a Pad of a value
// that may be negative before a pooling with explicit padding of its own
// (which it skips).
// CHECK-LABEL: tfg.graph
// CHECK: %[[X:.*]]:2 = Placeholder
// CHECK: %[[RELU:.*]]:2 = Relu
// CHECK: %[[RELU6:.*]]:2 = Relu6
// CHECK: MaxPool(%[[RELU]]#0) name("pool") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], ksize = [1, 3, 3, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1]} : (tensor<1x6x6x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK: MaxPool(%[[RELU6]]#0) name("pool6") {{.*}}explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0]{{.*}}padding = "EXPLICIT"
// CHECK: MaxPool(%[[X]]#0) name("signed_pool") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], ksize = [1, 3, 3, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1], tfc.zero_padding}
// CHECK: MaxPool(%{{.*}}) name("wide_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID"
// CHECK: %[[PADE:.*]]:2 = Pad(%[[X]]#0, %{{.*}}#0) name("explicit_pad")
// CHECK: MaxPool(%[[PADE]]#0) name("explicit_pool") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 1, 0, 1, 0, 0, 0], ksize = [1, 3, 3, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1]}
// CHECK-NOT: tfc.zero_padding
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x6x6x3>} : () -> tensor<1x6x6x3xf32>
  %r:2 = Relu(%x#0) name("relu") {T = f32} : (tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  %r6:2 = Relu6(%x#0) name("relu6") {T = f32} : (tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%r#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %m:2 = MaxPool(%pad#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x3x3x3xf32>
  %pad6:2 = Pad(%r6#0, %p#0) name("pad6") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %m6:2 = MaxPool(%pad6#0) name("pool6") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x3x3x3xf32>
  %pads:2 = Pad(%x#0, %p#0) name("signed_pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %ms:2 = MaxPool(%pads#0) name("signed_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x3x3x3xf32>
  %pw:2 = Const name("pw") {dtype = i32, value = dense<[[0, 0], [3, 0], [0, 0], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %padw:2 = Pad(%r#0, %pw#0) name("wide_pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x9x6x3xf32>
  %mw:2 = MaxPool(%padw#0) name("wide_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x9x6x3xf32>) -> tensor<1x4x2x3xf32>
  %pe:2 = Const name("pe") {dtype = i32, value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pade:2 = Pad(%x#0, %pe#0) name("explicit_pad") {T = f32, Tpaddings = i32} : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x7x7x3xf32>
  %me:2 = MaxPool(%pade#0) name("explicit_pool") {T = f32, data_format = "NHWC", explicit_paddings = [0, 0, 1, 0, 1, 0, 0, 0], ksize = [1, 3, 3, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1]} : (tensor<1x7x7x3xf32>) -> tensor<1x3x3x3xf32>
}
