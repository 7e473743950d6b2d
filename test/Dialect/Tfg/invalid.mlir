// Tests each error of the node verifier and the structural ops.
// RUN: tfc-opt %s -split-input-file -verify-diagnostics

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = i32, shape = #tfg.shape<2>} : () -> tensor<2xi32>
  // expected-error @+1 {{node 'mm' (MatMul): input 0 has dtype int32 but MatMul expects float}}
  %mm:2 = MatMul(%x#0, %x#0) name("mm") {T = f32} : (tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{node 'mm' (MatMul): expects 2 data inputs, has 1}}
  %mm:2 = MatMul(%x#0) name("mm") {T = f32} : (tensor<2xf32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'c' (Const): missing required attr 'value' of type tensor}}
  %c:2 = Const name("c") {dtype = f32} : () -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'x' (Placeholder): attr 'dtype' must be a type, got 1 : i64}}
  %x:2 = Placeholder name("x") {dtype = 1} : () -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = !tfg.string} : () -> tensor<*x!tfg.string>
  // expected-error @+1 {{node 'r' (Relu): attr 'T' is !tfg.string, which is not one of the allowed values}}
  %r:2 = Relu(%x#0) name("r") {T = !tfg.string} : (tensor<*x!tfg.string>) -> tensor<*x!tfg.string>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'x' (Placeholder): expects 1 outputs, has 2}}
  %x:3 = Placeholder name("x") {dtype = f32} : () -> (tensor<*xf32>, tensor<*xf32>)
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'x' (Placeholder): output 0 has dtype int32 but Placeholder expects float}}
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xi32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %v:2 = Placeholder name("v") {dtype = f32} : () -> tensor<*xf32>
  // Assign writes through a ref: a plain tensor cannot feed it.
  // expected-error @+1 {{node 'a' (Assign): input 0 has dtype float but Assign expects float_ref}}
  %a:2 = Assign(%v#0, %v#0) name("a") {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*x!tfg.ref<f32>>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a = NoOp name("a")
  // expected-error @+1 {{duplicate node name 'a'}}
  %b = NoOp name("a")
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node of type 'NoOp' has no 'tfg.name' string attr}}
  %a = NoOp
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32} : () -> tensor<*xf32>
  // Control operands come after data operands.
  // expected-error @+1 {{node data operands must be tensors, before all control operands}}
  %i:2 = "tfg.Identity"(%x#1, %x#0) {tfg.name = "i", T = f32} : (!tfg.control, tensor<*xf32>) -> (tensor<*xf32>, !tfg.control)
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node must have a !tfg.control token as its last result}}
  %x = "tfg.Placeholder"() {tfg.name = "x", dtype = f32} : () -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{only TensorFlow node operations may appear in a graph or function body, found 'tfg.graph'}}
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  }
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{node 'a' (AddN): attr 'N' is 0, less than the minimum 1}}
  %a:2 = AddN name("a") {N = 0, T = f32} : () -> tensor<*xf32>
}

// -----

// expected-error @+1 {{'tfg.func' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
tfg.func @f(tensor<*xf32>) -> ()

// -----

tfg.func @g(%a: tensor<*xf32> {tfg.name = "a"}) -> (tensor<*xf32> {tfg.name = "r"}) {
  // expected-error @+1 {{'tfg.return' op returns 0 values, function has 1 results}}
  return
}

// -----

tfg.func @h(%a: tensor<*xf32> {tfg.name = "a"}) -> () {
  %n = NoOp name("n")
  // expected-error @+1 {{'tfg.return' op has 1 control operands but 0 control names}}
  return [%n]
}
