// RUN: tfc-opt %s -split-input-file -tfc-split-steps=max-ops=4 | FileCheck %s

// Two runs of four operations or more: each becomes a noinline part
// taking the runtime's context, the step's arguments it uses and a frame
// pointer (the second does not read %x). The second recomputes
// the first's view of the arena from its own argument instead of
// receiving it, so nothing travels and the frame is a null pointer.
// CHECK-LABEL: func.func private @step_part0(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: memref<4xf32>, %arg3: !llvm.ptr) attributes {passthrough = ["noinline"]}
// CHECK: memref.view %arg1
// CHECK: arith.negf
// CHECK-NOT: llvm.store
// CHECK: return
// CHECK-LABEL: func.func private @step_part1(%arg0: !llvm.ptr, %arg1: memref<64xi8>, %arg2: !llvm.ptr) attributes {passthrough = ["noinline"]}
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %arg1[%[[C0]]][] : memref<64xi8> to memref<4xf32>
// CHECK: %[[B:.*]] = memref.view %arg1
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<4xf32>) outs(%[[B]] : memref<4xf32>)
// CHECK: arith.mulf
// CHECK-LABEL: func.func @step({{.*}}) attributes {passthrough = ["noinline", "optnone"]}
// CHECK-NEXT: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: call @step_part0(%arg0, %arg1, %arg2, %[[NONE]])
// CHECK-NEXT: call @step_part1(%arg0, %arg1, %[[NONE]])
// CHECK-NEXT: return
#id = affine_map<(d0) -> (d0)>
func.func @step(%runtime: !llvm.ptr, %arena: memref<64xi8>, %x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %c16 = arith.constant 16 : index
  %b = memref.view %arena[%c16][] : memref<64xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Values computed in one part and read in later ones travel in the frame,
// a struct on the step's stack: a heap buffer as its descriptor, a float
// as it is. The part that computes them stores them at its end; each part
// that reads them loads them at its start (the buffer twice).
// CHECK-LABEL: func.func private @step_part0(%arg0: !llvm.ptr, %arg1: memref<i64>, %arg2: !llvm.ptr)
// CHECK: %[[COUNT:.*]] = memref.load %arg1[]
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[COUNT]]
// CHECK: %[[BUFFER:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK: %[[SCALE:.*]] = call @tfc_scale(%arg0)
// CHECK: %[[DESCRIPTOR:.*]] = builtin.unrealized_conversion_cast %[[BUFFER]] : memref<?xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %arg2[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, f32)>
// CHECK: llvm.store %[[DESCRIPTOR]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %arg2[0, 1]
// CHECK: llvm.store %[[SCALE]], %[[F1]] : f32, !llvm.ptr
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @step_part1(%arg0: !llvm.ptr, %arg1: memref<4xf32>, %arg2: !llvm.ptr)
// CHECK-NEXT: %[[G0:.*]] = llvm.getelementptr %arg2[0, 0]
// CHECK-NEXT: %[[D:.*]] = llvm.load %[[G0]]
// CHECK-NEXT: %[[B1:.*]] = builtin.unrealized_conversion_cast %[[D]] {{.*}} to memref<?xf32>
// CHECK-NEXT: %[[G1:.*]] = llvm.getelementptr %arg2[0, 1]
// CHECK-NEXT: %[[S1:.*]] = llvm.load %[[G1]] : !llvm.ptr -> f32
// CHECK: %[[FIRST:.*]] = memref.load %[[B1]]
// CHECK: arith.mulf %[[FIRST]], %[[S1]]
// CHECK-NOT: llvm.store
// CHECK: return
// CHECK-LABEL: func.func private @step_part2(%arg0: !llvm.ptr, %arg1: !llvm.ptr)
// CHECK: %[[B2:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<?xf32>
// CHECK-NEXT: memref.dealloc %[[B2]]
// CHECK-LABEL: func.func @step(
// CHECK: %[[FRAME:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, f32)>
// CHECK-NEXT: call @step_part0(%arg0, %arg2, %[[FRAME]])
// CHECK-NEXT: call @step_part1(%arg0, %arg3, %[[FRAME]])
// CHECK-NEXT: call @step_part2(%arg0, %[[FRAME]])
func.func private @tfc_scale(!llvm.ptr) -> f32
func.func @step(%runtime: !llvm.ptr, %arena: memref<64xi8>, %n: memref<i64>, %y: memref<4xf32>) {
  %count = memref.load %n[] : memref<i64>
  %size = arith.index_cast %count : i64 to index
  %buffer = memref.alloc(%size) : memref<?xf32>
  %scale = func.call @tfc_scale(%runtime) : (!llvm.ptr) -> f32
  %c0 = arith.constant 0 : index
  %first = memref.load %buffer[%c0] : memref<?xf32>
  %product = arith.mulf %first, %scale : f32
  memref.store %product, %y[%c0] : memref<4xf32>
  memref.dealloc %buffer : memref<?xf32>
  return
}

