// Tests that the nodes of a graph whose op types nothing lowers are refused
// in one error, grouped by op type with their nodes, and that lowered ones
// pass.
// RUN: tfc-opt %s -split-input-file -tfc-verify-supported -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: NoOp name("ok")
// CHECK: Relu(%{{.*}}) name("r")
// CHECK: Shape(%{{.*}}) name("s")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a = NoOp name("ok")
  %c, %cc = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> (tensor<2xf32>)
  %r, %rc = Relu(%c) name("r") {T = f32} : (tensor<2xf32>) -> (tensor<2xf32>)
  // Shape is rewritten by a pass before code generation: supported.
  %s, %sc = Shape(%c) name("s") {T = f32, out_type = i32} : (tensor<2xf32>) -> (tensor<1xi32>)
}

// -----

// Tests that every node of an unsupported type is named, an op type the
// registry does not know and one that nothing lowers alike.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{2 unsupported op types: FancyOp (nodes 'f1', 'f2'), Dawsn (node 't')}}
  %f1 = FancyOp name("f1")
  %f2 = FancyOp name("f2")
  %c, %cc = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> (tensor<2xf32>)
  %t, %tc = Dawsn(%c) name("t") {T = f32} : (tensor<2xf32>) -> (tensor<2xf32>)
}

// -----

// Tests that past five nodes of a type the rest are counted.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{1 unsupported op type: Mystery (nodes 'm1', 'm2', 'm3', 'm4', 'm5' and 2 more)}}
  %m1 = Mystery name("m1")
  %m2 = Mystery name("m2")
  %m3 = Mystery name("m3")
  %m4 = Mystery name("m4")
  %m5 = Mystery name("m5")
  %m6 = Mystery name("m6")
  %m7 = Mystery name("m7")
}

// -----

// Tests that function bodies are not checked: what a call runs is checked
// once tfc-inline has put it in the graph.
// CHECK-LABEL: tfg.func @f
// CHECK: Mystery name("m")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
}
tfg.func @f() -> () {
  %m = Mystery name("m")
  return
}

// -----

// Tests that attribute values a lowering does not handle are refused in
// one error, grouped by op type and value with their nodes: a value other
// than the default of an attribute the op table does not declare, and a
// value outside a declared list. Declared values and defaults pass.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %c, %cc = Const name("c") {dtype = f32, value = dense<1.0> : tensor<1x2x2x1xf32>} : () -> (tensor<1x2x2x1xf32>)
  %i, %ic = Const name("i") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> (tensor<1xi32>)
  // expected-error @+1 {{3 unsupported attribute values: Equal incompatible_shape_error=false: tfc handles only true (nodes 'e1', 'e2'), Conv2D data_format=NCHW: tfc handles only NHWC (node 'conv'), DepthToSpace data_format=NCHW: tfc handles only NHWC (node 'g')}}
  %e1, %e1c = Equal(%c, %c) name("e1") {T = f32, incompatible_shape_error = false} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xi1>)
  %e2, %e2c = Equal(%c, %c) name("e2") {T = f32, incompatible_shape_error = false} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xi1>)
  %e3, %e3c = Equal(%c, %c) name("e3") {T = f32, incompatible_shape_error = true} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xi1>)
  %conv, %convc = Conv2D(%c, %c) name("conv") {T = f32, data_format = "NCHW", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> (tensor<1x1x1x1xf32>)
  %ok, %okc = Conv2D(%c, %c) name("ok") {T = f32, data_format = "NHWC", padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], strides = [1, 1, 1, 1], dilations = [1, 2, 2, 1], use_cudnn_on_gpu = false} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xf32>)
  %g, %gc = DepthToSpace(%c) name("g") {T = f32, block_size = 2 : i64, data_format = "NCHW"} : (tensor<1x2x2x1xf32>) -> (tensor<1x2x2x1xf32>)
}

// -----

// Tests that unsupported op types are reported first, alone: the
// attributes of a graph that cannot compile anyway wait.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %c, %cc = Const name("c") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> (tensor<2xf32>)
  // expected-error @+1 {{1 unsupported op type: Dawsn (node 't')}}
  %t, %tc = Dawsn(%c) name("t") {T = f32} : (tensor<2xf32>) -> (tensor<2xf32>)
  %e, %ec = Equal(%c, %c) name("e") {T = f32, incompatible_shape_error = false} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xi1>)
}

// -----

// A static table whose contents tfc-bind-tables did not find (no
// initializer of constants fills it) is refused; one with them passes.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{1 unsupported attribute value: HashTableV2 filled by no initializer of constant keys and values or of a file a constant names (node 'fed')}}
  %fed, %fedc = HashTableV2 name("fed") {key_dtype = !tfg.string, value_dtype = i64} : () -> (tensor<!tfg.resource>)
  %bound, %boundc = HashTableV2 name("bound") {key_dtype = i64, value_dtype = i64, tfc.table_keys = dense<[1, 2]> : tensor<2xi64>, tfc.table_values = dense<[3, 4]> : tensor<2xi64>} : () -> (tensor<!tfg.resource>)
}
