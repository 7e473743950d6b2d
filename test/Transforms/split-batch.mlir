// Tests tfc-split-batch: a fed batch's front (the nodes that compute each
// image from the same image alone, up to the last point where one or two
// tensors of an eighth of micro-batch-bytes or more an image carry it on)
// runs in a TF1 while loop over micro-batches: each iteration slices its
// part from the feed viewed as [parts, part images, ...], runs the front's
// nodes (once in the graph, renamed and retyped for a part) and writes
// each cut tensor's part into its row of a loop variable, which the rest
// reads as a whole batch. The front stops before weights larger than what
// a part makes (in a squeeze-and-excitation block, the image the block
// pools and scales). Two tensors read on by elementwise nodes alone make
// no cut. Not split: a front whose weights are not constants, a module
// whose tfc.micro_batch_bytes is 0.
// RUN: tfc-opt %s -split-input-file -tfc-split-batch="micro-batch-bytes=2048" | FileCheck %s
// The loop is one that tfc-raise-frames lays out as a structured loop.
// RUN: tfc-opt %s -split-input-file -tfc-split-batch="micro-batch-bytes=2048" -tfc-raise-frames | FileCheck %s --check-prefix=FRAME

// Images of 4 x 4 x 4 floats (256 bytes, an eighth of the budget); the
// front's largest tensor is 256 bytes an image, so micro-batches of two
// images (the largest divisor of the batch below it; four would fit the
// budget). The residual's sum, then its ReLU, is the last tensor of 256
// bytes an image that alone carries the front on (the pooled one is 64):
// the cut. Inside the residual block two tensors
// are live, so no cut there.
// CHECK-LABEL: tfg.graph
// CHECK: %[[FIRST:.*]]:2 = Const name("x/_arg_0/micro_batches/variable_0/initial") {{.*}}value = dense<0> : tensor<i32>
// CHECK: %[[SHAPE:.*]]:2 = Const name("x/_arg_0/micro_batches/variable_1/initial/shape") {{.*}}value = dense<[2, 2, 4, 4, 4]> : tensor<5xi32>
// CHECK: %[[EMPTY:.*]]:2 = Empty(%[[SHAPE]]#0) name("x/_arg_0/micro_batches/variable_1/initial") {dtype = f32, init = false} : (tensor<5xi32>) -> tensor<2x2x4x4x4xf32>
// CHECK: %[[ENTER0:.*]]:2 = Enter(%[[FIRST]]#0) name("x/_arg_0/micro_batches/variable_0/enter") {T = i32, frame_name = "x/_arg_0/micro_batches", is_constant = false, parallel_iterations = 1 : i64}
// CHECK: %[[MERGE0:.*]]:3 = Merge(%[[ENTER0]]#0, %[[NEXT0:.*]]#0) name("x/_arg_0/micro_batches/variable_0/merge")
// CHECK: %[[ENTER1:.*]]:2 = Enter(%[[EMPTY]]#0) name("x/_arg_0/micro_batches/variable_1/enter")
// CHECK: %[[MERGE1:.*]]:3 = Merge(%[[ENTER1]]#0, %[[NEXT1:.*]]#0) name("x/_arg_0/micro_batches/variable_1/merge")
// CHECK: %[[PARTS:.*]]:2 = Const name("x/_arg_0/micro_batches/parts") {{.*}}value = dense<2> : tensor<i32>
// CHECK: %[[MORE:.*]]:2 = Less(%[[MERGE0]]#0, %[[PARTS]]#0)
// CHECK: %[[COND:.*]]:2 = LoopCond(%[[MORE]]#0)
// CHECK: %[[SWITCH0:.*]]:3 = Switch(%[[MERGE0]]#0, %[[COND]]#0)
// CHECK: %[[INDEX:.*]]:2 = Identity(%[[SWITCH0]]#1) name("x/_arg_0/micro_batches/variable_0")
// CHECK: %[[SWITCH1:.*]]:3 = Switch(%[[MERGE1]]#0, %[[COND]]#0)
// CHECK: %[[ROWS:.*]]:2 = Identity(%[[SWITCH1]]#1) name("x/_arg_0/micro_batches/variable_1")
// CHECK: %[[NEXT:.*]]:2 = AddV2(%[[INDEX]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/next")
// CHECK: %[[BATCH:.*]]:2 = Reshape(%{{.*}}#0, %{{.*}}#0) name("x/_arg_0/micro_batches/batch") {{.*}} -> tensor<2x2x4x4x4xf32>
// What the loop reads from outside, but constants, it reads through an
// Enter.
// CHECK: %[[HELD:.*]]:2 = Enter(%[[BATCH]]#0) name("x/_arg_0/micro_batches/invariant_1") {T = f32, frame_name = "x/_arg_0/micro_batches", is_constant = true
// CHECK: %[[BEGIN:.*]]:2 = Pack(%[[INDEX]]#0) name("x/_arg_0/micro_batches/begin")
// CHECK: %[[END:.*]]:2 = Pack(%[[NEXT]]#0) name("x/_arg_0/micro_batches/end")
// CHECK: %[[X:.*]]:2 = StridedSlice(%[[HELD]]#0, %[[BEGIN]]#0, %[[END]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/images") {{{.*}}shrink_axis_mask = 1 : i64} : {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[A:.*]]:2 = Conv2D(%[[X]]#0, %{{.*}}) name("a/micro_batch") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[R:.*]]:2 = Relu(%[[A]]#0) name("a_relu/micro_batch") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[B:.*]]:2 = Conv2D(%[[R]]#0, %{{.*}}) name("b/micro_batch")
// CHECK: %[[S:.*]]:2 = AddV2(%[[R]]#0, %[[B]]#0) name("sum/micro_batch")
// CHECK: %[[OUT:.*]]:2 = Relu(%[[S]]#0) name("out/micro_batch") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[ROW:.*]]:2 = Reshape(%[[INDEX]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/row") {{.*}} -> tensor<1x1xi32>
// CHECK: %[[PART:.*]]:2 = Reshape(%[[OUT]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part") {{.*}} -> tensor<1x2x4x4x4xf32>
// CHECK: %[[UPDATE:.*]]:2 = TensorScatterUpdate(%[[ROWS]]#0, %[[ROW]]#0, %[[PART]]#0) name("x/_arg_0/micro_batches/variable_1/update")
// CHECK: %[[NEXT0]]:2 = NextIteration(%[[NEXT]]#0) name("x/_arg_0/micro_batches/variable_0/next_iteration")
// CHECK: %[[NEXT1]]:2 = NextIteration(%[[UPDATE]]#0) name("x/_arg_0/micro_batches/variable_1/next_iteration")
// CHECK: %[[EXIT1:.*]]:2 = Exit(%[[SWITCH1]]#0) name("x/_arg_0/micro_batches/variable_1/exit")
// CHECK: %[[WHOLE:.*]]:2 = Reshape(%[[EXIT1]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/whole") {{.*}} -> tensor<4x4x4x4xf32>
// CHECK: MaxPool(%[[WHOLE]]#0) name("pool")
// The whole batch's front is gone, and no node is copied per part.
// CHECK-NOT: name("a")
// CHECK-NOT: name("out")
// CHECK-NOT: micro_batch_1
// Every node of the front is in the loop's frame (for the step's graph,
// an entry); what follows is not.
// FRAME-LABEL: tfg.graph
// FRAME: Conv2D({{.*}}) name("a/micro_batch") {{.*}}tfc.frame = "x/_arg_0/micro_batches"
// FRAME: Relu({{.*}}) name("out/micro_batch") {{.*}}tfc.frame = "x/_arg_0/micro_batches"
// FRAME: name("pool")
// FRAME-NOT: tfc.frame
// FRAME: _Retval
tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %ar:2 = Relu(%a#0) name("a_relu") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %b:2 = Conv2D(%ar#0, %w#0) name("b") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %s:2 = AddV2(%ar#0, %b#0) name("sum") {T = f32} : (tensor<4x4x4x4xf32>, tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %o:2 = Relu(%s#0) name("out") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %p:2 = MaxPool(%o#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<4x4x4x4xf32>) -> tensor<4x2x2x4xf32>
  %r = _Retval(%p#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x2x2x4xf32>) -> ()
}

// -----

// The front stops before a convolution whose weights (9216 bytes) take
// more than a part's output would (4096 bytes: with its output in the
// front, the budget allows parts of one image): each part would read them
// again. Cut at the ReLU before it, in parts of two images.
// CHECK-LABEL: tfg.graph
// CHECK: Const name("x/_arg_0/micro_batches/parts") {{.*}}value = dense<2> : tensor<i32>
// CHECK: %[[RELU:.*]]:2 = Relu({{.*}}) name("a_relu/micro_batch") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: Reshape(%[[RELU]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part")
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole")
// CHECK: Conv2D(%[[WHOLE]]#0, %{{.*}}) name("wide") {{.*}} -> tensor<4x4x4x64xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<0.5> : tensor<3x3x4x64xf32>} : () -> tensor<3x3x4x64xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %ar:2 = Relu(%a#0) name("a_relu") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %b:2 = Conv2D(%ar#0, %v#0) name("wide") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<3x3x4x64xf32>) -> tensor<4x4x4x64xf32>
  %r = _Retval(%b#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x64xf32>) -> ()
}

// -----

// A filter that is fed, not a constant: the convolution does not apply
// the same weights to every image of a part as to the whole batch's.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: name("{{.*}}micro_batch
// CHECK: Conv2D(%{{.*}}, %{{.*}}) name("a")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = _Arg name("w/_arg_1") {T = f32, index = 1 : i64} : () -> tensor<1x1x4x4xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %o:2 = Relu(%a#0) name("out") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %r = _Retval(%o#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x4xf32>) -> ()
}

