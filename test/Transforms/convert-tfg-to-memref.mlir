// Tests convert-tfg-to-memref on a planned step: arena views at planned
// offsets, a fusion group as one linalg.generic with a broadcast map
// written in place (its inputs read where they live outside), a kernel call with the arena pointer plus the offset, a
// constant global, and the copy into the output.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref="trace-points=false" | FileCheck %s

// CHECK-DAG: memref.global "private" constant @tfc_const_0 : memref<4xf32> = dense<1.000000e+00>
// CHECK-DAG: func.func private @tfc_cpu_matmul_f32(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, i32)
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK-SAME: (%[[RT:.*]]: !llvm.ptr, %[[ARENA:.*]]: memref<128xi8>, %[[X:.*]]: memref<2x3xf32>, %[[W:.*]]: memref<3x4xf32>, %[[OUT:.*]]: memref<2x4xf32>)
// The MatMul writes at offset 64: arena base + 64 bytes.
// CHECK: %[[AIDX:.*]] = memref.extract_aligned_pointer_as_index %[[ARENA]]
// CHECK: %[[AI64:.*]] = arith.index_cast %[[AIDX]]
// CHECK: %[[BASE:.*]] = llvm.inttoptr %[[AI64]]
// CHECK: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: %[[DST:.*]] = llvm.getelementptr %[[BASE]][%[[C64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: call @tfc_cpu_matmul_f32(%[[RT]], %{{.*}}, %{{.*}}, %[[DST]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, i32) -> ()
// BiasAdd + Relu: one generic, the bias broadcast over rows, in place.
// CHECK: %[[B:.*]] = memref.get_global @tfc_const_0
// CHECK: %[[V:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[B]] : memref<2x4xf32>, memref<4xf32>) outs(%[[V]] : memref<2x4xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: memref.copy %[[V]], %[[OUT]]
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

// -----

