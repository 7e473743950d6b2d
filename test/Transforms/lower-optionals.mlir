// Tests tfc-lower-optionals: the Optionals through which a TF2 cond hands
// its intermediates to its gradient become their values once the Ifs are
// conditionals: OptionalFromValue and OptionalGetValue Identities, an
// OptionalNone a zero Const of the type of what it is merged with, and the
// Switch and Merge that carry an Optional take that type.
// RUN: tfc-opt %s -split-input-file -tfc-lower-optionals -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: %[[T:.*]]:2 = Identity(%{{.*}}) name("then/optional") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[E:.*]]:2 = Const [%{{.*}}] name("else/none") {dtype = f32, value = dense<0.000000e+00> : tensor<2x3xf32>}
// CHECK: %[[M:.*]]:3 = Merge(%[[E]]#0, %[[T]]#0) name("merge") {N = 2 : i64, T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<*xf32>, tensor<i32>)
// CHECK: %[[S:.*]]:3 = Switch(%[[M]]#0, %{{.*}}) name("grad/switch") {T = f32}
// CHECK: Identity(%[[S]]#1) name("grad/get") {T = f32} : (tensor<*xf32>) -> tensor<2x3xf32>
// CHECK-NOT: Optional
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %pred:2 = Placeholder name("pred") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<i1>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %sx:3 = Switch(%x#0, %pred#0) name("switch_x") {T = f32} : (tensor<2x3xf32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %tanh:2 = Tanh(%sx#1) name("then/tanh") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %wrap:2 = OptionalFromValue(%tanh#0) name("then/optional") {Toutput_types = [f32]} : (tensor<2x3xf32>) -> tensor<!tfg.variant>
  %pivot:2 = Identity(%sx#0) name("else/pivot") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %none:2 = OptionalNone [%pivot#1] name("else/none") : () -> tensor<!tfg.variant>
  %merge:3 = Merge(%none#0, %wrap#0) name("merge") {N = 2, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %gs:3 = Switch(%merge#0, %pred#0) name("grad/switch") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %get:2 = OptionalGetValue(%gs#1) name("grad/get") {output_shapes = [#tfg.shape<2x3>], output_types = [f32]} : (tensor<!tfg.variant>) -> tensor<2x3xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'none' (OptionalNone): the type of the value it stands for is not known (no static OptionalFromValue is merged with it)}}
  %none:2 = OptionalNone name("none") : () -> tensor<!tfg.variant>
  %id:2 = Identity(%none#0) name("id") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %wrap:2 = OptionalFromValue(%x#0) name("wrap") {Toutput_types = [f32]} : (tensor<2xf32>) -> tensor<!tfg.variant>
  // expected-error @+1 {{node 'has' (OptionalHasValue): is not supported (tfc lowers the Optionals of cond gradients to their values)}}
  %has:2 = OptionalHasValue(%wrap#0) name("has") : (tensor<!tfg.variant>) -> tensor<i1>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %y:2 = Placeholder name("y") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  // expected-error @+1 {{node 'wrap' (OptionalFromValue): Optionals of several components are not supported}}
  %wrap:2 = OptionalFromValue(%x#0, %y#0) name("wrap") {Toutput_types = [f32, i32]} : (tensor<2xf32>, tensor<i32>) -> tensor<!tfg.variant>
}
