// Tests tfc-plan-state: one buffer per variable identity (the init entry's
// node and the step's share it), 64-byte aligned, flag bytes after the
// variables, generator state after the flags; the table of variables.
// Offsets by hand: a [3x5] f32 = 60 B at 0, b [2] i64 = 16 B at 64; flags
// at 128 and 129; the random op's 32 bytes at 136; total 168 -> 192.
// RUN: tfc-opt %s -split-input-file -tfc-plan-state -verify-diagnostics | FileCheck %s

// CHECK: module attributes {tfc.state_bytes = 192 : i64, tfc.variables = [{flag = 128 : i64, key = "a", name = "a", offset = 0 : i64, type = tensor<3x5xf32>}, {flag = 129 : i64, key = "shared_b", name = "box/shared_b", offset = 64 : i64, type = tensor<2xi64>}]}
// CHECK-DAG: name("a") {{.*}}tfc.flag_offset = 128 : i64, tfc.state_offset = 0 : i64
// CHECK-DAG: name("b") {{.*}}tfc.flag_offset = 129 : i64, tfc.state_offset = 64 : i64
// CHECK-DAG: name("b_init") {{.*}}tfc.flag_offset = 129 : i64, tfc.state_offset = 64 : i64
// CHECK-DAG: name("noise") {{.*}}tfc.state_offset = 136 : i64
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = VariableV2 name("a") {container = "", dtype = f32, shape = #tfg.shape<3x5>, shared_name = ""} : () -> tensor<3x5x!tfg.ref<f32>>
    %b:2 = VarHandleOp name("b") {container = "box", dtype = i64, shape = #tfg.shape<2>, shared_name = "shared_b"} : () -> tensor<!tfg.resource>
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "init"} {
    %b:2 = VarHandleOp name("b_init") {container = "box", dtype = i64, shape = #tfg.shape<2>, shared_name = "shared_b"} : () -> tensor<!tfg.resource>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
    %noise:2 = RandomUniform(%shape#0) name("noise") {T = i32, dtype = f32, seed = 1, seed2 = 2} : (tensor<2xi32>) -> tensor<2x2xf32>
  }
}

// -----

// Two nodes of one variable must agree on its type.
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %a:2 = VarHandleOp name("a") {container = "", dtype = f32, shape = #tfg.shape<3>, shared_name = "v"} : () -> tensor<!tfg.resource>
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "init"} {
    // expected-error @+1 {{variable 'v': node 'b' declares it as 'tensor<4xf32>' but node 'a' as 'tensor<3xf32>'}}
    %b:2 = VarHandleOp name("b") {container = "", dtype = f32, shape = #tfg.shape<4>, shared_name = "v"} : () -> tensor<!tfg.resource>
  }
}

// -----

// A variable's shape must be known.
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    // expected-error @+1 {{variable 'a': its dtype and shape must be static and numeric to compile}}
    %a:2 = VarHandleOp name("a") {container = "", dtype = f32, shape = #tfg.shape<?x3>, shared_name = "a"} : () -> tensor<!tfg.resource>
  }
}

// -----

// The parts of a partitioned variable stay variables of their own, each
// saved as its slice of the full variable's key.
// CHECK: module attributes {tfc.state_bytes = 320 : i64, tfc.variables = [{flag = 256 : i64, key = "emb", name = "emb/part_0", offset = 0 : i64, slice = "10 4 0,5:0,4", type = tensor<5x4xf32>}, {flag = 257 : i64, key = "emb", name = "emb/part_1", offset = 128 : i64, slice = "10 4 5,5:0,4", type = tensor<5x4xf32>}]}
module {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p0:2 = VariableV2 name("emb/part_0") {container = "", dtype = f32, shape = #tfg.shape<5x4>, shared_name = "", tfc.slice_of = "emb", tfc.checkpoint_slice = "10 4 0,5:0,4"} : () -> tensor<5x4x!tfg.ref<f32>>
    %p1:2 = VariableV2 name("emb/part_1") {container = "", dtype = f32, shape = #tfg.shape<5x4>, shared_name = "", tfc.slice_of = "emb", tfc.checkpoint_slice = "10 4 5,5:0,4"} : () -> tensor<5x4x!tfg.ref<f32>>
  }
}
