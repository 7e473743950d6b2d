// Tests tfc-partition: the paper's Figure 4 (b and c on device B share the
// one _Recv of a's output), a control edge across devices as a dummy
// tensor, the rendezvous key attrs, one graph per device in a global
// topological order, constants copied rather than sent, and TF1 control
// flow across devices rejected.
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

module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = Const name("p") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = i1, value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %x:2 = Const name("x") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    // expected-error @+1 {{node 's' on /job:localhost/replica:0/task:0/device:CPU:1 takes an input from 'p' on /job:localhost/replica:0/task:0/device:CPU:0: TF1 control flow across devices is not supported yet}}
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
