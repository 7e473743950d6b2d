// Tests convert-tfg-to-memref on the stacks of TF1 loop gradients: each
// StackV2 gets a number (tfc.stack_slot) and empties its stack; a push
// copies its element's bytes onto the stack it traces to through Enter and
// Switch, and outputs the element (no copy); a pop copies the last element
// into its buffer. A push in a branch runs only when the branch is alive.
// A handle that does not come from a StackV2 is an error naming the node.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_stack_clear(%arg0, %c0_i64)
// CHECK: call @tfc_stack_clear(%arg0, %c1_i64)
// CHECK: scf.if
// CHECK: call @tfc_stack_push(%arg0, %{{.*}}, %c0_i64{{.*}}, %c24_i64{{.*}})
// CHECK: }
// CHECK: call @tfc_stack_push(%arg0, %{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}})
// CHECK: call @tfc_stack_pop(%arg0, %{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c24_i64{{.*}})
// CHECK: memref.copy %{{.*}}, %arg5 : memref<2x3xf32> to memref<2x3xf32>
module attributes {tfc.feeds = ["x:0", "p:0"], tfc.fetches = ["pop:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %p:2 = _Arg name("p") {T = i1, index = 1} : () -> tensor<i1>
    %max:2 = Const name("max") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
    %acc:2 = StackV2(%max#0) name("acc") {elem_type = f32, stack_name = ""} : (tensor<i32>) -> tensor<!tfg.resource>
    %preds:2 = StackV2(%max#0) name("preds") {elem_type = i1, stack_name = ""} : (tensor<i32>) -> tensor<!tfg.resource>
    %s:3 = Switch(%acc#0, %p#0) name("branch") {T = !tfg.resource} : (tensor<!tfg.resource>, tensor<i1>) -> (tensor<!tfg.resource>, tensor<!tfg.resource>)
    %push:2 = StackPushV2(%s#1, %x#0) name("push") {T = f32, swap_memory = false} : (tensor<!tfg.resource>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %pushp:2 = StackPushV2(%preds#0, %p#0) name("push_pred") {T = i1, swap_memory = false} : (tensor<!tfg.resource>, tensor<i1>) -> tensor<i1>
    %pop:2 = StackPopV2(%acc#0) [%pushp#1] name("pop") {elem_type = f32, tfc.offsets = array<i64: 0>} : (tensor<!tfg.resource>) -> tensor<2x3xf32>
    %r = _Retval(%pop#0) name("pop/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["h:0"], tfc.fetches = ["pop:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %h:2 = _Arg name("h") {T = !tfg.resource, index = 0} : () -> tensor<!tfg.resource>
    // expected-error @+1 {{node 'pop' (StackPopV2): cannot trace its handle to the StackV2 that made it}}
    %pop:2 = StackPopV2(%h#0) name("pop") {elem_type = f32, tfc.offsets = array<i64: 0>} : (tensor<!tfg.resource>) -> tensor<2x3xf32>
    %r = _Retval(%pop#0) name("pop/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
  }
}
