// Tests tfc-cse: identical nodes collapse (chains too, since inputs are
// canonical first), but never across devices, never stateful or ref-reading
// nodes, and control inputs count as a set.
// RUN: tfc-opt %s -split-input-file -tfc-cse | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = Placeholder name("x")
// CHECK-DAG: %[[N:.*]]:2 = Neg(%[[X]]#0) name("n1")
// CHECK-NOT: name("n2")
// CHECK-DAG: %[[E:.*]]:2 = Exp(%[[N]]#0) name("e1")
// CHECK-NOT: name("e2")
// CHECK-DAG: AddV2(%[[E]]#0, %[[E]]#0) name("sum")
// CHECK-DAG: Identity(%[[N]]#0) [%[[N]]#1] name("after_n2")
// CHECK-DAG: %[[C:.*]]:2 = Const name("c1")
// CHECK-NOT: name("c2")
// CHECK-DAG: Mul(%[[C]]#0, %[[C]]#0) name("cc")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %n1:2 = Neg(%x#0) name("n1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %n2:2 = Neg(%x#0) name("n2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %e1:2 = Exp(%n1#0) name("e1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %e2:2 = Exp(%n2#0) name("e2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %s:2 = AddV2(%e1#0, %e2#0) name("sum") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %a:2 = Identity(%n2#0) [%n2#1] name("after_n2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %c1:2 = Const name("c1") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %c2:2 = Const name("c2") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %cc:2 = Mul(%c1#0, %c2#0) name("cc") {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
}

// -----

// Different devices, stateful ops, ref reads and different control inputs
// keep their nodes; control inputs in another order do not. (Two NoOps
// without inputs would merge, as in TensorFlow: placeholders serve as
// distinct control sources here.)
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("cpu0")
// CHECK-DAG: name("cpu1")
// CHECK-DAG: name("r1")
// CHECK-DAG: name("r2")
// CHECK-DAG: name("read1")
// CHECK-DAG: name("read2")
// CHECK-DAG: name("ctl_a")
// CHECK-DAG: name("ctl_b")
// CHECK-DAG: name("ctl_ab")
// CHECK-NOT: name("ctl_ba")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %d0:2 = Neg(%x#0) name("cpu0") device("/cpu:0") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %d1:2 = Neg(%x#0) name("cpu1") device("/cpu:1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %s:2 = Const name("s") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %r1:2 = RandomUniform(%s#0) name("r1") {T = i32, dtype = f32} : (tensor<1xi32>) -> tensor<*xf32>
  %r2:2 = RandomUniform(%s#0) name("r2") {T = i32, dtype = f32} : (tensor<1xi32>) -> tensor<*xf32>
  %v:2 = VariableV2 name("v") {container = "", dtype = f32, shape = #tfg.shape<>, shared_name = ""} : () -> tensor<*x!tfg.ref<f32>>
  %read1:2 = Identity(%v#0) name("read1") {T = f32} : (tensor<*x!tfg.ref<f32>>) -> tensor<*xf32>
  %read2:2 = Identity(%v#0) name("read2") {T = f32} : (tensor<*x!tfg.ref<f32>>) -> tensor<*xf32>
  %a:2 = Placeholder name("a") {dtype = f32} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32} : () -> tensor<*xf32>
  %ca:2 = Neg(%x#0) [%a#1] name("ctl_a") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %cb:2 = Neg(%x#0) [%b#1] name("ctl_b") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %cab:2 = Neg(%x#0) [%a#1, %b#1] name("ctl_ab") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %cba:2 = Neg(%x#0) [%b#1, %a#1] name("ctl_ba") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Inside a TF1 loop the back edge does not stop the walk; identical loop
// bodies merge, and the graph stays valid.
// CHECK-LABEL: tfg.graph
// CHECK: name("body1")
// CHECK-NOT: name("body2")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %enter:2 = Enter(%x#0) name("enter") {T = f32, frame_name = "loop"} : (tensor<*xf32>) -> tensor<*xf32>
  %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>)
  %b1:2 = Neg(%merge#0) name("body1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %b2:2 = Neg(%merge#0) name("body2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %add:2 = AddV2(%b1#0, %b2#0) name("add") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %next:2 = NextIteration(%add#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Colocation with a merged node moves to the node that replaced it.
// CHECK-LABEL: tfg.graph
// CHECK: Exp({{.*}}) name("e") {T = f32, _class = ["loc:@n1"]}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %n1:2 = Neg(%x#0) name("n1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %n2:2 = Neg(%x#0) name("n2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %e:2 = Exp(%n2#0) name("e") {T = f32, _class = ["loc:@n2"]} : (tensor<*xf32>) -> tensor<*xf32>
}
