// Tests tfc-plan-memory on the MLP's step (after fusion): buffers reused
// once dead, elementwise groups in place, aliases, arena size. Offsets
// worked out by hand: MatMul1 [2,16] 128 B at 0; its fused BiasAdd+Relu
// (a fusion group: its offsets are the group's, its members have none) in
// place; MatMul2 [2,8] at 128 (0 is being read); Relu2 in place; MatMul3
// at 0 (dead by then); BiasAdd3 in place at 0; the Softmax and the
// Reshape aliasing it are fetched: they are made in output 0, not in the
// arena. Arena: 192 bytes.
// RUN: tfc-opt %s -split-input-file -tfc-plan-memory | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfc.arena_bytes = 192
// CHECK-DAG: name("mm1") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}) {tfc.offsets = array<i64: 0>} : (tensor<2x16xf32>
// CHECK-DAG: name("bias1") {T = f32} :
// CHECK-DAG: name("relu1") {T = f32} :
// CHECK-DAG: name("mm2") {T = f32, tfc.offsets = array<i64: 128>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}) {tfc.offsets = array<i64: 128>} : (tensor<2x8xf32>
// CHECK-DAG: name("mm3") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("bias3") {T = f32, data_format = "NHWC", tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("softmax") {T = f32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: name("flat") {T = f32, Tshape = i32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: name("x") {T = f32, index = 0 : i64, tfc.offsets = array<i64: -1>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["flat:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x32xf32>
    %w1:2 = Const name("w1") {dtype = f32, value = dense<1.0> : tensor<32x16xf32>} : () -> tensor<32x16xf32>
    %b1:2 = Const name("b1") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
    %w2:2 = Const name("w2") {dtype = f32, value = dense<1.0> : tensor<16x8xf32>} : () -> tensor<16x8xf32>
    %b2:2 = Const name("b2") {dtype = f32, value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
    %w3:2 = Const name("w3") {dtype = f32, value = dense<1.0> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
    %b3:2 = Const name("b3") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %mm1:2 = MatMul(%x#0, %w1#0) name("mm1") {T = f32} : (tensor<2x32xf32>, tensor<32x16xf32>) -> tensor<2x16xf32>
    %relu1:2 = tfc.fusion_group(%mm1#0, %b1#0) : (tensor<2x16xf32>, tensor<16xf32>) -> (tensor<2x16xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x16xf32>, %bias: tensor<16xf32>):
      %add:2 = BiasAdd(%in, %bias) name("bias1") {T = f32} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
      %relu:2 = Relu(%add#0) name("relu1") {T = f32} : (tensor<2x16xf32>) -> tensor<2x16xf32>
      tfc.yield %relu#0 : tensor<2x16xf32>
    }
    %mm2:2 = MatMul(%relu1#0, %w2#0) name("mm2") {T = f32} : (tensor<2x16xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>
    %relu2:2 = tfc.fusion_group(%mm2#0, %b2#0) : (tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x8xf32>, %bias: tensor<8xf32>):
      %add:2 = BiasAdd(%in, %bias) name("bias2") {T = f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
      %relu:2 = Relu(%add#0) name("relu2") {T = f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
      tfc.yield %relu#0 : tensor<2x8xf32>
    }
    %mm3:2 = MatMul(%relu2#0, %w3#0) name("mm3") {T = f32} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    %bias3:2 = BiasAdd(%mm3#0, %b3#0) name("bias3") {T = f32, data_format = "NHWC"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %sm:2 = Softmax(%bias3#0) name("softmax") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %shape:2 = Const name("shape") {dtype = i32, value = dense<8> : tensor<1xi32>} : () -> tensor<1xi32>
    %flat:2 = Reshape(%sm#0, %shape#0) name("flat") {T = f32, Tshape = i32} : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<8xf32>
    %r = _Retval(%flat#0) name("flat/_retval_0") {T = f32, index = 0} : (tensor<8xf32>) -> ()
  }
}

// -----

// An input still read later is not overwritten in place: `b` gets a
// buffer of its own, and `c` is written over `a` (both in output 0, the
// fetch's).
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("a") {T = f32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: name("b") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("c") {T = f32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["c:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %a:2 = Exp(%x#0) name("a") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %b:2 = Neg(%a#0) name("b") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %c:2 = AddV2(%a#0, %b#0) name("c") {T = f32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = _Retval(%c#0) name("c/_retval_0") {T = f32, index = 0} : (tensor<4xf32>) -> ()
  }
}

// -----

// A list pushed to in a loop (a TensorScatterUpdate of its loop variable)
// is updated in place: nothing but the Exit reads the variable after the
// push, so the push's output is the Merge's buffer (and the NextIteration
// copies nothing back). Outside a loop, a later reader of the tensor keeps
// the update out of place: `set` in its own output (1), apart from `made`,
// which `later` overwrites in output 2.
// CHECK-LABEL: tfg.graph
// CHECK: Merge{{.*}}name("merge"){{.*}}tfc.offsets = array<i64: [[ACC:[0-9]+]], {{[0-9]+}}>
// CHECK: TensorScatterUpdate{{.*}}name("push"){{.*}}tfc.offsets = array<i64: [[ACC]]>
// CHECK: Exit{{.*}}name("exit"){{.*}}tfc.offsets = array<i64: [[ACC]]>
// CHECK: Exp{{.*}}name("made"){{.*}}tfc.in_outputs = array<i64: 2>
// CHECK: TensorScatterUpdate{{.*}}name("set"){{.*}}tfc.in_outputs = array<i64: 1>
// CHECK: Neg{{.*}}name("later"){{.*}}tfc.in_outputs = array<i64: 2>
module attributes {tfc.feeds = ["p:0", "x:0", "t:0"], tfc.fetches = ["exit:0", "set:0", "later:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %x:2 = _Arg name("x") {T = f32, index = 1} : () -> tensor<1x2xf32>
    %t:2 = _Arg name("t") {T = f32, index = 2} : () -> tensor<4x2xf32>
    %zeros:2 = Const name("zeros") {dtype = f32, value = dense<0.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
    %index:2 = Const name("index") {dtype = i32, value = dense<1> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
    %enter:2 = Enter(%zeros#0) name("enter") {T = f32, frame_name = "loop", is_constant = false} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %ep:2 = Enter(%p#0) name("enter_p") {T = i1, frame_name = "loop", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %ex:2 = Enter(%x#0) name("enter_x") {T = f32, frame_name = "loop", is_constant = true} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %ei:2 = Enter(%index#0) name("enter_index") {T = i32, frame_name = "loop", is_constant = true} : (tensor<1x1xi32>) -> tensor<1x1xi32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>)
    %cond:2 = LoopCond(%ep#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = f32} : (tensor<4x2xf32>, tensor<i1>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
    %body:2 = Identity(%switch#1) name("body") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %push:2 = TensorScatterUpdate(%body#0, %ei#0, %ex#0) name("push") {T = f32, Tindices = i32} : (tensor<4x2xf32>, tensor<1x1xi32>, tensor<1x2xf32>) -> tensor<4x2xf32>
    %next:2 = NextIteration(%push#0) name("next") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %exit:2 = Exit(%switch#0) name("exit") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %made:2 = Exp(%t#0) name("made") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %set:2 = TensorScatterUpdate(%made#0, %index#0, %x#0) name("set") {T = f32, Tindices = i32} : (tensor<4x2xf32>, tensor<1x1xi32>, tensor<1x2xf32>) -> tensor<4x2xf32>
    %neg:2 = Neg(%made#0) name("later") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %r0 = _Retval(%exit#0) name("exit/_retval_0") {T = f32, index = 0} : (tensor<4x2xf32>) -> ()
    %r1 = _Retval(%set#0) name("set/_retval_1") {T = f32, index = 1} : (tensor<4x2xf32>) -> ()
    %r2 = _Retval(%neg#0) name("later/_retval_2") {T = f32, index = 2} : (tensor<4x2xf32>) -> ()
  }
}

// -----

// A loop variable starting from the list another loop filled lives in
// that list's buffer when nothing else reads the list from the second
// loop on: the first loop's push stays in place (what comes after its
// loop reads the final list), and the second loop starts without a copy.
// CHECK-LABEL: tfg.graph
// CHECK: Merge{{.*}}name("merge"){{.*}}tfc.offsets = array<i64: [[ACC:[0-9]+]], {{[0-9]+}}>
// CHECK: TensorScatterUpdate{{.*}}name("push"){{.*}}tfc.offsets = array<i64: [[ACC]]>
// CHECK: Merge{{.*}}name("merge2"){{.*}}tfc.offsets = array<i64: [[ACC]], {{[0-9]+}}>
module attributes {tfc.feeds = ["p:0", "x:0"], tfc.fetches = ["exit2:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %x:2 = _Arg name("x") {T = f32, index = 1} : () -> tensor<1x2xf32>
    %zeros:2 = Const name("zeros") {dtype = f32, value = dense<0.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
    %index:2 = Const name("index") {dtype = i32, value = dense<1> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
    %enter:2 = Enter(%zeros#0) name("enter") {T = f32, frame_name = "loop", is_constant = false} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %ep:2 = Enter(%p#0) name("enter_p") {T = i1, frame_name = "loop", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %ex:2 = Enter(%x#0) name("enter_x") {T = f32, frame_name = "loop", is_constant = true} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %ei:2 = Enter(%index#0) name("enter_index") {T = i32, frame_name = "loop", is_constant = true} : (tensor<1x1xi32>) -> tensor<1x1xi32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>)
    %cond:2 = LoopCond(%ep#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = f32} : (tensor<4x2xf32>, tensor<i1>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
    %body:2 = Identity(%switch#1) name("body") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %push:2 = TensorScatterUpdate(%body#0, %ei#0, %ex#0) name("push") {T = f32, Tindices = i32} : (tensor<4x2xf32>, tensor<1x1xi32>, tensor<1x2xf32>) -> tensor<4x2xf32>
    %next:2 = NextIteration(%push#0) name("next") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %exit:2 = Exit(%switch#0) name("exit") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %enter2:2 = Enter(%exit#0) name("enter2") {T = f32, frame_name = "loop2", is_constant = false} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %ep2:2 = Enter(%p#0) name("enter_p2") {T = i1, frame_name = "loop2", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %merge2:3 = Merge(%enter2#0, %next2#0) name("merge2") {N = 2, T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>)
    %cond2:2 = LoopCond(%ep2#0) name("cond2") : (tensor<i1>) -> tensor<i1>
    %switch2:3 = Switch(%merge2#0, %cond2#0) name("switch2") {T = f32} : (tensor<4x2xf32>, tensor<i1>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
    %body2:2 = Neg(%switch2#1) name("body2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %next2:2 = NextIteration(%body2#0) name("next2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %exit2:2 = Exit(%switch2#0) name("exit2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %r0 = _Retval(%exit2#0) name("exit2/_retval_0") {T = f32, index = 0} : (tensor<4x2xf32>) -> ()
  }
}

// -----

// The same, but the first loop's list is read again after the second
// loop: the second loop's variable gets a buffer of its own.
// CHECK-LABEL: tfg.graph
// CHECK: Merge{{.*}}name("merge"){{.*}}tfc.offsets = array<i64: [[ACC:[0-9]+]], {{[0-9]+}}>
// CHECK: TensorScatterUpdate{{.*}}name("push"){{.*}}tfc.offsets = array<i64: [[ACC]]>
// CHECK-NOT: name("merge2"){{.*}}tfc.offsets = array<i64: [[ACC]],
// CHECK: name("both")
module attributes {tfc.feeds = ["p:0", "x:0"], tfc.fetches = ["both:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %x:2 = _Arg name("x") {T = f32, index = 1} : () -> tensor<1x2xf32>
    %zeros:2 = Const name("zeros") {dtype = f32, value = dense<0.0> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
    %index:2 = Const name("index") {dtype = i32, value = dense<1> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
    %enter:2 = Enter(%zeros#0) name("enter") {T = f32, frame_name = "loop", is_constant = false} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %ep:2 = Enter(%p#0) name("enter_p") {T = i1, frame_name = "loop", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %ex:2 = Enter(%x#0) name("enter_x") {T = f32, frame_name = "loop", is_constant = true} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %ei:2 = Enter(%index#0) name("enter_index") {T = i32, frame_name = "loop", is_constant = true} : (tensor<1x1xi32>) -> tensor<1x1xi32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>)
    %cond:2 = LoopCond(%ep#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = f32} : (tensor<4x2xf32>, tensor<i1>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
    %body:2 = Identity(%switch#1) name("body") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %push:2 = TensorScatterUpdate(%body#0, %ei#0, %ex#0) name("push") {T = f32, Tindices = i32} : (tensor<4x2xf32>, tensor<1x1xi32>, tensor<1x2xf32>) -> tensor<4x2xf32>
    %next:2 = NextIteration(%push#0) name("next") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %exit:2 = Exit(%switch#0) name("exit") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %enter2:2 = Enter(%exit#0) name("enter2") {T = f32, frame_name = "loop2", is_constant = false} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %ep2:2 = Enter(%p#0) name("enter_p2") {T = i1, frame_name = "loop2", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %merge2:3 = Merge(%enter2#0, %next2#0) name("merge2") {N = 2, T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>)
    %cond2:2 = LoopCond(%ep2#0) name("cond2") : (tensor<i1>) -> tensor<i1>
    %switch2:3 = Switch(%merge2#0, %cond2#0) name("switch2") {T = f32} : (tensor<4x2xf32>, tensor<i1>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
    %body2:2 = Neg(%switch2#1) name("body2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %next2:2 = NextIteration(%body2#0) name("next2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %exit2:2 = Exit(%switch2#0) name("exit2") {T = f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %both:2 = AddV2(%exit#0, %exit2#0) name("both") {T = f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    %r0 = _Retval(%both#0) name("both/_retval_0") {T = f32, index = 0} : (tensor<4x2xf32>) -> ()
  }
}

// -----

// Fetches are made in their output parameters: the product `mm` and the
// group writing in place over it (`out`, fetched as output 1) live in
// output 1, not in the arena; `early` is fetched (output 0) before `late`
// (read by nothing here) writes in place over its buffer, so it stays in
// the arena and its _Retval copies it; `twice` is fetched twice and lives in the first
// output that fetches it (2). The arena holds `early`'s buffer alone.
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfc.arena_bytes = 64
// CHECK-DAG: name("mm") {T = f32, tfc.in_outputs = array<i64: 1>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}) {tfc.in_outputs = array<i64: 1>, tfc.offsets = array<i64: -1>} : (tensor<2x4xf32>
// CHECK-DAG: name("early") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("late") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("twice") {T = f32, tfc.in_outputs = array<i64: 2>, tfc.offsets = array<i64: -1>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["early:0", "out:0", "twice:0", "twice:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<2x3xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<1.0> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
    %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %mm:2 = MatMul(%x#0, %w#0) name("mm") {T = f32} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %out:2 = tfc.fusion_group(%mm#0, %b#0) : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, !tfg.control) {
    ^bb0(%in: tensor<2x4xf32>, %bias: tensor<4xf32>):
      %add:2 = BiasAdd(%in, %bias) name("bias") {T = f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
      %relu:2 = Relu(%add#0) name("relu") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
      tfc.yield %relu#0 : tensor<2x4xf32>
    }
    %early:2 = Exp(%x#0) name("early") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %r0 = _Retval(%early#0) name("early/_retval_0") {T = f32, index = 0} : (tensor<2x3xf32>) -> ()
    %late:2 = Neg(%early#0) name("late") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %twice:2 = Sqrt(%x#0) name("twice") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %r1 = _Retval(%out#0) name("out/_retval_1") {T = f32, index = 1} : (tensor<2x4xf32>) -> ()
    %r2 = _Retval(%twice#0) name("twice/_retval_2") {T = f32, index = 2} : (tensor<2x3xf32>) -> ()
    %r3 = _Retval(%twice#0) name("twice/_retval_3") {T = f32, index = 3} : (tensor<2x3xf32>) -> ()
  }
}

// -----

// A group computed by convolutions writes in place only over the residual
// its epilogue adds, and not where a convolution of the group reads the
// same buffer. `first`, a separable group (the ReLU before its depthwise
// reads `a`) adding `r`, is written over `r` (both in output 0, as the
// additions after it that lead to the fetched sum); `second` reads `a`
// (at 0, dead after it) through its ReLU and depthwise and adds `a` too:
// writing over `a` would let a band's output overwrite rows the next
// band's windows read, so it gets a buffer of its own (1024); `third`, a
// 1x1 convolution adding its own image `b` (at 0 once `a` is dead),
// likewise (2048).
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfc.arena_bytes = 3072
// CHECK-DAG: name("a") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("r") {T = f32, tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {tfc.in_outputs = array<i64: 0>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}, %{{.*}}, %{{.*}}) {tfc.offsets = array<i64: 1024>}
// CHECK-DAG: name("b") {T = f32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: tfc.fusion_group(%{{.*}}, %{{.*}}) {tfc.offsets = array<i64: 2048>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["sum:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x4x4x16xf32>
    %d:2 = Const name("d") {dtype = f32, value = dense<0.25> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
    %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
    %a:2 = Exp(%x#0) name("a") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %r:2 = Neg(%x#0) name("r") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %first:2 = tfc.fusion_group(%a#0, %d#0, %w#0, %r#0) : (tensor<1x4x4x16xf32>, tensor<3x3x16x1xf32>, tensor<1x1x16x16xf32>, tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, !tfg.control) {
    ^bb0(%in: tensor<1x4x4x16xf32>, %df: tensor<3x3x16x1xf32>, %wf: tensor<1x1x16x16xf32>, %res: tensor<1x4x4x16xf32>):
      %relu:2 = Relu(%in) name("first_relu") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      %dw:2 = DepthwiseConv2dNative(%relu#0, %df) name("first_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32>
      %pw:2 = Conv2D(%dw#0, %wf) name("first_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32>
      %add:2 = AddV2(%pw#0, %res) name("first_add") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      tfc.yield %add#0 : tensor<1x4x4x16xf32>
    }
    %second:2 = tfc.fusion_group(%a#0, %d#0, %w#0) : (tensor<1x4x4x16xf32>, tensor<3x3x16x1xf32>, tensor<1x1x16x16xf32>) -> (tensor<1x4x4x16xf32>, !tfg.control) {
    ^bb0(%in: tensor<1x4x4x16xf32>, %df: tensor<3x3x16x1xf32>, %wf: tensor<1x1x16x16xf32>):
      %relu:2 = Relu(%in) name("second_relu") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      %dw:2 = DepthwiseConv2dNative(%relu#0, %df) name("second_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32>
      %pw:2 = Conv2D(%dw#0, %wf) name("second_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32>
      %add:2 = AddV2(%pw#0, %in) name("second_add") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      tfc.yield %add#0 : tensor<1x4x4x16xf32>
    }
    %b:2 = Sqrt(%x#0) name("b") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %third:2 = tfc.fusion_group(%b#0, %w#0) : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> (tensor<1x4x4x16xf32>, !tfg.control) {
    ^bb0(%in: tensor<1x4x4x16xf32>, %wf: tensor<1x1x16x16xf32>):
      %pw:2 = Conv2D(%in, %wf) name("third_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32>
      %add:2 = AddV2(%pw#0, %in) name("third_add") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      tfc.yield %add#0 : tensor<1x4x4x16xf32>
    }
    %s1:2 = AddV2(%first#0, %second#0) name("partial") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %sum:2 = AddV2(%s1#0, %third#0) name("sum") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %ret = _Retval(%sum#0) name("sum/_retval_0") {T = f32, index = 0} : (tensor<1x4x4x16xf32>) -> ()
  }
}

// -----

// Concatenations in place (a DenseNet block): c1 and c2 are read by the
// next concatenation along the same axis and otherwise only by
// elementwise nodes, so each is made in its part of the next one's
// buffer, and the chain is one buffer of c3's 160 bytes (192 aligned) at
// 0; c2 and c3 copy only their second operand. c1's first operand is an
// _Arg, copied. The ReLUs are fetched (in their outputs); c3 is fetched
// too, but its buffer holds smaller windows, so it stays in the arena.
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfc.arena_bytes = 192
// CHECK-DAG: %[[C1:.*]]:2 = ConcatV2({{.*}}) name("c1") {N = 2 : i64, T = f32, Tidx = i32, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("c2") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 0>, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("c3") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 0>, tfc.offsets = array<i64: 0>}
// CHECK-DAG: name("r1") {T = f32, tfc.in_outputs = array<i64: 1>, tfc.offsets = array<i64: -1>}
// CHECK-DAG: name("r2") {T = f32, tfc.in_outputs = array<i64: 2>, tfc.offsets = array<i64: -1>}
module attributes {tfc.feeds = ["x:0", "a1:0", "a2:0", "a3:0"], tfc.fetches = ["c3:0", "r1:0", "r2:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x2x2x4xf32>
    %a1:2 = _Arg name("a1") {T = f32, index = 1} : () -> tensor<1x2x2x2xf32>
    %a2:2 = _Arg name("a2") {T = f32, index = 2} : () -> tensor<1x2x2x2xf32>
    %a3:2 = _Arg name("a3") {T = f32, index = 3} : () -> tensor<1x2x2x2xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %c1:2 = ConcatV2(%x#0, %a1#0, %axis#0) name("c1") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x4xf32>, tensor<1x2x2x2xf32>, tensor<i32>) -> tensor<1x2x2x6xf32>
    %r1:2 = Relu(%c1#0) name("r1") {T = f32} : (tensor<1x2x2x6xf32>) -> tensor<1x2x2x6xf32>
    %c2:2 = ConcatV2(%c1#0, %a2#0, %axis#0) name("c2") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x6xf32>, tensor<1x2x2x2xf32>, tensor<i32>) -> tensor<1x2x2x8xf32>
    %r2:2 = Relu(%c2#0) name("r2") {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
    %c3:2 = ConcatV2(%c2#0, %a3#0, %axis#0) name("c3") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x8xf32>, tensor<1x2x2x2xf32>, tensor<i32>) -> tensor<1x2x2x10xf32>
    %ret0 = _Retval(%c3#0) name("c3/_retval_0") {T = f32, index = 0} : (tensor<1x2x2x10xf32>) -> ()
    %ret1 = _Retval(%r1#0) name("r1/_retval_1") {T = f32, index = 1} : (tensor<1x2x2x6xf32>) -> ()
    %ret2 = _Retval(%r2#0) name("r2/_retval_2") {T = f32, index = 2} : (tensor<1x2x2x8xf32>) -> ()
  }
}

// -----

// Not in place: c1 is also read by a Sum (not an elementwise loop), and c2
// is concatenated along another axis; each concatenation copies all its
// operands into a buffer of its own.
// CHECK-LABEL: tfg.graph
// CHECK-NOT: tfc.in_place_operands
// CHECK: tfc.arena_bytes
module attributes {tfc.feeds = ["x:0", "a1:0", "a2:0", "a3:0"], tfc.fetches = ["c3:0", "s:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x2x2x4xf32>
    %a1:2 = _Arg name("a1") {T = f32, index = 1} : () -> tensor<1x2x2x2xf32>
    %a2:2 = _Arg name("a2") {T = f32, index = 2} : () -> tensor<1x2x2x2xf32>
    %a3:2 = _Arg name("a3") {T = f32, index = 3} : () -> tensor<1x2x2x8xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %rows:2 = Const name("rows") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %c1:2 = ConcatV2(%x#0, %a1#0, %axis#0) name("c1") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x4xf32>, tensor<1x2x2x2xf32>, tensor<i32>) -> tensor<1x2x2x6xf32>
    %s:2 = Sum(%c1#0, %axis#0) name("s") {T = f32, Tidx = i32, keep_dims = false} : (tensor<1x2x2x6xf32>, tensor<i32>) -> tensor<1x2x2xf32>
    %c2:2 = ConcatV2(%c1#0, %a2#0, %axis#0) name("c2") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x6xf32>, tensor<1x2x2x2xf32>, tensor<i32>) -> tensor<1x2x2x8xf32>
    %c3:2 = ConcatV2(%c2#0, %a3#0, %rows#0) name("c3") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>, tensor<i32>) -> tensor<1x4x2x8xf32>
    %ret0 = _Retval(%c3#0) name("c3/_retval_0") {T = f32, index = 0} : (tensor<1x4x2x8xf32>) -> ()
    %ret1 = _Retval(%s#0) name("s/_retval_1") {T = f32, index = 1} : (tensor<1x2x2xf32>) -> ()
  }
}

// -----

// A convolution's output concatenated along the channels is made in its
// window of the concatenation's buffer (the 3x3 convolution of a DenseNet
// layer): the concatenation copies only x.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1], tfc.offsets = array<i64: [[AT:[0-9]+]]>}
// CHECK-DAG: name("cat") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 1>, tfc.offsets = array<i64: [[AT]]>}
module attributes {tfc.feeds = ["x:0", "z:0"], tfc.fetches = ["r:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x4x4x8xf32>
    %z:2 = _Arg name("z") {T = f32, index = 1} : () -> tensor<1x4x4x16xf32>
    %f:2 = Const name("f") {dtype = f32, value = dense<0.5> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %conv:2 = Conv2D(%z#0, %f#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x4x4x16xf32>
    %cat:2 = ConcatV2(%x#0, %conv#0, %axis#0) name("cat") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x4x4x8xf32>, tensor<1x4x4x16xf32>, tensor<i32>) -> tensor<1x4x4x24xf32>
    %r:2 = Relu(%cat#0) name("r") {T = f32} : (tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
    %ret = _Retval(%r#0) name("r/_retval_0") {T = f32, index = 0} : (tensor<1x4x4x24xf32>) -> ()
  }
}

// -----

// In a loop (tfc-split-batch's micro-batches are one), a concatenation
// whose operands are made in the same loop is in place as it is outside
// one: the convolution and the Exp write their windows of its buffer,
// which lives within an iteration.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("e") {T = f32, tfc.offsets = array<i64: [[AT:[0-9]+]]>}
// CHECK-DAG: name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1], tfc.offsets = array<i64: [[AT]]>}
// CHECK-DAG: name("cat") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 0, 1>, tfc.offsets = array<i64: [[AT]]>}
module attributes {tfc.feeds = ["x:0"], tfc.fetches = ["exit:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x4x4x16xf32>
    %f:2 = Const name("f") {dtype = f32, value = dense<0.5> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %init:2 = Const name("init") {dtype = f32, value = dense<0.0> : tensor<1x4x4x32xf32>} : () -> tensor<1x4x4x32xf32>
    %ei:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %ev:2 = Enter(%init#0) name("enter_v") {T = f32, frame_name = "loop", is_constant = false} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    %ex:2 = Enter(%x#0) name("enter_x") {T = f32, frame_name = "loop", is_constant = true} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %mi:3 = Merge(%ei#0, %ni#0) name("merge_i") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %mv:3 = Merge(%ev#0, %nv#0) name("merge_v") {N = 2, T = f32} : (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) -> (tensor<1x4x4x32xf32>, tensor<i32>)
    %less:2 = Less(%mi#0, %two#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %si:3 = Switch(%mi#0, %cond#0) name("switch_i") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %sv:3 = Switch(%mv#0, %cond#0) name("switch_v") {T = f32} : (tensor<1x4x4x32xf32>, tensor<i1>) -> (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>)
    %i:2 = Identity(%si#1) name("i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %v:2 = Identity(%sv#1) name("v") {T = f32} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    %e:2 = Exp(%ex#0) name("e") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %conv:2 = Conv2D(%ex#0, %f#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x4x4x16xf32>
    %cat:2 = ConcatV2(%e#0, %conv#0, %axis#0) name("cat") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<i32>) -> tensor<1x4x4x32xf32>
    %sum:2 = AddV2(%v#0, %cat#0) name("sum") {T = f32} : (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    %inc:2 = AddV2(%i#0, %one#0) name("inc") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %ni:2 = NextIteration(%inc#0) name("next_i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %nv:2 = NextIteration(%sum#0) name("next_v") {T = f32} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    %exit:2 = Exit(%sv#0) name("exit") {T = f32} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    %ret = _Retval(%exit#0) name("exit/_retval_0") {T = f32, index = 0} : (tensor<1x4x4x32xf32>) -> ()
  }
}

// -----

// An elementwise loop's output concatenated is made in its window too
// (any axis: a linalg.generic writes any view); a convolution whose
// epilogue adds a residual is not (its kernel reads the residual where it
// writes).
// CHECK-LABEL: tfg.graph
// CHECK-DAG: name("cat") {N = 2 : i64, T = f32, Tidx = i32, tfc.in_place_operands = array<i64: 0>, tfc.offsets = array<i64: [[AT:[0-9]+]]>}
// CHECK-DAG: name("e") {T = f32, tfc.offsets = array<i64: [[AT]]>}
module attributes {tfc.feeds = ["x:0", "z:0"], tfc.fetches = ["r:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<1x4x4x16xf32>
    %z:2 = _Arg name("z") {T = f32, index = 1} : () -> tensor<1x4x4x16xf32>
    %f:2 = Const name("f") {dtype = f32, value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
    %axis:2 = Const name("axis") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %e:2 = Exp(%x#0) name("e") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %res:2 = tfc.fusion_group(%z#0, %f#0, %x#0) : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>, tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, !tfg.control) {
    ^bb0(%in: tensor<1x4x4x16xf32>, %wf: tensor<1x1x16x16xf32>, %skip: tensor<1x4x4x16xf32>):
      %pw:2 = Conv2D(%in, %wf) name("pw") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32>
      %add:2 = AddV2(%pw#0, %skip) name("add") {T = f32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
      tfc.yield %add#0 : tensor<1x4x4x16xf32>
    }
    %cat:2 = ConcatV2(%e#0, %res#0, %axis#0) name("cat") {N = 2 : i64, T = f32, Tidx = i32} : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>, tensor<i32>) -> tensor<1x8x4x16xf32>
    %r:2 = Relu(%cat#0) name("r") {T = f32} : (tensor<1x8x4x16xf32>) -> tensor<1x8x4x16xf32>
    %ret = _Retval(%r#0) name("r/_retval_0") {T = f32, index = 0} : (tensor<1x8x4x16xf32>) -> ()
  }
}
