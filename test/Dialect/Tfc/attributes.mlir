// Tests that the tfc dialect verifies the attributes passes hand each
// other: known names on the right operations with values of their kinds
// pass, anything else is an error naming the attribute.
// RUN: tfc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module attributes {tfc.devices = ["/cpu:0"], tfc.feeds = ["x"], tfc.soft_placement, tfc.state_bytes = 8 : i64}
// CHECK: tfc.arena_bytes = 64
// CHECK: tfc.offsets = array<i64: 0>
// CHECK: tfc.fusion_group(%{{.*}}) {tfc.offsets = array<i64: 0>}
module attributes {tfc.feeds = ["x"], tfc.devices = ["/cpu:0"], tfc.soft_placement, tfc.state_bytes = 8 : i64} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64 : i64, tfc.device = "/cpu:0"} {
    %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.offsets = array<i64: -1>} : () -> tensor<2xf32>
    %r:2 = Relu(%c#0) name("r") {T = f32, tfc.frame = "loop", tfc.offsets = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
    %g:2 = tfc.fusion_group(%r#0) {tfc.offsets = array<i64: 0>} : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
    ^bb0(%in: tensor<2xf32>):
      %n:2 = Neg(%in) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
      tfc.yield %n#0 : tensor<2xf32>
    }
  }
}

// -----

// Tests that a name the dialect does not declare (here a typo) is refused.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{unknown tfc attribute 'tfc.offset'}}
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.offset = array<i64: 0>} : () -> tensor<2xf32>
}

// -----

// Tests that an attribute of graphs is refused on a node.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{'tfc.arena_bytes' belongs on a tfg.graph}}
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.arena_bytes = 4 : i64} : () -> tensor<2xf32>
}

// -----

// Tests that a value of the wrong kind is refused.
// expected-error @+1 {{'tfc.feeds': expected an array of strings}}
module attributes {tfc.feeds = "x"} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  }
}

// -----

// Tests that each fetch's row count is -1 or another fetch.
// expected-error @+1 {{'tfc.row_counts': expected -1 or the index of a fetch}}
module attributes {tfc.fetches = ["y:0", "y:0/rows"], tfc.row_counts = array<i64: 2, -1>} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  }
}

// -----

// Tests that there is one row count per fetch.
// expected-error @+1 {{'tfc.row_counts': expected an i64 array of one entry per fetch}}
module attributes {tfc.fetches = ["y:0", "y:0/rows"], tfc.row_counts = array<i64: 1>} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  }
}

// -----

// Tests that the memory plan gives one offset per data result.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{'tfc.offsets': expected one offset per data result (1), got 2}}
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.offsets = array<i64: 0, 8>} : () -> tensor<2xf32>
}

// -----

// Tests that a concatenation's operands in place are its operands, each
// named once.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Const name("a") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tfc.in_place_operands': expected increasing operand indices below 3}}
  %c:2 = ConcatV2(%a#0, %a#0, %axis#0) name("c") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 1, 3>} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
}

// -----

// Tests that a fused activation is one the batch norm kernel applies.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{'tfc.activation': expected "Relu" or "Relu6"}}
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.activation = "Elu"} : () -> tensor<2xf32>
}

// -----

// Tests that a folded max pooling's window has its six entries, sizes and
// strides positive.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{'tfc.max_pool': expected [kh, kw, stride_h, stride_w, pad_top, pad_left], sizes and strides > 0, pads >= 0}}
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>, tfc.max_pool = array<i64: 2, 2, 0, 2, 0, 0>} : () -> tensor<2xf32>
}

// -----

// Tests that a node's attribute is refused on a fusion group (only the
// memory plan's offsets go on both).
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %c:2 = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-error @+1 {{'tfc.frame' belongs on a node}}
  %g:2 = tfc.fusion_group(%c#0) {tfc.frame = "loop"} : (tensor<2xf32>) -> (tensor<2xf32>, !tfg.control) {
  ^bb0(%in: tensor<2xf32>):
    %n:2 = Neg(%in) name("n") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %n#0 : tensor<2xf32>
  }
}
