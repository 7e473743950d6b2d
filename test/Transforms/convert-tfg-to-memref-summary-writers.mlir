// Tests convert-tfg-to-memref on TF2's summary writer ops: each
// SummaryWriter node numbered by its shared_name (two nodes of one name
// share a writer), CreateSummaryFileWriter a call of
// tfc_summary_writer_create with the logdir's and suffix's addresses, a
// write the summary its op serializes (WriteScalarSummary as
// ScalarSummary) into a buffer of its own and then
// tfc_summary_writer_write at its step, FlushSummaryWriter and
// CloseSummaryWriter tfc_summary_writer_flush (close 0 and 1), each on
// its writer's number.
// RUN: tfc-opt %s -split-input-file -convert-tfg-to-memref -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_summary_writer_create(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}})
// CHECK: %[[SUMMARY:.*]] = memref.alloc() : memref<i64>
// CHECK: call @tfc_scalar_summary(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}})
// CHECK: call @tfc_summary_writer_write(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %c0_i64{{.*}})
// CHECK: memref.dealloc %[[SUMMARY]]
// CHECK: call @tfc_summary_writer_flush(%arg0, %{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}})
// CHECK: call @tfc_summary_writer_flush(%arg0, %{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}})
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %w:2 = SummaryWriter name("w") {shared_name = "train", container = "", tfc.offsets = array<i64: 0>} : () -> tensor<!tfg.resource>
    %w2:2 = SummaryWriter name("w2") {shared_name = "train", container = "", tfc.offsets = array<i64: 8>} : () -> tensor<!tfg.resource>
    %e:2 = SummaryWriter name("e") {shared_name = "eval", container = "", tfc.offsets = array<i64: 16>} : () -> tensor<!tfg.resource>
    %dir:2 = Const name("dir") {dtype = !tfg.string, value = dense<"logs/train"> : tensor<!tfg.string>, tfc.offsets = array<i64: 24>} : () -> tensor<!tfg.string>
    %q:2 = Const name("q") {dtype = i32, value = dense<10> : tensor<i32>, tfc.offsets = array<i64: 32>} : () -> tensor<i32>
    %sfx:2 = Const name("sfx") {dtype = !tfg.string, value = dense<".v2"> : tensor<!tfg.string>, tfc.offsets = array<i64: 40>} : () -> tensor<!tfg.string>
    %c = CreateSummaryFileWriter(%w#0, %dir#0, %q#0, %q#0, %sfx#0) name("create") : (tensor<!tfg.resource>, tensor<!tfg.string>, tensor<i32>, tensor<i32>, tensor<!tfg.string>) -> ()
    %step:2 = Const name("step") {dtype = i64, value = dense<3> : tensor<i64>, tfc.offsets = array<i64: 48>} : () -> tensor<i64>
    %tag:2 = Const name("tag") {dtype = !tfg.string, value = dense<"lr"> : tensor<!tfg.string>, tfc.offsets = array<i64: 56>} : () -> tensor<!tfg.string>
    %v:2 = Const name("v") {dtype = f32, value = dense<0.1> : tensor<f32>, tfc.offsets = array<i64: 64>} : () -> tensor<f32>
    %s = WriteScalarSummary(%w2#0, %step#0, %tag#0, %v#0) name("write") {T = f32} : (tensor<!tfg.resource>, tensor<i64>, tensor<!tfg.string>, tensor<f32>) -> ()
    %f = FlushSummaryWriter(%w#0) name("flush") : (tensor<!tfg.resource>) -> ()
    %x = CloseSummaryWriter(%e#0) name("close") : (tensor<!tfg.resource>) -> ()
  }
}

// -----

// EncodePng (TF2's image summaries): tfc_encode_png of each uint8 image of
// [..., height, width, channels], its count, height, width and channels;
// other element types or channel counts are errors naming the node.
// CHECK-LABEL: func.func @tfc_step_impl
// CHECK: call @tfc_encode_png(%arg0, %{{.*}}, %{{.*}}, %c2_i64{{.*}}, %c3_i64{{.*}}, %c4_i64{{.*}}, %c1_i64{{.*}})
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 128, tfg.entry = "step"} {
    %i:2 = Const name("i") {dtype = ui8, value = dense<7> : tensor<2x3x4x1xui8>, tfc.offsets = array<i64: 0>} : () -> tensor<2x3x4x1xui8>
    %p:2 = EncodePng(%i#0) name("png") {T = ui8, compression = -1 : i64, tfc.offsets = array<i64: 32>} : (tensor<2x3x4x1xui8>) -> tensor<2x!tfg.string>
  }
}

// -----

module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfc.arena_bytes = 256, tfg.entry = "step"} {
    %i:2 = Const name("i") {dtype = ui16, value = dense<7> : tensor<3x4x1xui16>, tfc.offsets = array<i64: 0>} : () -> tensor<3x4x1xui16>
    // expected-error @+1 {{node 'png' (EncodePng): encodes images of 'ui16': uint8 only}}
    %p:2 = EncodePng(%i#0) name("png") {T = ui16, compression = -1 : i64, tfc.offsets = array<i64: 32>} : (tensor<3x4x1xui16>) -> tensor<!tfg.string>
  }
}
