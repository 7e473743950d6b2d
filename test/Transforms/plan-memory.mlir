// Tests tfc-plan-memory on the MLP's step (after fusion): buffers reused
// once dead, elementwise groups in place, aliases, arena size. Offsets
// worked out by hand: MatMul1 [2,16] 128 B at 0; its fused BiasAdd+Relu in
// place; MatMul2 [2,8] at 128 (0 is being read); Relu2 in place; MatMul3
// at 0 (dead by then); BiasAdd3 in place at 0; Softmax at 64 (it reads 0);
// the Reshape aliases the Softmax buffer. Arena: 192 bytes.
// RUN: tfc-opt %s -split-input-file -tfc-plan-memory | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfc.arena_bytes = 192
// CHECK-DAG: name("mm1") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("relu1") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("mm2") {T = f32, tfc.offsets = array<i64: 128>}
// CHECK-DAG: name("relu2") {T = f32, tfc.offsets = array<i64: 128>}
// CHECK-DAG: name("mm3") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("bias3") {T = f32, data_format = "NHWC", tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("softmax") {T = f32, tfc.offsets = array<i64: 64>}
// CHECK-DAG: name("flat") {T = f32, Tshape = i32, tfc.offsets = array<i64: 64>}
// CHECK-DAG: name("x") {T = f32, index = 0 : i64, tfc.offsets = array<i64: -1>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["flat:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x32xf32>
    %w1:2 = Const name("w1") {dtype = f32, value = dense<1.0> : tensor<32x16xf32>} : () -> tensor<32x16xf32>
    %b1:2 = Const name("b1") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
    %w2:2 = Const name("w2") {dtype = f32, value = dense<1.0> : tensor<16x8xf32>} : () -> tensor<16x8xf32>
    %b2:2 = Const name("b2") {dtype = f32, value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
    %w3:2 = Const name("w3") {dtype = f32, value = dense<1.0> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
    %b3:2 = Const name("b3") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %mm1:2 = MatMul(%x#0, %w1#0) name("mm1") {T = f32} : (tensor<2x32xf32>, tensor<32x16xf32>) -> tensor<2x16xf32>
    %bias1:2 = BiasAdd(%mm1#0, %b1#0) name("bias1") {T = f32, tfc.fused_into = "relu1"} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %relu1:2 = Relu(%bias1#0) name("relu1") {T = f32} : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %mm2:2 = MatMul(%relu1#0, %w2#0) name("mm2") {T = f32} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    %bias2:2 = BiasAdd(%mm2#0, %b2#0) name("bias2") {T = f32, tfc.fused_into = "relu2"} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %relu2:2 = Relu(%bias2#0) name("relu2") {T = f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %mm3:2 = MatMul(%relu2#0, %w3#0) name("mm3") {T = f32} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    %bias3:2 = BiasAdd(%mm3#0, %b3#0) name("bias3") {T = f32, data_format = "NHWC"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %sm:2 = Softmax(%bias3#0) name("softmax") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<8> : tensor<1xi32>} : () -> tensor<1xi32>
    %flat:2 = Reshape(%sm#0, %shape#0) name("flat") {T = f32, Tshape = i32} : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<8xf32>
    %r = _Retval(%flat#0) name("flat/_retval_0") {T = f32, index = 0} : (tensor<8xf32>) -> ()
  }
}

// -----

// An input still read later is not overwritten in place.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("a") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("b") {T = f32, tfc.offsets = array<i64: 64>}
// CHECK-DAG: name("c") {T = f32, tfc.offsets = array<i64: 0>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["c:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %a:2 = Exp(%x#0) name("a") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %b:2 = Neg(%a#0) name("b") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %c:2 = AddV2(%a#0, %b#0) name("c") {T = f32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = _Retval(%c#0) name("c/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}
