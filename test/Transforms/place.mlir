// Tests tfc-place: feasible devices from kernels and (partial) requests,
// colocation groups (_class and resource edges), their conflicts, soft
// placement, and the strategies.
// RUN: tfc-opt %s -split-input-file -tfc-place -verify-diagnostics | FileCheck %s

// Requests narrow the feasible set: a full name, a partial one (the job),
// a legacy one. Without a request, the cost placer keeps a chain on one
// device (moving it would only add transfers).
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("a") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:CPU:1")
// CHECK: name("b") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:CPU:1")
// CHECK: name("c") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
module attributes {tfc.devices = ["/cpu:0", "/cpu:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = Const name("a") device("/job:localhost/replica:0/task:0/device:CPU:1") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %b:2 = Neg(%a#0) name("b") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %c:2 = Neg(%b#0) name("c") device("/cpu:0") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// Partial specs: /job:ps matches only the ps task's devices; /device:CPU:*
// any CPU.
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("v") {{.*}}assigned_device("/job:ps/replica:0/task:0/device:CPU:0")
// CHECK: name("w") {{.*}}assigned_device("/job:worker/replica:0/task:1/device:CPU:0")
module attributes {tfc.devices = ["/job:worker/task:0/cpu:0", "/job:worker/task:1/cpu:0", "/job:ps/task:0/cpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = Const name("v") device("/job:ps") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %w:2 = Neg(%v#0) name("w") device("/job:worker/task:1/device:CPU:*") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// Colocation: "loc:@v" puts n with v; a resource edge puts the read with
// its variable, whose request decides for the whole group.
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("v") {{.*}}assigned_device("[[DEV:/job:localhost/replica:0/task:0/device:CPU:2]]")
// CHECK: name("read") {{.*}}assigned_device("[[DEV]]")
// CHECK: name("n") {{.*}}assigned_device("[[DEV]]")
module attributes {tfc.devices = ["/cpu:0", "/cpu:1", "/cpu:2"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = VarHandleOp name("v") device("/cpu:2") {dtype = f32, shape = #tfg.shape<4>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %r:2 = ReadVariableOp(%v#0) name("read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<4xf32>
    %n:2 = Neg(%r#0) name("n") {T = f32, _class = ["loc:@v"]} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// Across a resource edge the variable's request wins over its user's, as
// in TensorFlow's placer (no soft placement needed): the read goes to the
// variable's CPU:0, not the CPU:1 it asks for.
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("v") {{.*}}assigned_device("[[DEV:/job:localhost/replica:0/task:0/device:CPU:0]]")
// CHECK: name("read") {{.*}}assigned_device("[[DEV]]")
module attributes {tfc.devices = ["/cpu:0", "/cpu:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = VarHandleOp name("v") device("/cpu:0") {dtype = f32, shape = #tfg.shape<4>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %r:2 = ReadVariableOp(%v#0) name("read") device("/cpu:1") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<4xf32>
  }
}

// -----

// "loc:@" colocation wins over the node's own request, as in TensorFlow's
// placer: n goes to a's CPU:0. A node that names nodes which disagree (a
// gradient's stack colocated with a loop counter and with the value it
// saves, on two devices) joins those that agree with its own request: s
// stays on CPU:1 with v, and u with it.
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("a") {{.*}}assigned_device("[[CPU0:/job:localhost/replica:0/task:0/device:CPU:0]]")
// CHECK: name("n") {{.*}}assigned_device("[[CPU0]]")
// CHECK: name("v") {{.*}}assigned_device("[[CPU1:/job:localhost/replica:0/task:0/device:CPU:1]]")
// CHECK: name("s") {{.*}}assigned_device("[[CPU1]]")
// CHECK: name("u") {{.*}}assigned_device("[[CPU1]]")
module attributes {tfc.devices = ["/cpu:0", "/cpu:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = Const name("a") device("/cpu:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %n:2 = Neg(%a#0) name("n") device("/cpu:1") {T = f32, _class = ["loc:@a"]} : (tensor<4xf32>) -> tensor<4xf32>
    %v:2 = Const name("v") device("/cpu:1") {dtype = f32, value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %s:2 = Neg(%v#0) name("s") device("/cpu:1") {T = f32, _class = ["loc:@a", "loc:@v"]} : (tensor<4xf32>) -> tensor<4xf32>
    %u:2 = Neg(%s#0) name("u") {T = f32, _class = ["loc:@s"]} : (tensor<4xf32>) -> tensor<4xf32>
  }
}

// -----

// A request no device meets; a GPU request where only CPUs exist.
module attributes {tfc.devices = ["/cpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{node 'm': no available device satisfies 'm' requests /device:GPU:0 (devices: /job:localhost/replica:0/task:0/device:CPU:0); --soft-placement relaxes requests}}
    %m:2 = Const name("m") device("/gpu:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  }
}

// -----

// A string op has no GPU kernel, and its request asks for one.
module attributes {tfc.devices = ["/cpu:0", "/gpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{node 's': no available device satisfies 's' requests /device:GPU:*; 's' (Const) has no GPU kernel}}
    %s:2 = Const name("s") device("/device:GPU:*") {dtype = !tfg.string, value = dense<"x"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  }
}

// -----

// Malformed requests are named.
module attributes {tfc.devices = ["/cpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{node 'x': device 'gpu0' is not a device name}}
    %x:2 = Const name("x") device("gpu0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  }
}

// -----

// Soft placement: the GPU request falls back to a CPU.
// CHECK-LABEL: module attributes {tfc.devices = ["/cpu:0"], tfc.soft_placement}
// CHECK: name("m") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
module attributes {tfc.devices = ["/cpu:0"], tfc.soft_placement} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %m:2 = Const name("m") device("/gpu:0") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  }
}

// -----

// A GPU takes the heavy MatMul; the string op stays on the CPU.
// CHECK-LABEL: module attributes {tfc.devices = ["/cpu:0", "/gpu:0"]}
// CHECK: name("mm") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:GPU:0")
// CHECK: name("s") {{.*}}assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
module attributes {tfc.devices = ["/cpu:0", "/gpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %w:2 = Const name("w") {dtype = f32, value = dense<1.0> : tensor<512x512xf32>} : () -> tensor<512x512xf32>
    %mm:2 = MatMul(%w#0, %w#0) name("mm") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %s:2 = Const name("s") {dtype = !tfg.string, value = dense<"x"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  }
}

// -----

// The available devices must name their type.
// expected-error @+1 {{device '/job:ps' is not a device name with a type (e.g. /cpu:0, /job:worker/task:1/device:GPU:0)}}
module attributes {tfc.devices = ["/cpu:0", "/job:ps"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = Const name("x") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  }
}

// -----

// Over a cluster, the step's input and output are the chief's (here
// worker 0, there being no job "chief"), though the computation between
// them goes to the ps, where a request sends it; an _Arg that asks for a
// task keeps it.
// CHECK-LABEL: module attributes {tfc.devices
// CHECK: name("x") {{.*}}assigned_device("/job:worker/replica:0/task:0/device:CPU:0")
// CHECK: name("asked") {{.*}}assigned_device("/job:worker/replica:0/task:1/device:CPU:0")
// CHECK: name("neg") {{.*}}assigned_device("/job:ps/replica:0/task:0/device:CPU:0")
// CHECK: name("y") {{.*}}assigned_device("/job:worker/replica:0/task:0/device:CPU:0")
module attributes {tfc.devices = ["/job:ps/task:0/cpu:0", "/job:worker/task:1/cpu:0", "/job:worker/task:0/cpu:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<4xf32>
    %a:2 = _Arg name("asked") device("/job:worker/task:1") {T = f32, index = 1 : i64} : () -> tensor<4xf32>
    %n:2 = AddV2(%x#0, %a#0) name("neg") device("/job:ps") {T = f32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = _Retval(%n#0) name("y") {T = f32, index = 0 : i64} : (tensor<4xf32>) -> ()
  }
}
