// Tests convert-tfg-to-memref's trace points: the step asks once whether
// the program traces and names its thread after the partition's device;
// each node's code is bracketed by a clock read and a record, each under
// that one flag; a fused group is labelled with its root, its members' ops
// and their names; with trace-points=false there are none.
// RUN: tfc-opt %s -convert-tfg-to-memref | FileCheck %s
// RUN: tfc-opt %s -convert-tfg-to-memref="trace-points=false" | FileCheck %s --check-prefix=NONE

// The labels, as NUL-terminated bytes: "mm\tMatMul" and
// "relu\tBiasAdd+Relu\tbias,relu" and the device.
// CHECK-DAG: memref.global "private" constant @[[MM:tfc_string_[0-9]+]] : memref<10xi8> = dense<[109, 109, 9, 77, 97, 116, 77, 117, 108, 0]>
// CHECK-DAG: memref.global "private" constant @[[FUSED:tfc_string_[0-9]+]] : memref<28xi8> = dense<[114, 101, 108, 117, 9, 66, 105, 97, 115, 65, 100, 100, 43, 82, 101, 108, 117, 9, 98, 105, 97, 115, 44, 114, 101, 108, 117, 0]>
// CHECK-DAG: memref.global "private" constant @[[DEVICE:tfc_string_[0-9]+]] : memref<14xi8> = dense<[47, 100, 101, 118, 105, 99, 101, 58, 67, 80, 85, 58, 48, 0]>
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: %[[ON:.*]] = call @tfc_trace_enabled() : () -> i32
// CHECK: %[[TRACING:.*]] = arith.cmpi ne, %[[ON]], %{{.*}} : i32
// CHECK: scf.if %[[TRACING]] {
// CHECK: memref.get_global @[[DEVICE]]
// CHECK: call @tfc_trace_thread
// The MatMul between its clock read and its record.
// CHECK: %[[START:.*]] = scf.if %[[TRACING]] -> (i64) {
// CHECK-NEXT: %[[NOW:.*]] = func.call @tfc_trace_now() : () -> i64
// CHECK-NEXT: scf.yield %[[NOW]] : i64
// CHECK: call @tfc_cpu_matmul_f32
// CHECK: scf.if %[[TRACING]] {
// CHECK: memref.get_global @[[MM]]
// CHECK: func.call @tfc_trace_node(%{{.*}}, %[[START]]) : (!llvm.ptr, i64) -> ()
// The fused group's one loop, likewise.
// CHECK: %[[START2:.*]] = scf.if %[[TRACING]] -> (i64) {
// CHECK: linalg.generic
// CHECK: scf.if %[[TRACING]] {
// CHECK: memref.get_global @[[FUSED]]
// CHECK: func.call @tfc_trace_node(%{{.*}}, %[[START2]])
// NONE-NOT: tfc_trace
module attributes {tfc.feeds = ["x:0", "w:0"], tfc.fetches = ["relu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 128, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %w:2 = _Arg name("w") {T = f32, index = 1} : () -> tensor<3x4xf32>
    %mm:2 = MatMul(%x#0, %w#0) name("mm") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %relu:2 = tfc.fusion_group(%mm#0, %b#0) {tfc.offsets = array<i64: 64>} : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x4xf32>, %bias_in: tensor<4xf32>):
      %bias:2 = BiasAdd(%in, %bias_in) name("bias") {T = f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
      %r:2 = Relu(%bias#0) name("relu") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
      tfc.yield %r#0 : tensor<2x4xf32>
    }
    %r = _Retval(%relu#0) name("relu/_retval_0") {T = f32, index = 0} : (tensor<2x4xf32>) -> ()
  }
}
