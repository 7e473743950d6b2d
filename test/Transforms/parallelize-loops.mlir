// RUN: tfc-opt %s -split-input-file -tfc-parallelize-loops | FileCheck %s

// An elementwise loop writing a view of the arena: its first loop is
// outlined, the view is recomputed inside from the captured arena (so both
// sides keep one base pointer), the input travels as its descriptor, and
// the runtime gets 256 rows of 1 KiB read, 1 KiB written and 256 x 1 / 8
// cycles each.
// CHECK-LABEL: func.func private @tfc_parallel_for(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, f64, f64, f64)
// CHECK-LABEL: func.func private @step_loop0(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64)
// CHECK: %[[F0:.*]] = llvm.getelementptr %arg0[0, 0]
// CHECK: %[[D0:.*]] = llvm.load %[[F0]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %[[D0]] {{.*}} to memref<256x256xf32>
// CHECK: %[[F1:.*]] = llvm.getelementptr %arg0[0, 1]
// CHECK: %[[D1:.*]] = llvm.load %[[F1]]
// CHECK: %[[ARENA:.*]] = builtin.unrealized_conversion_cast %[[D1]] {{.*}} to memref<1048576xi8>
// CHECK: %[[VIEW:.*]] = memref.view %[[ARENA]]
// CHECK: %[[BEGIN:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[END:.*]] = arith.index_cast %arg2 : i64 to index
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]]
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[VIEW]]
// CHECK: return
// CHECK-LABEL: func.func @step(
// CHECK: %[[STRUCT:.*]] = llvm.alloca
// CHECK-NOT: linalg.generic
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK: %[[BODY:.*]] = constant @step_loop0
// CHECK: %[[POINTER:.*]] = builtin.unrealized_conversion_cast %[[BODY]] : (!llvm.ptr, i64, i64) -> () to !llvm.ptr
// CHECK: %[[TRIPS:.*]] = arith.constant 256 : i64
// CHECK: %[[LOADED:.*]] = arith.constant 1.024000e+03 : f64
// CHECK: %[[STORED:.*]] = arith.constant 1.024000e+03 : f64
// CHECK: %[[CYCLES:.*]] = arith.constant 3.200000e+01 : f64
// CHECK: call @tfc_parallel_for(%arg0, %[[POINTER]], %[[STRUCT]], %[[TRIPS]], %[[LOADED]], %[[STORED]], %[[CYCLES]])
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @step(%runtime: !llvm.ptr, %arena: memref<1048576xi8>, %x: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %out = memref.view %arena[%c0][] : memref<1048576xi8> to memref<256x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<256x256xf32>) outs(%out : memref<256x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = arith.mulf %in, %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A leading dimension of 1 (batch 1): the split is the next one, inside
// the one-trip loop, whose index is captured.
// CHECK-LABEL: func.func private @step_loop0(
// CHECK: llvm.load {{.*}} -> i64
// CHECK: arith.index_cast {{.*}} : i64 to index
// CHECK-LABEL: func.func @step(
// CHECK: scf.for %[[I:.*]] = %c0 to %c1 step %c1
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: %[[TRIPS:.*]] = arith.constant 512 : i64
// CHECK: call @tfc_parallel_for(%arg0, %{{.*}}, %{{.*}}, %[[TRIPS]],
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @step(%runtime: !llvm.ptr, %x: memref<1x512x128xf32>, %y: memref<1x512x128xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<1x512x128xf32>) outs(%y : memref<1x512x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = arith.addf %in, %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row reduction splits over its rows: each range writes its own sums.
// CHECK-LABEL: func.func private @step_loop0(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.addf
// CHECK-LABEL: func.func @step(
// CHECK: call @tfc_parallel_for
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @step(%runtime: !llvm.ptr, %x: memref<512x256xf32>, %sums: memref<512xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<512x256xf32>) outs(%sums : memref<512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left serial: a loop too small to pay for the team; a reduction over the
// first dimension (every range would write every output); a body that may
// stop the step; a function that is not a step (no runtime argument).
// CHECK-NOT: tfc_parallel_for
// CHECK-LABEL: func.func @small(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @columns(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @fails(
// CHECK: linalg.generic
// CHECK-LABEL: func.func @helper(
// CHECK: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func private @tfc_fail(!llvm.ptr, !llvm.ptr)
func.func @small(%runtime: !llvm.ptr, %x: memref<16x16xf32>, %y: memref<16x16xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = arith.addf %in, %in : f32
    linalg.yield %e : f32
  }
  return
}
func.func @columns(%runtime: !llvm.ptr, %x: memref<512x256xf32>, %sums: memref<256xf32>) {
  linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<512x256xf32>) outs(%sums : memref<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
func.func @fails(%runtime: !llvm.ptr, %message: !llvm.ptr, %x: memref<512x256xi32>, %y: memref<512x256xi32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x256xi32>) outs(%y : memref<512x256xi32>) {
  ^bb0(%in: i32, %o: i32):
    %zero = arith.constant 0 : i32
    %bad = arith.cmpi eq, %in, %zero : i32
    scf.if %bad {
      func.call @tfc_fail(%runtime, %message) : (!llvm.ptr, !llvm.ptr) -> ()
    }
    linalg.yield %in : i32
  }
  return
}
func.func @helper(%x: memref<512x256xf32>, %y: memref<512x256xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x256xf32>) outs(%y : memref<512x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = arith.addf %in, %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Loops whose outlined functions are the same share one (a network's parts
// in micro-batches repeat their loops on the same planned buffers): the
// two parts' first loops (the same view of the arena, the same body) call
// @part0_loop0; the second part's other loop, whose view is elsewhere in
// the arena, and the one that multiplies instead, each get their own.
// CHECK-LABEL: func.func private @part0_loop0(
// CHECK: memref.view %{{.*}}[%c0{{.*}}]
// CHECK: arith.addf
// CHECK-LABEL: func.func @part0(
// CHECK: constant @part0_loop0
// CHECK-NOT: func.func private @part1_loop0(
// CHECK-LABEL: func.func private @part1_loop1(
// CHECK: memref.view %{{.*}}[%c1048576{{.*}}]
// CHECK: arith.addf
// CHECK-LABEL: func.func private @part1_loop2(
// CHECK: memref.view %{{.*}}[%c0{{.*}}]
// CHECK: arith.mulf
// CHECK-LABEL: func.func @part1(
// CHECK: constant @part0_loop0
// CHECK: constant @part1_loop1
// CHECK: constant @part1_loop2
#same = affine_map<(d0, d1) -> (d0, d1)>
func.func @part0(%runtime: !llvm.ptr, %arena: memref<2097152xi8>) {
  %c0 = arith.constant 0 : index
  %v = memref.view %arena[%c0][] : memref<2097152xi8> to memref<512x512xf32>
  linalg.generic {indexing_maps = [#same], iterator_types = ["parallel", "parallel"]}
      outs(%v : memref<512x512xf32>) {
  ^bb0(%o: f32):
    %e = arith.addf %o, %o : f32
    linalg.yield %e : f32
  }
  return
}
func.func @part1(%runtime: !llvm.ptr, %arena: memref<2097152xi8>) {
  %c0 = arith.constant 0 : index
  %c1m = arith.constant 1048576 : index
  %v = memref.view %arena[%c0][] : memref<2097152xi8> to memref<512x512xf32>
  %w = memref.view %arena[%c1m][] : memref<2097152xi8> to memref<512x512xf32>
  linalg.generic {indexing_maps = [#same], iterator_types = ["parallel", "parallel"]}
      outs(%v : memref<512x512xf32>) {
  ^bb0(%o: f32):
    %e = arith.addf %o, %o : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#same], iterator_types = ["parallel", "parallel"]}
      outs(%w : memref<512x512xf32>) {
  ^bb0(%o: f32):
    %e = arith.addf %o, %o : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#same], iterator_types = ["parallel", "parallel"]}
      outs(%v : memref<512x512xf32>) {
  ^bb0(%o: f32):
    %e = arith.mulf %o, %o : f32
    linalg.yield %e : f32
  }
  return
}
