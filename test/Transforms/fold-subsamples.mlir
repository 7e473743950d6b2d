// Tests tfc-fold-subsamples: NASNet's shifted subsample (a Pad of one row
// and column after, a crop of one before, a 1x1 average pooling of stride
// 2) becomes one StridedSlice of the image from (1, 1) with strides 2 and,
// on an odd image whose last kept pixel falls in the padding, a Pad of one
// row and column of zeros after; the last node takes the pooling's name.
// On an even image every kept pixel is inside: the StridedSlice alone. A
// Pad before a 1x1 max pooling, without a crop: the padding's kept pixels
// become zeros before.
// RUN: tfc-opt %s -split-input-file -tfc-fold-subsamples | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: %[[X:.*]]:2 = Placeholder name("x")
// CHECK: %[[B:.*]]:2 = Const name("pool/read_begin") {{{.*}}value = dense<[0, 1, 1, 0]> : tensor<4xi32>}
// CHECK: %[[E:.*]]:2 = Const name("pool/read_end") {{{.*}}value = dense<[1, 6, 6, 3]> : tensor<4xi32>}
// CHECK: %[[S:.*]]:2 = Const name("pool/read_strides") {{{.*}}value = dense<[1, 2, 2, 1]> : tensor<4xi32>}
// CHECK: %[[READ:.*]]:2 = StridedSlice(%[[X]]#0, %[[B]]#0, %[[E]]#0, %[[S]]#0) name("pool/strided_read") {Index = i32, T = f32} : {{.*}} -> tensor<1x3x3x3xf32>
// CHECK: %[[Z:.*]]:2 = Const name("pool/read_zeros") {{{.*}}value = dense<{{\[}}[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>}
// CHECK: %[[POOL:.*]]:2 = Pad(%[[READ]]#0, %[[Z]]#0) name("pool") {T = f32, Tpaddings = i32} : {{.*}} -> tensor<1x4x4x3xf32>
// CHECK: Relu(%[[POOL]]#0) name("after")
// CHECK-NOT: AvgPool
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x7x7x3>} : () -> tensor<1x7x7x3xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%x#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<1x7x7x3xf32>, tensor<4x2xi32>) -> tensor<1x8x8x3xf32>
  %b:2 = Const name("b") {dtype = i32, value = dense<[0, 1, 1, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %s:2 = Const name("s") {dtype = i32, value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %crop:2 = StridedSlice(%pad#0, %b#0, %e#0, %s#0) name("crop") {Index = i32, T = f32, begin_mask = 9 : i64, end_mask = 15 : i64} : (tensor<1x8x8x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x7x7x3xf32>
  %pool:2 = AvgPool(%crop#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x7x3xf32>) -> tensor<1x4x4x3xf32>
  %r:2 = Relu(%pool#0) name("after") {T = f32} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK: %[[X:.*]]:2 = Placeholder name("x")
// CHECK: StridedSlice(%[[X]]#0, {{.*}}) name("pool") {Index = i32, T = f32} : {{.*}} -> tensor<1x4x4x3xf32>
// CHECK-NOT: Pad(
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x8x8x3>} : () -> tensor<1x8x8x3xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%x#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<1x8x8x3xf32>, tensor<4x2xi32>) -> tensor<1x9x9x3xf32>
  %b:2 = Const name("b") {dtype = i32, value = dense<[0, 1, 1, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %s:2 = Const name("s") {dtype = i32, value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %crop:2 = StridedSlice(%pad#0, %b#0, %e#0, %s#0) name("crop") {Index = i32, T = f32, begin_mask = 9 : i64, end_mask = 15 : i64} : (tensor<1x9x9x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x8x8x3xf32>
  %pool:2 = AvgPool(%crop#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
}

// -----

// CHECK-LABEL: tfg.graph
// CHECK: %[[X:.*]]:2 = Placeholder name("x")
// CHECK: Const name("pool/read_begin") {{{.*}}value = dense<[0, 1, 1, 0]>
// CHECK: Const name("pool/read_end") {{{.*}}value = dense<[2, 6, 6, 5]>
// CHECK: %[[READ:.*]]:2 = StridedSlice(%[[X]]#0, {{.*}}) name("pool/strided_read") {{.*}} -> tensor<2x3x3x5xf32>
// CHECK: Const name("pool/read_zeros") {{{.*}}value = dense<{{\[}}[0, 0], [1, 0], [1, 0], [0, 0]]>
// CHECK: Pad(%[[READ]]#0, {{.*}}) name("pool") {{.*}} -> tensor<2x4x4x5xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x6x6x5>} : () -> tensor<2x6x6x5xf32>
  %p:2 = Const name("p") {dtype = i32, value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %pad:2 = Pad(%x#0, %p#0) name("pad") {T = f32, Tpaddings = i32} : (tensor<2x6x6x5xf32>, tensor<4x2xi32>) -> tensor<2x8x8x5xf32>
  %pool:2 = MaxPool(%pad#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<2x8x8x5xf32>) -> tensor<2x4x4x5xf32>
}

// -----

// Left as they are: a 1x1 pooling of the image itself, a 2x2 pooling of a
// crop, and a 1x1 pooling of a crop that something else reads too.
// CHECK-LABEL: tfg.graph
// CHECK: AvgPool(%{{.*}}) name("plain")
// CHECK: AvgPool(%{{.*}}) name("window")
// CHECK: AvgPool(%{{.*}}) name("shared")
// CHECK-NOT: strided_read
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x8x8x3>} : () -> tensor<1x8x8x3xf32>
  %plain:2 = AvgPool(%x#0) name("plain") {T = f32, data_format = "NHWC", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  %b:2 = Const name("b") {dtype = i32, value = dense<[0, 1, 1, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %e:2 = Const name("e") {dtype = i32, value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %s:2 = Const name("s") {dtype = i32, value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %crop:2 = StridedSlice(%x#0, %b#0, %e#0, %s#0) name("crop") {Index = i32, T = f32, begin_mask = 9 : i64, end_mask = 15 : i64} : (tensor<1x8x8x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x7x7x3xf32>
  %window:2 = AvgPool(%crop#0) name("window") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x7x3xf32>) -> tensor<1x3x3x3xf32>
  %crop2:2 = StridedSlice(%x#0, %b#0, %e#0, %s#0) name("crop2") {Index = i32, T = f32, begin_mask = 9 : i64, end_mask = 15 : i64} : (tensor<1x8x8x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x7x7x3xf32>
  %shared:2 = AvgPool(%crop2#0) name("shared") {T = f32, data_format = "NHWC", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x7x3xf32>) -> tensor<1x4x4x3xf32>
  %n:2 = Neg(%crop2#0) name("other_reader") {T = f32} : (tensor<1x7x7x3xf32>) -> tensor<1x7x7x3xf32>
}