// -----

// A table on the stack is not left behind: no cut falls between the
// alloca and the last use of a pointer derived from it, since the part's
// stack is gone once it returns. The cut comes after the kernel's call.
// CHECK-LABEL: func.func private @step_part0(
// CHECK: memref.alloca() : memref<2xi64>
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: call @tfc_kernel
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @step_part1(
// CHECK-NOT: alloca
// CHECK: call @tfc_other
// CHECK-LABEL: func.func @step(
func.func private @tfc_kernel(!llvm.ptr, !llvm.ptr)
func.func private @tfc_other(!llvm.ptr, i64)
func.func @step(%runtime: !llvm.ptr) {
  %table = memref.alloca() : memref<2xi64>
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i64
  memref.store %c7, %table[%c0] : memref<2xi64>
  %c1 = arith.constant 1 : index
  memref.store %c7, %table[%c1] : memref<2xi64>
  %address = memref.extract_aligned_pointer_as_index %table : memref<2xi64> -> index
  %integer = arith.index_cast %address : index to i64
  %pointer = llvm.inttoptr %integer : i64 to !llvm.ptr
  func.call @tfc_kernel(%runtime, %pointer) : (!llvm.ptr, !llvm.ptr) -> ()
  %c9 = arith.constant 9 : i64
  func.call @tfc_other(%runtime, %c9) : (!llvm.ptr, i64) -> ()
  return
}

// -----

// A memref.copy counts as eight operations (LLVM expands a small one into
// loads and stores in the block of the next): each copy is a part here.
// CHECK-LABEL: func.func private @step_part0(%arg0: !llvm.ptr, %arg1: memref<4xf32>, %arg2: memref<4xf32>, %arg3: !llvm.ptr)
// CHECK-NEXT: memref.copy %arg1, %arg2
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @step_part1(%arg0: !llvm.ptr, %arg1: memref<4xf32>, %arg2: memref<4xf32>, %arg3: !llvm.ptr)
// CHECK-NEXT: memref.copy %arg1, %arg2
// CHECK-NEXT: return
// CHECK-LABEL: func.func @step(
// CHECK: call @step_part0(%arg0, %arg1, %arg2,
// CHECK-NEXT: call @step_part1(%arg0, %arg1, %arg3,
func.func @step(%runtime: !llvm.ptr, %x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  memref.copy %x, %z : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Left whole: a function within the bound, one with results, and one
// that is not a step (no runtime context first).
// CHECK-LABEL: func.func @small(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: return
// CHECK-LABEL: func.func @with_result(
// CHECK-NEXT: arith.addi
// CHECK-NOT: call
// CHECK: return
// CHECK-LABEL: func.func @not_a_step(
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addi
// CHECK-NOT: call
// CHECK: return
func.func @small(%runtime: !llvm.ptr) {
  %c = arith.constant 1 : index
  return
}
func.func @with_result(%x: i64) -> i64 {
  %a = arith.addi %x, %x : i64
  %b = arith.addi %a, %x : i64
  %c = arith.addi %b, %x : i64
  %d = arith.addi %c, %x : i64
  %e = arith.addi %d, %x : i64
  return %e : i64
}
func.func @not_a_step(%x: memref<i64>) {
  %v = memref.load %x[] : memref<i64>
  %a = arith.addi %v, %v : i64
  %b = arith.addi %a, %v : i64
  %c = arith.addi %b, %v : i64
  %d = arith.addi %c, %v : i64
  memref.store %d, %x[] : memref<i64>
  return
}
