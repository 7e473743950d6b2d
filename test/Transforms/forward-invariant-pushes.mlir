// RUN: tfc-opt %s -split-input-file -tfc-forward-invariant-pushes | FileCheck %s

// A forward loop "f" pushes the value of variable v on every iteration;
// the gradient loop "g" pops it back. The pop's element becomes a read of
// v in "g" (through an Enter of v's handle), since v's only write comes
// after "g".
// CHECK-LABEL: tfg.graph
// CHECK: %[[V:.*]]:2 = VarHandleOp name("v")
// CHECK: %[[ENTER:.*]]:2 = Enter(%[[V]]#0) name("g/pop/variable/Enter") {T = !tfg.resource, frame_name = "g", is_constant = true, parallel_iterations = 10 : i64}
// CHECK: %[[READ:.*]]:2 = ReadVariableOp(%[[ENTER]]#0) name("g/pop/variable/ReadVariableOp") {dtype = f32}
// CHECK: %[[POP:.*]]:3 = TensorListPopBack
// CHECK: AddV2(%{{.*}}, %[[READ]]#0) name("g/sum")
module attributes {tfc.feeds = ["p:0"], tfc.fetches = ["g/exit_acc:0"], tfc.targets = ["update"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<2>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %max:2 = Const name("max") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %empty:2 = EmptyTensorList(%shape#0, %max#0) name("empty") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
    %fe_list:2 = Enter(%empty#0) name("f/enter_list") {T = !tfg.variant, frame_name = "f", is_constant = false, parallel_iterations = 10 : i64} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %fe_v:2 = Enter(%v#0) name("f/enter_v") {T = !tfg.resource, frame_name = "f", is_constant = true, parallel_iterations = 10 : i64} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
    %fe_p:2 = Enter(%p#0) name("f/enter_p") {T = i1, frame_name = "f", is_constant = true, parallel_iterations = 10 : i64} : (tensor<i1>) -> tensor<i1>
    %fm_list:3 = Merge(%fe_list#0, %fn_list#0) name("f/merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
    %fcond:2 = LoopCond(%fe_p#0) name("f/cond") : (tensor<i1>) -> tensor<i1>
    %fs_list:3 = Switch(%fm_list#0, %fcond#0) name("f/switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
    %fi_list:2 = Identity(%fs_list#1) name("f/identity_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %read:2 = ReadVariableOp(%fe_v#0) name("f/read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %push:2 = TensorListPushBack(%fi_list#0, %read#0) name("f/push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
    %fn_list:2 = NextIteration(%push#0) name("f/next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %fx_list:2 = Exit(%fs_list#0) name("f/exit_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %ge_list:2 = Enter(%fx_list#0) name("g/enter_list") {T = !tfg.variant, frame_name = "g", is_constant = false, parallel_iterations = 10 : i64} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %ge_acc:2 = Enter(%zero#0) name("g/enter_acc") {T = f32, frame_name = "g", is_constant = false, parallel_iterations = 10 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    %ge_p:2 = Enter(%p#0) name("g/enter_p") {T = i1, frame_name = "g", is_constant = true, parallel_iterations = 10 : i64} : (tensor<i1>) -> tensor<i1>
    %ge_shape:2 = Enter(%shape#0) name("g/enter_shape") {T = i32, frame_name = "g", is_constant = true, parallel_iterations = 10 : i64} : (tensor<1xi32>) -> tensor<1xi32>
    %gm_list:3 = Merge(%ge_list#0, %gn_list#0) name("g/merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
    %gm_acc:3 = Merge(%ge_acc#0, %gn_acc#0) name("g/merge_acc") {N = 2 : i64, T = f32} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
    %gcond:2 = LoopCond(%ge_p#0) name("g/cond") : (tensor<i1>) -> tensor<i1>
    %gs_list:3 = Switch(%gm_list#0, %gcond#0) name("g/switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
    %gs_acc:3 = Switch(%gm_acc#0, %gcond#0) name("g/switch_acc") {T = f32} : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
    %gi_list:2 = Identity(%gs_list#1) name("g/identity_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %pop:3 = TensorListPopBack(%gi_list#0, %ge_shape#0) name("g/pop") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<1xi32>) -> (tensor<!tfg.variant>, tensor<2xf32>)
    %sum:2 = AddV2(%gs_acc#1, %pop#1) name("g/sum") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %gn_list:2 = NextIteration(%pop#0) name("g/next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %gn_acc:2 = NextIteration(%sum#0) name("g/next_acc") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %gx_acc:2 = Exit(%gs_acc#0) name("g/exit_acc") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %update = AssignSubVariableOp(%v#0, %gx_acc#0) name("update") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
    %r = _Retval(%gx_acc#0) name("g/exit_acc/_retval_0") {T = f32, index = 0} : (tensor<2xf32>) -> ()
  }
}

// -----

// The same, with a write of v between the loops: the element popped is
// the value before it, which a read in "g" would not see. Unchanged.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: variable/ReadVariableOp
// CHECK: %[[POP:.*]]:3 = TensorListPopBack
// CHECK: AddV2(%{{.*}}, %[[POP]]#1) name("g/sum")
module attributes {tfc.feeds = ["p:0"], tfc.fetches = ["g/exit_acc:0"], tfc.targets = ["update", "early"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<2>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %max:2 = Const name("max") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = f32, value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %empty:2 = EmptyTensorList(%shape#0, %max#0) name("empty") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
    %fe_list:2 = Enter(%empty#0) name("f/enter_list") {T = !tfg.variant, frame_name = "f", is_constant = false, parallel_iterations = 10 : i64} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %fe_v:2 = Enter(%v#0) name("f/enter_v") {T = !tfg.resource, frame_name = "f", is_constant = true, parallel_iterations = 10 : i64} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
    %fe_p:2 = Enter(%p#0) name("f/enter_p") {T = i1, frame_name = "f", is_constant = true, parallel_iterations = 10 : i64} : (tensor<i1>) -> tensor<i1>
    %fm_list:3 = Merge(%fe_list#0, %fn_list#0) name("f/merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
    %fcond:2 = LoopCond(%fe_p#0) name("f/cond") : (tensor<i1>) -> tensor<i1>
    %fs_list:3 = Switch(%fm_list#0, %fcond#0) name("f/switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
    %fi_list:2 = Identity(%fs_list#1) name("f/identity_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %read:2 = ReadVariableOp(%fe_v#0) name("f/read") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<2xf32>
    %push:2 = TensorListPushBack(%fi_list#0, %read#0) name("f/push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
    %fn_list:2 = NextIteration(%push#0) name("f/next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %fx_list:2 = Exit(%fs_list#0) name("f/exit_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %ge_list:2 = Enter(%fx_list#0) name("g/enter_list") {T = !tfg.variant, frame_name = "g", is_constant = false, parallel_iterations = 10 : i64} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %ge_acc:2 = Enter(%zero#0) name("g/enter_acc") {T = f32, frame_name = "g", is_constant = false, parallel_iterations = 10 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    %ge_p:2 = Enter(%p#0) name("g/enter_p") {T = i1, frame_name = "g", is_constant = true, parallel_iterations = 10 : i64} : (tensor<i1>) -> tensor<i1>
    %ge_shape:2 = Enter(%shape#0) name("g/enter_shape") {T = i32, frame_name = "g", is_constant = true, parallel_iterations = 10 : i64} : (tensor<1xi32>) -> tensor<1xi32>
    %gm_list:3 = Merge(%ge_list#0, %gn_list#0) name("g/merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
    %gm_acc:3 = Merge(%ge_acc#0, %gn_acc#0) name("g/merge_acc") {N = 2 : i64, T = f32} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
    %gcond:2 = LoopCond(%ge_p#0) name("g/cond") : (tensor<i1>) -> tensor<i1>
    %gs_list:3 = Switch(%gm_list#0, %gcond#0) name("g/switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
    %gs_acc:3 = Switch(%gm_acc#0, %gcond#0) name("g/switch_acc") {T = f32} : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>)
    %gi_list:2 = Identity(%gs_list#1) name("g/identity_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %pop:3 = TensorListPopBack(%gi_list#0, %ge_shape#0) name("g/pop") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<1xi32>) -> (tensor<!tfg.variant>, tensor<2xf32>)
    %sum:2 = AddV2(%gs_acc#1, %pop#1) name("g/sum") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %gn_list:2 = NextIteration(%pop#0) name("g/next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
    %gn_acc:2 = NextIteration(%sum#0) name("g/next_acc") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %gx_acc:2 = Exit(%gs_acc#0) name("g/exit_acc") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %update = AssignSubVariableOp(%v#0, %gx_acc#0) name("update") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
    %early = AssignVariableOp(%v#0, %zero#0) [%fx_list#1] name("early") {dtype = f32} : (tensor<!tfg.resource>, tensor<2xf32>) -> ()
    %r = _Retval(%gx_acc#0) name("g/exit_acc/_retval_0") {T = f32, index = 0} : (tensor<2xf32>) -> ()
  }
}
