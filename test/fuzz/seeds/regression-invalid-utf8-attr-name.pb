# Tests that a text GraphDef imports one node per NodeDef: names, devices,
# attrs, control inputs after data inputs, ports, ref outputs, shapes from
# _output_shapes, an op type the registry does not know, and a function.
# RUN: tfc-translate --graphdef-to-mlir %s | FileCheck %s

# CHECK-LABEL: tfg.graph <producer = 27, min_consumer = 12>
# CHECK-DAG: %[[X:.*]]:2 = Placeholder name("x") device("/device:CPU:0") {_output_shapes = [#tfg.shape<?x2>], dtype = f32, shape = #tfg.shape<?x2>} : () -> tensor<?x2xf32>
# CHECK-DAG: %[[V:.*]]:2 = VariableV2 name("v") {container = "", dtype = f32, shape = #tfg.shape<2>, shared_name = ""} : () -> tensor<*x!tfg.ref<f32>>
# CHECK-DAG: %[[INIT:.*]] = NoOp name("init")
# CHECK-DAG: %[[S:.*]]:3 = Split(%{{.*}}, %[[X]]#0) name("split") {T = f32, num_split = 2 : i64} : (tensor<*xi32>, tensor<?x2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
# CHECK-DAG: Add(%þþþþþþþþþþþþþþþþþþþþþþþþþþþþþþ[[S]]#1, %[[V]]#0) [%[[INIT]]] name("add") {T = f32} : (tensor<*xf32>, tensor<*x!tfg.ref<f32>>) -> tensor<*xf32>
# An op type that is not an MLIR identifier keeps the generic form.
# CHECK-DAG: %[[U:.*]]:4 = "tfg.Custom>Op"(%{{.*}}) {tfg.name = "custom"} : (tensor<*xf32>) -> (tensor<*x!tfg.opaque>, tensor<*x!tfg.opaque>, tensor<*x!tfg.opaque>, !tfg.control)
# CHECK-DAG: Identity(%[[U]]#2) name("after_custom")
# CHECK-LABEL: tfg.func @times_two(%{{.*}}: tensor<*xf32> {tfg.name = "in"}) -> (tensor<*xf32> {tfg.name = "out"})
# CHECK: Mul(%{{.*}}, %{{.*}}) name("mul") {T = f32}
# CHECK: return(%{{.*}}#0) : tensor<*xf32>

node {
  name: "x" op: "Placeholder" device: "/device:CPU:0"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 2 } } } }
  attr { key: "_output_shapes" value { list { shape { dim { size: -1 } dim { size: 2 } } } } }
}
node {
  name: "axis" op: "Const"
  attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } }
}
node {
  name: "split" op: "Split" input: "axis" input: "x"
  attr { key: "T" value { type: DT_FLOAT } }
  attr { key: "num_split" value { i: 2 } }
}
node {
  name: "v" op: "VariableV2"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 2 } } } }
  attr { key: "container" value { s: "" } }
  attr { key: "shared_namí" value { s: "" } }
}
node { name: "init" op: "NoOp" }
node {
  name: "add" op: "Add" input: "split:1" input: "v" input: "^init"
  attr { key: "T" value { type: DT_FLOAT } }
}
node { name: "custom" op: "Custom>Op" input: "add" }
node {
  name: "after_custom" op: "Identity" input: "custom:2"
  attr { key: "T" value { type: DT_FLOAT } }
}
library {
  function {
    signature {
      name: "times_two"
      input_arg { name: "in" type: DT_FLOAT }
      output_arg { name: "out" type: DT_FLOAT }
    }
    node_def {
      name: "two" op: "Const"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } }
    }
    node_def {
      name: "mul" op: "Mul" input: "in" input: "two:output:0"
      attr { key: "T" value { type: DT_FLOAT } }
    }
    ret { key: "out" value: "mul:z:0" }
  }
}
versions { producer: 27 min_consumer: 12 }
