// Tests tfc-prune: the white paper's Figure 6, fetching a fed tensor, feed
// shapes, targets, the init entry, and each error.
// RUN: tfc-opt %s -split-input-file -tfc-prune -verify-diagnostics | FileCheck %s

// Figure 6: feed b, fetch f:0. a (upstream of the feed) and d, e (not
// needed by f) do not run.
// CHECK-LABEL: module attributes {tfc.feeds = ["b:0"], tfc.fetches = ["f:0"]}
// CHECK: tfg.graph <producer = 1, min_consumer = 0> attributes {tfg.entry = "step"}
// CHECK-NOT: name("a")
// CHECK-NOT: name("d")
// CHECK-NOT: name("e")
// CHECK-DAG: %[[B:.*]]:2 = _Arg name("b/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<2xf32>
// CHECK-DAG: %[[C:.*]]:2 = Neg(%[[B]]#0) name("c")
// CHECK-DAG: %[[F:.*]]:2 = Mul(%[[C]]#0, %[[B]]#0) name("f")
// CHECK-DAG: _Retval(%[[F]]#0) name("f/_retval_0") {T = f32, index = 0 : i64}
module attributes {tfc.feeds = ["b:0"], tfc.fetches = ["f:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
    %b:2 = Neg(%a#0) name("b") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %c:2 = Neg(%b#0) name("c") {T = f32} : (tensor<2xf32>) -> tensor<*xf32>
    %d:2 = Exp(%b#0) name("d") {T = f32} : (tensor<2xf32>) -> tensor<*xf32>
    %e:2 = Add(%d#0, %c#0) name("e") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    %f:2 = Mul(%c#0, %b#0) name("f") {T = f32} : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  }
}

// -----

// Fetching a fed tensor returns the fed value; a feed shape given on the
// command line wins over the Placeholder's; an unneeded stateful node goes,
// a target and what it needs through control edges stay.
// CHECK-LABEL: module attributes
// CHECK-DAG: %[[X:.*]]:2 = _Arg name("x/_arg_0") {T = f32, index = 0 : i64} : () -> tensor<4x3xf32>
// CHECK-DAG: _Retval(%[[X]]#0) name("x/_retval_0") {T = f32, index = 0 : i64}
// CHECK-DAG: %[[V:.*]]:2 = VarHandleOp name("v")
// CHECK-DAG: %[[A:.*]] = AssignVariableOp(%[[V]]#0, %[[X]]#0) name("assign")
// CHECK-DAG: NoOp [%[[A]]] name("train")
// CHECK-NOT: RandomUniform
module attributes {tfc.feeds = ["x"], tfc.feed_shapes = [#tfg.shape<4x3>], tfc.fetches = ["x:0"], tfc.targets = ["train"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<?x3>} : () -> tensor<?x3xf32>
    %s:2 = Const name("s") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
    %r:2 = RandomUniform(%s#0) name("unused_random") {T = i32, dtype = f32} : (tensor<1xi32>) -> tensor<*xf32>
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<?x3>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %a = AssignVariableOp(%v#0, %x#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<?x3xf32>) -> ()
    %t = NoOp [%a] name("train")
  }
}

// -----

// The init nodes form their own entry, pruned from the original graph.
// CHECK-LABEL: module attributes
// CHECK: tfg.graph {{.*}} attributes {tfg.entry = "step"}
// CHECK-NOT: name("init")
// CHECK: ReadVariableOp
// CHECK: tfg.graph {{.*}} attributes {tfg.entry = "init"}
// CHECK-NOT: ReadVariableOp
// CHECK: name("init")
module attributes {tfc.fetches = ["read"], tfc.init = ["init"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %a = AssignVariableOp(%v#0, %zero#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<f32>) -> ()
    %i = NoOp [%a] name("init")
    %r:2 = ReadVariableOp(%v#0) name("read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<f32>
  }
}

// -----

// expected-error @+1 {{--feed 'nope:0': no node 'nope' in the graph}}
module attributes {tfc.feeds = ["nope:0"], tfc.fetches = ["a"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a = NoOp name("a")
  }
}

// -----

// expected-error @+1 {{--fetch 'a:3': node 'a' has 1 output}}
module attributes {tfc.fetches = ["a:3"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a:2 = Placeholder name("a") {dtype = f32} : () -> tensor<*xf32>
  }
}

// -----

// expected-error @+1 {{--fetch 'a:x': malformed tensor name}}
module attributes {tfc.fetches = ["a:x"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a:2 = Placeholder name("a") {dtype = f32} : () -> tensor<*xf32>
  }
}

// -----

// expected-error @+1 {{target 'train': no node of that name}}
module attributes {tfc.targets = ["train"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a = NoOp name("a")
  }
}

// -----

// A tensor computed inside a while loop exists once per iteration.
// expected-error @+1 {{--feed 'body:0': the tensor is computed inside a while loop and cannot be fed}}
module attributes {tfc.feeds = ["body:0"], tfc.fetches = ["exit"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
    %p:2 = Placeholder name("p") {dtype = i1} : () -> tensor<*xi1>
    %enter:2 = Enter(%x#0) name("enter") {T = f32, frame_name = "loop"} : (tensor<*xf32>) -> tensor<*xf32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>)
    %cond:2 = LoopCond(%p#0) name("cond") : (tensor<*xi1>) -> tensor<*xi1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = f32} : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>)
    %body:2 = Neg(%switch#1) name("body") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %next:2 = NextIteration(%body#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %exit:2 = Exit(%switch#0) name("exit") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  }
}

// -----

// expected-error @+1 {{--feed 'x' is given twice}}
module attributes {tfc.feeds = ["x:0", "x"], tfc.fetches = ["x"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  }
}

// -----

// Colocation constraints on a pruned node are dropped; others stay.
// CHECK-LABEL: module attributes {tfc.feeds = ["x:0"]
// CHECK-DAG: Neg({{.*}}) name("n") {T = f32} :
// CHECK-DAG: Exp({{.*}}) name("e") {T = f32, _class = ["loc:@n"]}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["e"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
    %n:2 = Neg(%x#0) name("n") {T = f32, _class = ["loc:@x"]} : (tensor<*xf32>) -> tensor<*xf32>
    %e:2 = Exp(%n#0) name("e") {T = f32, _class = ["loc:@x", "loc:@n"]} : (tensor<*xf32>) -> tensor<*xf32>
  }
}

// -----

// Each enqueue node of a queue runner forms an entry of its own,
// "runner:NODE", pruned from the original graph to what it needs; a node
// two threads run is one entry. The step keeps only its dequeue.
// CHECK-LABEL: module attributes {tfc.fetches = ["take"], tfc.queue_runners = ["fill,fill", "more"]}
// CHECK: tfg.graph {{.*}} attributes {tfg.entry = "step"}
// CHECK-NOT: QueueEnqueue
// CHECK: QueueDequeueV2
// CHECK: tfg.graph {{.*}} attributes {tfg.entry = "runner:fill"}
// CHECK-NOT: name("more")
// CHECK-NOT: QueueDequeueV2
// CHECK: name("fill")
// CHECK: tfg.graph {{.*}} attributes {tfg.entry = "runner:more"}
// CHECK-NOT: name("fill")
// CHECK: name("more")
// CHECK-NOT: tfg.graph
module attributes {tfc.fetches = ["take"], tfc.queue_runners = ["fill,fill", "more"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %q:2 = FIFOQueueV2 name("q") {capacity = 4 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
    %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    %fill = QueueEnqueueV2(%q#0, %one#0) name("fill") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
    %more = QueueEnqueueV2(%q#0, %two#0) name("more") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
    %take:2 = QueueDequeueV2(%q#0) name("take") {component_types = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>) -> tensor<f32>
  }
}

// -----

// expected-error @+1 {{--queue-runner 'fill,other': 'other' enqueues into 'p', not 'q': one runner feeds one queue}}
module attributes {tfc.fetches = ["take"], tfc.queue_runners = ["fill,other"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %q:2 = FIFOQueueV2 name("q") {capacity = 4 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
    %p:2 = FIFOQueueV2 name("p") {capacity = 4 : i64, component_types = [f32], container = "", shapes = [#tfg.shape<>], shared_name = ""} : () -> tensor<!tfg.resource>
    %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %fill = QueueEnqueueV2(%q#0, %one#0) name("fill") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
    %other = QueueEnqueueV2(%p#0, %one#0) name("other") {Tcomponents = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>, tensor<f32>) -> ()
    %take:2 = QueueDequeueV2(%q#0) name("take") {component_types = [f32], timeout_ms = -1 : i64} : (tensor<!tfg.resource>) -> tensor<f32>
  }
}
