// Tests tfc-bound-dynamic-rows: Where's output planned for its bound (the
// input's elements), its count computed in the graph (NotEqual, Cast,
// Sum), and the uses of its rows: boolean_mask's Squeeze and GatherV2 keep
// them, a Mean over them becomes a Sum of the padded rows over the count,
// Shape and Size used as data read the count (the shape computed, whose
// dimension of rows is the bound, times the count over the bound), a
// reduction along another axis keeps them; every other use is an error
// naming the node and the Where.
// RUN: tfc-opt %s -split-input-file -tfc-bound-dynamic-rows -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module
// CHECK-DAG: NotEqual(%{{.*}}, %{{.*}}) name("w/count/nonzero")
// CHECK-DAG: %[[ONES:.*]]:2 = Cast(%{{.*}}) name("w/count/ones") {{.*}} -> tensor<6xi64>
// CHECK-DAG: %[[COUNT:.*]]:2 = Sum(%[[ONES]]#0, %{{.*}}) name("w/count") {{.*}} -> tensor<i64>
// CHECK-DAG: Where(%{{.*}}) name("w") {{.*}} -> tensor<6x1xi64>
// CHECK-DAG: GatherV2({{.*}}) name("rows") {{.*}} -> tensor<6x4xf32>
// CHECK-DAG: %[[VALID:.*]]:2 = Less(%{{.*}}, %[[COUNT]]#0) name("mean/valid")
// CHECK-DAG: %[[PADDED:.*]]:2 = SelectV2(%[[VALID]]#0, %{{.*}}, %{{.*}}) name("mean/padded")
// CHECK-DAG: %[[SUM:.*]]:2 = Sum(%[[PADDED]]#0, %{{.*}}) name("mean/sum")
// CHECK-DAG: %[[N:.*]]:2 = Cast(%[[COUNT]]#0) name("mean/count") {{.*}} -> tensor<f32>
// CHECK-DAG: %[[PER:.*]]:2 = Mul(%[[N]]#0, %{{.*}}) name("mean/elements")
// CHECK-DAG: %[[MEAN:.*]]:2 = RealDiv(%[[SUM]]#0, %[[PER]]#0) name("mean")
// CHECK-DAG: _Retval(%[[MEAN]]#0) name("mean/_retval_0")
// CHECK-DAG: %[[PLANNED:.*]]:2 = Shape(%{{.*}}) name("shape") {{.*}} -> tensor<2xi32>
// CHECK-DAG: %[[AT:.*]]:2 = Mul(%{{.*}}, %{{.*}}) name("shape/count/at_rows")
// CHECK-DAG: %[[COUNTS:.*]]:2 = AddV2(%{{.*}}, %[[AT]]#0) name("shape/count/counts")
// CHECK-DAG: %[[TIMES:.*]]:2 = Mul(%[[PLANNED]]#0, %[[COUNTS]]#0) name("shape/count/times")
// CHECK-DAG: %[[SHAPE:.*]]:2 = FloorDiv(%[[TIMES]]#0, %{{.*}}) name("shape/count") {{.*}} -> tensor<2xi32>
// CHECK-DAG: _Retval(%[[SHAPE]]#0) name("shape/_retval_1")
// CHECK-DAG: %[[SIZE:.*]]:2 = FloorDiv({{.*}}) name("size/count/per_bound") {{.*}} -> tensor<i64>
// CHECK-DAG: _Retval(%[[SIZE]]#0) name("size/_retval_2")
// CHECK-DAG: Max(%{{.*}}, %{{.*}}) name("row_max") {{.*}} -> tensor<6xf32>
// CHECK-DAG: %[[LOW:.*]]:2 = Const name("total/fill") {{.*}} value = dense<0xFF800000> : tensor<f32>
// CHECK-DAG: SelectV2(%{{.*}}, %{{.*}}, %[[LOW]]#0) name("total/padded")
module attributes {tfc.feeds = ["x:0", "m:0"], tfc.fetches = ["mean:0", "shape:0", "size:0", "total:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<6x4xf32>
    %m:2 = _Arg name("m") {T = f32, index = 1 : i64} : () -> tensor<6xf32>
    %w:2 = Where(%m#0) name("w") {T = f32} : (tensor<6xf32>) -> tensor<?x1xi64>
    %sq:2 = Squeeze(%w#0) name("sq") {T = i64, squeeze_dims = [1]} : (tensor<?x1xi64>) -> tensor<?xi64>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %rows:2 = GatherV2(%x#0, %sq#0, %axis#0) name("rows") {Taxis = i32, Tindices = i64, Tparams = f32, batch_dims = 0 : i64} : (tensor<6x4xf32>, tensor<?xi64>, tensor<i32>) -> tensor<?x4xf32>
    %all:2 = Const name("all") {dtype = i32, value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
    %mean:2 = Mean(%rows#0, %all#0) name("mean") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<f32>
    %shape:2 = Shape(%rows#0) name("shape") {T = f32, out_type = i32} : (tensor<?x4xf32>) -> tensor<2xi32>
    %size:2 = Size(%rows#0) name("size") {T = f32, out_type = i64} : (tensor<?x4xf32>) -> tensor<i64>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %rowMax:2 = Max(%rows#0, %one#0) name("row_max") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?x4xf32>, tensor<i32>) -> tensor<?xf32>
    %total:2 = Max(%rowMax#0, %axis#0) name("total") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?xf32>, tensor<i32>) -> tensor<f32>
    _Retval(%mean#0) name("mean/_retval_0") {T = f32, index = 0 : i64} : (tensor<f32>) -> ()
    _Retval(%shape#0) name("shape/_retval_1") {T = i32, index = 1 : i64} : (tensor<2xi32>) -> ()
    _Retval(%size#0) name("size/_retval_2") {T = i64, index = 2 : i64} : (tensor<i64>) -> ()
    _Retval(%total#0) name("total/_retval_3") {T = f32, index = 3 : i64} : (tensor<f32>) -> ()
  }
}

// -----

// A shape of rows used as a shape: the Fill keeps the bound (its shape as
// computed) and has the rows, fetched with their count.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["zeros:0", "zeros:0/rows"]
// CHECK-DAG: %[[SHAPE:.*]]:2 = Shape(%{{.*}}) name("shape")
// CHECK-DAG: Fill(%[[SHAPE]]#0, %{{.*}}) name("zeros") {{.*}} -> tensor<5x1xf32>
module attributes {tfc.feeds = ["m:0"], tfc.fetches = ["zeros:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = _Arg name("m") {T = i1, index = 0 : i64} : () -> tensor<5xi1>
    %w:2 = Where(%m#0) name("w") {T = i1} : (tensor<5xi1>) -> tensor<?x1xi64>
    %shape:2 = Shape(%w#0) name("shape") {T = i64, out_type = i32} : (tensor<?x1xi64>) -> tensor<2xi32>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %zeros:2 = Fill(%shape#0, %zero#0) name("zeros") {T = f32, index_type = i32} : (tensor<2xi32>, tensor<f32>) -> tensor<?x1xf32>
    _Retval(%zeros#0) name("zeros/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x1xf32>) -> ()
  }
}

// -----

// A cumulative sum along the rows from the end: it would read the padding.
module attributes {tfc.feeds = ["m:0"], tfc.fetches = ["total:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = _Arg name("m") {T = i1, index = 0 : i64} : () -> tensor<5xi1>
    %w:2 = Where(%m#0) name("w") {T = i1} : (tensor<5xi1>) -> tensor<?x1xi64>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    // expected-error @+1 {{node 'sums' (Cumsum) accumulates along the rows of node 'w' (Where), whose number only the data decides; tfc plans them for their bound and cannot here}}
    %sums:2 = Cumsum(%w#0, %axis#0) name("sums") {T = i64, Tidx = i32, reverse = true} : (tensor<?x1xi64>, tensor<i32>) -> tensor<?x1xi64>
    %total:2 = Sum(%sums#0, %axis#0) name("total") {T = i64, Tidx = i32, keep_dims = false} : (tensor<?x1xi64>, tensor<i32>) -> tensor<1xi64>
    _Retval(%total#0) name("total/_retval_0") {T = i64, index = 0 : i64} : (tensor<1xi64>) -> ()
  }
}

// -----

// Rows of two Wheres added: their counts may differ.
module attributes {tfc.feeds = ["a:0", "b:0"], tfc.fetches = ["total:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = _Arg name("a") {T = i1, index = 0 : i64} : () -> tensor<5xi1>
    %b:2 = _Arg name("b") {T = i1, index = 1 : i64} : () -> tensor<5xi1>
    %wa:2 = Where(%a#0) name("wa") {T = i1} : (tensor<5xi1>) -> tensor<?x1xi64>
    %wb:2 = Where(%b#0) name("wb") {T = i1} : (tensor<5xi1>) -> tensor<?x1xi64>
    // expected-error @+1 {{node 'sum' (AddV2) combines the rows of node 'wb' (Where), whose number only the data decides, and those of node 'wa' (Where), whose number only the data decides; tfc plans them for their bound and cannot here}}
    %sum:2 = AddV2(%wa#0, %wb#0) name("sum") {T = i64} : (tensor<?x1xi64>, tensor<?x1xi64>) -> tensor<?x1xi64>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %total:2 = Sum(%sum#0, %axis#0) name("total") {T = i64, Tidx = i32, keep_dims = false} : (tensor<?x1xi64>, tensor<i32>) -> tensor<1xi64>
    _Retval(%total#0) name("total/_retval_0") {T = i64, index = 0 : i64} : (tensor<1xi64>) -> ()
  }
}

// -----

// Rows fetched: a fetch of their count joins the fetches, and
// tfc.row_counts says which fetch holds the rows of which.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["y:0", "w:0", "y:0/rows", "w:0/rows"]
// CHECK-SAME: tfc.row_counts = array<i64: 2, 3, -1, -1>
// CHECK-DAG: %[[COUNT:.*]]:2 = Sum({{.*}}) name("w/count")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("y/_retval_0/rows") {T = i64, index = 2 : i64}
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("w/_retval_1/rows") {T = i64, index = 3 : i64}
// CHECK-DAG: Where(%{{.*}}) name("w") {{.*}} -> tensor<10x2xi64>
// CHECK-DAG: Cast(%{{.*}}) name("y") {{.*}} -> tensor<10x2xf32>
module attributes {tfc.feeds = ["m:0"], tfc.fetches = ["y:0", "w:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = _Arg name("m") {T = i1, index = 0 : i64} : () -> tensor<5x2xi1>
    %w:2 = Where(%m#0) name("w") {T = i1} : (tensor<5x2xi1>) -> tensor<?x2xi64>
    %y:2 = Cast(%w#0) name("y") {DstT = f32, SrcT = i64, Truncate = false} : (tensor<?x2xi64>) -> tensor<?x2xf32>
    _Retval(%y#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x2xf32>) -> ()
    _Retval(%w#0) name("w/_retval_1") {T = i64, index = 1 : i64} : (tensor<?x2xi64>) -> ()
  }
}

// -----

// Rows fetched along another dimension than the first: tfc.row_axes says
// which.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["t:0", "t:0/rows"]
// CHECK-SAME: tfc.row_axes = array<i64: 1, 0>
// CHECK-SAME: tfc.row_counts = array<i64: 1, -1>
// CHECK: Transpose({{.*}}) name("t") {{.*}} -> tensor<2x10xi64>
module attributes {tfc.feeds = ["m:0"], tfc.fetches = ["t:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = _Arg name("m") {T = i1, index = 0 : i64} : () -> tensor<5x2xi1>
    %w:2 = Where(%m#0) name("w") {T = i1} : (tensor<5x2xi1>) -> tensor<?x2xi64>
    %axes:2 = Const name("axes") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %t:2 = Transpose(%w#0, %axes#0) name("t") {T = i64, Tperm = i32} : (tensor<?x2xi64>, tensor<2xi32>) -> tensor<2x?xi64>
    _Retval(%t#0) name("t/_retval_0") {T = i64, index = 0 : i64} : (tensor<2x?xi64>) -> ()
  }
}

// -----

// Rows along two dimensions (an outer product of the coordinates) are
// followed, but not fetched.
module attributes {tfc.feeds = ["m:0"], tfc.fetches = ["outer:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = _Arg name("m") {T = i1, index = 0 : i64} : () -> tensor<5xi1>
    %w:2 = Where(%m#0) name("w") {T = i1} : (tensor<5xi1>) -> tensor<?x1xi64>
    %axes:2 = Const name("axes") {dtype = i32, value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
    %t:2 = Transpose(%w#0, %axes#0) name("t") {T = i64, Tperm = i32} : (tensor<?x1xi64>, tensor<2xi32>) -> tensor<1x?xi64>
    %outer:2 = Mul(%w#0, %t#0) name("outer") {T = i64} : (tensor<?x1xi64>, tensor<1x?xi64>) -> tensor<?x?xi64>
    // expected-error @+1 {{fetch of node 'outer' (Mul) has slices along 2 dimension(s) as many as node 'w' (Where), whose number only the data decides; tfc returns such a count only along one dimension of a fetch of the step}}
    _Retval(%outer#0) name("outer/_retval_0") {T = i64, index = 0 : i64} : (tensor<?x?xi64>) -> ()
  }
}

// -----

// NonMaxSuppressionV3 runs as the V4 that counts its selection: rows
// bounded by max_output_size (at most every box), counted by V4's output.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["picked:0", "picked:0/rows"]
// CHECK-DAG: %[[NMS:.*]]:3 = NonMaxSuppressionV4({{.*}}) name("nms") {T = f32, T_threshold = f32, pad_to_max_output_size = false} {{.*}} -> (tensor<3xi32>, tensor<i32>)
// CHECK-DAG: %[[COUNT:.*]]:2 = Cast(%[[NMS]]#1) name("nms/count") {{.*}} -> tensor<i64>
// CHECK-DAG: GatherV2(%{{.*}}, %[[NMS]]#0, %{{.*}}) name("picked") {{.*}} -> tensor<3x4xf32>
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("picked/_retval_0/rows")
module attributes {tfc.feeds = ["boxes:0", "scores:0"], tfc.fetches = ["picked:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %boxes:2 = _Arg name("boxes") {T = f32, index = 0 : i64} : () -> tensor<8x4xf32>
    %scores:2 = _Arg name("scores") {T = f32, index = 1 : i64} : () -> tensor<8xf32>
    %max:2 = Const name("max") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %iou:2 = Const name("iou") {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
    %floor:2 = Const name("floor") {dtype = f32, value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
    %nms:2 = NonMaxSuppressionV3(%boxes#0, %scores#0, %max#0, %iou#0, %floor#0) name("nms") {T = f32, T_threshold = f32} : (tensor<8x4xf32>, tensor<8xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<?xi32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %picked:2 = GatherV2(%boxes#0, %nms#0, %axis#0) name("picked") {Taxis = i32, Tindices = i32, Tparams = f32, batch_dims = 0 : i64} : (tensor<8x4xf32>, tensor<?xi32>, tensor<i32>) -> tensor<?x4xf32>
    _Retval(%picked#0) name("picked/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4xf32>) -> ()
  }
}

// -----

// A Unique that tfc-bound-unique did not claim: its values are rows
// bounded by the input's length, counted by idx's largest position + 1.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["values:0", "values:0/rows"]
// CHECK-DAG: %[[U:.*]]:3 = Unique(%{{.*}}) name("unique") {{.*}} -> (tensor<6xi32>, tensor<6xi32>)
// CHECK-DAG: %[[P:.*]]:2 = Cast(%[[U]]#1) name("unique/count/positions") {{.*}} -> tensor<6xi64>
// CHECK-DAG: %[[LAST:.*]]:2 = Max(%[[P]]#0, %{{.*}}) name("unique/count/last")
// CHECK-DAG: %[[COUNT:.*]]:2 = AddV2(%[[LAST]]#0, %{{.*}}) name("unique/count")
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("values/_retval_0/rows")
module attributes {tfc.feeds = ["ids:0"], tfc.fetches = ["values:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids") {T = i32, index = 0 : i64} : () -> tensor<6xi32>
    %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
    %values:2 = Identity(%u#0) name("values") {T = i32} : (tensor<?xi32>) -> tensor<?xi32>
    _Retval(%values#0) name("values/_retval_0") {T = i32, index = 0 : i64} : (tensor<?xi32>) -> ()
  }
}

// -----

// Its count as num_segments: the segment sum's shape would be the data's.
module attributes {tfc.feeds = ["ids:0", "grad:0"], tfc.fetches = ["sum:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids") {T = i32, index = 0 : i64} : () -> tensor<6xi32>
    %grad:2 = _Arg name("grad") {T = f32, index = 1 : i64} : () -> tensor<6x4xf32>
    %u:3 = Unique(%ids#0) name("unique") {T = i32, out_idx = i32} : (tensor<6xi32>) -> (tensor<?xi32>, tensor<6xi32>)
    %size:2 = Size(%u#0) name("size") {T = i32, out_type = i32} : (tensor<?xi32>) -> tensor<i32>
    // expected-error @+1 {{node 'sum' (UnsortedSegmentSum) uses the number of rows of node 'unique' (Unique), which only the data decides, as a shape or an index; tfc plans for static shapes}}
    %sum:2 = UnsortedSegmentSum(%grad#0, %u#1, %size#0) name("sum") {T = f32, Tindices = i32, Tnumsegments = i32} : (tensor<6x4xf32>, tensor<6xi32>, tensor<i32>) -> tensor<?x4xf32>
    _Retval(%sum#0) name("sum/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4xf32>) -> ()
  }
}

// -----

// DynamicStitch of partitions of every position (an embedding lookup over
// two shards): the ids and their positions, partitioned by the same
// partitions, share their counts; each input's padding indices become -1,
// which the stitch skips; its output has the positions' number of rows
// (the shape function's, tfc-infer-shapes).
// CHECK-LABEL: module attributes
// CHECK-DAG: %[[IDS:.*]]:3 = DynamicPartition(%{{.*}}, %[[PARTS:.*]]#0) name("ids") {{.*}} -> (tensor<4xi32>, tensor<4xi32>)
// CHECK-DAG: %[[POS:.*]]:3 = DynamicPartition(%{{.*}}, %[[PARTS]]#0) name("positions") {{.*}} -> (tensor<4xi32>, tensor<4xi32>)
// CHECK-DAG: %[[COUNT0:.*]]:2 = Sum(%{{.*}}, %{{.*}}) name("ids/count_0")
// CHECK-DAG: %[[VALID0:.*]]:2 = Less(%{{.*}}, %[[COUNT0]]#0) name("stitch/indices_0/valid")
// CHECK-DAG: %[[PAD:.*]]:2 = Const name("stitch/indices_0/padding") {dtype = i32, value = dense<-1> : tensor<i32>}
// CHECK-DAG: %[[MASKED0:.*]]:2 = SelectV2(%[[VALID0]]#0, %[[POS]]#0, %[[PAD]]#0) name("stitch/indices_0")
// CHECK-DAG: ParallelDynamicStitch(%[[MASKED0]]#0, %{{.*}}, %{{.*}}, %{{.*}}) name("stitch") {{.*}}tfc.skip_negative_indices{{.*}} -> tensor<4x2xf32>
// CHECK-NOT: name("positions/count_0")
module attributes {tfc.feeds = ["ids:0", "parts:0"], tfc.fetches = ["stitch:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids_in") {T = i32, index = 0 : i64} : () -> tensor<4xi32>
    %parts:2 = _Arg name("parts") {T = i32, index = 1 : i64} : () -> tensor<4xi32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %n:2 = Const name("n") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %range:2 = Range(%zero#0, %n#0, %one#0) name("range") {Tidx = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
    %split:3 = DynamicPartition(%ids#0, %parts#0) name("ids") {T = i32, num_partitions = 2 : i64} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %pos:3 = DynamicPartition(%range#0, %parts#0) name("positions") {T = i32, num_partitions = 2 : i64} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %table:2 = Const name("table") {dtype = f32, value = dense<1.0> : tensor<5x2xf32>} : () -> tensor<5x2xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %g0:2 = GatherV2(%table#0, %split#0, %axis#0) name("g0") {Taxis = i32, Tindices = i32, Tparams = f32, batch_dims = 0 : i64} : (tensor<5x2xf32>, tensor<?xi32>, tensor<i32>) -> tensor<?x2xf32>
    %g1:2 = GatherV2(%table#0, %split#1, %axis#0) name("g1") {Taxis = i32, Tindices = i32, Tparams = f32, batch_dims = 0 : i64} : (tensor<5x2xf32>, tensor<?xi32>, tensor<i32>) -> tensor<?x2xf32>
    %stitch:2 = ParallelDynamicStitch(%pos#0, %pos#1, %g0#0, %g1#0) name("stitch") {N = 2 : i64, T = f32} : (tensor<?xi32>, tensor<?xi32>, tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<4x2xf32>
    _Retval(%stitch#0) name("stitch/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x2xf32>) -> ()
  }
}

// -----

// DynamicPartition: each output bounded by every row and counted by the
// partitions equal to its number.
// CHECK-LABEL: module attributes
// CHECK-SAME: tfc.fetches = ["total:0", "split:1", "split:1/rows"]
// CHECK-DAG: DynamicPartition(%{{.*}}, %{{.*}}) name("split") {{.*}} -> (tensor<5x3xf32>, tensor<5x3xf32>)
// CHECK-DAG: %[[P1:.*]]:2 = Const name("split/count_1/partition") {dtype = i32, value = dense<1> : tensor<i32>}
// CHECK-DAG: %[[MINE:.*]]:2 = Equal(%{{.*}}, %[[P1]]#0) name("split/count_1/mine")
// CHECK-DAG: %[[ONES:.*]]:2 = Cast(%[[MINE]]#0) name("split/count_1/ones")
// CHECK-DAG: %[[COUNT1:.*]]:2 = Sum(%[[ONES]]#0, %{{.*}}) name("split/count_1")
// CHECK-DAG: _Retval(%[[COUNT1]]#0) name("split/_retval_1/rows")
// CHECK-DAG: Less(%{{.*}}, %{{.*}}) name("total/valid")
module attributes {tfc.feeds = ["data:0", "parts:0"], tfc.fetches = ["total:0", "split:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %data:2 = _Arg name("data") {T = f32, index = 0 : i64} : () -> tensor<5x3xf32>
    %parts:2 = _Arg name("parts") {T = i32, index = 1 : i64} : () -> tensor<5xi32>
    %split:3 = DynamicPartition(%data#0, %parts#0) name("split") {T = f32, num_partitions = 2 : i64} : (tensor<5x3xf32>, tensor<5xi32>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
    %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %total:2 = Sum(%split#0, %axis#0) name("total") {T = f32, Tidx = i32, keep_dims = false} : (tensor<?x3xf32>, tensor<i32>) -> tensor<3xf32>
    _Retval(%total#0) name("total/_retval_0") {T = f32, index = 0 : i64} : (tensor<3xf32>) -> ()
    _Retval(%split#1) name("split/_retval_1") {T = f32, index = 1 : i64} : (tensor<?x3xf32>) -> ()
  }
}

// -----

// The sparse update of a shard (embedding_lookup's gradient under SGD):
// ScatterSub of rows of partitioned ids and their gradient rows, one per
// id; the padding indices become -1 and the update skips them, so the
// padding rows of the gradient touch no row of the variable.
// CHECK-LABEL: module attributes
// CHECK-DAG: %[[IDS:.*]]:3 = DynamicPartition(%{{.*}}, %{{.*}}) name("ids") {{.*}} -> (tensor<4xi32>, tensor<4xi32>)
// CHECK-DAG: %[[COUNT:.*]]:2 = Sum(%{{.*}}, %{{.*}}) name("ids/count_0")
// CHECK-DAG: %[[VALID:.*]]:2 = Less(%{{.*}}, %[[COUNT]]#0) name("update/indices/valid")
// CHECK-DAG: %[[MASKED:.*]]:2 = SelectV2(%[[VALID]]#0, %[[IDS]]#0, %{{.*}}) name("update/indices")
// CHECK-DAG: ScatterSub(%{{.*}}, %[[MASKED]]#0, %{{.*}}) name("update") {{.*}}tfc.skip_negative_indices
module attributes {tfc.feeds = ["ids:0", "parts:0", "grad:0"], tfc.targets = ["update"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids_in") {T = i32, index = 0 : i64} : () -> tensor<4xi32>
    %parts:2 = _Arg name("parts") {T = i32, index = 1 : i64} : () -> tensor<4xi32>
    %grad:2 = _Arg name("grad") {T = f32, index = 2 : i64} : () -> tensor<4x2xf32>
    %split:3 = DynamicPartition(%ids#0, %parts#0) name("ids") {T = i32, num_partitions = 2 : i64} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %rows:3 = DynamicPartition(%grad#0, %parts#0) name("rows") {T = f32, num_partitions = 2 : i64} : (tensor<4x2xf32>, tensor<4xi32>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
    %table:2 = VariableV2 name("table") {container = "", dtype = f32, shape = #tfg.shape<5x2>, shared_name = ""} : () -> tensor<5x2x!tfg.ref<f32>>
    %update:2 = ScatterSub(%table#0, %split#0, %rows#0) name("update") {T = f32, Tindices = i32, use_locking = false} : (tensor<5x2x!tfg.ref<f32>>, tensor<?xi32>, tensor<?x2xf32>) -> tensor<5x2x!tfg.ref<f32>>
  }
}

// -----

// A scatter whose updates are not one row per index of the rows is
// refused.
module attributes {tfc.feeds = ["ids:0", "parts:0", "grad:0"], tfc.targets = ["update"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids_in") {T = i32, index = 0 : i64} : () -> tensor<4xi32>
    %parts:2 = _Arg name("parts") {T = i32, index = 1 : i64} : () -> tensor<4xi32>
    %grad:2 = _Arg name("grad") {T = f32, index = 2 : i64} : () -> tensor<4x2xf32>
    %split:3 = DynamicPartition(%ids#0, %parts#0) name("ids") {T = i32, num_partitions = 2 : i64} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %rows:3 = DynamicPartition(%grad#0, %ids#0) name("rows") {T = f32, num_partitions = 2 : i64} : (tensor<4x2xf32>, tensor<4xi32>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
    %table:2 = VariableV2 name("table") {container = "", dtype = f32, shape = #tfg.shape<5x2>, shared_name = ""} : () -> tensor<5x2x!tfg.ref<f32>>
    // expected-error @+1 {{node 'update' (ScatterSub) updates a variable with data and indices that are not rows of one count, one index per row, as}}
    %update:2 = ScatterSub(%table#0, %split#0, %rows#0) name("update") {T = f32, Tindices = i32, use_locking = false} : (tensor<5x2x!tfg.ref<f32>>, tensor<?xi32>, tensor<?x2xf32>) -> tensor<5x2x!tfg.ref<f32>>
  }
}

// -----

// A DynamicStitch of rows into a size nothing bounds is refused.
module attributes {tfc.feeds = ["ids:0", "parts:0"], tfc.fetches = ["stitch:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %ids:2 = _Arg name("ids") {T = i32, index = 0 : i64} : () -> tensor<4xi32>
    %parts:2 = _Arg name("parts") {T = i32, index = 1 : i64} : () -> tensor<4xi32>
    %split:3 = DynamicPartition(%ids#0, %parts#0) name("split") {T = i32, num_partitions = 2 : i64} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    // expected-error @+1 {{node 'stitch' (DynamicStitch) stitches into a size only the data decides from the rows of node 'split' (DynamicPartition), whose number only the data decides; tfc plans them for their bound and cannot here}}
    %stitch:2 = DynamicStitch(%split#0, %split#1, %split#0, %split#1) name("stitch") {N = 2 : i64, T = i32} : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    _Retval(%stitch#0) name("stitch/_retval_0") {T = i32, index = 0 : i64} : (tensor<?xi32>) -> ()
  }
}

// -----

// x[:n] with n fed: the range is planned for every row (6) and counted by
// TensorFlow's clamped range, computed in the graph: n read from the end
// vector, from the end when negative, clamped to [0, 6], less the begin
// (masked: 0), at least 0; the fetch of its rows gets that count.
// CHECK-LABEL: module
// CHECK-DAG: StridedSlice(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) name("head/count/end") {{.*}}shrink_axis_mask = 1
// CHECK-DAG: SelectV2({{.*}}) name("head/count/end_index")
// CHECK-DAG: Minimum({{.*}}) name("head/count/end_clamped")
// CHECK-DAG: %[[COUNT:.*]]:2 = Maximum({{.*}}) name("head/count") {{.*}} -> tensor<i64>
// CHECK-DAG: StridedSlice({{.*}}) name("head") {{.*}} -> tensor<6x4xf32>
// CHECK-DAG: _Retval(%[[COUNT]]#0) name("head/_retval_0/rows")
module attributes {tfc.feeds = ["x:0", "n:0"], tfc.fetches = ["head:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<6x4xf32>
    %n:2 = _Arg name("n/_arg_1") {T = i32, index = 1 : i64} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %end:2 = Pack(%n#0) name("end") {N = 1 : i64, T = i32, axis = 0 : i64} : (tensor<i32>) -> tensor<1xi32>
    %head:2 = StridedSlice(%x#0, %zero#0, %end#0, %one#0) name("head") {Index = i32, T = f32, begin_mask = 1 : i64} : (tensor<6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x4xf32>
    _Retval(%head#0) name("head/_retval_0") {T = f32, index = 0 : i64} : (tensor<?x4xf32>) -> ()
  }
}
