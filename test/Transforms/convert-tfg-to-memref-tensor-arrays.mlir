// Tests convert-tfg-to-memref on TF1 TensorArrays: each TensorArrayV3 gets
// a number and is made (size, element bytes: the element shape comes from
// what its writes store); gradient arrays are numbered by forward array
// and source, so two TensorArrayGradV3 nodes of one array share one (and
// its writes add up); reads and writes copy rows through the handle's
// array; each flow output is a stored zero. A handle that does not come
// from a TensorArrayV3 is an error naming the node.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK: TensorArrayV3{{.*}}name("ta"){{.*}}tfc.tensor_array_slot = 0
// CHECK: TensorArrayGradV3{{.*}}name("grad"){{.*}}tfc.tensor_array_slot = 1
// CHECK: TensorArrayGradV3{{.*}}name("grad_again"){{.*}}tfc.tensor_array_slot = 1
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_tensor_array_init(%arg0, %c0_i64, %c5_i64, %c24_i64, %c5_i64{{.*}})
// CHECK: memref.store %cst, %{{.*}}[] : memref<f32>
// CHECK: call @tfc_tensor_array_write(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}}, %c24_i64{{.*}}, %c0_i64{{.*}})
// CHECK: call @tfc_tensor_array_read(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}}, %c24_i64{{.*}})
// CHECK: call @tfc_tensor_array_grad(%arg0, %c1_i64{{.*}}, %c0_i64{{.*}}, %c24_i64{{.*}})
// CHECK: call @tfc_tensor_array_write(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{.*}}, %c2_i64{{.*}}, %c24_i64{{.*}}, %c1_i64{{.*}})
// CHECK: call @tfc_tensor_array_grad(%arg0, %c1_i64{{.*}}, %c0_i64{{.*}}, %c24_i64{{.*}})
// CHECK: call @tfc_tensor_array_read(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{.*}}, %c2_i64{{.*}}, %c24_i64{{.*}})
module attributes {tfc.feeds = ["x:0", "i:0"], tfc.fetches = ["read:0", "gathered:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 512, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %i:2 = _Arg name("i") {T = i32, index = 1} : () -> tensor<i32>
    %size:2 = Const name("size") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %ta:3 = TensorArrayV3(%size#0) name("ta") {dtype = f32, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "", tfc.offsets = array<i64: -1, 0>} : (tensor<i32>) -> (tensor<!tfg.resource>, tensor<f32>)
    %w:2 = TensorArrayWriteV3(%ta#0, %i#0, %x#0, %ta#1) name("write") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<!tfg.resource>, tensor<i32>, tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
    %read:2 = TensorArrayReadV3(%ta#0, %i#0, %w#0) name("read") {dtype = f32, tfc.offsets = array<i64: 128>} : (tensor<!tfg.resource>, tensor<i32>, tensor<f32>) -> tensor<2x3xf32>
    %g:3 = TensorArrayGradV3(%ta#0, %w#0) name("grad") {source = "gradients", tfc.offsets = array<i64: -1, 192>} : (tensor<!tfg.resource>, tensor<f32>) -> (tensor<!tfg.resource>, tensor<f32>)
    %at:2 = Const name("at") {dtype = i32, value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %rows:2 = Const name("rows") {dtype = f32, value = dense<1.0> : tensor<2x2x3xf32>} : () -> tensor<2x2x3xf32>
    %gs:2 = TensorArrayScatterV3(%g#0, %at#0, %rows#0, %g#1) name("scatter") {T = f32, tfc.offsets = array<i64: 256>} : (tensor<!tfg.resource>, tensor<2xi32>, tensor<2x2x3xf32>, tensor<f32>) -> tensor<f32>
    %g2:3 = TensorArrayGradV3(%ta#0, %gs#0) name("grad_again") {source = "gradients", tfc.offsets = array<i64: -1, 320>} : (tensor<!tfg.resource>, tensor<f32>) -> (tensor<!tfg.resource>, tensor<f32>)
    %gathered:2 = TensorArrayGatherV3(%g2#0, %at#0, %g2#1) name("gathered") {dtype = f32, element_shape = #tfg.shape<2x3>, tfc.offsets = array<i64: 384>} : (tensor<!tfg.resource>, tensor<2xi32>, tensor<f32>) -> tensor<2x2x3xf32>
    %r = _Retval(%read#0) name("read/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
    %r2 = _Retval(%gathered#0) name("gathered/_retval_1") {T = f32, index = 1} : (tensor<2x2x3xf32>) -> ()
  }
}

// -----

// A split into equal parts writes the first elements in order (no
// indices); a concat reads every element in order, and its lengths are k.
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_tensor_array_init(%arg0, %c0_i64, %c3_i64, %c16_i64, %c3_i64{{.*}})
// CHECK: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @tfc_tensor_array_write(%arg0, %[[NONE]], %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c3_i64{{.*}}, %c16_i64{{.*}}, %c0_i64{{.*}})
// CHECK: call @tfc_tensor_array_read(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c3_i64{{.*}}, %c16_i64{{.*}})
// CHECK: %[[K:.*]] = arith.constant 2 : i64
// CHECK: linalg.fill ins(%[[K]] : i64) outs(%{{.*}} : memref<3xi64>)
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["concat:0", "concat:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<6x2xf32>
    %size:2 = Const name("size") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %lengths:2 = Const name("lengths") {dtype = i64, value = dense<2> : tensor<3xi64>} : () -> tensor<3xi64>
    %ta:3 = TensorArrayV3(%size#0) name("ta") {dtype = f32, dynamic_size = false, clear_after_read = false, identical_element_shapes = true, tensor_array_name = "", tfc.offsets = array<i64: -1, 0>} : (tensor<i32>) -> (tensor<!tfg.resource>, tensor<f32>)
    %split:2 = TensorArraySplitV3(%ta#0, %x#0, %lengths#0, %ta#1) name("split") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<!tfg.resource>, tensor<6x2xf32>, tensor<3xi64>, tensor<f32>) -> tensor<f32>
    %concat:3 = TensorArrayConcatV3(%ta#0, %split#0) name("concat") {dtype = f32, tfc.offsets = array<i64: 128, 192>} : (tensor<!tfg.resource>, tensor<f32>) -> (tensor<6x2xf32>, tensor<3xi64>)
    %r0 = _Retval(%concat#0) name("concat/_retval_0") {T = f32, index = 0} : (tensor<6x2xf32>) -> ()
    %r1 = _Retval(%concat#1) name("concat/_retval_1") {T = i64, index = 1} : (tensor<3xi64>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["h:0", "i:0"], tfc.fetches = ["read:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %h:2 = _Arg name("h") {T = !tfg.resource, index = 0} : () -> tensor<!tfg.resource>
    %i:2 = _Arg name("i") {T = i32, index = 1} : () -> tensor<i32>
    %flow:2 = Const name("flow") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    // expected-error @+1 {{node 'read' (TensorArrayReadV3): cannot trace its handle to the TensorArrayV3 that made it}}
    %read:2 = TensorArrayReadV3(%h#0, %i#0, %flow#0) name("read") {dtype = f32, tfc.offsets = array<i64: 0>} : (tensor<!tfg.resource>, tensor<i32>, tensor<f32>) -> tensor<2x3xf32>
    %r = _Retval(%read#0) name("read/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
  }
}