// -----

// Two tensors carry the front on (a NASNet cell reads the two before it):
// after b_relu, a_relu and b_relu are read past the front by convolutions
// alone, and together take 512 bytes an image, an eighth of the budget or
// more. The front stops at `wide` (weights larger than a part's output):
// each carried tensor is put together from its parts, and the nodes past
// the front read the whole batches. The crop (a StridedSlice of every
// image) is in the front; each part's copy keeps its images (the end, 4,
// is clamped to the part's 2).
// CHECK-LABEL: tfg.graph
// CHECK: Empty({{.*}}) name("x/_arg_0/micro_batches/variable_1/initial") {{.*}} -> tensor<2x2x4x4x4xf32>
// CHECK: Empty({{.*}}) name("x/_arg_0/micro_batches/variable_2/initial") {{.*}} -> tensor<2x2x3x3x4xf32>
// CHECK: %[[X:.*]]:2 = StridedSlice({{.*}}) name("x/_arg_0/micro_batches/images") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[A:.*]]:2 = Conv2D(%[[X]]#0, %{{.*}}) name("a/micro_batch")
// CHECK: %[[RA:.*]]:2 = Relu(%[[A]]#0) name("a_relu/micro_batch")
// CHECK: %[[C:.*]]:2 = StridedSlice(%[[RA]]#0, {{.*}}) name("crop/micro_batch") {{.*}} -> tensor<2x3x3x4xf32>
// CHECK: %[[B:.*]]:2 = Conv2D(%[[C]]#0, %{{.*}}) name("b/micro_batch")
// CHECK: %[[RB:.*]]:2 = Relu(%[[B]]#0) name("b_relu/micro_batch")
// CHECK: Reshape(%[[RA]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part") {{.*}} -> tensor<1x2x4x4x4xf32>
// CHECK: TensorScatterUpdate({{.*}}) name("x/_arg_0/micro_batches/variable_1/update")
// CHECK: Reshape(%[[RB]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_2/part") {{.*}} -> tensor<1x2x3x3x4xf32>
// CHECK: TensorScatterUpdate({{.*}}) name("x/_arg_0/micro_batches/variable_2/update")
// CHECK: %[[WA:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole") {{.*}} -> tensor<4x4x4x4xf32>
// CHECK: %[[WB:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_2/whole") {{.*}} -> tensor<4x3x3x4xf32>
// CHECK-DAG: Conv2D(%[[WA]]#0, %{{.*}}) name("wide")
// CHECK-DAG: Conv2D(%[[WB]]#0, %{{.*}}) name("next")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<0.5> : tensor<3x3x4x64xf32>} : () -> tensor<3x3x4x64xf32>
  %begin:2 = Const name("crop/begin") {dtype = i32, value = dense<[0, 1, 1, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %end:2 = Const name("crop/end") {dtype = i32, value = dense<4> : tensor<4xi32>} : () -> tensor<4xi32>
  %step:2 = Const name("crop/strides") {dtype = i32, value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %ra:2 = Relu(%a#0) name("a_relu") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %c:2 = StridedSlice(%ra#0, %begin#0, %end#0, %step#0) name("crop") {Index = i32, T = f32, begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<4x4x4x4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4x3x3x4xf32>
  %b:2 = Conv2D(%c#0, %w#0) name("b") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x3x3x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x3x3x4xf32>
  %rb:2 = Relu(%b#0) name("b_relu") {T = f32} : (tensor<4x3x3x4xf32>) -> tensor<4x3x3x4xf32>
  %wide:2 = Conv2D(%ra#0, %v#0) name("wide") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<3x3x4x64xf32>) -> tensor<4x4x4x64xf32>
  %next:2 = Conv2D(%rb#0, %w#0) name("next") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x3x3x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x3x3x4xf32>
  %r0 = _Retval(%wide#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x64xf32>) -> ()
  %r1 = _Retval(%next#0) name("z/_retval_1") {T = f32, index = 1 : i64} : (tensor<4x3x3x4xf32>) -> ()
}

// -----

// Two tensors read past the front by elementwise nodes alone are the
// middle of one expression (here a * relu6(a) * z, z fed: the front stops
// at its product): no cut between them. The cut is after `a`, which alone
// carries the front on there; the Relu6 runs on the whole batch.
// CHECK-LABEL: tfg.graph
// CHECK: %[[A:.*]]:2 = Conv2D({{.*}}) name("a/micro_batch")
// CHECK: Reshape(%[[A]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part")
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole")
// CHECK: Relu6(%[[WHOLE]]#0) name("h") {{.*}} -> tensor<4x4x4x4xf32>
// CHECK-NOT: micro_batch
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %z:2 = _Arg name("z/_arg_1") {T = f32, index = 1 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %h:2 = Relu6(%a#0) name("h") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %m:2 = Mul(%h#0, %z#0) name("m") {T = f32} : (tensor<4x4x4x4xf32>, tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %n:2 = Mul(%a#0, %m#0) name("n") {T = f32} : (tensor<4x4x4x4xf32>, tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %r = _Retval(%n#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x4xf32>) -> ()
}

// -----

// A squeeze-and-excitation block (EfficientNet's): the mean of each image
// (an [N, C] tensor), reshaped to [N, 1, 1, C], a 1x1 convolution and a
// sigmoid make each image's scale, which multiplies the image, broadcast
// over its pixels. Each image's scale comes from that image alone, so the
// block is in the front: each part's Reshape is given the part's shape,
// and its product broadcasts the part's scales. The scale's convolution
// has weights (64 bytes) larger than its part's output (two images of 16
// bytes), but a pooled vector stands for the image it was pooled from
// (256 bytes an image), which each part keeps in the caches. The front
// stops at `wide`; the cut is the scaled image.
// CHECK-LABEL: tfg.graph
// CHECK: Mean(%{{.*}}, %{{.*}}) name("squeeze/micro_batch") {{.*}} -> tensor<2x4xf32>
// CHECK: %[[SHAPE:.*]]:2 = Const name("reshape/micro_batch/shape") {{.*}}value = dense<[2, 1, 1, 4]> : tensor<4xi32>
// CHECK: Reshape(%{{.*}}#0, %[[SHAPE]]#0) name("reshape/micro_batch") {{.*}} -> tensor<2x1x1x4xf32>
// CHECK: Conv2D(%{{.*}}, %{{.*}}) name("reduce/micro_batch") {{.*}} -> tensor<2x1x1x4xf32>
// CHECK: %[[GATE:.*]]:2 = Sigmoid(%{{.*}}) name("gate/micro_batch")
// CHECK: %[[SCALED:.*]]:2 = Mul(%{{.*}}#0, %[[GATE]]#0) name("excite/micro_batch") {{.*}} : (tensor<2x4x4x4xf32>, tensor<2x1x1x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK: Reshape(%[[SCALED]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part")
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole")
// CHECK: Conv2D(%[[WHOLE]]#0, %{{.*}}) name("wide") {{.*}} -> tensor<4x4x4x64xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<0.5> : tensor<3x3x4x64xf32>} : () -> tensor<3x3x4x64xf32>
  %axes:2 = Const name("squeeze/axes") {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %shape:2 = Const name("reshape/shape") {dtype = i32, value = dense<[-1, 1, 1, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
  %m:2 = Mean(%a#0, %axes#0) name("squeeze") {T = f32, Tidx = i32, keep_dims = false} : (tensor<4x4x4x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  %r:2 = Reshape(%m#0, %shape#0) name("reshape") {T = f32, Tshape = i32} : (tensor<4x4xf32>, tensor<4xi32>) -> tensor<4x1x1x4xf32>
  %e:2 = Conv2D(%r#0, %w#0) name("reduce") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x1x1x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x1x1x4xf32>
  %g:2 = Sigmoid(%e#0) name("gate") {T = f32} : (tensor<4x1x1x4xf32>) -> tensor<4x1x1x4xf32>
  %y:2 = Mul(%a#0, %g#0) name("excite") {T = f32} : (tensor<4x4x4x4xf32>, tensor<4x1x1x4xf32>) -> tensor<4x4x4x4xf32>
  %b:2 = Conv2D(%y#0, %v#0) name("wide") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<3x3x4x64xf32>) -> tensor<4x4x4x64xf32>
  %ret = _Retval(%b#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x64xf32>) -> ()
}

// -----

// A projection (an inverted residual block's last 1x1 convolution, 64
// channels to 4) whose weights (1024 bytes) outweigh what a part makes
// (one image of 256 bytes: the front's largest tensor, 4096 bytes an
// image, allows parts of one). After a squeeze-and-excitation block it
// reads the image the block scaled (4096 bytes, more than its weights),
// which each part keeps in the caches: it is in the front, and the cut is
// its ReLU.
// CHECK-LABEL: tfg.graph
// CHECK: Const name("x/_arg_0/micro_batches/parts") {{.*}}value = dense<4> : tensor<i32>
// The Reshape's shape (an i64 tensor here) is the part's, of i32s.
// CHECK: %[[SHAPE:.*]]:2 = Const name("reshape/micro_batch/shape") {{.*}}value = dense<[1, 1, 1, 64]> : tensor<4xi32>
// CHECK: Reshape(%{{.*}}#0, %[[SHAPE]]#0) name("reshape/micro_batch") {T = f32, Tshape = i32} : (tensor<1x64xf32>, tensor<4xi32>) -> tensor<1x1x1x64xf32>
// CHECK: Mul({{.*}}) name("excite/micro_batch") {{.*}} : (tensor<1x4x4x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x4x4x64xf32>
// CHECK: Conv2D(%{{.*}}, %{{.*}}) name("project/micro_batch") {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: %[[RELU:.*]]:2 = Relu({{.*}}) name("project_relu/micro_batch")
// CHECK: Reshape(%[[RELU]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part")
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole")
// CHECK: Conv2D(%[[WHOLE]]#0, %{{.*}}) name("wide") {{.*}} -> tensor<4x4x4x64xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x64xf32>} : () -> tensor<1x1x4x64xf32>
  %p:2 = Const name("p") {dtype = f32, value = dense<0.5> : tensor<1x1x64x4xf32>} : () -> tensor<1x1x64x4xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<0.5> : tensor<3x3x4x64xf32>} : () -> tensor<3x3x4x64xf32>
  %axes:2 = Const name("squeeze/axes") {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %shape:2 = Const name("reshape/shape") {dtype = i64, value = dense<[4, 1, 1, 64]> : tensor<4xi64>} : () -> tensor<4xi64>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x64xf32>) -> tensor<4x4x4x64xf32>
  %m:2 = Mean(%a#0, %axes#0) name("squeeze") {T = f32, Tidx = i32, keep_dims = false} : (tensor<4x4x4x64xf32>, tensor<2xi32>) -> tensor<4x64xf32>
  %r:2 = Reshape(%m#0, %shape#0) name("reshape") {T = f32, Tshape = i64} : (tensor<4x64xf32>, tensor<4xi64>) -> tensor<4x1x1x64xf32>
  %g:2 = Sigmoid(%r#0) name("gate") {T = f32} : (tensor<4x1x1x64xf32>) -> tensor<4x1x1x64xf32>
  %y:2 = Mul(%a#0, %g#0) name("excite") {T = f32} : (tensor<4x4x4x64xf32>, tensor<4x1x1x64xf32>) -> tensor<4x4x4x64xf32>
  %b:2 = Conv2D(%y#0, %p#0) name("project") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x64xf32>, tensor<1x1x64x4xf32>) -> tensor<4x4x4x4xf32>
  %br:2 = Relu(%b#0) name("project_relu") {T = f32} : (tensor<4x4x4x4xf32>) -> tensor<4x4x4x4xf32>
  %c:2 = Conv2D(%br#0, %v#0) name("wide") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<3x3x4x64xf32>) -> tensor<4x4x4x64xf32>
  %ret = _Retval(%c#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x64xf32>) -> ()
}

// -----

// The same projection after a ReLU: what a part makes (256 bytes) weighs
// less than its weights, so the front stops before it, and the cut is the
// ReLU.
// CHECK-LABEL: tfg.graph
// CHECK: Const name("x/_arg_0/micro_batches/parts") {{.*}}value = dense<4> : tensor<i32>
// CHECK: %[[RELU:.*]]:2 = Relu({{.*}}) name("a_relu/micro_batch")
// CHECK: Reshape(%[[RELU]]#0, %{{.*}}#0) name("x/_arg_0/micro_batches/variable_1/part")
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole")
// CHECK: Conv2D(%[[WHOLE]]#0, %{{.*}}) name("project") {{.*}} -> tensor<4x4x4x4xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x64xf32>} : () -> tensor<1x1x4x64xf32>
  %p:2 = Const name("p") {dtype = f32, value = dense<0.5> : tensor<1x1x64x4xf32>} : () -> tensor<1x1x64x4xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x64xf32>) -> tensor<4x4x4x64xf32>
  %ar:2 = Relu(%a#0) name("a_relu") {T = f32} : (tensor<4x4x4x64xf32>) -> tensor<4x4x4x64xf32>
  %b:2 = Conv2D(%ar#0, %p#0) name("project") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x64xf32>, tensor<1x1x64x4xf32>) -> tensor<4x4x4x4xf32>
  %ret = _Retval(%b#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x4xf32>) -> ()
}

// -----

// A front cut at one tensor goes on from its whole batch in parts of more
// images, in a loop of its own. The first front's largest tensor (1024 bytes an image)
// makes parts of two images, and it stops at `b`, whose weights (576
// bytes) outweigh two images of its output (512): cut at the pooling.
// From there the largest tensor is 256 bytes an image, parts of four: `b`
// fits, and the second front stops at `wide`.
// CHECK-LABEL: tfg.graph
// CHECK: Const name("x/_arg_0/micro_batches/parts") {{.*}}value = dense<4> : tensor<i32>
// CHECK: MaxPool({{.*}}) name("p/micro_batch") {{.*}} -> tensor<2x4x4x4xf32>
// CHECK: %[[WHOLE:.*]]:2 = Reshape({{.*}}) name("x/_arg_0/micro_batches/variable_1/whole") {{.*}} -> tensor<8x4x4x4xf32>
// CHECK: Const name("[[SECOND:x/_arg_0/micro_batches/variable_1/whole/micro_batches]]/parts") {{.*}}value = dense<2> : tensor<i32>
// CHECK: %[[BATCH:.*]]:2 = Reshape(%[[WHOLE]]#0, %{{.*}}#0) name("[[SECOND]]/batch") {{.*}} -> tensor<2x4x4x4x4xf32>
// CHECK: %[[HELD:.*]]:2 = Enter(%[[BATCH]]#0) name("[[SECOND]]/invariant_1")
// CHECK: %[[X:.*]]:2 = StridedSlice(%[[HELD]]#0, {{.*}}) name("[[SECOND]]/images") {{.*}} -> tensor<4x4x4x4xf32>
// CHECK: Conv2D(%[[X]]#0, %{{.*}}) name("b/micro_batch") {{.*}} -> tensor<4x4x4x4xf32>
// CHECK: %[[WHOLE2:.*]]:2 = Reshape({{.*}}) name("[[SECOND]]/variable_1/whole") {{.*}} -> tensor<8x4x4x4xf32>
// CHECK: Conv2D(%[[WHOLE2]]#0, %{{.*}}) name("wide") {{.*}} -> tensor<8x4x4x64xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<8x8x8x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %u:2 = Const name("u") {dtype = f32, value = dense<0.5> : tensor<3x3x4x4xf32>} : () -> tensor<3x3x4x4xf32>
  %v:2 = Const name("v") {dtype = f32, value = dense<0.5> : tensor<3x3x4x64xf32>} : () -> tensor<3x3x4x64xf32>
  %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<8x8x8x4xf32>, tensor<1x1x4x4xf32>) -> tensor<8x8x8x4xf32>
  %ar:2 = Relu(%a#0) name("a_relu") {T = f32} : (tensor<8x8x8x4xf32>) -> tensor<8x8x8x4xf32>
  %p:2 = MaxPool(%ar#0) name("p") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<8x8x8x4xf32>) -> tensor<8x4x4x4xf32>
  %b:2 = Conv2D(%p#0, %u#0) name("b") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<8x4x4x4xf32>, tensor<3x3x4x4xf32>) -> tensor<8x4x4x4xf32>
  %br:2 = Relu(%b#0) name("b_relu") {T = f32} : (tensor<8x4x4x4xf32>) -> tensor<8x4x4x4xf32>
  %c:2 = Conv2D(%br#0, %v#0) name("wide") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<8x4x4x4xf32>, tensor<3x3x4x64xf32>) -> tensor<8x4x4x64xf32>
  %ret = _Retval(%c#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<8x4x4x64xf32>) -> ()
}

// -----

// `tfc compile --micro-batch-bytes 0`: the whole batch at once.
// CHECK-LABEL: module attributes {tfc.micro_batch_bytes = 0 : i64}
// CHECK-NOT: name("{{.*}}micro_batch
module attributes {tfc.micro_batch_bytes = 0 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x4x4x4xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
    %a:2 = Conv2D(%x#0, %w#0) name("a") {T = f32, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<4x4x4x4xf32>
    %r = _Retval(%a#0) name("y/_retval_0") {T = f32, index = 0 : i64} : (tensor<4x4x4x4xf32>) -> ()
  }
}
