// Two towers of three 512x512 MatMuls joined by an add, then eight Tanh:
// the test graph of docs/Placement.md (the same graph as
// test/unit/PlacementTest.cpp). Compare strategies with
//   tfc-opt bench/placement-towers.mlir --tfc-place="strategy=cost" --mlir-pass-statistics -o /dev/null
module attributes {tfc.devices = ["/cpu:0", "/cpu:1"]} {
 tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
  %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<512x512xf32>
  %a0:2 = MatMul(%x#0, %x#0) name("a0") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %a1:2 = MatMul(%a0#0, %x#0) name("a1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %a2:2 = MatMul(%a1#0, %x#0) name("a2") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %b0:2 = MatMul(%x#0, %x#0) name("b0") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %b1:2 = MatMul(%b0#0, %x#0) name("b1") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %b2:2 = MatMul(%b1#0, %x#0) name("b2") {T = f32, transpose_a = false, transpose_b = false} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s:2 = AddV2(%a2#0, %b2#0) name("s") {T = f32} : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %e0:2 = Tanh(%s#0) name("e0") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e1:2 = Tanh(%e0#0) name("e1") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e2:2 = Tanh(%e1#0) name("e2") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e3:2 = Tanh(%e2#0) name("e3") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e4:2 = Tanh(%e3#0) name("e4") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e5:2 = Tanh(%e4#0) name("e5") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e6:2 = Tanh(%e5#0) name("e6") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %e7:2 = Tanh(%e6#0) name("e7") {T = f32} : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = _Retval(%e7#0) name("r") {T = f32, index = 0} : (tensor<512x512xf32>) -> ()
 }
}
