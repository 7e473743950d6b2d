// Tests tfc-lower-tensor-lists: a list of known element shape and length
// becomes a dense tensor (Reserve: a zero Const [length, element...];
// SetItem: a TensorScatterUpdate of the row; GetItem: a GatherV2 on axis 0;
// Stack: an Identity), and a node that carries the list (here an Enter
// and an Identity) takes the dense element type. A list of unknown length
// stays.
// RUN: tfc-opt %s -split-input-file -tfc-lower-tensor-lists | FileCheck %s

// CHECK: %[[R:.*]]:2 = Const name("reserve") {dtype = f32, value = dense<0.000000e+00> : tensor<3x2xf32>}
// CHECK: %[[E:.*]]:2 = Enter(%[[R]]#0) name("enter") {T = f32, frame_name = "f", is_constant = true} : (tensor<3x2xf32>) -> tensor<*xf32>
// CHECK: %[[SHAPE:.*]]:2 = Const name("set/index_shape") {dtype = i32, value = dense<1> : tensor<2xi32>}
// CHECK: %[[I:.*]]:2 = Reshape(%{{.*}}, %[[SHAPE]]#0) name("set/index")
// CHECK: %[[U:.*]]:2 = ExpandDims(%{{.*}}, %{{.*}}) name("set/update")
// CHECK: %[[S:.*]]:2 = TensorScatterUpdate(%[[E]]#0, %[[I]]#0, %[[U]]#0) name("set") {T = f32, Tindices = i32}
// CHECK: GatherV2(%[[S]]#0, %{{.*}}, %{{.*}}) name("get")
// CHECK: %[[ID:.*]]:2 = Identity(%[[S]]#0) name("carry") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: Identity(%[[ID]]#0) name("stack") {T = f32}
// CHECK: TensorListReserve(%{{.*}}, %{{.*}}) name("unknown")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %n:2 = Const name("n") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %list:2 = TensorListReserve(%shape#0, %n#0) name("reserve") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %enter:2 = Enter(%list#0) name("enter") {T = !tfg.variant, frame_name = "f", is_constant = true} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %set:2 = TensorListSetItem(%enter#0, %i#0, %item#0) name("set") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xf32>) -> tensor<!tfg.variant>
  %get:2 = TensorListGetItem(%set#0, %i#0, %shape#0) name("get") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<1xi32>) -> tensor<2xf32>
  %carry:2 = Identity(%set#0) name("carry") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %stack:2 = TensorListStack(%carry#0, %shape#0) name("stack") {element_dtype = f32, num_elements = 3} : (tensor<!tfg.variant>, tensor<1xi32>) -> tensor<3x2xf32>
  %unknown:2 = TensorListReserve(%shape#0, %i#0) name("unknown") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
}
