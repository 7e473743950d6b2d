// Tests tfc-partition: the paper's Figure 4 (b and c on device B share the
// one _Recv of a's output), a control edge across devices as a dummy
// tensor, the rendezvous key attrs, one graph per device in a global
// topological order, constants copied rather than sent, a TF1 loop cut
// between devices (each device's part a loop of its own), and a TF1
// conditional across devices rejected.
// RUN: tfc-opt %s -split-input-file -tfc-partition -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module
// Device A: a, its one _Send to B, the dummy of the control edge and its send.
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"}
// CHECK-NEXT: %[[A:.*]]:2 = _Arg name("a")
// CHECK-NEXT: _Send(%[[A]]#0) name("a/_send") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = [[INC:[0-9]+]] : i64, tensor_name = "edge_0_a"}
// CHECK-NEXT: %[[T:[0-9]+]] = NoOp name("t")
// CHECK-NEXT: %[[D:.*]]:2 = Const [%[[T]]] name("t/_dummy") {{.*}}value = dense<> : tensor<0xf32>
// CHECK-NEXT: _Send(%[[D]]#0) name("t/_send") {{.*}}tensor_name = "edge_1_t"
// CHECK-NEXT: {{^  }}}
// Device B: one _Recv for a, used by b and c; c waits on t's dummy.
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "step"}
// CHECK-NEXT: %[[R:.*]]:2 = _Recv name("a/_recv") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = [[INC]] : i64, tensor_name = "edge_0_a", tensor_type = f32} : () -> tensor<4xf32>
// CHECK-NEXT: Neg(%[[R]]#0) name("b")
// CHECK-NEXT: %[[RT:.*]]:2 = _Recv name("t/_recv") {{.*}} : () -> tensor<0xf32>
// CHECK-NEXT: Abs(%[[R]]#0) [%[[RT]]#1] name("c")
// CHECK-NEXT: {{^  }}}
// CHECK-NOT: tfg.graph
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = _Arg name("a") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, index = 0 : i64} : () -> tensor<4xf32>
    %b:2 = Neg(%a#0) name("b") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %t = NoOp name("t") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
    %c:2 = Abs(%a#0) [%t] name("c") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// A constant read on another device is copied there (once per device), not
// sent: its consumers still see a constant. One that waits on a control
// input is a value of the step like any other, and is sent.
// CHECK-LABEL: module
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"}
// CHECK-NEXT: Const name("k")
// CHECK-NEXT: NoOp name("t")
// CHECK-NEXT: %[[KT:.*]]:2 = Const [%{{.*}}] name("kt")
// CHECK-NEXT: _Send(%[[KT]]#0) name("kt/_send")
// CHECK-NEXT: {{^  }}}
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "step"}
// CHECK-NEXT: %[[K:.*]]:2 = Const name("k/_copy") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = i32, value = dense<1> : tensor<i32>}
// CHECK-NEXT: %[[RKT:.*]]:2 = _Recv name("kt/_recv")
// CHECK-NEXT: ConcatV2(%[[RKT]]#0, %[[RKT]]#0, %[[K]]#0) name("c")
// CHECK-NEXT: Neg(%[[K]]#0) name("n")
// CHECK-NEXT: {{^  }}}
// CHECK-NOT: tfg.graph
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %k:2 = Const name("k") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %t = NoOp name("t") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
    %kt:2 = Const [%t] name("kt") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %c:2 = ConcatV2(%kt#0, %kt#0, %k#0) name("c") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
    %n:2 = Neg(%k#0) name("n") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// One device: nothing is cut; the graph only records its device.
// CHECK-LABEL: module
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"}
// CHECK-NOT: _Send
// CHECK-NOT: tfg.graph
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = Const name("a") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %b:2 = Neg(%a#0) name("b") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// A loop cut between devices (model parallelism): the counter and x are
// CPU:0's variables, the body's product CPU:1's. CPU:0 sends the
// predicate every iteration, right after its LoopCond; CPU:1 drives its
// own loop with a LoopCond of it, and a control loop (it holds no
// variable) anchors its receives in the frame. The constant Enter CPU:1
// reads is entered there, its input copied; the control edge from CPU:0's
// pivot comes from CPU:1's anchor; x's Exit crosses after the loop.
// CHECK-LABEL: module
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"}
// CHECK: %[[MERGE_I:.*]]:3 = Merge({{.*}}) name("merge_i")
// CHECK: %[[COND:.*]]:2 = LoopCond(%{{.*}}#0) name("cond")
// CHECK-NEXT: _Send(%[[COND]]#0) name("cond/_send") {{.*}}recv_device = "/job:localhost/replica:0/task:0/device:CPU:1"
// CHECK: _Send({{.*}}) name("x/_send")
// CHECK: _Recv [%[[MERGE_I]]#2] name("y2/_recv")
// CHECK: _Send({{.*}}) name("exit_x/_send")
// CHECK: tfg.graph {{.*}} attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "step"}
// CHECK-DAG: %[[PRED:.*]]:2 = _Recv [%[[ANCHOR:.*]]#2] name("cond/_recv")
// CHECK-DAG: %[[MYCOND:.*]]:2 = LoopCond(%[[PRED]]#0) name("cond/_predicate")
// CHECK-DAG: %[[ANCHOR]]:3 = Merge(%{{.*}}#0, %{{.*}}#0) name("cond/_control/merge")
// CHECK-DAG: Switch(%[[ANCHOR]]#0, %[[MYCOND]]#0) name("cond/_control/switch")
// CHECK-DAG: Enter(%{{.*}}#0) name("enter_k/_on_device") {{.*}}is_constant = true
// CHECK-DAG: _Recv [%[[ANCHOR]]#2] name("x/_recv")
// CHECK-DAG: Const [%[[ANCHOR]]#2] name("scale")
// CHECK-DAG: _Recv name("exit_x/_recv")
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %limit:2 = Const name("limit") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %x0:2 = Const name("x0") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %k:2 = Const name("k") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %ei:2 = Enter(%zero#0) name("enter_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %ex:2 = Enter(%x0#0) name("enter_x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, frame_name = "loop", is_constant = false} : (tensor<4xf32>) -> tensor<4xf32>
    %el:2 = Enter(%limit#0) name("enter_limit") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %ek:2 = Enter(%k#0) name("enter_k") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, frame_name = "loop", is_constant = true} : (tensor<4xf32>) -> tensor<4xf32>
    %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %mx:3 = Merge(%ex#0, %nx#0) name("merge_x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {N = 2 : i64, T = f32} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>)
    %less:2 = Less(%mi#0, %el#0) name("less") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") : (tensor<i1>) -> tensor<i1>
    %si:3 = Switch(%mi#0, %cond#0) name("switch_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %sx:3 = Switch(%mx#0, %cond#0) name("switch_x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
    %pivot:2 = Identity(%si#1) name("pivot") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %x:2 = Identity(%sx#1) name("x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %one:2 = Const [%pivot#1] name("one") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %inc:2 = AddV2(%pivot#0, %one#0) name("inc") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %scale:2 = Const [%pivot#1] name("scale") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
    %y:2 = Mul(%x#0, %ek#0) name("y") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %y2:2 = Mul(%y#0, %scale#0) name("y2") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %ni:2 = NextIteration(%inc#0) name("next_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %nx:2 = NextIteration(%y2#0) name("next_x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %xe:2 = Exit(%sx#0) name("exit_x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %r:2 = Neg(%xe#0) name("result") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// A loop inside a loop must stay on one device: here the inner loop's body
// is CPU:1's, its plumbing CPU:0's.
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %ei:2 = Enter(%zero#0) name("enter_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32, frame_name = "outer", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %pi:2 = Const [%mi#2] name("outer_limit") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %li:2 = Less(%mi#0, %pi#0) name("outer_less") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %ci:2 = LoopCond(%li#0) name("outer_cond") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") : (tensor<i1>) -> tensor<i1>
    %si:3 = Switch(%mi#0, %ci#0) name("switch_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %ii:2 = Identity(%si#1) name("i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %ej:2 = Enter(%ii#0) name("enter_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32, frame_name = "inner", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %mj:3 = Merge(%ej#0, %nj#0) name("merge_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %pj:2 = Const [%mj#2] name("inner_limit") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %lj:2 = Less(%mj#0, %pj#0) name("inner_less") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    // expected-error @+1 {{frame 'inner': a loop inside another loop has nodes on several devices (/job:localhost/replica:0/task:0/device:CPU:0, /job:localhost/replica:0/task:0/device:CPU:1), which is not supported yet; place the inner loop on one device}}
    %cj:2 = LoopCond(%lj#0) name("inner_cond") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") : (tensor<i1>) -> tensor<i1>
    %sj:3 = Switch(%mj#0, %cj#0) name("switch_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %jj:2 = Identity(%sj#1) name("j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %one:2 = Const [%jj#1] name("one") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %incj:2 = AddV2(%jj#0, %one#0) name("inc_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %nj:2 = NextIteration(%incj#0) name("next_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %xj:2 = Exit(%sj#0) name("exit_j") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %ni:2 = NextIteration(%xj#0) name("next_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
    %xi:2 = Exit(%si#0) name("exit_i") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = Const name("p") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i1, value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %x:2 = Const name("x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    // expected-error @+1 {{node 's' on /job:localhost/replica:0/task:0/device:CPU:1 takes an input from 'p' on /job:localhost/replica:0/task:0/device:CPU:0: a TF1 conditional across devices is not supported yet}}
    %s:3 = Switch(%x#0, %p#0) name("s") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>)
  }
}

// -----

module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{node 'a' has no assigned device; run tfc-place first}}
    %a:2 = Const name("a") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  }
}
