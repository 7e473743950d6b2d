// Tests tfc-sink-activations: the ReLUs that alone read a concatenation
// become one ReLU per piece, concatenated (NASNet's cell outputs and the
// two ReLUs of them its next cells apply); Relu6 too; a piece that is a
// concatenation read by its new ReLU alone is rewritten in turn; nodes
// waiting on the ReLUs or the concatenation wait on the new one; each
// piece's ReLU goes right after the piece's producer, so that a fusion
// group taking it in (placed where its root is) stays where the producer
// was. Not when
// the concatenation has another reader, its readers are ReLUs of two
// kinds, a ReLU has control inputs, or is on another device.
// RUN: tfc-opt %s -split-input-file -tfc-sink-activations | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[A:.*]]:2 = Placeholder name("a")
// CHECK-DAG: %[[B:.*]]:2 = Placeholder name("b")
// CHECK-DAG: %[[AXIS:.*]]:2 = Const name("axis")
// CHECK-DAG: %[[RA:.*]]:2 = Relu(%[[A]]#0) name("relu/0") {T = f32} : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
// CHECK-DAG: %[[RB:.*]]:2 = Relu(%[[B]]#0) name("relu/1") {T = f32} : (tensor<1x2x2x5xf32>) -> tensor<1x2x2x5xf32>
// CHECK-DAG: %[[J:.*]]:2 = ConcatV2(%[[RA]]#0, %[[RB]]#0, %[[AXIS]]#0) name("relu") {N = 2 : i64, T = f32, Tidx = i32}
// CHECK-DAG: Neg(%[[J]]#0) name("first")
// CHECK-DAG: Neg(%[[J]]#0) [%[[J]]#1] name("second")
// CHECK-DAG: NoOp [%[[J]]#1] name("after_concat")
// CHECK-NOT: name("concat")
// CHECK-NOT: name("relu_again")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<1x2x2x3>} : () -> tensor<1x2x2x3xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<1x2x2x5>} : () -> tensor<1x2x2x5xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %c:2 = ConcatV2(%a#0, %b#0, %axis#0) name("concat") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x3xf32>, tensor<1x2x2x5xf32>, tensor<i32>) -> tensor<1x2x2x8xf32>
  %r1:2 = Relu(%c#0) name("relu") {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %r2:2 = Relu(%c#0) name("relu_again") {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %n1:2 = Neg(%r1#0) name("first") {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %n2:2 = Neg(%r2#0) [%r1#1] name("second") {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  %w = NoOp [%c#1] name("after_concat")
}

// -----

// Relu6, and a concatenation of a concatenation: both levels move.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: %[[A:.*]]:2 = Placeholder name("a")
// CHECK-DAG: %[[B:.*]]:2 = Placeholder name("b")
// CHECK-DAG: %[[RA:.*]]:2 = Relu6(%[[A]]#0) name("r6/0/0")
// CHECK-DAG: %[[RB:.*]]:2 = Relu6(%[[B]]#0) name("r6/0/1")
// CHECK-DAG: %[[INNER:.*]]:2 = ConcatV2(%[[RA]]#0, %[[RB]]#0, %{{.*}}#0) name("r6/0")
// CHECK-DAG: %[[RA2:.*]]:2 = Relu6(%[[A]]#0) name("r6/1")
// CHECK-DAG: ConcatV2(%[[INNER]]#0, %[[RA2]]#0, %{{.*}}#0) name("r6") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<6x3xf32>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %inner:2 = ConcatV2(%a#0, %b#0, %axis#0) name("inner") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %outer:2 = ConcatV2(%inner#0, %a#0, %axis#0) name("outer") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<6x3xf32>
  %r:2 = Relu6(%outer#0) name("r6") {T = f32} : (tensor<6x3xf32>) -> tensor<6x3xf32>
}

// -----

// Left as they are: a concatenation also read by a Neg, one read by a
// Relu and a Relu6, one whose ReLU has a control input, one whose ReLU is
// on another device.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("shared")
// CHECK-DAG: name("mixed")
// CHECK-DAG: name("ordered")
// CHECK-DAG: name("elsewhere")
// CHECK-NOT: name("{{.*}}/0")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %shared:2 = ConcatV2(%a#0, %a#0, %axis#0) name("shared") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  %r1:2 = Relu(%shared#0) name("r1") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %n:2 = Neg(%shared#0) name("n") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %mixed:2 = ConcatV2(%a#0, %a#0, %axis#0) name("mixed") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  %r2:2 = Relu(%mixed#0) name("r2") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %r3:2 = Relu6(%mixed#0) name("r3") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %ordered:2 = ConcatV2(%a#0, %a#0, %axis#0) name("ordered") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  %r4:2 = Relu(%ordered#0) [%n#1] name("r4") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %elsewhere:2 = ConcatV2(%a#0, %a#0, %axis#0) name("elsewhere") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  %r5:2 = Relu(%elsewhere#0) name("r5") {T = f32, tfg.device = "/device:CPU:1"} : (tensor<4xf32>) -> tensor<4xf32>
}

// -----

// Each piece's ReLU right after the piece's producer, not at the
// concatenation.
// CHECK-LABEL: tfg.graph
// CHECK: name("a")
// CHECK-NEXT: Relu({{.*}}) name("r/0")
// CHECK-NEXT: name("b")
// CHECK-NEXT: Relu({{.*}}) name("r/1")
// CHECK-NEXT: name("between")
// CHECK-NEXT: name("axis")
// CHECK-NEXT: ConcatV2({{.*}}) name("r")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %b:2 = Neg(%a#0) name("b") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %e:2 = Exp(%a#0) name("between") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %axis:2 = Const name("axis") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %c:2 = ConcatV2(%a#0, %b#0, %axis#0) name("concat") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  %r:2 = Relu(%c#0) name("r") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
}
