// Tests tfc-order-variable-accesses: a read's users run before a write of
// the same variable that does not depend on them; a write the read depends
// on needs no edge; a user that depends on the write makes the read a
// snapshot, and then only the read precedes the write.
// RUN: tfc-opt %s -split-input-file -tfc-order-variable-accesses | FileCheck %s

// The matmul reads w through its Identity; the update does not depend on
// it: the matmul gets a control edge to the update (and with it the read;
// the _Retval reads the matmul's own buffer, not w's).
// CHECK-LABEL: tfg.graph
// CHECK: %[[MM:.*]]:2 = MatMul(
// CHECK: ApplyGradientDescent({{.*}}) [%[[MM]]#1] name("update")
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %w:2 = VariableV2 name("w") {container = "", dtype = f32, shape = #tfg.shape<2x2>, shared_name = ""} : () -> tensor<2x2x!tfg.ref<f32>>
    %read:2 = Identity(%w#0) name("w/read") {T = f32} : (tensor<2x2x!tfg.ref<f32>>) -> tensor<2x2xf32>
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x2xf32>
    %mm:2 = MatMul(%x#0, %read#0) name("mm") {T = f32} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %ret = _Retval(%mm#0) name("ret") {T = f32, index = 0} : (tensor<2x2xf32>) -> ()
    %lr:2 = Const name("lr") {dtype = f32, value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
    %update:2 = ApplyGradientDescent(%w#0, %lr#0, %x#0) name("update") {T = f32} : (tensor<2x2x!tfg.ref<f32>>, tensor<f32>, tensor<2x2xf32>) -> tensor<2x2x!tfg.ref<f32>>
  }
}

// -----

// Resource variables: the read after the assignment depends on it and
// sees the new value; the fetch of the read before it gets an edge.
// CHECK-LABEL: tfg.graph
// CHECK: %[[EARLY:.*]]:2 = ReadVariableOp({{.*}}) name("early")
// CHECK: AssignVariableOp({{.*}}) [%[[RET:[0-9]+]]] name("assign")
// CHECK: ReadVariableOp({{.*}}) [%{{.*}}] name("late")
// CHECK: %[[RET]] = _Retval(%[[EARLY]]#0) name("r0")
// CHECK-NOT: tfc.snapshot
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = VarHandleOp name("v") {container = "", dtype = f32, shape = #tfg.shape<2>, shared_name = "v"} : () -> tensor<!tfg.resource>
    %early:2 = ReadVariableOp(%v#0) name("early") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %assign = AssignVariableOp(%v#0, %one#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
    %late:2 = ReadVariableOp(%v#0) [%assign] name("late") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %r0 = _Retval(%early#0) name("r0") {T = f32, index = 0} : (tensor<2xf32>) -> ()
    %r1 = _Retval(%late#0) name("r1") {T = f32, index = 1} : (tensor<2xf32>) -> ()
  }
}

// -----

// A user of the read that also depends on the write cannot run before it:
// the read becomes a snapshot (a copy) and precedes the write alone.
// CHECK-LABEL: tfg.graph
// CHECK: %[[READ:.*]]:2 = ReadVariableOp({{.*}}) name("read") {dtype = f32, tfc.snapshot}
// CHECK: AssignVariableOp({{.*}}) [%[[READ]]#1] name("assign")
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = VarHandleOp name("v") {container = "", dtype = f32, shape = #tfg.shape<2>, shared_name = "v"} : () -> tensor<!tfg.resource>
    %read:2 = ReadVariableOp(%v#0) name("read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %assign = AssignVariableOp(%v#0, %one#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
    %sum:2 = AddV2(%read#0, %one#0) [%assign] name("sum") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %r = _Retval(%sum#0) name("r") {T = f32, index = 0} : (tensor<2xf32>) -> ()
  }
}

// -----

// A read nothing uses orders nothing, and an Enter that carries the
// handle into a loop neither reads nor writes: the assignment gets no
// control edge from either (one from inside the loop would cross its
// boundary).
// CHECK-LABEL: tfg.graph
// CHECK: AssignVariableOp(%{{[0-9]+}}#0, %{{[0-9]+}}#0) name("assign")
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %v:2 = VarHandleOp name("v") {container = "", dtype = f32, shape = #tfg.shape<2>, shared_name = "v"} : () -> tensor<!tfg.resource>
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2xf32>
    %enter:2 = Enter(%v#0) name("loop/enter_v") {T = !tfg.resource, frame_name = "loop", is_constant = true, parallel_iterations = 10 : i64} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
    %unused:2 = ReadVariableOp(%enter#0) name("loop/unused") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %assign = AssignVariableOp(%v#0, %x#0) name("assign") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
  }
}
