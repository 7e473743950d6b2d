// Tests convert-tfg-to-memref on TensorFlow's FIFO queues: each queue
// node gets its queue's number by shared_name (the init entry's node and
// the step's share it), and makes the queue with its components' bytes per
// element (a string component's 8 per handle) and its capacity; an
// enqueue passes its components' addresses and its element count (the
// first dimension for EnqueueMany), a dequeue its outputs' and the count,
// and close, size and is_closed the queue's number. A component of
// unknown shape, a handle that does not come from a queue node, or an
// EnqueueMany of a scalar (no elements to count) is an error naming the
// node.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<2xi64> = dense<[12, 8]>
// CHECK-DAG: memref.global "private" constant @{{.*}} : memref<2xi64> = dense<[0, 1]>
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_queue_make(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c32_i64{{.*}}, %c2_i64{{.*}})
// CHECK: call @tfc_queue_dequeue(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c2_i64{{.*}})
// CHECK: call @tfc_queue_size(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}})
// CHECK: call @tfc_queue_is_closed(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}})
// CHECK-LABEL: func.func @tfc_init_impl
// CHECK: call @tfc_queue_make(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c32_i64{{.*}}, %c2_i64{{.*}})
// CHECK: call @tfc_queue_enqueue(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c5_i64{{.*}})
// CHECK: call @tfc_queue_close(%arg0, %{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}})
// CHECK-LABEL: func.func @tfc_runner_0_impl
// CHECK: call @tfc_queue_make(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c32_i64{{.*}}, %c2_i64{{.*}})
// CHECK: call @tfc_queue_enqueue(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}})
// CHECK: call @tfc_queue_close(%arg0, %{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}})
module attributes {tfc.feeds = [], tfc.fetches = ["batch:0", "batch:1", "size:0", "closed:0"], tfc.queue_runners = ["again"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "init"} {
    %q:2 = FIFOQueueV2 name("examples") {capacity = 32 : i64, component_types = [f32, !tfg.string], container = "", shapes = [#tfg.shape<3>, #tfg.shape<>], shared_name = "examples"} : () -> tensor<!tfg.resource>
    %x:2 = Const name("x") {dtype = f32, value = dense<1.0> : tensor<5x3xf32>, tfc.offsets = array<i64: 0>} : () -> tensor<5x3xf32>
    %t:2 = Const name("t") {dtype = !tfg.string, value = dense<"a"> : tensor<5x!tfg.string>, tfc.offsets = array<i64: 64>} : () -> tensor<5x!tfg.string>
    %fill = QueueEnqueueManyV2(%q#0, %x#0, %t#0) name("fill") {Tcomponents = [f32, !tfg.string], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<5x3xf32>, tensor<5x!tfg.string>) -> ()
    %close = QueueCloseV2(%q#0) [%fill] name("close") {cancel_pending_enqueues = false} : (tensor<!tfg.resource>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %q:2 = FIFOQueueV2 name("examples") {capacity = 32 : i64, component_types = [f32, !tfg.string], container = "", shapes = [#tfg.shape<3>, #tfg.shape<>], shared_name = "examples"} : () -> tensor<!tfg.resource>
    %n:2 = Const name("n") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %b:3 = QueueDequeueManyV2(%q#0, %n#0) name("batch") {component_types = [f32, !tfg.string], timeout_ms = -1 : i64, tfc.offsets = array<i64: 0, 32>} : (tensor<!tfg.resource>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x!tfg.string>)
    %s:2 = QueueSizeV2(%q#0) [%b#2] name("size") {tfc.offsets = array<i64: 64>} : (tensor<!tfg.resource>) -> tensor<i32>
    %c:2 = QueueIsClosedV2(%q#0) name("closed") {tfc.offsets = array<i64: 72>} : (tensor<!tfg.resource>) -> tensor<i1>
    %r0 = _Retval(%b#0) name("batch/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
    %r1 = _Retval(%b#1) name("batch/_retval_1") {T = !tfg.string, index = 1} : (tensor<2x!tfg.string>) -> ()
    %r2 = _Retval(%s#0) name("size/_retval_0") {T = i32, index = 2} : (tensor<i32>) -> ()
    %r3 = _Retval(%c#0) name("closed/_retval_0") {T = i1, index = 3} : (tensor<i1>) -> ()
  }
  // A queue runner's entry (a cancelling close in it, for the test).
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 128, tfg.entry = "runner:again"} {
    %q:2 = FIFOQueueV2 name("examples") {capacity = 32 : i64, component_types = [f32, !tfg.string], container = "", shapes = [#tfg.shape<3>, #tfg.shape<>], shared_name = "examples"} : () -> tensor<!tfg.resource>
    %x:2 = Const name("x") {dtype = f32, value = dense<1.0> : tensor<3xf32>, tfc.offsets = array<i64: 0>} : () -> tensor<3xf32>
    %t:2 = Const name("t") {dtype = !tfg.string, value = dense<"a"> : tensor<!tfg.string>, tfc.offsets = array<i64: 64>} : () -> tensor<!tfg.string>
    %again = QueueEnqueueV2(%q#0, %x#0, %t#0) name("again") {Tcomponents = [f32, !tfg.string], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<3xf32>, tensor<!tfg.string>) -> ()
    %cancel = QueueCloseV2(%q#0) [%again] name("cancel") {cancel_pending_enqueues = true} : (tensor<!tfg.resource>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["x:0"], tfc.fetches = [], tfc.queue_runners = ["fill"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "runner:fill"} {
    %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
    // expected-error @+1 {{queue runner node 'fill' needs a fed tensor ('x/_arg_0'): a queue runner's enqueues must not depend on feeds}}
    %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0} : () -> tensor<f32>
    %fill = QueueEnqueueV2(%q#0, %x#0) name("fill") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = [], tfc.queue_runners = ["fill"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "runner:fill"} {
    %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
  }
  // expected-error @+1 {{queue runner node 'fill': its entry spans 2 devices; tfc runs a queue runner's entry on one device (place the nodes it needs on one)}}
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "runner:fill"} {
    %n = NoOp name("other")
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = ["batch:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    // expected-error @+1 {{node 'q' (FIFOQueueV2): component 0 has shape [?]: tfc needs every component's shape (give the queue its `shapes`)}}
    %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<?>], shared_name = ""} : () -> tensor<!tfg.resource>
    %b:2 = QueueDequeueV2(%q#0) name("batch") {component_types = [f32], timeout_ms = -1 : i64, tfc.offsets = array<i64: 0>} : (tensor<!tfg.resource>) -> tensor<4xf32>
    %r0 = _Retval(%b#0) name("batch/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["h:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %h:2 = _Arg name("h") {T = !tfg.resource, index = 0} : () -> tensor<!tfg.resource>
    // expected-error @+1 {{node 'close' (QueueCloseV2): cannot trace its handle to the queue node that made it}}
    %close = QueueCloseV2(%h#0) name("close") {cancel_pending_enqueues = false} : (tensor<!tfg.resource>) -> ()
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %q:2 = FIFOQueueV2 name("q") {capacity = -1 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
    %x:2 = Const name("x") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    // expected-error @+1 {{node 'fill' (QueueEnqueueManyV2): its components need a known first dimension (the elements they hold)}}
    %fill = QueueEnqueueManyV2(%q#0, %x#0) name("fill") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    // expected-error @+1 {{node 'pool' (RandomShuffleQueueV2): min_after_dequeue 4 must be < capacity 4}}
    %q:2 = RandomShuffleQueueV2 name("pool") {capacity = 4 : i64, component_types = [f32], container = "", min_after_dequeue = 4 : i64, seed = 1 : i64, seed2 = 2 : i64, shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
  }
}

// -----

// Accumulators: float32 gradients of a known shape only.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    // expected-error @+1 {{node 'acc' (ResourceConditionalAccumulator): accumulates float32 gradients only}}
    %a:2 = ResourceConditionalAccumulator name("acc") {container = "", dtype = f64, reduction_type = "MEAN", shape = #tfg.shape<3>, shared_name = ""} : () -> tensor<!tfg.resource>
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    // expected-error @+1 {{node 'acc' (ResourceConditionalAccumulator): its accumulator's shape must be known (give it `shape`)}}
    %a:2 = ResourceConditionalAccumulator name("acc") {container = "", dtype = f32, reduction_type = "MEAN", shape = #tfg.shape<?>, shared_name = ""} : () -> tensor<!tfg.resource>
  }
}
