// Tests tfc-inline: bodies replace calls with their names prefixed, control
// semantics are kept, devices are inherited, nested calls are inlined,
// unreferenced functions go, and bad calls are errors.
// RUN: tfc-opt %s -split-input-file -tfc-inline -verify-diagnostics | FileCheck %s

// A call without control edges: arguments map straight to the inputs.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = Placeholder name("x")
// CHECK-DAG: %[[TWO:.*]]:2 = Const name("call/two") device("/cpu:0")
// CHECK-DAG: %[[MUL:.*]]:2 = Mul(%[[X]]#0, %[[TWO]]#0) name("call/mul") device("/cpu:0")
// CHECK-DAG: Neg(%[[MUL]]#0) name("user")
// CHECK-NOT: PartitionedCall
// CHECK-NOT: tfg.func
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %c:2 = PartitionedCall(%x#0) name("call") device("/cpu:0") {Tin = [f32], Tout = [f32], f = #tfg.func<@times_two, {}>} : (tensor<*xf32>) -> tensor<*xf32>
  %u:2 = Neg(%c#0) name("user") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @times_two(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %m:2 = Mul(%a, %two#0) name("mul") {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return(%m#0) : tensor<*xf32>
}

// -----

// Control inputs gate the body through input_control_node and an Identity
// per argument; users of the call's token wait for output_control_node,
// which depends on the control outputs and the result producers. A nested
// call is inlined too.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[X:.*]]:2 = Placeholder name("x")
// CHECK-DAG: %[[GATE:.*]] = NoOp name("gate")
// CHECK-DAG: %[[IN:.*]] = NoOp [%[[GATE]]] name("call/input_control_node")
// CHECK-DAG: %[[A:.*]]:2 = Identity(%[[X]]#0) [%[[IN]]] name("call/a")
// CHECK-DAG: %[[V:.*]]:2 = VarHandleOp name("call/v")
// CHECK-DAG: %[[ASSIGN:.*]] = AssignVariableOp(%[[V]]#0, %[[A]]#0) name("call/assign")
// CHECK-DAG: %[[NEG:.*]]:2 = Neg(%[[A]]#0) name("call/inner/neg")
// CHECK-DAG: %[[INNER:.*]] = NoOp [%[[NEG]]#1] name("call/inner/output_control_node")
// CHECK-DAG: %[[OUT:.*]] = NoOp [%[[ASSIGN]], %[[INNER]], %[[IN]]] name("call/output_control_node")
// CHECK-DAG: NoOp [%[[OUT]]] name("after")
// CHECK-DAG: Exp(%[[NEG]]#0) name("use")
// CHECK-NOT: tfg.func
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %gate = NoOp name("gate")
  %c:2 = StatefulPartitionedCall(%x#0) [%gate] name("call") {Tin = [f32], Tout = [f32], f = #tfg.func<@outer, {}>} : (tensor<*xf32>) -> tensor<*xf32>
  %after = NoOp [%c#1] name("after")
  %use:2 = Exp(%c#0) name("use") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @outer(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
  %assign = AssignVariableOp(%v#0, %a) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
  %i:2 = PartitionedCall(%a) name("inner") {Tin = [f32], Tout = [f32], f = #tfg.func<@negate, {}>} : (tensor<*xf32>) -> tensor<*xf32>
  return(%i#0) [%assign] {control_names = ["assign"]} : tensor<*xf32>
}
tfg.func @negate(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}

// -----

// A call named as an init node (here a restore) leaves a NoOp of its name
// that waits for the inlined body.
// CHECK-LABEL: module attributes {tfc.init = ["restore"]}
// CHECK-DAG: %[[A:.*]] = AssignVariableOp({{.*}}) name("restore/assign")
// CHECK-DAG: NoOp [%[[A]]] name("restore")
module attributes {tfc.init = ["restore"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
    %r = StatefulPartitionedCall(%x#0) name("restore") {Tin = [f32], Tout = [], f = #tfg.func<@assign_fn, {}>} : (tensor<*xf32>) -> ()
  }
  tfg.func @assign_fn(%a: tensor<*xf32> {tfg.name = "a"}) -> () {
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %assign = AssignVariableOp(%v#0, %a) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
    return [%assign] {control_names = ["assign"]}
  }
}

// -----

// A While becomes a TF1 frame named like it, as TensorFlow lowers it:
// per loop variable an Enter (with the While's parallel_iterations) and
// a Merge with the NextIteration, the inlined condition feeding LoopCond,
// a Switch, an Identity for the inlined body, and an Exit for the While's
// users. The functions go.
// CHECK: %[[ENTER:.*]]:2 = Enter(%{{.*}}) name("w/Enter") {T = f32, frame_name = "w", is_constant = false, parallel_iterations = 4 : i64}
// CHECK: %[[MERGE:.*]]:3 = Merge(%[[ENTER]]#0, %[[NEXT:.*]]#0) name("w/Merge")
// CHECK: %[[LESS:.*]]:2 = Less(%[[MERGE]]#0, %{{.*}}) name("w/cond/less")
// CHECK: %[[COND:.*]]:2 = LoopCond(%[[LESS]]#0) name("w/LoopCond")
// CHECK: %[[SWITCH:.*]]:3 = Switch(%[[MERGE]]#0, %[[COND]]#0) name("w/Switch")
// CHECK: %[[ID:.*]]:2 = Identity(%[[SWITCH]]#1) name("w/Identity")
// CHECK: %[[NEG:.*]]:2 = Neg(%[[ID]]#0) name("w/body/neg")
// CHECK: %[[NEXT]]:2 = NextIteration(%[[NEG]]#0) name("w/NextIteration")
// CHECK: %[[EXIT:.*]]:2 = Exit(%[[SWITCH]]#0) name("w/Exit")
// CHECK: Identity(%[[EXIT]]#0) name("y")
// CHECK-NOT: tfg.func
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %w:2 = While(%x#0) name("w") {T = [f32], body = #tfg.func<@body, {}>, cond = #tfg.func<@cond, {}>, output_shapes = [], parallel_iterations = 4} : (tensor<*xf32>) -> tensor<*xf32>
  %y:2 = Identity(%w#0) name("y") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @cond(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xi1> {tfg.name = "out"}) {
  %z:2 = Const name("z") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %l:2 = Less(%a, %z#0) name("less") {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xi1>
  return(%l#0) : tensor<*xi1>
}
tfg.func @body(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{call 'c': no function 'missing' in the library}}
  %c = PartitionedCall name("c") {Tin = [], Tout = [], f = #tfg.func<@missing, {}>} : () -> ()
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // expected-error @+1 {{call 'c' does not match the signature of 'one_arg'}}
  %c = PartitionedCall(%x#0, %x#0) name("c") {Tin = [f32, f32], Tout = [], f = #tfg.func<@one_arg, {}>} : (tensor<*xf32>, tensor<*xf32>) -> ()
}
tfg.func @one_arg(%a: tensor<*xf32> {tfg.name = "a"}) -> () {
  return
}

// -----

// An If becomes a TF1 conditional: every input switched on the predicate,
// each branch inlined on its side, a Merge per result; a branch constant
// waits for its side's pivot, so that it is dead when the branch is not.
// CHECK: %[[PS:.*]]:3 = Switch(%[[P:.*]]#0, %[[P]]#0) name("i/Switch")
// CHECK: %[[PF:.*]]:2 = Identity(%[[PS]]#0) name("i/pivot_f")
// CHECK: %[[PT:.*]]:2 = Identity(%[[PS]]#1) name("i/pivot_t")
// CHECK: %[[S:.*]]:3 = Switch(%[[X:.*]]#0, %[[P]]#0) name("i/Switch_1")
// CHECK: %[[ONE:.*]]:2 = Const [%[[PF]]#1] name("i/else/one")
// CHECK: %[[E:.*]]:2 = AddV2(%[[S]]#0, %[[ONE]]#0) name("i/else/add")
// CHECK: %[[T:.*]]:2 = Neg(%[[S]]#1) name("i/then/neg")
// CHECK: Merge(%[[E]]#0, %[[T]]#0) name("i/Merge")
// CHECK-NOT: tfg.func
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %p:2 = Placeholder name("p") {dtype = i1} : () -> tensor<i1>
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %i:2 = If(%p#0, %x#0) name("i") {Tcond = i1, Tin = [f32], Tout = [f32], then_branch = #tfg.func<@then, {}>, else_branch = #tfg.func<@else, {}>, output_shapes = []} : (tensor<i1>, tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @then(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}
tfg.func @else(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %s:2 = AddV2(%a, %one#0) name("add") {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return(%s#0) : tensor<*xf32>
}

// -----

// A Case becomes a chain of conditionals: index == 0 takes branch 0, else
// index == 1 takes branch 1, else the last branch (any other index).
// CHECK: %[[K0:.*]]:2 = Const name("c/branch0/index") {dtype = i32, value = dense<0> : tensor<i32>}
// CHECK: %[[EQ0:.*]]:2 = Equal(%[[IDX:.*]]#0, %[[K0]]#0) name("c/branch0/Equal")
// CHECK: %[[S0:.*]]:3 = Switch(%[[IDX]]#0, %[[EQ0]]#0) name("c/branch0/Switch_1")
// CHECK: %[[K1:.*]]:2 = Const [%{{.*}}] name("c/branch1/index") {dtype = i32, value = dense<1> : tensor<i32>}
// CHECK: Equal(%[[S0]]#0, %[[K1]]#0) name("c/branch1/Equal")
// CHECK: Exp(%{{.*}}) name("c/branch2/exp")
// CHECK: Abs(%{{.*}}) name("c/branch1/abs")
// CHECK: Merge({{.*}}) name("c/branch1/Merge")
// CHECK: Neg(%{{.*}}) name("c/branch0/neg")
// CHECK: Merge({{.*}}) name("c/branch0/Merge")
// CHECK-NOT: tfg.func
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %i:2 = Placeholder name("i") {dtype = i32} : () -> tensor<i32>
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %c:2 = Case(%i#0, %x#0) name("c") {Tin = [f32], Tout = [f32], branches = [#tfg.func<@b0, {}>, #tfg.func<@b1, {}>, #tfg.func<@b2, {}>], output_shapes = []} : (tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @b0(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}
tfg.func @b1(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Abs(%a) name("abs") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}
tfg.func @b2(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Exp(%a) name("exp") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}

// -----

// A While whose body does not return one value per loop variable.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'w': its body returns 2 values for 1 loop variables}}
  %w:2 = While(%x#0) name("w") {T = [f32], body = #tfg.func<@body2, {}>, cond = #tfg.func<@cond1, {}>, output_shapes = [], parallel_iterations = 10} : (tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @cond1(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xi1> {tfg.name = "out"}) {
  %z:2 = Const name("z") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %l:2 = Less(%a, %z#0) name("less") {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xi1>
  return(%l#0) : tensor<*xi1>
}
tfg.func @body2(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}, tensor<*xf32> {tfg.name = "out2"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0, %n#0) : tensor<*xf32>, tensor<*xf32>
}

// -----

// An If's predicate must be a bool.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %p:2 = Placeholder name("p") {dtype = i32} : () -> tensor<i32>
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'i': its predicate is not a bool}}
  %i:2 = If(%p#0, %x#0) name("i") {Tcond = i32, Tin = [f32], Tout = [f32], then_branch = #tfg.func<@same, {}>, else_branch = #tfg.func<@same, {}>, output_shapes = []} : (tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @same(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  return(%a) : tensor<*xf32>
}

// -----

// A Case's branch that is not in the library.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %i:2 = Placeholder name("i") {dtype = i32} : () -> tensor<i32>
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'c': branch 1 is not a function of 1 arguments in the library}}
  %c:2 = Case(%i#0, %x#0) name("c") {Tin = [f32], Tout = [f32], branches = [#tfg.func<@same, {}>, #tfg.func<@missing, {}>], output_shapes = []} : (tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @same(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  return(%a) : tensor<*xf32>
}

// -----

// A While's condition returns one value.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // expected-error @+1 {{node 'w': its condition returns 2 values, not one}}
  %w:2 = While(%x#0) name("w") {T = [f32], body = #tfg.func<@body1, {}>, cond = #tfg.func<@cond2, {}>, output_shapes = [], parallel_iterations = 10} : (tensor<*xf32>) -> tensor<*xf32>
}
tfg.func @cond2(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xi1> {tfg.name = "out"}, tensor<*xi1> {tfg.name = "out2"}) {
  %z:2 = Const name("z") {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %l:2 = Less(%a, %z#0) name("less") {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xi1>
  return(%l#0, %l#0) : tensor<*xi1>, tensor<*xi1>
}
tfg.func @body1(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "out"}) {
  %n:2 = Neg(%a) name("neg") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return(%n#0) : tensor<*xf32>
}
