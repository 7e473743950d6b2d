// Tests that the graphs, functions and tfc/tfg module attributes go and
// the step functions stay.
// RUN: tfc-opt %s -tfc-strip-graphs | FileCheck %s

// CHECK: module attributes {other.kept}
// CHECK-NOT: tfg.graph
// CHECK-NOT: tfg.func
// CHECK: func.func @tfc_step_impl
module attributes {tfc.feeds = ["x"], tfg.saved_model = {}, other.kept} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
    %a = NoOp name("a")
  }
  tfg.func @f() -> () {
    return
  }
  func.func @tfc_step_impl() {
    return
  }
}
