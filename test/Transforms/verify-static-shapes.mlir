// Tests tfc-verify-static-shapes: static entries pass; an unknown shape is
// reported at its first node with the feeds it depends on and the --feed
// flag that fixes it.
// RUN: tfc-opt %s -split-input-file -tfc-verify-static-shapes -verify-diagnostics | FileCheck %s

// Resource handles need no shape.
// CHECK-LABEL: module attributes {tfc.feeds = ["x:0"]}
module attributes {tfc.feeds = ["x:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %v:2 = VarHandleOp name("v") {dtype = f32, shape = #tfg.shape<2x3>, container = "", shared_name = "v"} : () -> tensor<!tfg.resource>
    %n:2 = Neg(%x#0) name("n") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %r = _Retval(%n#0) name("n/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
  }
}

// -----

module attributes {tfc.feeds = ["x:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{feed 'x:0' has shape [?,784], unknown at compile time; give its shape, e.g. --feed x:0=1,784}}
    %x:2 = _Arg name("x/_arg_0") {T = f32, index = 0} : () -> tensor<?x784xf32>
    %r = _Retval(%x#0) name("x/_retval_0") {T = f32, index = 0} : (tensor<?x784xf32>) -> ()
  }
}

// -----

// A data-dependent shape (Where) that no feed decides.
module attributes {tfc.feeds = ["a:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = _Arg name("a/_arg_0") {T = i1, index = 0} : () -> tensor<4xi1>
    // expected-error @+1 {{node 'w' (Where) has output shape <unknown rank>, unknown at compile time; no feed shape decides it}}
    %w:2 = Where(%a#0) name("w") {T = i1} : (tensor<4xi1>) -> tensor<*xi64>
    %r = _Retval(%w#0) name("w/_retval_0") {T = i64, index = 0} : (tensor<*xi64>) -> ()
  }
}
