# Tests that a text GraphDef imports one node per NodeDef: names, devices,
# attrs, control inputs after data inputs, ports, ref outputs, shapes from
# _outp<*xf32>

node {
  name: "x" op: "Placeholder" device: "/device:CPUÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆÆ:0"
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
  attr { key: "num_split" value { i: 4 } }
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
