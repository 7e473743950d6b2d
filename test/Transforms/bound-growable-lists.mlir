// Tests tfc-bound-growable-lists: a TensorList that TensorListSetItem grows
// (resize_if_index_out_of_bounds, tf.TensorArray(dynamic_size=True)) in a
// loop gets the capacity the loop bounds. A loop that runs exactly its
// bound and writes once per iteration at its counter makes a fixed list of
// that capacity (the Reserve's length, writes that no longer resize); a
// loop whose trip count the data decides under a bound marks the Reserve
// (tfc.list_capacity); a write no constant bounds is an error.
// RUN: tfc-opt %s -split-input-file -tfc-bound-growable-lists -verify-diagnostics | FileCheck %s

// for i in range(4): the list's length is 4 for certain.
// CHECK-LABEL: tfg.graph
// CHECK: %[[C:.*]]:2 = Const name("reserve/capacity") {dtype = i32, value = dense<4> : tensor<i32>}
// CHECK: TensorListReserve(%{{.*}}, %[[C]]#0) name("reserve")
// CHECK-NOT: tfc.list_capacity
// CHECK: TensorListSetItem({{.*}}) name("set") {element_dtype = f32, resize_if_index_out_of_bounds = false}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %limit:2 = Const name("limit") {dtype = i32, value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %list:2 = TensorListReserve(%shape#0, %zero#0) name("reserve") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %ei:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "f", is_constant = false} : (tensor<i32>) -> tensor<i32>
  %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %el:2 = Enter(%list#0) name("enter_list") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ml:3 = Merge(%el#0, %nl#0) name("merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %less:2 = Less(%mi#0, %limit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %si:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
  %ii:2 = Identity(%si#1) name("i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %sl:3 = Switch(%ml#0, %cond#0) name("switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %il:2 = Identity(%sl#1) name("l") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ei2:2 = Enter(%item#0) name("enter_item") {T = f32, frame_name = "f", is_constant = true} : (tensor<2xf32>) -> tensor<2xf32>
  %set:2 = TensorListSetItem(%il#0, %ii#0, %ei2#0) name("set") {element_dtype = f32, resize_if_index_out_of_bounds = true} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xf32>) -> tensor<!tfg.variant>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %next:2 = AddV2(%ii#0, %one#0) name("next") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %ni:2 = NextIteration(%next#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %nl:2 = NextIteration(%set#0) name("next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %xl:2 = Exit(%sl#0) name("exit_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %stack:2 = TensorListStack(%xl#0, %shape#0) name("stack") {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tfg.variant>, tensor<1xi32>) -> tensor<?x2xf32>
}

// -----

// while i < n, at most 5 times (maximum_iterations: a LogicalAnd with a
// counter's test); i = 1, 3, 5, ...: the largest index 1 + 2 * 4 = 9, and
// the length the data's.
// CHECK-LABEL: tfg.graph
// CHECK: TensorListReserve(%{{.*}}, %{{.*}}) name("reserve") {element_dtype = f32, shape_type = i32, tfc.list_capacity = 10 : i64}
// CHECK: TensorListSetItem({{.*}}) name("set") {element_dtype = f32, resize_if_index_out_of_bounds = true}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %limit:2 = Placeholder name("n") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  %maxit:2 = Const name("maximum_iterations") {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %start:2 = Const name("start") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %list:2 = TensorListReserve(%shape#0, %zero#0) name("reserve") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %ei:2 = Enter(%start#0) name("enter_i") {T = i32, frame_name = "f", is_constant = false} : (tensor<i32>) -> tensor<i32>
  %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %el:2 = Enter(%list#0) name("enter_list") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ml:3 = Merge(%el#0, %nl#0) name("merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %ec:2 = Enter(%zero#0) name("enter_counter") {T = i32, frame_name = "f", is_constant = false} : (tensor<i32>) -> tensor<i32>
  %mc:3 = Merge(%ec#0, %nc#0) name("merge_counter") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %en:2 = Enter(%limit#0) name("enter_n") {T = i32, frame_name = "f", is_constant = true} : (tensor<i32>) -> tensor<i32>
  %em:2 = Enter(%maxit#0) name("enter_maximum") {T = i32, frame_name = "f", is_constant = true} : (tensor<i32>) -> tensor<i32>
  %below:2 = Less(%mc#0, %em#0) name("below_maximum") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %less:2 = Less(%mi#0, %en#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %both:2 = LogicalAnd(%below#0, %less#0) name("both") : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %cond:2 = LoopCond(%both#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %si:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
  %ii:2 = Identity(%si#1) name("i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %sc:3 = Switch(%mc#0, %cond#0) name("switch_counter") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
  %ic:2 = Identity(%sc#1) name("counter") {T = i32} : (tensor<i32>) -> tensor<i32>
  %counted:2 = AddV2(%ic#0, %one#0) name("count") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %nc:2 = NextIteration(%counted#0) name("next_counter") {T = i32} : (tensor<i32>) -> tensor<i32>
  %sl:3 = Switch(%ml#0, %cond#0) name("switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %il:2 = Identity(%sl#1) name("l") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ei2:2 = Enter(%item#0) name("enter_item") {T = f32, frame_name = "f", is_constant = true} : (tensor<2xf32>) -> tensor<2xf32>
  %set:2 = TensorListSetItem(%il#0, %ii#0, %ei2#0) name("set") {element_dtype = f32, resize_if_index_out_of_bounds = true} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xf32>) -> tensor<!tfg.variant>
  %next:2 = AddV2(%ii#0, %two#0) name("next") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %ni:2 = NextIteration(%next#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %nl:2 = NextIteration(%set#0) name("next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %xl:2 = Exit(%sl#0) name("exit_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %stack:2 = TensorListStack(%xl#0, %shape#0) name("stack") {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tfg.variant>, tensor<1xi32>) -> tensor<?x2xf32>
}

// -----

// while i < n, n fed: nothing bounds the list.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %shape:2 = Const name("shape") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %limit:2 = Placeholder name("n") {dtype = i32, shape = #tfg.shape<>} : () -> tensor<i32>
  %item:2 = Placeholder name("item") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %list:2 = TensorListReserve(%shape#0, %zero#0) name("reserve") {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tfg.variant>
  %ei:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "f", is_constant = false} : (tensor<i32>) -> tensor<i32>
  %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") {N = 2 : i64, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %el:2 = Enter(%list#0) name("enter_list") {T = !tfg.variant, frame_name = "f", is_constant = false} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ml:3 = Merge(%el#0, %nl#0) name("merge_list") {N = 2 : i64, T = !tfg.variant} : (tensor<!tfg.variant>, tensor<!tfg.variant>) -> (tensor<!tfg.variant>, tensor<i32>)
  %en:2 = Enter(%limit#0) name("enter_n") {T = i32, frame_name = "f", is_constant = true} : (tensor<i32>) -> tensor<i32>
  %less:2 = Less(%mi#0, %en#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
  %si:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
  %ii:2 = Identity(%si#1) name("i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %sl:3 = Switch(%ml#0, %cond#0) name("switch_list") {T = !tfg.variant} : (tensor<!tfg.variant>, tensor<i1>) -> (tensor<!tfg.variant>, tensor<!tfg.variant>)
  %il:2 = Identity(%sl#1) name("l") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %ei2:2 = Enter(%item#0) name("enter_item") {T = f32, frame_name = "f", is_constant = true} : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{node 'set' (TensorListSetItem): grows its list (resize_if_index_out_of_bounds) at an index that no constant bounds}}
  %set:2 = TensorListSetItem(%il#0, %ii#0, %ei2#0) name("set") {element_dtype = f32, resize_if_index_out_of_bounds = true} : (tensor<!tfg.variant>, tensor<i32>, tensor<2xf32>) -> tensor<!tfg.variant>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %next:2 = AddV2(%ii#0, %one#0) name("next") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %ni:2 = NextIteration(%next#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
  %nl:2 = NextIteration(%set#0) name("next_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %xl:2 = Exit(%sl#0) name("exit_list") {T = !tfg.variant} : (tensor<!tfg.variant>) -> tensor<!tfg.variant>
  %stack:2 = TensorListStack(%xl#0, %shape#0) name("stack") {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tfg.variant>, tensor<1xi32>) -> tensor<?x2xf32>
}
