// RUN: tfc-opt %s -split-input-file -tfc-collapse-loops | FileCheck %s

// An image's 3 channels normalized: the loops over 40 pixels and 3
// channels become one of 120. The image and the output are read through
// collapse_shape; the per-channel vector is copied 40 times into a buffer
// allocated at the function's entry and filled before the nest; the scalar
// keeps its map.
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[INNER:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-LABEL: func.func @normalize(
// CHECK-SAME: %[[X:[^:]*]]: memref<2x8x40x3xf32>, %[[MEAN:[^:]*]]: memref<3xf32>, %[[SCALE:[^:]*]]: memref<f32>, %[[OUT:[^:]*]]: memref<2x8x40x3xf32>
// CHECK: %[[TILE:.*]] = memref.alloca() : memref<120xf32>
// CHECK: %[[XC:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : memref<2x8x40x3xf32> into memref<2x8x120xf32>
// CHECK: scf.for %[[COPY:.*]] = %c0 to %c40 step %c1
// CHECK:   %[[BASE:.*]] = arith.muli %[[COPY]], %c3
// CHECK:   scf.for %[[AT:.*]] = %c0 to %c3 step %c1
// CHECK:     %[[E:.*]] = memref.load %[[MEAN]][%[[AT]]]
// CHECK:     %[[TO:.*]] = arith.addi %[[BASE]], %[[AT]]
// CHECK:     memref.store %[[E]], %[[TILE]][%[[TO]]]
// CHECK: %[[OC:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0], [1], [2, 3]]
// CHECK: linalg.generic {indexing_maps = [#[[ID3]], #[[INNER]], #[[SCALAR]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[XC]], %[[TILE]], %[[SCALE]] : memref<2x8x120xf32>, memref<120xf32>, memref<f32>) outs(%[[OC]] : memref<2x8x120xf32>)
// CHECK: arith.subf
// CHECK: arith.mulf
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
func.func @normalize(%x: memref<2x8x40x3xf32>, %mean: memref<3xf32>,
                     %scale: memref<f32>, %out: memref<2x8x40x3xf32>) {
  linalg.generic {indexing_maps = [#id, #channel, #scalar, #id],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %scale : memref<2x8x40x3xf32>, memref<3xf32>, memref<f32>)
      outs(%out : memref<2x8x40x3xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = arith.mulf %d, %s : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A nest of 4 x 5 x 2 merges twice: 5 x 2 into 10, still short, then 4 x
// 10 into one loop of 40. Its 1x1x2 vector (size-1 dimensions read at
// index 0) is copied 5 times, then that copy 4 times.
// CHECK-LABEL: func.func @twice(
// CHECK-DAG: memref.alloca() : memref<10xf32>
// CHECK-DAG: memref.alloca() : memref<40xf32>
// CHECK: memref.collapse_shape {{.*}} {{\[\[}}0], [1, 2]] : memref<4x5x2xf32> into memref<4x10xf32>
// CHECK: memref.load %{{.*}}[%c0, %c0, %{{.*}}] : memref<1x1x2xf32>
// CHECK: memref.collapse_shape {{.*}} {{\[\[}}0, 1]] : memref<4x10xf32> into memref<40xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<10xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : memref<40xf32>, memref<40xf32>) outs(%{{.*}} : memref<40xf32>)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#vector3 = affine_map<(d0, d1, d2) -> (0, 0, d2)>
func.func @twice(%x: memref<4x5x2xf32>, %v: memref<1x1x2xf32>, %out: memref<4x5x2xf32>) {
  linalg.generic {indexing_maps = [#id3, #vector3, #id3],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %v : memref<4x5x2xf32>, memref<1x1x2xf32>) outs(%out : memref<4x5x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %e = arith.addf %a, %b : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Left as they are: an innermost loop of 64 already; an output that is a
// window of a wider buffer (not contiguous across rows); a value per row
// broadcast along the channels; a reduction; a body reading its indices.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT: collapse_shape
// CHECK-NOT: memref.alloca
// CHECK-COUNT-5: iterator_types = ["parallel", "{{(parallel|reduction)}}"]
// CHECK-NOT: collapse_shape
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#rows = affine_map<(d0, d1) -> (d0)>
#strided = strided<[8, 1]>
func.func @unchanged(%wide: memref<16x64xf32>, %x: memref<16x3xf32>,
                     %window: memref<16x3xf32, #strided>,
                     %perrow: memref<16x1xf32>, %sums: memref<16xf32>,
                     %out: memref<16x3xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%wide : memref<16x64xf32>) outs(%wide : memref<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = arith.negf %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x3xf32>) outs(%window : memref<16x3xf32, #strided>) {
  ^bb0(%a: f32, %o: f32):
    %e = arith.negf %a : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %perrow : memref<16x3xf32>, memref<16x1xf32>) outs(%out : memref<16x3xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %e = arith.mulf %a, %r : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x3xf32>) outs(%sums : memref<16xf32>) {
  ^bb0(%a: f32, %s: f32):
    %e = arith.addf %a, %s : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x3xf32>) outs(%out : memref<16x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    %e = arith.addf %a, %f : f32
    linalg.yield %e : f32
  }
  return
}
