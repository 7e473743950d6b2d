// Tests convert-tfg-to-memref on ScalarSummary: a call of
// tfc_scalar_summary with the tags', values' and output's addresses, the
// number of values and their TensorFlow dtype; tags and values of other
// shapes, or values of a type it does not summarize, are errors naming
// the node.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_scalar_summary(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64{{.*}}, %c2_i64{{.*}})
module attributes {tfc.feeds = [], tfc.fetches = ["s:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %t:2 = Const name("t") {dtype = !tfg.string, value = dense<["a", "b"]> : tensor<2x!tfg.string>, tfc.offsets = array<i64: 0>} : () -> tensor<2x!tfg.string>
    %v:2 = Const name("v") {dtype = f64, value = dense<[1.0, 2.0]> : tensor<2xf64>, tfc.offsets = array<i64: 16>} : () -> tensor<2xf64>
    %s:2 = ScalarSummary(%t#0, %v#0) name("s") {T = f64, tfc.offsets = array<i64: 32>} : (tensor<2x!tfg.string>, tensor<2xf64>) -> tensor<!tfg.string>
    %r = _Retval(%s#0) name("s/_retval_0") {T = !tfg.string, index = 0} : (tensor<!tfg.string>) -> ()
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %t:2 = Const name("t") {dtype = !tfg.string, value = dense<["a", "b"]> : tensor<2x!tfg.string>, tfc.offsets = array<i64: 0>} : () -> tensor<2x!tfg.string>
    %v:2 = Const name("v") {dtype = f32, value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>, tfc.offsets = array<i64: 16>} : () -> tensor<3xf32>
    // expected-error @+1 {{node 's' (ScalarSummary): tags and values are not the same shape}}
    %s:2 = ScalarSummary(%t#0, %v#0) name("s") {T = f32, tfc.offsets = array<i64: 32>} : (tensor<2x!tfg.string>, tensor<3xf32>) -> tensor<!tfg.string>
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 64, tfg.entry = "step"} {
    %t:2 = Const name("t") {dtype = !tfg.string, value = dense<"a"> : tensor<!tfg.string>, tfc.offsets = array<i64: 0>} : () -> tensor<!tfg.string>
    %v:2 = Const name("v") {dtype = f16, value = dense<1.0> : tensor<f16>, tfc.offsets = array<i64: 16>} : () -> tensor<f16>
    // expected-error @+1 {{node 's' (ScalarSummary): summarizes values of type 'f16': float32, float64, int32 and int64 only}}
    %s:2 = ScalarSummary(%t#0, %v#0) name("s") {T = f16, tfc.offsets = array<i64: 32>} : (tensor<!tfg.string>, tensor<f16>) -> tensor<!tfg.string>
  }
}
