// Tests tfc-schedule-recvs: the _Recv that opens CPU:1's schedule but is
// needed only after a chain of MatMuls gets a control edge from the last
// node that finishes by its ALAP start (c2) and moves after it; with
// tfc.no_recv_scheduling nothing changes.
// RUN: tfc-opt %s -split-input-file -tfc-schedule-recvs | FileCheck %s

// CHECK-LABEL: module {
// CHECK: tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1"
// CHECK-NEXT: Const name("v")
// CHECK-NEXT: MatMul({{.*}}) name("c0")
// CHECK-NEXT: MatMul({{.*}}) name("c1")
// CHECK-NEXT: %[[C2:[0-9]+]]:2 = MatMul({{.*}}) name("c2")
// CHECK-NEXT: %[[R:[0-9]+]]:2 = _Recv [%[[C2]]#1] name("e/_recv")
// CHECK-NEXT: AddV2(%[[C2]]#0, %[[R]]#0) name("l")
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"} {
    %w:2 = Const name("w") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<1.0> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
    %e:2 = MatMul(%w#0, %w#0) name("e") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %s = _Send(%e#0) name("e/_send") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_e"} : (tensor<256x256xf32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "step"} {
    %r:2 = _Recv name("e/_recv") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_e", tensor_type = f32} : () -> tensor<256x256xf32>
    %v:2 = Const name("v") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<1.0> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
    %c0:2 = MatMul(%v#0, %v#0) name("c0") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %c1:2 = MatMul(%c0#0, %v#0) name("c1") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %c2:2 = MatMul(%c1#0, %v#0) name("c2") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %l:2 = AddV2(%c2#0, %r#0) name("l") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  }
}

// -----

// CHECK-LABEL: module attributes {tfc.no_recv_scheduling}
// CHECK: tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1"
// CHECK-NEXT: _Recv name("e/_recv")
module attributes {tfc.no_recv_scheduling} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:0", tfg.entry = "step"} {
    %w:2 = Const name("w") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<1.0> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
    %e:2 = MatMul(%w#0, %w#0) name("e") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %s = _Send(%e#0) name("e/_send") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_e"} : (tensor<256x256xf32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:localhost/replica:0/task:0/device:CPU:1", tfg.entry = "step"} {
    %r:2 = _Recv name("e/_recv") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {client_terminated = false, recv_device = "/job:localhost/replica:0/task:0/device:CPU:1", send_device = "/job:localhost/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_e", tensor_type = f32} : () -> tensor<256x256xf32>
    %v:2 = Const name("v") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<1.0> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
    %c0:2 = MatMul(%v#0, %v#0) name("c0") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %c1:2 = MatMul(%c0#0, %v#0) name("c1") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %c2:2 = MatMul(%c1#0, %v#0) name("c2") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %l:2 = AddV2(%c2#0, %r#0) name("l") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1") {T = f32} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  }
}
