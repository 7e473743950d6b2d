// Tests tfc-canonicalize: each rule, and each case where it must not apply.
// RUN: tfc-opt %s -split-input-file -tfc-canonicalize | FileCheck %s

// Rule 1: consumers read through Identity/StopGradient/IdentityN; control
// uses move to the producer.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = Placeholder name("x")
// CHECK-DAG: %[[Y:.*]]:2 = Placeholder name("y")
// CHECK-DAG: Neg(%[[X]]#0) name("neg")
// CHECK-DAG: Exp(%[[X]]#0) name("exp")
// CHECK-DAG: AddV2(%[[X]]#0, %[[Y]]#0) name("add")
// CHECK-DAG: %[[NX:.*]]:2 = Neg(%[[X]]#0) name("nx")
// CHECK-DAG: NoOp [%[[NX]]#1] name("after")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %y:2 = Placeholder name("y") {dtype = f32} : () -> tensor<*xf32>
  %i:2 = Identity(%x#0) name("i") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %s:2 = StopGradient(%i#0) name("s") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %n:2 = Neg(%s#0) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %e:2 = Exp(%i#0) name("exp") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %in:3 = IdentityN(%x#0, %y#0) name("in") {T = [f32, f32]} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %a:2 = AddV2(%in#0, %in#1) name("add") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %nx:2 = Neg(%x#0) name("nx") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %j:2 = Identity(%nx#0) name("j") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %after = NoOp [%j#1] name("after")
}

// -----

