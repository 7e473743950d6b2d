// Tests tfc-remove-dead-nodes: unused chains go, stateful nodes and roots
// stay, raw graphs are left alone, function bodies are cleaned.
// RUN: tfc-opt %s -split-input-file -tfc-remove-dead-nodes | FileCheck %s

// CHECK-LABEL: module attributes {tfc.targets = ["keep"]}
// CHECK-NOT: name("dead1")
// CHECK-NOT: name("dead2")
// CHECK-DAG: name("x")
// CHECK-DAG: _Retval
// CHECK-DAG: RandomUniform
// CHECK-DAG: NoOp name("keep")
module attributes {tfc.targets = ["keep"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2xf32>
    %d1:2 = Neg(%x#0) name("dead1") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %d2:2 = Exp(%d1#0) name("dead2") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %r = _Retval(%x#0) name("r") {T = f32, index = 0} : (tensor<2xf32>) -> ()
    %s:2 = Const name("s") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
    %u:2 = RandomUniform(%s#0) name("random") {T = i32, dtype = f32} : (tensor<1xi32>) -> tensor<*xf32>
    %k = NoOp name("keep")
  }
}

// -----

// A graph that is not pruned to an entry keeps every node: any output may
// still be fetched.
// CHECK-LABEL: tfg.graph <producer = 1, min_consumer = 0> {
// CHECK: Neg
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %n:2 = Neg(%x#0) name("n") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// CHECK-LABEL: tfg.func @f
// CHECK-NOT: name("unused")
// CHECK: Neg
// CHECK: return
tfg.func @f(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "r"}) {
  %u:2 = Exp(%a) name("unused") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %n:2 = Neg(%a) name("n") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}
