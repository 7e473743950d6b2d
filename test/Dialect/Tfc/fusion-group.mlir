// Tests the verifier of tfc.fusion_group: a group is laid out as a node
// (data inputs then control inputs; the root's data results then a control
// token), its region takes one block argument per data input and yields
// its root's results, and the graph checks its members as nodes.
// RUN: tfc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// A well-formed group prints as it parses, its members in tfg's syntax.
// CHECK-LABEL: tfg.graph
// CHECK: %[[G:[0-9]+]]:2 = tfc.fusion_group(%{{[0-9]+}}#0, %{{[0-9]+}}#0, %{{[0-9]+}}#1) : (tensor<2xf32>, tensor<2xf32>, !tfg.control) -> (tensor<2xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[ADD:[0-9]+]]:2 = AddV2(%[[A]], %[[B]]) name("add") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[RELU:[0-9]+]]:2 = Relu(%[[ADD]]#0) name("relu") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: tfc.yield %[[RELU]]#0 : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: Neg(%[[G]]#0) [%[[G]]#1] name("after")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %y:2 = Placeholder name("y") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %g:2 = tfc.fusion_group(%x#0, %y#0, %x#1) : (tensor<2xf32>, tensor<2xf32>, !tfg.control) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %add:2 = AddV2(%a, %b) name("add") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %relu:2 = Relu(%add#0) name("relu") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %relu#0 : tensor<2xf32>
  }
  %n:2 = Neg(%g#0) [%g#1] name("after") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{has 1 data inputs but 2 block arguments}}
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{block argument #0 has type 'tensor<3xf32>' but its input has type 'tensor<2xf32>'}}
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<3xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
    tfc.yield %n#0 : tensor<3xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{has a data input after its control inputs}}
  %g:2 = tfc.fusion_group(%x#1, %x#0) : (!tfg.control, tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{yields 1 values for 2 data results}}
  %g:3 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{yields no result of a member (its root)}}
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %a : tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{yields results of more than one member}}
  %g:3 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %m:2 = Abs(%a) name("m") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0, %m#0 : tensor<2xf32>, tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{has a control token of type 'tensor<3xf32>', its root's is '!tfg.control'}}
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{has a control token before its last result}}
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

// Members take no control inputs of their own: they are the group's.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    %n:2 = Neg(%a) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    // expected-error @+1 {{node 'r' in a fusion group has control inputs of its own}}
    %r:2 = Relu(%n#0) [%n#1] name("r") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %r#0 : tensor<2xf32>
  }
}

// -----

// Members are nodes of the graph: their names are unique in it.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{duplicate node name 'x'}}
    %n:2 = Neg(%a) name("x") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

// Members are checked against the op registry like any node.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{node 'n' (Neg): expects 1 data inputs, has 2}}
    %n:2 = Neg(%a, %a) name("n") {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}

// -----

// Only nodes are members.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %g:2 = tfc.fusion_group(%x#0) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%a: tensor<2xf32>):
    // expected-error @+1 {{only TensorFlow node operations may appear in a fusion group, found 'tfc.fusion_group'}}
    %inner:2 = tfc.fusion_group(%a) : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
    ^bb0(%b: tensor<2xf32>):
      %n:2 = Neg(%b) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
      tfc.yield %n#0 : tensor<2xf32>
    }
    tfc.yield %inner#0 : tensor<2xf32>
  }
}
