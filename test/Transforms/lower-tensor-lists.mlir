// Tests tfc-lower-tensor-lists: a list of known element shape and capacity
// becomes a dense tensor (Reserve and EmptyTensorList: a zero Const
// [capacity, element...]; SetItem and PushBack: a TensorScatterUpdate of
// the row; GetItem and PopBack: a GatherV2 on axis 0; Stack: an Identity),
// and a node that carries the list (here an Enter and an Identity) takes
// the dense element type. A list that pushes and pops change has a length
// of its own, carried by copies of the nodes that carry the list.
// RUN: tfc-opt %s -split-input-file -tfc-lower-tensor-lists -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: %[[R:.*]]:2 = Const name("reserve") {dtype = f32, value = dense<0.000000e+00> : tensor<3x2xf32>}
// CHECK: %[[E:.*]]:2 = Enter(%[[R]]#0) name("enter") {T = f32, frame_name = "f", is_constant = true} : (tensor<3x2xf32>) -> tensor<*xf32>
// CHECK: %[[SHAPE:.*]]:2 = Const name("set/index_shape") {dtype = i32, value = dense<1> : tensor<2xi32>}
// CHECK: %[[I:.*]]:2 = Reshape(%{{.*}}, %[[SHAPE]]#0) name("set/index")
// CHECK: %[[U:.*]]:2 = ExpandDims(%{{.*}}, %{{.*}}) name("set/update")
// CHECK: %[[S:.*]]:2 = TensorScatterUpdate(%[[E]]#0, %[[I]]#0, %[[U]]#0) name("set") {T = f32, Tindices = i32}
// CHECK: GatherV2(%[[S]]#0, %{{.*}}, %{{.*}}) name("get")
// CHECK: %[[ID:.*]]:2 = Identity(%[[S]]#0) name("carry") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: Identity(%[[ID]]#0) name("stack") {T = f32}
// CHECK: Const name("length") {dtype = i32, value = dense<3> : tensor<i32>}
// CHECK: Const name("element_shape") {dtype = i32, value = dense<2> : tensor<1xi32>}
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
  // A length and element shape no push or pop changes are constants.
  %length:2 = TensorListLength(%carry#0) name("length") : (tensor<!tfg.variant>) -> tensor<i32>
  %eshape:2 = TensorListElementShape(%carry#0) name("element_shape") {shape_type = i32} : (tensor<!tfg.variant>) -> tensor<1xi32>
}

// -----

// A loop's gradient accumulator: the forward loop pushes each iteration's
// value; the list's length is a loop variable of its own (Enter, Merge,
// Switch, Identity, NextIteration and Exit copied onto it), one more per
// push. After the loop, a pop reads row length - 1 and leaves the rows.
// CHECK-LABEL: tfg.graph
// CHECK: %[[ACC:.*]]:2 = Const name("acc") {dtype = f32, value = dense<0.000000e+00> : tensor<4x2xf32>}
// CHECK: %[[LEN0:.*]]:2 = Const name("acc/length") {dtype = i32, value = dense<0> : tensor<i32>}
// CHECK: %[[ENTER:.*]]:2 = Enter(%[[ACC]]#0) name("enter") {T = f32
// CHECK: %[[ENTERLEN:.*]]:2 = Enter(%[[LEN0]]#0) name("enter/length") {T = i32
// CHECK: %[[MERGE:.*]]:3 = Merge(%[[ENTER]]#0, %[[NEXT:.*]]#0) name("merge") {N = 2 : i64, T = f32}
// CHECK: %[[MERGELEN:.*]]:3 = Merge(%[[ENTERLEN]]#0, %[[NEXTLEN:.*]]#0) name("merge/length") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK: %[[SWITCH:.*]]:3 = Switch(%[[MERGE]]#0, %{{.*}}) name("switch")
// CHECK: %[[SWITCHLEN:.*]]:3 = Switch(%[[MERGELEN]]#0, %{{.*}}) name("switch/length") {T = i32}
// CHECK: %[[BODY:.*]]:2 = Identity(%[[SWITCH]]#1) name("body")
// CHECK: %[[BODYLEN:.*]]:2 = Identity(%[[SWITCHLEN]]#1) name("body/length")
// CHECK: %[[ONE:.*]]:2 = Const name("push/length/step") {dtype = i32, value = dense<1> : tensor<i32>}
// CHECK: %[[PUSHLEN:.*]]:2 = AddV2(%[[BODYLEN]]#0, %[[ONE]]#0) name("push/length")
// CHECK: %[[INDEX:.*]]:2 = Reshape(%[[BODYLEN]]#0, %{{.*}}) name("push/index")
// CHECK: %[[PUSH:.*]]:2 = TensorScatterUpdate(%[[BODY]]#0, %[[INDEX]]#0, %{{.*}}) name("push")
// CHECK: %[[NEXT]]:2 = NextIteration(%[[PUSH]]#0) name("next")
// CHECK: %[[NEXTLEN]]:2 = NextIteration(%[[PUSHLEN]]#0) name("next/length")
// CHECK: %[[EXIT:.*]]:2 = Exit(%[[SWITCH]]#0) name("exit")
// CHECK: %[[EXITLEN:.*]]:2 = Exit(%[[SWITCHLEN]]#0) name("exit/length")
// CHECK: %[[MINUS:.*]]:2 = Const name("pop/length/step") {dtype = i32, value = dense<-1> : tensor<i32>}
// CHECK: %[[POPLEN:.*]]:2 = AddV2(%[[EXITLEN]]#0, %[[MINUS]]#0) name("pop/length")
// CHECK: %[[ITEM:.*]]:2 = GatherV2(%[[EXIT]]#0, %[[POPLEN]]#0, %{{.*}}) name("pop")
// CHECK: Identity(%[[ITEM]]#0) name("item")
// CHECK: Identity(%[[EXIT]]#0) name("rest")
// CHECK: Identity(%[[POPLEN]]#0) name("count")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %max:2 = Const name("max") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %pred:2 = Placeholder name("pred") {dtype = i1, shape = #tfg.shape<>} : () -> tensor<i1>
  %item:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %acc:2 = EmptyTensorList(%shape#0, %max#0) name("acc") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %enter:2 = Enter(%acc#0) name("enter") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %cond:2 = LoopCond(%pred#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %body:2 = Identity(%switch#1) name("body") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %push:2 = TensorListPushBack(%body#0, %item#0) name("push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
  %next:2 = NextIteration(%push#0) name("next") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %exit:2 = Exit(%switch#0) name("exit") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %pop:3 = TensorListPopBack(%exit#0, %shape#0) name("pop") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<1xi32>) -> (tensor<!tfg.variant>, tensor<2xf32>)
  %out:2 = Identity(%pop#1) name("item") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %rest:2 = Identity(%pop#0) name("rest") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %count:2 = TensorListLength(%pop#0) name("count") : (tensor<!tfg.variant>) -> tensor<i32>
}

// -----

// A pop from a list that only ever held one constant (a gradient pushes
// the element shape it read in each iteration) is that constant, so that
// the list made from it is dense too.
// CHECK-LABEL: tfg.graph
// CHECK: Const name("pop") {dtype = i32, value = dense<[2, 3]> : tensor<2xi32>}
// CHECK: Const name("grad") {dtype = f32, value = dense<0.000000e+00> : tensor<5x2x3xf32>}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %max:2 = Const name("max") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %five:2 = Const name("five") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<5x2x3>} : () -> tensor<5x2x3xf32>
  %xs:2 = TensorListFromTensor(%x#0, %shape#0) name("xs") {element_dtype = f32, shape_type = i32} : (tensor<5x2x3xf32>, tensor<1xi32>) -> tensor<!tfg.variant>
  %eshape:2 = TensorListElementShape(%xs#0) name("element_shape") {shape_type = i32} : (tensor<!tfg.variant>) -> tensor<2xi32>
  %acc:2 = EmptyTensorList(%shape#0, %max#0) name("acc") {element_dtype = i32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %push:2 = TensorListPushBack(%acc#0, %eshape#0) name("push") {element_dtype = i32} : (tensor<!tfg.variant>, tensor<2xi32>) -> tensor<!tfg.variant>
  %pop:3 = TensorListPopBack(%push#0, %shape#0) name("pop") {element_dtype = i32} : (tensor<!tfg.variant>, tensor<1xi32>) -> (tensor<!tfg.variant>, tensor<2xi32>)
  %grad:2 = TensorListReserve(%pop#1, %five#0) name("grad") {element_dtype = f32, shape_type = i32} : (tensor<2xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %sum:2 = AddN(%grad#0, %grad#0) name("sum") {N = 2, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> tensor<!tfg.variant>
}

// -----

// TensorArray gather, scatter, split and concat: a gather is a GatherV2 of
// the rows, a scatter into an array a TensorScatterUpdate of the rows
// (indices as [n, 1]), a scattered or split new array zeros then rows, or
// the tensor reshaped to [n, k, ...] for equal parts; a concat of
// elements [k, ...] the list reshaped to [n * k, ...], with lengths k.
// CHECK-LABEL: tfg.graph
// CHECK: %[[XS:.*]]:2 = Const name("scattered/zeros") {dtype = f32, value = dense<0.000000e+00> : tensor<4x2xf32>}
// CHECK: %[[IDX:.*]]:2 = Reshape(%{{.*}}, %{{.*}}) name("scattered/index")
// CHECK: %[[SC:.*]]:2 = TensorScatterUpdate(%[[XS]]#0, %[[IDX]]#0, %{{.*}}) name("scattered")
// CHECK: GatherV2(%[[SC]]#0, %{{.*}}, %{{.*}}) name("gathered")
// CHECK: TensorScatterUpdate(%[[SC]]#0, %{{.*}}, %{{.*}}) name("again")
// CHECK: Const name("split/shape") {dtype = i32, value = dense<[3, 2, 2]> : tensor<3xi32>}
// CHECK: %[[SPLIT:.*]]:2 = Reshape(%{{.*}}, %{{.*}}) name("split")
// CHECK: Const name("concat/shape") {dtype = i32, value = dense<[6, 2]> : tensor<2xi32>}
// CHECK: Reshape(%[[SPLIT]]#0, %{{.*}}) name("concat")
// CHECK: %[[LENGTHS:.*]]:2 = Const name("concat/lengths") {dtype = i64, value = dense<2> : tensor<3xi64>}
// CHECK: Identity(%[[LENGTHS]]#0) name("lengths")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %eshape:2 = Const name("eshape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %four:2 = Const name("four") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %rows:2 = Placeholder name("rows") {dtype = f32, shape = #tfg.shape<2x2>} : () -> tensor<2x2xf32>
  %at:2 = Const name("at") {dtype = i32, value = dense<[3, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %scattered:2 = TensorListScatterV2(%rows#0, %at#0, %eshape#0, %four#0) name("scattered") {element_dtype = f32, shape_type = i32} : (tensor<2x2xf32>, tensor<2xi32>, tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %gathered:2 = TensorListGather(%scattered#0, %at#0, %eshape#0) name("gathered") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xi32>, tensor<1xi32>) -> tensor<2x2xf32>
  %again:2 = TensorListScatterIntoExistingList(%scattered#0, %rows#0, %at#0) name("again") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2x2xf32>, tensor<2xi32>) -> tensor<!tfg.variant>
  %flat:2 = Placeholder name("flat") {dtype = f32, shape = #tfg.shape<6x2>} : () -> tensor<6x2xf32>
  %parts:2 = Const name("parts") {dtype = i64, value = dense<2> : tensor<3xi64>} : () -> tensor<3xi64>
  %pshape:2 = Const name("pshape") {dtype = i32, value = dense<[-1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %split:2 = TensorListSplit(%flat#0, %pshape#0, %parts#0) name("split") {element_dtype = f32, shape_type = i32} : (tensor<6x2xf32>, tensor<2xi32>, tensor<3xi64>) -> tensor<!tfg.variant>
  %lead:2 = Const name("lead") {dtype = i64, value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %concat:3 = TensorListConcatV2(%split#0, %pshape#0, %lead#0) name("concat") {element_dtype = f32, shape_type = i32} : (tensor<!tfg.variant>, tensor<2xi32>, tensor<0xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  %lengths:2 = Identity(%concat#1) name("lengths") {T = i64} : (tensor<*xi64>) -> tensor<*xi64>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  // expected-error @+1 {{node 'unknown' (TensorListReserve): the list's length is not a compile-time constant}}
  %unknown:2 = TensorListReserve(%shape#0, %i#0) name("unknown") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
}

// -----

// A tf.while_loop without maximum_iterations leaves its accumulators
// unbounded: one that is only pushed and popped becomes a stack (a pop of
// one pushed constant is that constant); the list values become its
// handle, and what read the list after a push or pop waits for it.
// CHECK-LABEL: tfg.graph
// CHECK: %[[STACK:.*]]:2 = StackV2(%{{.*}}) name("acc") {elem_type = f32, stack_name = ""} : (tensor<i32>) -> tensor<!tfg.resource>
// CHECK: %[[ENTER:.*]]:2 = Enter(%[[STACK]]#0) name("enter") {T = !tfg.resource
// CHECK: %[[PUSH:.*]]:2 = StackPushV2(%[[ENTER]]#0, %{{.*}}) name("push") {T = f32, swap_memory = false}
// CHECK: NextIteration(%[[ENTER]]#0) [%[[PUSH]]#1] name("next") {T = !tfg.resource}
// CHECK: %[[POP:.*]]:2 = StackPopV2(%[[ENTER]]#0) [%[[PUSH]]#1] name("pop") {elem_type = f32}
// CHECK: Identity(%[[POP]]#0) name("item")
// CHECK: StackV2({{.*}}) name("counts")
// CHECK: %[[COUNT:.*]]:2 = Const [%{{.*}}] name("pop_count") {dtype = i32, value = dense<7> : tensor<i32>}
// CHECK: Identity(%[[COUNT]]#0) name("count")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %none:2 = Const name("none") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %acc:2 = EmptyTensorList(%shape#0, %none#0) name("acc") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %enter:2 = Enter(%acc#0) name("enter") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %push:2 = TensorListPushBack(%enter#0, %x#0) name("push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
  %next:2 = NextIteration(%push#0) name("next") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %pop:3 = TensorListPopBack(%push#0, %shape#0) name("pop") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<1xi32>) -> (tensor<!tfg.variant>, tensor<2xf32>)
  %item:2 = Identity(%pop#1) name("item") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %scalar:2 = Const name("scalar") {dtype = i32, value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %seven:2 = Const name("seven") {dtype = i32, value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %counts:2 = EmptyTensorList(%scalar#0, %none#0) name("counts") {element_dtype = i32, shape_type = i32} : (tensor<0xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %pushc:2 = TensorListPushBack(%counts#0, %seven#0) name("push_count") {element_dtype = i32} : (tensor<!tfg.variant>, tensor<i32>) -> tensor<!tfg.variant>
  %popc:3 = TensorListPopBack(%pushc#0, %scalar#0) name("pop_count") {element_dtype = i32} : (tensor<!tfg.variant>, tensor<0xi32>) -> (tensor<!tfg.variant>, tensor<i32>)
  %count:2 = Identity(%popc#1) name("count") {T = i32} : (tensor<i32>) -> tensor<i32>
}

// -----

// Read otherwise, an unbounded list cannot be made dense.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %none:2 = Const name("none") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  // expected-error @+1 {{node 'acc' (EmptyTensorList): the list's maximum length is not a compile-time constant}}
  %acc:2 = EmptyTensorList(%shape#0, %none#0) name("acc") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %get:2 = TensorListGetItem(%acc#0, %i#0, %shape#0) name("get") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<1xi32>) -> tensor<2xf32>
}

// -----

// A TensorArray made without element_shape: its elements have the shape
// its writes store (here an item set in a loop).
// CHECK-LABEL: tfg.graph
// CHECK: Const name("outputs") {dtype = f32, value = dense<0.000000e+00> : tensor<5x4x3xf32>}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %unknown:2 = Const name("unknown") {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %five:2 = Const name("five") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<4x3>} : () -> tensor<4x3xf32>
  %list:2 = TensorListReserve(%unknown#0, %five#0) name("outputs") {element_dtype = f32, shape_type = i32} : (tensor<i32>, tensor<i32>) -> tensor<!tfg.variant>
  %enter:2 = Enter(%list#0) name("enter") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %set:2 = TensorListSetItem(%enter#0, %i#0, %item#0) name("set") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<i32>, tensor<4x3xf32>) -> tensor<!tfg.variant>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[-1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %n:2 = Const name("n") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{node 'reserve' (TensorListReserve): the list's element shape is not static}}
  %list:2 = TensorListReserve(%shape#0, %n#0) name("reserve") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %max:2 = Const name("max") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %item:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %acc:2 = EmptyTensorList(%shape#0, %max#0) name("acc") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %push:2 = TensorListPushBack(%acc#0, %item#0) name("push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
  // expected-error @+1 {{node 'stack' (TensorListStack): stacking a list that pushes or pops change is not supported (its shape would not be static)}}
  %stack:2 = TensorListStack(%push#0, %shape#0) name("stack") {element_dtype = f32, num_elements = -1} : (tensor<!tfg.variant>, tensor<1xi32>) -> tensor<*xf32>
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %list:2 = Placeholder name("list") {dtype = !tfg.variant, shape = #tfg.shape<>} : () -> tensor<!tfg.variant>
  %item:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  // expected-error @+1 {{node 'push' (TensorListPushBack): cannot follow the length of its list through node 'list' (Placeholder)}}
  %push:2 = TensorListPushBack(%list#0, %item#0) name("push") {element_dtype = f32} : (tensor<!tfg.variant>, tensor<2xf32>) -> tensor<!tfg.variant>
}
