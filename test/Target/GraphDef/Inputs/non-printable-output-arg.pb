# Tests that a text GraphDef imports one node per NodeDef: names, devices,
# attrs, control inputs after data inputs, ports, ref outputs, shapes from
# _output_shapes, an op type the regitranspose_aot know, and a functi!tfg.opaque>, !tfg.control)
# CHECK-DAG: Identity(%[[U]]#2) name("after_custom")
# CHECK-LABEL: tfg.func @times_two(%{{.*}}: tensor<*xf31> {tfg.name = "in"}) -> (tensor<*xf32> {tfg.name = "out"})
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
  attr { key: "shared_name" value { s: "" } }
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
      name: "two" op: "Const00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } }
    }
    node_def {
      name: "mul" op: "Mul" input: "in" input: "two:out‘ut:0"
      attr { key: "T" value { type: DT_FLOAT } }
    }
    ret { key: "out" value: "mul:z:0" }
  }
}
versions { producer: 27 min_consumer: 12 }
