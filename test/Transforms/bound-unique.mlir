// Tests tfc-bound-unique: the deduplication TF1 optimizers build around a
// sparse gradient is claimed (the Unique pads with -1) and its updates skip
// the padding; a Unique used any other way is left alone, for
// tfc-bound-dynamic-rows (bound-dynamic-rows.mlir).
// RUN: tfc-opt -tfc-bound-unique -split-input-file %s | FileCheck %s

// The values are the indices of a scatter (through Identity) and of a
// sparse optimizer update; their count is num_segments of the segment sum,
// whose rows reach the updates through elementwise ops. The positions
// (idx) may go anywhere.
// CHECK-LABEL: tfg.graph
// CHECK: Unique({{.*}}) name("unique") {{{.*}}tfc.pad_negative}
// CHECK: ResourceScatterAdd({{.*}}) name("scatter") {{{.*}}tfc.skip_negative_indices}
// CHECK: ResourceSparseApplyAdagrad({{.*}}) name("adagrad") {{{.*}}tfc.skip_negative_indices}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %ids:2 = Placeholder name("ids") {dtype = i32, shape = #tfg.shape<6>} : () -> tensor<6xi32>
  %grad:2 = Placeholder name("grad") {dtype = f32, shape = #tfg.shape<6x4>} : () -> tensor<6x4xf32>
  %var:2 = VarHandleOp name("var") {dtype = f32, shape = #tfg.shape<10x4>, shared_name = "var"} : () -> tensor<!tfg.resource>
  %acc:2 = VarHandleOp name("acc") {dtype = f32, shape = #tfg.shape<10x4>, shared_name = "acc"} : () -> tensor<!tfg.resource>
  %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
  %shape:2 = Shape(%u#0) name("shape") {T = i32, out_type = i32} : (tensor<?xi32>) -> tensor<1xi32>
  %b:2 = Const name("begin") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e:2 = Const name("end") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %count:2 = StridedSlice(%shape#0, %b#0, %e#0, %e#0) name("count") {Index = i32, T = i32, begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %sum:2 = UnsortedSegmentSum(%grad#0, %u#1, %count#0) name("sum") {T = f32, Tindices = i32, Tnumsegments = i32} : (tensor<6x4xf32>, tensor<6xi32>, tensor<i32>) -> tensor<?x4xf32>
  %c:2 = Const name("c") {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %scaled:2 = Mul(%sum#0, %c#0) name("scaled") {T = f32} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %square:2 = Mul(%scaled#0, %scaled#0) name("square") {T = f32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %y:2 = Identity(%u#0) name("values") {T = i32} : (tensor<?xi32>) -> tensor<?xi32>
  %s = ResourceScatterAdd(%var#0, %y#0, %square#0) name("scatter") {Tindices = i32, dtype = f32} : (tensor<!tfg.resource>, tensor<?xi32>, tensor<?x4xf32>) -> ()
  %a = ResourceSparseApplyAdagrad(%var#0, %acc#0, %c#0, %sum#0, %u#0) name("adagrad") {T = f32, Tindices = i32} : (tensor<!tfg.resource>, tensor<!tfg.resource>, tensor<f32>, tensor<?x4xf32>, tensor<?xi32>) -> ()
  %positions:2 = Identity(%u#1) name("positions") {T = i32} : (tensor<6xi32>) -> tensor<6xi32>
}

// -----

// Fetching the values would show the padding.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: tfc.pad_negative
// CHECK: _Retval
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %ids:2 = Placeholder name("ids") {dtype = i32, shape = #tfg.shape<6>} : () -> tensor<6xi32>
  %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
  %r = _Retval(%u#0) name("result") {T = i32, index = 0 : i64} : (tensor<?xi32>) -> ()
}

// -----

// A mean over the segment sum's rows would divide by the bound.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: tfc.pad_negative
// CHECK-NOT: tfc.skip_negative_indices
// CHECK: ResourceScatterAdd
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %ids:2 = Placeholder name("ids") {dtype = i32, shape = #tfg.shape<6>} : () -> tensor<6xi32>
  %grad:2 = Placeholder name("grad") {dtype = f32, shape = #tfg.shape<6x4>} : () -> tensor<6x4xf32>
  %var:2 = VarHandleOp name("var") {dtype = f32, shape = #tfg.shape<10x4>, shared_name = "var"} : () -> tensor<!tfg.resource>
  %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
  %size:2 = Size(%u#0) name("size") {T = i32, out_type = i32} : (tensor<?xi32>) -> tensor<i32>
  %sum:2 = UnsortedSegmentSum(%grad#0, %u#1, %size#0) name("sum") {T = f32, Tindices = i32, Tnumsegments = i32} : (tensor<6x4xf32>, tensor<6xi32>, tensor<i32>) -> tensor<?x4xf32>
  %axes:2 = Const name("axes") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %mean:2 = Mean(%sum#0, %axes#0) name("mean") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<4xf32>
  %s = ResourceScatterAdd(%var#0, %u#0, %sum#0) name("scatter") {Tindices = i32, dtype = f32} : (tensor<!tfg.resource>, tensor<?xi32>, tensor<?x4xf32>) -> ()
}

// -----

// The count anywhere but num_segments.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: tfc.pad_negative
// CHECK: Fill
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %ids:2 = Placeholder name("ids") {dtype = i32, shape = #tfg.shape<6>} : () -> tensor<6xi32>
  %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
  %shape:2 = Shape(%u#0) name("shape") {T = i32, out_type = i32} : (tensor<?xi32>) -> tensor<1xi32>
  %fill:2 = Fill(%shape#0, %ids#0) name("fill") {T = i32, index_type = i32} : (tensor<1xi32>, tensor<6xi32>) -> tensor<?xi32>
}
