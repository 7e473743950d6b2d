// Tests that the tfg dialect prints and parses back to the same IR: a graph
// with every kind of type and attribute, control edges, a loop through
// NextIteration, an unknown op, and a function with control outputs.
// RUN: tfc-opt %s | tfc-opt | FileCheck %s
// RUN: tfc-opt %s --mlir-print-op-generic | tfc-opt | FileCheck %s

// CHECK-LABEL: tfg.graph <producer = 1994, min_consumer = 12, bad_consumers = [3]>
tfg.graph #tfg.version<producer = 1994, min_consumer = 12, bad_consumers = [3]> {
  // CHECK: %[[X:.*]]:2 = Placeholder name("x") device("/job:worker/task:1/device:CPU:0") {dtype = f32, shape = #tfg.shape<?x3>} : () -> tensor<?x3xf32>
  %x:2 = Placeholder name("x") device("/job:worker/task:1/device:CPU:0") {dtype = f32, shape = #tfg.shape<?x3>} : () -> tensor<?x3xf32>
  // CHECK: Const name("c") {dtype = !tfg.string, value = dense<["a", "b"]> : tensor<2x!tfg.string>}
  %c:2 = Const name("c") {dtype = !tfg.string, value = dense<["a", "b"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  // CHECK: VariableV2 name("v") assigned_device("/device:CPU:0") {container = "", dtype = f32, shape = #tfg.shape<3>, shared_name = ""} : () -> tensor<3x!tfg.ref<f32>>
  %v:2 = VariableV2 name("v") assigned_device("/device:CPU:0") {container = "", dtype = f32, shape = #tfg.shape<3>, shared_name = ""} : () -> tensor<3x!tfg.ref<f32>>
  // CHECK: %[[INIT:.*]] = NoOp name("init")
  %init = NoOp name("init")
  // CHECK: Identity(%[[X]]#0) [%[[INIT]]] name("id") {T = f32}
  %id:2 = Identity(%x#0) [%init] name("id") {T = f32} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  // A loop: Merge reads NextIteration, which reads Merge.
  // CHECK: Merge
  %m:3 = Merge(%x#0, %next#0) name("m") {N = 2 : i64, T = f32} : (tensor<?x3xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<i32>)
  // CHECK: NextIteration
  %next:2 = NextIteration(%m#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: MyOp(%{{.*}}) name("custom") {fn = #tfg.func<@f, {T = f32}>, shapes = [#tfg.shape<*>, #tfg.shape<>], t = #tfg.tensor_proto<"\08\14">} : (tensor<*xf32>) -> (tensor<*x!tfg.opaque>, tensor<*x!tfg.opaque>)
  %u:3 = MyOp(%m#0) name("custom") {fn = #tfg.func<@f, {T = f32}>, shapes = [#tfg.shape<*>, #tfg.shape<>], t = #tfg.tensor_proto<"\08\14">} : (tensor<*xf32>) -> (tensor<*x!tfg.opaque>, tensor<*x!tfg.opaque>)
}

// CHECK-LABEL: tfg.func @f
// CHECK-SAME: (%[[A:.*]]: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"})
tfg.func @f(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) attributes {tfg.is_stateful} {
  // CHECK: %[[N:.*]]:2 = Neg(%[[A]]) name("neg") {T = f32}
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: return(%[[N]]#0) [%[[N]]#1] {control_names = ["done"]} : tensor<*xf32>
  return(%n#0) [%n#1] {control_names = ["done"]} : tensor<*xf32>
}
