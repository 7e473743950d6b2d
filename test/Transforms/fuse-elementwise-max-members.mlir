// Tests tfc-fuse-elementwise's bound on a group's size: a chain of five
// elementwise nodes under max-members=3 becomes two groups, the root's
// of three and one of the other two, which the first reads as its input.
// RUN: tfc-opt %s -tfc-fuse-elementwise=max-members=3 | FileCheck %s
// A bound of one node leaves every node alone (the root counts).
// RUN: tfc-opt %s -tfc-fuse-elementwise=max-members=1 | FileCheck %s --check-prefix=ALONE
// The default bound keeps the chain in one group.
// RUN: tfc-opt %s -tfc-fuse-elementwise | FileCheck %s --check-prefix=WHOLE

// CHECK-LABEL: tfg.graph
// CHECK: %[[X:[0-9]+]]:2 = Placeholder name("x")
// CHECK: %[[FIRST:[0-9]+]]:2 = tfc.fusion_group(%[[X]]#0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Neg({{.*}}) name("a")
// CHECK-NEXT: %[[B:[0-9]+]]:2 = Abs({{.*}}) name("b")
// CHECK-NEXT: tfc.yield %[[B]]#0
// CHECK-NEXT: }
// CHECK: tfc.fusion_group(%[[FIRST]]#0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Exp({{.*}}) name("c")
// CHECK-NEXT: Neg({{.*}}) name("d")
// CHECK-NEXT: %[[E:[0-9]+]]:2 = Relu({{.*}}) name("e")
// CHECK-NEXT: tfc.yield %[[E]]#0
// CHECK-NEXT: }

// WHOLE: tfc.fusion_group
// WHOLE-NEXT: ^bb0
// WHOLE-NEXT: name("a")
// WHOLE-NEXT: name("b")
// WHOLE-NEXT: name("c")
// WHOLE-NEXT: name("d")
// WHOLE-NEXT: name("e")
// WHOLE-NOT: tfc.fusion_group

// ALONE-NOT: tfc.fusion_group
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %a:2 = Neg(%x#0) name("a") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %b:2 = Abs(%a#0) name("b") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %c:2 = Exp(%b#0) name("c") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %d:2 = Neg(%c#0) name("d") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  %e:2 = Relu(%d#0) name("e") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
}
