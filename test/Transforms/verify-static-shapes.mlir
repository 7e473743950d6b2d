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

// A data-dependent shape that no feed decides and nothing bounds: a
// sorted segment sum has as many rows as its last id says.
module attributes {tfc.feeds = ["data:0", "ids:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %data:2 = _Arg name("data/_arg_0") {T = f32, index = 0} : () -> tensor<4x3xf32>
    %ids:2 = _Arg name("ids/_arg_1") {T = i32, index = 1} : () -> tensor<4xi32>
    // expected-error @+1 {{node 's' (SegmentSum) has output shape [?,3], unknown at compile time; no feed shape decides it: the data does, and tfc plans for a bound only where it finds one (Where, Unique, DynamicPartition, NonMaxSuppression, a sparse accumulator's take)}}
    %s:2 = SegmentSum(%data#0, %ids#0) name("s") {T = f32, Tindices = i32} : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<?x3xf32>
    %r = _Retval(%s#0) name("s/_retval_0") {T = f32, index = 0} : (tensor<?x3xf32>) -> ()
  }
}
