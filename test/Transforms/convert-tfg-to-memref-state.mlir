// Tests convert-tfg-to-memref on state: a variable is a view of the state
// parameter at its planned offset; a read checks the initialized flag (the
// byte at its flag offset, with the variable's name, one global for both
// checks) and is that view; an optimizer update calls its kernel with the
// view; the init entry becomes tfc_init_impl, copying the value in and
// setting the flag. An init entry that needs a feed is an error.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK: memref.global "private" constant @tfc_string_{{[0-9]+}} : memref<2xi8> = dense<[119, 0]>
// CHECK-NOT: dense<[119, 0]>
// CHECK-LABEL: func.func @tfc_step_impl(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<128xi8>, %arg3: memref<4xf32>, %arg4: memref<4xf32>)
// CHECK: %[[W:.*]] = memref.view %arg2[%c0][] : memref<128xi8> to memref<4xf32>
// CHECK: %[[FLAG:.*]] = llvm.getelementptr %{{.*}}[%c64_i64] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: call @tfc_check_initialized(%arg0, %[[FLAG]], %{{.*}})
// CHECK-NEXT: memref.copy %[[W]], %arg4
// CHECK: call @tfc_check_initialized(
// CHECK: call @tfc_cpu_apply_gradient_descent_f32(%arg0, {{.*}}, %c4_i64)
// CHECK-LABEL: func.func @tfc_init_impl(%arg0: !llvm.ptr, %arg1: memref<0xi8>, %arg2: memref<128xi8>)
// CHECK: %[[V:.*]] = memref.view %arg2[%c0][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.copy %{{.*}}, %[[V]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK: llvm.store %[[ONE]], %{{.*}} : i8, !llvm.ptr
module attributes {tfc.feeds = ["g:0"], tfc.fetches = ["r:0"], tfc.state_bytes = 128 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %w:2 = VarHandleOp name("w") {container = "", dtype = f32, shape = #tfg.shape<4>, shared_name = "w", tfc.flag_offset = 64 : i64, tfc.state_offset = 0 : i64} : () -> tensor<!tfg.resource>
    %g:2 = _Arg name("g") {T = f32, index = 0} : () -> tensor<4xf32>
    %read:2 = ReadVariableOp(%w#0) name("read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<4xf32>
    %r = _Retval(%read#0) name("r") {T = f32, index = 0} : (tensor<4xf32>) -> ()
    %lr:2 = Const name("lr") {dtype = f32, value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
    %u = ResourceApplyGradientDescent(%w#0, %lr#0, %g#0) [%r] name("update") {T = f32} : (tensor<!tfg.resource>, tensor<f32>, tensor<4xf32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "init"} {
    %w:2 = VarHandleOp name("w_init") {container = "", dtype = f32, shape = #tfg.shape<4>, shared_name = "w", tfc.flag_offset = 64 : i64, tfc.state_offset = 0 : i64} : () -> tensor<!tfg.resource>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %a = AssignVariableOp(%w#0, %zero#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<4xf32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["x:0"], tfc.fetches = [], tfc.state_bytes = 64 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<f32>
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "init"} {
    // expected-error @+1 {{the init entry needs a fed tensor ('x'): init nodes must not depend on feeds}}
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<f32>
  }
}
