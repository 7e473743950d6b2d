// Tests tfc-compress-transfers: a float32 pair between tasks is sent as
// bfloat16 (Cast with Truncate=true before the _Send, Cast back after the
// _Recv); an int32 pair is left alone.
// RUN: tfc-opt %s -tfc-compress-transfers=format=bf16 | FileCheck %s

// CHECK: %[[A:.*]]:2 = Const name("a")
// CHECK: %[[T:.*]]:2 = Cast(%[[A]]#0) name("a/_send/_compress") assigned_device("/job:worker/replica:0/task:0/device:CPU:0") {DstT = bf16, SrcT = f32, Truncate = true} : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: _Send(%[[T]]#0) name("a/_send") {{.*}}{T = bf16,
// CHECK: _Send(%{{.*}}) name("i/_send") {{.*}}{T = i32,
// CHECK: %[[R:.*]]:2 = _Recv name("a/_recv") {{.*}}tensor_type = bf16} : () -> tensor<4xbf16>
// CHECK: %[[E:.*]]:2 = Cast(%[[R]]#0) name("a/_recv/_expand") {{.*}}{DstT = f32, SrcT = bf16, Truncate = false} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: Neg(%[[E]]#0) name("b")
// CHECK: _Recv name("i/_recv") {{.*}}tensor_type = i32} : () -> tensor<4xi32>
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:worker/replica:0/task:0/device:CPU:0", tfg.entry = "step"} {
    %a:2 = Const name("a") assigned_device("/job:worker/replica:0/task:0/device:CPU:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %s = _Send(%a#0) name("a/_send") assigned_device("/job:worker/replica:0/task:0/device:CPU:0") {T = f32, client_terminated = false, recv_device = "/job:worker/replica:0/task:1/device:CPU:0", send_device = "/job:worker/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_a"} : (tensor<4xf32>) -> ()
    %i:2 = Const name("i") assigned_device("/job:worker/replica:0/task:0/device:CPU:0") {dtype = i32, value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
    %si = _Send(%i#0) name("i/_send") assigned_device("/job:worker/replica:0/task:0/device:CPU:0") {T = i32, client_terminated = false, recv_device = "/job:worker/replica:0/task:1/device:CPU:0", send_device = "/job:worker/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_1_i"} : (tensor<4xi32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.device = "/job:worker/replica:0/task:1/device:CPU:0", tfg.entry = "step"} {
    %r:2 = _Recv name("a/_recv") assigned_device("/job:worker/replica:0/task:1/device:CPU:0") {client_terminated = false, recv_device = "/job:worker/replica:0/task:1/device:CPU:0", send_device = "/job:worker/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_0_a", tensor_type = f32} : () -> tensor<4xf32>
    %b:2 = Neg(%r#0) name("b") assigned_device("/job:worker/replica:0/task:1/device:CPU:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %ri:2 = _Recv name("i/_recv") assigned_device("/job:worker/replica:0/task:1/device:CPU:0") {client_terminated = false, recv_device = "/job:worker/replica:0/task:1/device:CPU:0", send_device = "/job:worker/replica:0/task:0/device:CPU:0", send_device_incarnation = 1 : i64, tensor_name = "edge_1_i", tensor_type = i32} : () -> tensor<4xi32>
  }
}
