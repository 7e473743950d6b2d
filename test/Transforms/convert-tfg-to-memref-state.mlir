// Tests convert-tfg-to-memref on state: a variable is a view of the state
// parameter at its planned offset; a read checks the initialized flag (the
// byte at its flag offset, with the variable's name, one global for both
// checks) and is that view; an optimizer update calls its kernel with the
// view; the init entry becomes tfc_init_impl, copying the value in and
// setting the flag. An init entry that needs a feed is an error.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref="trace-points=false" -verify-diagnostics | FileCheck %s

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
    // expected-error @+1 {{the init entry needs a fed tensor ('x'): its nodes must not depend on feeds}}
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<f32>
  }
}

// -----

// A saver's ops: a string Const is a writable global of handles that the
// step fills at its start with the addresses of its string objects (the
// length, little-endian, then the bytes and a NUL: "w" is 1, 0 x 7, 119,
// 0; the empty string is 0 x 9); a string feed is a memref of i64
// handles; StringJoin gets a table of
// its inputs' addresses and their element counts; SaveV2 gets the names,
// the tensors' address table (a ref operand is the variable's buffer,
// checked first) and its descriptor: 1 tensor, dtype 1 (float), rank 1,
// dims [4].
// CHECK-DAG: memref.global "private" constant @tfc_string_object_{{[0-9]+}} : memref<10xi8> = dense<[1, 0, 0, 0, 0, 0, 0, 0, 119, 0]> {alignment = 8 : i64}
// CHECK-DAG: memref.global "private" @tfc_string_handles_{{[0-9]+}} : memref<1xi64> = uninitialized
// CHECK-DAG: memref.global "private" constant @tfc_string_object_{{[0-9]+}} : memref<9xi8> = dense<0> {alignment = 8 : i64}
// CHECK-DAG: memref.global "private" constant @tfc_table_{{[0-9]+}} : memref<4xi64> = dense<[1, 1, 1, 4]>
// CHECK-LABEL: func.func @tfc_step_impl(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<128xi8>, %arg3: memref<i64>)
// CHECK: %[[OBJECT:.*]] = llvm.inttoptr
// CHECK: %[[HANDLE:.*]] = llvm.ptrtoint %[[OBJECT]] : !llvm.ptr to i64
// CHECK: memref.store %[[HANDLE]], %{{.*}}[%{{.*}}] : memref<1xi64>
// CHECK: %[[INPUTS:.*]] = memref.alloca() : memref<2xi64>
// CHECK: call @tfc_string_join(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64, %c1_i64)
// CHECK: call @tfc_check_initialized(
// CHECK: memref.alloca() : memref<1xi64>
// CHECK: call @tfc_save_v2(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
module attributes {tfc.feeds = ["prefix:0"], tfc.fetches = [], tfc.state_bytes = 128 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %w:2 = VariableV2 name("w") {container = "", dtype = f32, shape = #tfg.shape<4>, shared_name = "", tfc.flag_offset = 64 : i64, tfc.state_offset = 0 : i64} : () -> tensor<4x!tfg.ref<f32>>
    %prefix:2 = _Arg name("prefix") {T = !tfg.string, index = 0} : () -> tensor<!tfg.string>
    %suffix:2 = Const name("suffix") {dtype = !tfg.string, value = dense<"w"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
    %join:2 = StringJoin(%prefix#0, %suffix#0) name("join") {N = 2, separator = "_", tfc.offsets = array<i64: 0>} : (tensor<!tfg.string>, tensor<!tfg.string>) -> tensor<!tfg.string>
    %names:2 = Const name("names") {dtype = !tfg.string, value = dense<"w"> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    %slices:2 = Const name("slices") {dtype = !tfg.string, value = dense<""> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    %save = SaveV2(%join#0, %names#0, %slices#0, %w#0) name("save") {dtypes = [f32]} : (tensor<!tfg.string>, tensor<1x!tfg.string>, tensor<1x!tfg.string>, tensor<4x!tfg.ref<f32>>) -> ()
  }
}

// -----

// Checkpoint ops take numeric and bool tensors only.
module attributes {tfc.feeds = [], tfc.fetches = [], tfc.state_bytes = 0 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "step"} {
    %prefix:2 = Const name("prefix") {dtype = !tfg.string, value = dense<"ckpt"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
    %names:2 = Const name("names") {dtype = !tfg.string, value = dense<"s"> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    %slices:2 = Const name("slices") {dtype = !tfg.string, value = dense<""> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    // expected-error @+1 {{node 'save' (SaveV2): a tensor of dtype string: checkpoint ops take numeric and bool tensors}}
    %save = SaveV2(%prefix#0, %names#0, %slices#0, %prefix#0) name("save") {dtypes = [!tfg.string]} : (tensor<!tfg.string>, tensor<1x!tfg.string>, tensor<1x!tfg.string>, tensor<!tfg.string>) -> ()
  }
}

// -----

// A Switch's predicate must be a scalar (TensorFlow requires it too).
module attributes {tfc.feeds = ["x:0", "p:0"], tfc.fetches = [], tfc.state_bytes = 0 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %p:2 = _Arg name("p") {T = i1, index = 1} : () -> tensor<2xi1>
    // expected-error @+1 {{node 's' (Switch): the predicate is not a scalar}}
    %s:3 = Switch(%x#0, %p#0) name("s") {T = f32} : (tensor<4xf32>, tensor<2xi1>) -> (tensor<4xf32>, tensor<4xf32>)
  }
}

// -----

// A reshape of a variable's read is a view of the variable's buffer: its
// offset in the state area stays (a reinterpretation of the read would
// keep the state area's start, where another variable lives).
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: memref.view %arg2[%c0][] : memref<128xi8> to memref<4xf32>
// CHECK: memref.view %arg2[%c64][] : memref<128xi8> to memref<2x2xf32>
// CHECK: %[[FLAT:.*]] = memref.view %arg2[%c64{{.*}}][] : memref<128xi8> to memref<4xf32>
// CHECK-NOT: reinterpret_cast
// CHECK: memref.copy %[[FLAT]], %arg3
module attributes {tfc.feeds = [], tfc.fetches = ["r:0"], tfc.state_bytes = 128 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 0, tfg.entry = "step"} {
    %b:2 = VarHandleOp name("b") {container = "", dtype = f32, shape = #tfg.shape<4>, shared_name = "b", tfc.flag_offset = 96 : i64, tfc.state_offset = 0 : i64} : () -> tensor<!tfg.resource>
    %w:2 = VarHandleOp name("w") {container = "", dtype = f32, shape = #tfg.shape<2x2>, shared_name = "w", tfc.flag_offset = 97 : i64, tfc.state_offset = 64 : i64} : () -> tensor<!tfg.resource>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>
    %read:2 = ReadVariableOp(%w#0) name("read") {dtype = f32, tfc.offsets = array<i64: -1>} : (tensor<!tfg.resource>) -> tensor<2x2xf32>
    %flat:2 = Reshape(%read#0, %shape#0) name("flat") {T = f32, Tshape = i32, tfc.offsets = array<i64: -1>} : (tensor<2x2xf32>, tensor<1xi32>) -> tensor<4xf32>
    %r = _Retval(%flat#0) name("r") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}

// -----

// Tests that an op the op table says a graph pass rewrites (Shape: folded
// to a constant) is an error naming that pass when it reaches code
// generation.
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["s:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2xf32>
    // expected-error @+1 {{node 's' (Shape): should have been rewritten by tfc-fold-constants before code generation}}
    %s:2 = Shape(%x#0) name("s") {T = f32, out_type = i32, tfc.offsets = array<i64: 0>} : (tensor<2xf32>) -> tensor<1xi32>
    %r:1 = _Retval(%s#0) name("r") {T = i32, index = 0} : (tensor<1xi32>) -> ()
  }
}