// A fetch the plan made in its output parameter (tfc.in_outputs): the
// product and the group write the parameter itself, seen in their shape
// (the fetch is their Reshape), and the _Retval copies nothing.
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK-SAME: (%[[RT:.*]]: !llvm.ptr, %[[ARENA:.*]]: memref<64xi8>, %{{.*}}: memref<2x3xf32>, %{{.*}}: memref<3x4xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK: %[[SHAPED:[0-9a-z_]+]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [2, 4], strides: [4, 1] : memref<8xf32> to memref<2x4xf32>
// CHECK: %[[OIDX:[0-9a-z_]+]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[OI64:.*]] = arith.index_cast %[[OIDX]]
// CHECK: %[[DST:.*]] = llvm.inttoptr %[[OI64]]
// CHECK: call @tfc_cpu_matmul_f32(%[[RT]], %{{.*}}, %{{.*}}, %[[DST]], %{{.*}})
// CHECK: %[[GROUP_OUT:[0-9a-z_]+]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [2, 4]
// CHECK: linalg.generic {{.*}} ins(%[[SHAPED]], %{{.*}} : memref<2x4xf32>, memref<4xf32>) outs(%[[GROUP_OUT]] : memref<2x4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
module attributes {tfc.feeds = ["x:0", "w:0"], tfc.fetches = ["flat:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %w:2 = _Arg name("w") {T = f32, index = 1} : () -> tensor<3x4xf32>
    %mm:2 = MatMul(%x#0, %w#0) name("mm") {T = f32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %relu:2 = tfc.fusion_group(%mm#0, %b#0) {tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>} : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x4xf32>, %bias_in: tensor<4xf32>):
      %bias:2 = BiasAdd(%in, %bias_in) name("bias") {T = f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
      %r:2 = Relu(%bias#0) name("relu") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
      tfc.yield %r#0 : tensor<2x4xf32>
    }
    %shape:2 = Const name("shape") {dtype = i32, value = dense<8> : tensor<1xi32>} : () -> tensor<1xi32>
    %flat:2 = Reshape(%relu#0, %shape#0) name("flat") {T = f32, Tshape = i32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>} : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<8xf32>
    %r = _Retval(%flat#0) name("flat/_retval_0") {T = f32, index = 0} : (tensor<8xf32>) -> ()
  }
}

// -----

// Keras attention scores: Einsum "BTNH,BSNH->BNTS" as a strided batched
// product. Descriptor, worked out by hand: batch rank 2 (B, N) of sizes
// [2, 2]; A strides [64, 8], B strides [64, 8], C strides [32, 16];
// m = T = 4, n = S = 4, k = H = 8; A: m stride 16, k stride 1; B: k stride
// 1, n stride 16; C: m stride 4, n stride 1.
// CHECK-LABEL: memref.global "private" constant @tfc_table_0 : memref<18xi64> = dense<[2, 2, 2, 64, 8, 64, 8, 32, 16, 4, 4, 8, 16, 1, 1, 16, 4, 1]>
// CHECK: call @tfc_cpu_strided_matmul_f32(
module attributes {tfc.feeds = ["q:0", "k:0"], tfc.fetches = ["scores:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %q:2 = _Arg name("q") {T = f32, index = 0} : () -> tensor<2x4x2x8xf32>
    %k:2 = _Arg name("k") {T = f32, index = 1} : () -> tensor<2x4x2x8xf32>
    %s:2 = Einsum(%q#0, %k#0) name("scores") {N = 2, T = f32, equation = "BTNH,BSNH->BNTS", tfc.offsets = array<i64: 0>} : (tensor<2x4x2x8xf32>, tensor<2x4x2x8xf32>) -> tensor<2x2x4x4xf32>
    %r = _Retval(%s#0) name("scores/_retval_0") {T = f32, index = 0} : (tensor<2x2x4x4xf32>) -> ()
  }
}

// -----

// TF1 cond: both outputs of the Switch are x's buffer; the predicate is
// loaded and each branch's node runs under an scf.if on its liveness
// (false branch: NOT pred, true branch: pred); the Merge copies the input
// that is alive, and stores its index.
// CHECK-LABEL: func.func @tfc_step_impl(%arg0: !llvm.ptr, %arg1: memref<256xi8>, %arg2: memref<0xi8>, %arg3: memref<4xf32>, %arg4: memref<i1>
// CHECK: %[[PRED:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[NOT:.*]] = arith.xori %[[PRED]], %[[TRUE]] : i1
// CHECK: scf.if %[[NOT]] {
// CHECK: linalg.generic
// CHECK: math.sqrt
// CHECK: scf.if %[[PRED]] {
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK: scf.if %[[NOT]] {
// CHECK-NEXT: memref.copy
// CHECK: scf.if %[[PRED]] {
// CHECK-NEXT: memref.copy
module attributes {tfc.feeds = ["x:0", "p:0"], tfc.fetches = ["m:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %p:2 = _Arg name("p") {T = i1, index = 1} : () -> tensor<i1>
    %s:3 = Switch(%x#0, %p#0) name("s") {T = f32} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
    %f:2 = Sqrt(%s#0) name("f") {T = f32, tfc.offsets = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
    %t:2 = Neg(%s#1) name("t") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<4xf32>) -> tensor<4xf32>
    %m:3 = Merge(%f#0, %t#0) name("m") {N = 2, T = f32, tfc.offsets = array<i64: 128, 192>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
    %r = _Retval(%m#0) name("m/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}

// -----

// A ControlTrigger is alive even when what it waits for is dead: the Sqrt
// after it runs unconditionally, the Neg of the Switch's output does not.
// CHECK-LABEL: func.func @tfc_step_impl(%arg0: !llvm.ptr, %arg1: memref<128xi8>, %arg2: memref<0xi8>, %arg3: memref<4xf32>, %arg4: memref<i1>
// CHECK: scf.if
// CHECK: arith.negf
// CHECK-NOT: scf.if
// CHECK: math.sqrt
module attributes {tfc.feeds = ["x:0", "p:0"], tfc.fetches = ["e:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 128, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %p:2 = _Arg name("p") {T = i1, index = 1} : () -> tensor<i1>
    %s:3 = Switch(%x#0, %p#0) name("s") {T = f32} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
    %f:2 = Neg(%s#0) name("f") {T = f32, tfc.offsets = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
    %trigger = ControlTrigger [%f#1] name("trigger")
    %e:2 = Sqrt(%x#0) [%trigger] name("e") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<4xf32>) -> tensor<4xf32>
    %r = _Retval(%e#0) name("e/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}

// -----

// float32's exp is arithmetic that vectorizes (Cody-Waite reduction, a
// polynomial, 2^k from the exponent bits); float64's stays math.exp, which
// becomes the C library's exp.
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: linalg.generic
// CHECK-NOT: math.exp
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.shli
// CHECK: arith.bitcast {{.*}} : i32 to f32
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK: math.exp {{.*}} : f64
module attributes {tfc.feeds = ["x:0", "y:0"], tfc.fetches = ["ex:0", "ey:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 128, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %y:2 = _Arg name("y") {T = f64, index = 1} : () -> tensor<4xf64>
    %ex:2 = Exp(%x#0) name("ex") {T = f32, tfc.offsets = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
    %ey:2 = Exp(%y#0) name("ey") {T = f64, tfc.offsets = array<i64: 64>} : (tensor<4xf64>) -> tensor<4xf64>
    %rx = _Retval(%ex#0) name("ex/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
    %ry = _Retval(%ey#0) name("ey/_retval_0") {T = f64, index = 1} : (tensor<4xf64>) -> ()
  }
}

// -----

// A loop variable starting from a constant of one repeated value (the
// zeros of an accumulator) is filled; one starting from the fed x is
// copied in.
// CHECK-LABEL: func.func @tfc_step_impl(
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT: memref.copy %arg4, %{{.*}} : memref<4xf32> to memref<4xf32>
// The loop counts its iterations (for transfers in a loop cut between
// devices).
// CHECK-NEXT: %[[FIRST:.*]] = arith.constant 0 : i64
// CHECK-NEXT: scf.while (%{{.*}} = %[[FIRST]]) : (i64) -> i64
module attributes {tfc.feeds = ["p:0", "x:0"], tfc.fetches = ["exit_a:0", "exit_b:0"]} {
  tfg.graph <producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256 : i64, tfg.entry = "step"} {
    %0:2 = _Arg name("p") {T = i1, index = 0 : i64, tfc.offsets = array<i64: -1>} : () -> tensor<i1>
    %1:2 = _Arg name("x") {T = f32, index = 1 : i64, tfc.offsets = array<i64: -1>} : () -> tensor<4xf32>
    %2:2 = Const name("zeros") {dtype = f32, tfc.offsets = array<i64: -1>, value = dense<0.000000e+00> : tensor<4xf32>} : () -> tensor<4xf32>
    %3:2 = Enter(%2#0) name("enter_a") {T = f32, frame_name = "loop", is_constant = false, tfc.offsets = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32>
    %4:2 = Enter(%1#0) name("enter_b") {T = f32, frame_name = "loop", is_constant = false, tfc.offsets = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32>
    %5:2 = Enter(%0#0) name("enter_p") {T = i1, frame_name = "loop", is_constant = true, tfc.offsets = array<i64: -1>} : (tensor<i1>) -> tensor<i1>
    %6:3 = Merge(%3#0, %13#0) name("merge_a") {N = 2 : i64, T = f32, tfc.offsets = array<i64: 0, 64>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
    %7:3 = Merge(%4#0, %14#0) name("merge_b") {N = 2 : i64, T = f32, tfc.offsets = array<i64: 128, 64>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
    %8:2 = LoopCond(%5#0) name("cond") {tfc.offsets = array<i64: -1>} : (tensor<i1>) -> tensor<i1>
    %9:3 = Switch(%6#0, %8#0) name("switch_a") {T = f32, tfc.offsets = array<i64: 0, 0>} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
    %10:3 = Switch(%7#0, %8#0) name("switch_b") {T = f32, tfc.offsets = array<i64: 128, 128>} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
    %11:2 = AddV2(%9#1, %10#1) name("body_a") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %12:2 = Neg(%10#1) name("body_b") {T = f32, tfc.offsets = array<i64: 192>} : (tensor<4xf32>) -> tensor<4xf32>
    %13:2 = NextIteration(%11#0) name("next_a") {T = f32, tfc.offsets = array<i64: 64>} : (tensor<4xf32>) -> tensor<4xf32>
    %14:2 = NextIteration(%12#0) name("next_b") {T = f32, tfc.offsets = array<i64: 192>} : (tensor<4xf32>) -> tensor<4xf32>
    %15:2 = Exit(%9#0) name("exit_a") {T = f32, tfc.offsets = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
    %16:2 = Exit(%10#0) name("exit_b") {T = f32, tfc.offsets = array<i64: 128>} : (tensor<4xf32>) -> tensor<4xf32>
    %17 = _Retval(%15#0) name("exit_a/_retval_0") {T = f32, index = 0 : i64} : (tensor<4xf32>) -> ()
    %18 = _Retval(%16#0) name("exit_b/_retval_1") {T = f32, index = 1 : i64} : (tensor<4xf32>) -> ()
  }
}

// -----

// Empty fills its buffer with zeros, but with init=false, where TensorFlow
// leaves the memory as it was: nothing writes that buffer before the
// fetch copies it (tfc-split-batch's loop variables, whose rows the
// iterations write, cost nothing to start).
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[ARENA:.*]]: memref<64xi8>, %{{.*}}: memref<0xi8>, %[[OUT0:.*]]: memref<2x4xf32>, %[[OUT1:.*]]: memref<2x4xf32>)
// CHECK: %[[ZEROS:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<64xi8> to memref<2x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ZEROS]] : memref<2x4xf32>)
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[UNFILLED:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<64xi8> to memref<2x4xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: %[[UNFILLED]]
// CHECK: memref.copy %[[ZEROS]], %[[OUT0]]
// CHECK-NEXT: memref.copy %[[UNFILLED]], %[[OUT1]]
// CHECK-NEXT: return
module attributes {tfc.feeds = [], tfc.fetches = ["zeros:0", "unfilled:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %shape:2 = Const name("shape") {dtype = i32, value = dense<[2, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
    %zeros:2 = Empty(%shape#0) name("zeros") {dtype = f32, init = true, tfc.offsets = array<i64: 0>} : (tensor<2xi32>) -> tensor<2x4xf32>
    %unfilled:2 = Empty(%shape#0) name("unfilled") {dtype = f32, init = false, tfc.offsets = array<i64: 32>} : (tensor<2xi32>) -> tensor<2x4xf32>
    %r0 = _Retval(%zeros#0) name("zeros/_retval_0") {T = f32, index = 0} : (tensor<2x4xf32>) -> ()
    %r1 = _Retval(%unfilled#0) name("unfilled/_retval_1") {T = f32, index = 1} : (tensor<2x4xf32>) -> ()
  }
}
