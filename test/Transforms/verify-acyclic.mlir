// Tests that cycles are rejected unless they pass through NextIteration,
// including cycles made of control edges and cycles inside functions.
// RUN: tfc-opt %s -split-input-file -tfc-verify-acyclic -verify-diagnostics | FileCheck %s

// A TF1 loop: Enter -> Merge -> Switch -> Identity -> NextIteration -> Merge.
// CHECK-LABEL: tfg.graph
// CHECK: NextIteration
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  %p:2 = Placeholder name("p") {dtype = i1} : () -> tensor<*xi1>
  %enter:2 = Enter(%x#0) name("enter") {T = f32, frame_name = "loop"} : (tensor<*xf32>) -> tensor<*xf32>
  %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>)
  %cond:2 = LoopCond(%p#0) name("cond") : (tensor<*xi1>) -> tensor<*xi1>
  %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = f32} : (tensor<*xf32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>)
  %body:2 = Identity(%switch#1) name("body") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %next:2 = NextIteration(%body#0) name("next") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %exit:2 = Exit(%switch#0) name("exit") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{cycle that does not pass through NextIteration: a -> b -> c -> a}}
  %a:2 = Identity(%c#0) name("a") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %b:2 = Identity(%a#0) name("b") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %c:2 = Identity(%b#0) name("c") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
}

// -----

// Control edges form cycles too.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{cycle that does not pass through NextIteration: a -> b -> a}}
  %a = NoOp [%b] name("a")
  %b = NoOp [%a] name("b")
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
}
tfg.func @f() -> () {
  // expected-error @+1 {{cycle that does not pass through NextIteration: self -> self}}
  %self = NoOp [%self] name("self")
  return
}