// Rule 1 does not apply: control inputs, another device, a ref read, a
// Switch pivot, a target, an IdentityN whose token is used but whose inputs
// come from two nodes.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: Neg(%[[CTL:.*]]#0) name("use_ctl")
// CHECK-DAG: %[[CTL]]:2 = Identity(%{{.*}}) [%{{.*}}] name("with_ctl")
// CHECK-DAG: %[[DEV:.*]]:2 = Identity(%{{.*}}) name("copy") device("/cpu:1")
// CHECK-DAG: Neg(%[[DEV]]#0) name("use_dev")
// CHECK-DAG: %[[READ:.*]]:2 = Identity(%{{.*}}) name("read")
// CHECK-DAG: Neg(%[[READ]]#0) name("use_read")
// CHECK-DAG: %[[PIVOT:.*]]:2 = Identity(%{{.*}}#1) name("pivot")
// CHECK-DAG: NoOp [%[[PIVOT]]#1] name("branch")
// CHECK-DAG: %[[T:.*]]:2 = Identity(%{{.*}}) name("target")
// CHECK-DAG: Neg(%[[T]]#0) name("use_target")
// CHECK-DAG: %[[N:.*]]:3 = IdentityN
// CHECK-DAG: NoOp [%[[N]]#2] name("after_n")
module attributes {tfc.targets = ["target"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") device("/cpu:0") {dtype = f32} : () -> tensor<*xf32>
    %y:2 = Placeholder name("y") device("/cpu:0") {dtype = f32} : () -> tensor<*xf32>
    %z:2 = Neg(%x#0) name("z") device("/cpu:0") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %c:2 = Identity(%x#0) [%z#1] name("with_ctl") device("/cpu:0") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %uc:2 = Neg(%c#0) name("use_ctl") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %d:2 = Identity(%x#0) name("copy") device("/cpu:1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %ud:2 = Neg(%d#0) name("use_dev") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %v:2 = VariableV2 name("v") {container = "", dtype = f32, shape = #tfg.shape<>, shared_name = ""} : () -> tensor<*x!tfg.ref<f32>>
    %r:2 = Identity(%v#0) name("read") {T = f32} : (tensor<*x!tfg.ref<f32>>) -> tensor<*xf32>
    %ur:2 = Neg(%r#0) name("use_read") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %p:2 = Placeholder name("p") device("/cpu:0") {dtype = i1} : () -> tensor<*xi1>
    %sw:3 = Switch(%x#0, %p#0) name("switch") device("/cpu:0") {T = f32} : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>)
    %pv:2 = Identity(%sw#1) name("pivot") device("/cpu:0") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %b = NoOp [%pv#1] name("branch")
    %t:2 = Identity(%x#0) name("target") device("/cpu:0") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %ut:2 = Neg(%t#0) name("use_target") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %n:3 = IdentityN(%x#0, %y#0) name("n") device("/cpu:0") {T = [f32, f32]} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
    %an = NoOp [%n#2] name("after_n")
  }
}

// -----

// Rule 2: a NoOp gathering one control edge is bypassed; one with two
// inputs and three users (6 > 5 edges) is not.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[A:.*]]:2 = Neg({{.*}}) name("a")
// CHECK-DAG: %[[B:.*]]:2 = Neg({{.*}}) name("b")
// CHECK-DAG: Neg(%[[B]]#0) [%[[A]]#1] name("u1")
// CHECK-DAG: %[[G:.*]] = NoOp [%[[A]]#1, %[[B]]#1] name("gather")
// CHECK-DAG: Neg(%[[A]]#0) [%[[G]]] name("v1")
// CHECK-DAG: Neg(%[[A]]#0) [%[[G]]] name("v2")
// CHECK-DAG: Neg(%[[A]]#0) [%[[G]]] name("v3")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %a:2 = Neg(%x#0) name("a") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %b:2 = Neg(%x#0) name("b") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %one = NoOp [%a#1] name("one")
  %u1:2 = Neg(%b#0) [%one] name("u1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %g = NoOp [%a#1, %b#1] name("gather")
  %v1:2 = Neg(%a#0) [%g] name("v1") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %v2:2 = Neg(%a#0) [%g] name("v2") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %v3:2 = Neg(%a#0) [%g] name("v3") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Rules 3, 4 and 5: duplicate control inputs, control inputs implied by a
// data input (except on control-flow ops) and control inputs from stateless
// sources go; control inputs from a stateful source stay.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[A:.*]]:2 = Placeholder name("a")
// CHECK-DAG: %[[NB:.*]]:2 = Neg({{.*}}) name("nb")
// CHECK-DAG: Neg(%[[A]]#0) [%[[NB]]#1] name("dup")
// CHECK-DAG: Neg(%[[A]]#0) name("implied")
// CHECK-DAG: Enter(%[[A]]#0) [%[[A]]#1] name("enter")
// CHECK-DAG: %[[V:.*]]:2 = VarHandleOp name("v")
// CHECK-DAG: Neg(%[[A]]#0) [%[[V]]#1] name("after_sources")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32} : () -> tensor<*xf32>
  %b:2 = Placeholder name("b") {dtype = f32} : () -> tensor<*xf32>
  %nb:2 = Neg(%b#0) name("nb") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %d:2 = Neg(%a#0) [%nb#1, %nb#1] name("dup") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %i:2 = Neg(%a#0) [%a#1] name("implied") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %e:2 = Enter(%a#0) [%a#1] name("enter") {T = f32, frame_name = "f"} : (tensor<*xf32>) -> tensor<*xf32>
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
  %s:2 = Neg(%a#0) [%c#1, %b#1, %v#1] name("after_sources") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Rule 6: in a pruned graph, a stateless node whose data output nothing
// reads but whose control output is waited for becomes a NoOp of the same
// name and device, after its inputs' producers and its own control inputs;
// one that then has no data readers follows (here "e" and "d" become
// NoOps that rule 2 then bypasses). Not a node that can fail (the sparse
// cross entropy checks its labels), nor one that updates a ref (Assign;
// TensorFlow calls it stateless), nor a root.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = _Arg name("x")
// CHECK-DAG: %[[W:.*]]:2 = _Arg name("w")
// CHECK-DAG: %[[M:.*]] = NoOp [%[[X]]#1, %[[W]]#1] name("mm") device("/device:CPU:0")
// CHECK-DAG: %[[S:.*]]:3 = SparseSoftmaxCrossEntropyWithLogits
// CHECK-DAG: %[[A:.*]]:2 = Assign(
// CHECK-DAG: Neg(%[[X]]#0) name("target")
// CHECK-DAG: NoOp [%[[M]], %[[S]]#2, %[[A]]#1] name("wait")
// CHECK-NOT: MatMul
// CHECK-NOT: Exp
module attributes {tfc.targets = ["wait", "target"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x2xf32>
    %w:2 = _Arg name("w") {T = f32, index = 1 : i64} : () -> tensor<2x2xf32>
    %d:2 = Neg(%x#0) name("d") {T = f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %e:2 = Exp(%x#0) name("e") {T = f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %m:2 = MatMul(%e#0, %w#0) [%d#1] name("mm") device("/device:CPU:0") {T = f32} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %l:2 = _Arg name("l") {T = i32, index = 2 : i64} : () -> tensor<2xi32>
    %s:3 = SparseSoftmaxCrossEntropyWithLogits(%x#0, %l#0) name("xent") {T = f32, Tlabels = i32} : (tensor<2x2xf32>, tensor<2xi32>) -> (tensor<2xf32>, tensor<2x2xf32>)
    %v:2 = VariableV2 name("v") {dtype = f32, shape = #tfg.shape<2x2>} : () -> tensor<2x2x!tfg.ref<f32>>
    %a:2 = Assign(%v#0, %x#0) name("assign") {T = f32} : (tensor<2x2x!tfg.ref<f32>>, tensor<2x2xf32>) -> tensor<2x2x!tfg.ref<f32>>
    %t:2 = Neg(%x#0) name("target") {T = f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %wait = NoOp [%m#1, %s#2, %a#1] name("wait")
  }
}

// -----

// Rule 6 leaves a cond's pivot alone: an Identity of a Switch output that
// only a control edge waits for (TensorFlow's gradient of a cond makes
// them, after its zeros' shape folds) is alive with that output only; a
// NoOp after the Switch would be alive with either branch.
// CHECK-LABEL: tfg.graph
// CHECK: %[[SW:.*]]:3 = Switch
// CHECK: %[[PIVOT:.*]]:2 = Identity(%[[SW]]#1) name("pivot")
// CHECK: Const [%[[PIVOT]]#1] name("zero")
module attributes {tfc.fetches = ["zero:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2xf32>
    %p:2 = _Arg name("p") {T = i1, index = 1 : i64} : () -> tensor<i1>
    %sw:3 = Switch(%x#0, %p#0) name("switch") {T = f32} : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
    %pv:2 = Identity(%sw#1) name("pivot") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %z:2 = Const [%pv#1] name("zero") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %r = _Retval(%z#0) name("zero/_retval_0") {T = f32, index = 0 : i64} : (tensor<f32>) -> ()
  }
}
