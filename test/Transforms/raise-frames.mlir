// Tests tfc-raise-frames: a TF1 while loop (counting i up to a limit that
// enters as a constant) is laid out as it runs: the Enters and the Merge,
// the condition (Less), LoopCond and the Switch, the body, the
// NextIteration, the Exit; each node of the frame records its frame.
// A frame that is not such a loop is an error naming the frame and node.
// RUN: tfc-opt %s -split-input-file -tfc-raise-frames -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tfg.graph
// CHECK: Const name("zero")
// CHECK: Enter{{.*}}name("enter_i"){{.*}}tfc.frame = "loop"
// CHECK: Enter{{.*}}name("enter_limit")
// CHECK: Merge{{.*}}name("merge")
// CHECK: Less{{.*}}name("less")
// CHECK: LoopCond{{.*}}name("cond")
// CHECK: Switch{{.*}}name("switch")
// CHECK: Identity{{.*}}name("body_i")
// CHECK: AddV2{{.*}}name("next_i")
// CHECK: NextIteration{{.*}}name("next")
// CHECK: Exit{{.*}}name("exit")
// CHECK: Identity{{.*}}name("result")
// CHECK-NOT: tfc.frame
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = ["result:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %result:2 = Identity(%exit#0) name("result") {T = i32} : (tensor<i32>) -> tensor<i32>
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %body:2 = Identity(%switch#1) name("body_i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %one:2 = Const [%body#1] name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %add:2 = AddV2(%body#0, %one#0) name("next_i") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %next:2 = NextIteration(%add#0) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%switch#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
    %r = _Retval(%result#0) name("result/_retval_0") {T = i32, index = 0} : (tensor<i32>) -> ()
  }
}

// -----

// An Enter that is not constant must start a loop variable.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    // expected-error @+1 {{frame 'loop': node 'enter_limit' (Enter) is neither constant nor a loop variable's Enter}}
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %next:2 = NextIteration(%switch#1) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// A frame without a LoopCond is no loop.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    // expected-error @+1 {{frame 'loop': node 'enter_i' (Enter) enters a frame without a LoopCond}}
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %neg:2 = Neg(%enter#0) name("neg") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// A value of the loop read after it without an Exit.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i1, value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %enter:2 = Enter(%zero#0) name("enter_b") {T = i1, frame_name = "loop", is_constant = false} : (tensor<i1>) -> tensor<i1>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i32>)
    %cond:2 = LoopCond(%merge#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i1>)
    %next:2 = NextIteration(%switch#1) name("next") {T = i1} : (tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'not' (LogicalNot) reads a loop variable after the loop ends without an Exit}}
    %not:2 = LogicalNot(%switch#0) name("not") : (tensor<i1>) -> tensor<i1>
  }
}

// -----

// A fetch from inside a loop: only an Exit's value leaves it.
module attributes {tfc.feeds = [], tfc.fetches = ["body:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i1, value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %enter:2 = Enter(%zero#0) name("enter_b") {T = i1, frame_name = "loop", is_constant = false} : (tensor<i1>) -> tensor<i1>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i32>)
    %cond:2 = LoopCond(%merge#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i1>)
    %body:2 = Identity(%switch#1) name("body") {T = i1} : (tensor<i1>) -> tensor<i1>
    %next:2 = NextIteration(%body#0) name("next") {T = i1} : (tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'body/_retval_0' (_Retval) is fetched from inside the loop; fetch the loop's Exit instead}}
    %r = _Retval(%body#0) name("body/_retval_0") {T = i1, index = 0} : (tensor<i1>) -> ()
  }
}

// -----

// A value made outside the loop, read inside it without an Enter (a
// constant may be; anything else lives in a buffer the plan may reuse
// while the loop runs).
module attributes {tfc.feeds = ["x"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i1, value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %x:2 = _Arg name("x") {T = i1, index = 0 : i64} : () -> tensor<i1>
    %enter:2 = Enter(%zero#0) name("enter_b") {T = i1, frame_name = "loop", is_constant = false} : (tensor<i1>) -> tensor<i1>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i32>)
    %cond:2 = LoopCond(%merge#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i1>)
    %with_constant:2 = LogicalOr(%switch#1, %zero#0) name("with_constant") : (tensor<i1>, tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'body' (LogicalAnd) reads 'x', made outside the loop, without an Enter}}
    %body:2 = LogicalAnd(%with_constant#0, %x#0) name("body") : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %next:2 = NextIteration(%body#0) name("next") {T = i1} : (tensor<i1>) -> tensor<i1>
    %exit:2 = Exit(%switch#0) name("exit") {T = i1} : (tensor<i1>) -> tensor<i1>
  }
}

// -----

// A node reading values of two different loops.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %a:2 = Enter(%zero#0) name("a") {T = i32, frame_name = "first", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %b:2 = Enter(%zero#0) name("b") {T = i32, frame_name = "second", is_constant = true} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{node 'sum' takes inputs from two loop frames, 'first' and 'second'}}
    %sum:2 = AddV2(%a#0, %b#0) name("sum") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  }
}

// -----

// A loop Merge must join the variable's Enter and its NextIteration.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i1, value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %enter:2 = Enter(%zero#0) name("enter_b") {T = i1, frame_name = "loop", is_constant = false} : (tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'merge' (Merge) is a loop Merge that does not join one Enter and one NextIteration}}
    %merge:3 = Merge(%enter#0, %enter#0) name("merge") {N = 2, T = i1} : (tensor<i1>, tensor<i1>) -> (tensor<i1>, tensor<i32>)
    %cond:2 = LoopCond(%merge#0) name("cond") : (tensor<i1>) -> tensor<i1>
  }
}

// -----

// One LoopCond per frame.
module attributes {tfc.feeds = [], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %zero:2 = Const name("zero") {dtype = i1, value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %enter:2 = Enter(%zero#0) name("enter_b") {T = i1, frame_name = "loop", is_constant = true} : (tensor<i1>) -> tensor<i1>
    %c1:2 = LoopCond(%enter#0) name("cond") : (tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'cond_again' (LoopCond) is a second LoopCond}}
    %c2:2 = LoopCond(%enter#0) name("cond_again") : (tensor<i1>) -> tensor<i1>
  }
}

// -----

// TensorFlow's gradient loops group the Switch's false output with control
// edges before the Exit (an Identity waiting for a NoOp): the Identity
// aliases the loop variable, and the Exit after it leaves the loop. A
// variable may leave through several Exits; each is laid out after the
// loop.
// CHECK-LABEL: tfg.graph
// CHECK: Switch{{.*}}name("switch")
// CHECK: Identity{{.*}}name("grouped"){{.*}}tfc.frame = "loop"
// CHECK: NextIteration{{.*}}name("next")
// CHECK-DAG: Exit{{.*}}name("exit"){{.*}}tfc.frame = "loop"
// CHECK-DAG: Exit{{.*}}name("exit_direct"){{.*}}tfc.frame = "loop"
// CHECK: Identity{{.*}}name("result")
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = ["result:0", "exit_direct:0"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %deps = NoOp [%switch#2] name("group_deps")
    %grouped:2 = Identity(%switch#0) [%deps] name("grouped") {T = i32} : (tensor<i32>) -> tensor<i32>
    %body:2 = Identity(%switch#1) name("body_i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %one:2 = Const [%body#1] name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %add:2 = AddV2(%body#0, %one#0) name("next_i") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %next:2 = NextIteration(%add#0) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%grouped#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit2:2 = Exit(%switch#0) name("exit_direct") {T = i32} : (tensor<i32>) -> tensor<i32>
    %result:2 = Identity(%exit#0) name("result") {T = i32} : (tensor<i32>) -> tensor<i32>
    %r = _Retval(%result#0) name("result/_retval_0") {T = i32, index = 0} : (tensor<i32>) -> ()
    %r2 = _Retval(%exit2#0) name("exit_direct/_retval_1") {T = i32, index = 1} : (tensor<i32>) -> ()
  }
}

// -----

// Anything else reading the false output is an error.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %grouped:2 = Identity(%switch#0) name("grouped") {T = i32} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{frame 'loop': node 'twice' (AddV2) reads a loop variable after the loop ends without an Exit}}
    %twice:2 = AddV2(%grouped#0, %grouped#0) name("twice") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %next:2 = NextIteration(%switch#1) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%grouped#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// An Enter must name its frame.
module attributes {tfc.feeds = ["x:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = i32, index = 0} : () -> tensor<i32>
    // expected-error @+1 {{node 'enter' (Enter) has no frame_name}}
    %enter:2 = Enter(%x#0) name("enter") {T = i32, frame_name = "", is_constant = true} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// A loop variable is read by one Switch on the LoopCond.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    // (The error names whichever of the two Switches it meets second.)
    // expected-error @+1 {{frame 'loop': node 'switch' (Switch) is a second Switch of a loop variable}}
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %again:3 = Switch(%merge#0, %cond#0) name("switch_again") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %next:2 = NextIteration(%switch#1) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%switch#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{frame 'loop': node 'merge' (Merge) is a loop variable no Switch on the LoopCond reads}}
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %add:2 = AddV2(%merge#0, %one#0) name("add") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %next:2 = NextIteration(%add#0) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// A NextIteration that feeds no loop variable's Merge.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %next:2 = NextIteration(%switch#1) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{frame 'loop': node 'stray' (NextIteration) is not part of a loop variable}}
    %stray:2 = NextIteration(%switch#1) name("stray") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%switch#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// A LoopCond with no loop variable.
module attributes {tfc.feeds = ["p:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %p:2 = _Arg name("p") {T = i1, index = 0} : () -> tensor<i1>
    %enter:2 = Enter(%p#0) name("enter_p") {T = i1, frame_name = "loop", is_constant = true} : (tensor<i1>) -> tensor<i1>
    // expected-error @+1 {{frame 'loop': node 'cond' (LoopCond) ends a loop without variables}}
    %cond:2 = LoopCond(%enter#0) name("cond") : (tensor<i1>) -> tensor<i1>
  }
}

// -----

// An Exit that does not read a loop variable's Switch.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "loop", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "loop", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%merge#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %body:2 = Identity(%switch#1) name("body_i") {T = i32} : (tensor<i32>) -> tensor<i32>
    %one:2 = Const [%body#1] name("one") {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %add:2 = AddV2(%body#0, %one#0) name("next_i") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %next:2 = NextIteration(%add#0) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%switch#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{frame 'loop': node 'exit_body' (Exit) is not part of a loop variable}}
    %stray:2 = Exit(%add#0) name("exit_body") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}

// -----

// An outer loop whose condition waits for an inner loop.
module attributes {tfc.feeds = ["limit:0"], tfc.fetches = []} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %limit:2 = _Arg name("limit") {T = i32, index = 0} : () -> tensor<i32>
    %zero:2 = Const name("zero") {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %enter:2 = Enter(%zero#0) name("enter_i") {T = i32, frame_name = "outer", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %merge:3 = Merge(%enter#0, %next#0) name("merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %elimit:2 = Enter(%limit#0) name("enter_limit") {T = i32, frame_name = "outer", is_constant = true} : (tensor<i32>) -> tensor<i32>
    // The inner loop counts j up to i, in the outer loop's condition.
    %ienter:2 = Enter(%merge#0) name("inner_enter") {T = i32, frame_name = "inner", is_constant = false} : (tensor<i32>) -> tensor<i32>
    %imerge:3 = Merge(%ienter#0, %inext#0) name("inner_merge") {N = 2, T = i32} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %ilimit:2 = Enter(%elimit#0) name("inner_limit") {T = i32, frame_name = "inner", is_constant = true} : (tensor<i32>) -> tensor<i32>
    %iless:2 = Less(%imerge#0, %ilimit#0) name("inner_less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %icond:2 = LoopCond(%iless#0) name("inner_cond") : (tensor<i1>) -> tensor<i1>
    %iswitch:3 = Switch(%imerge#0, %icond#0) name("inner_switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %inext:2 = NextIteration(%iswitch#1) name("inner_next") {T = i32} : (tensor<i32>) -> tensor<i32>
    // expected-error @+1 {{frame 'outer': node 'inner_exit' (Exit) is an inner loop the condition depends on}}
    %iexit:2 = Exit(%iswitch#0) name("inner_exit") {T = i32} : (tensor<i32>) -> tensor<i32>
    %less:2 = Less(%iexit#0, %elimit#0) name("less") {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cond:2 = LoopCond(%less#0) name("cond") : (tensor<i1>) -> tensor<i1>
    %switch:3 = Switch(%merge#0, %cond#0) name("switch") {T = i32} : (tensor<i32>, tensor<i1>) -> (tensor<i32>, tensor<i32>)
    %next:2 = NextIteration(%switch#1) name("next") {T = i32} : (tensor<i32>) -> tensor<i32>
    %exit:2 = Exit(%switch#0) name("exit") {T = i32} : (tensor<i32>) -> tensor<i32>
  }
}
