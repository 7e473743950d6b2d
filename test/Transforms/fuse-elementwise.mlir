// Tests tfc-fuse-elementwise: chains fuse into their consumer's group, one
// tfc.fusion_group where the root was; a value used twice, a shape change,
// a non-elementwise consumer or another device ends a group.
// RUN: tfc-opt %s -split-input-file -tfc-fuse-elementwise | FileCheck %s

// add and mul move into relu's group, in dependency order: they read the
// group's inputs (x once, though two members read it) as block arguments,
// and the group yields relu's value.
// CHECK-LABEL: tfg.graph
// CHECK: %[[X:[0-9]+]]:2 = Placeholder name("x")
// CHECK: %[[Y:[0-9]+]]:2 = Placeholder name("y")
// CHECK: tfc.fusion_group(%[[X]]#0, %[[Y]]#0) : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0(%[[GX:.*]]: tensor<2x3xf32>, %[[GY:.*]]: tensor<3xf32>):
// CHECK-NEXT: %[[ADD:[0-9]+]]:2 = AddV2(%[[GX]], %[[GY]]) name("add") {T = f32}
// CHECK-NEXT: %[[MUL:[0-9]+]]:2 = Mul(%[[ADD]]#0, %[[GX]]) name("mul") {T = f32}
// CHECK-NEXT: %[[RELU:[0-9]+]]:2 = Relu(%[[MUL]]#0) name("relu") {T = f32}
// CHECK-NEXT: tfc.yield %[[RELU]]#0 : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: Exp({{.*}}) name("twice") {T = f32}
// CHECK-NEXT: Neg({{.*}}) name("u1")
// CHECK-NEXT: Abs({{.*}}) name("u2")
// CHECK-NEXT: Neg({{.*}}) name("small") {T = f32}
// CHECK-NEXT: AddV2({{.*}}) name("big")
// CHECK-NEXT: Tanh({{.*}}) name("before_matmul") {T = f32}
// CHECK: Sigmoid({{.*}}) name("other_device") device("/cpu:1") {T = f32}
// CHECK-NEXT: Neg({{.*}}) name("n")
// A Cast fuses (element types may differ, shapes agree).
// CHECK: tfc.fusion_group({{.*}}) : (tensor<2x3xi32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Cast({{.*}}) name("cast")
// CHECK-NEXT: %[[SUM:[0-9]+]]:2 = AddV2({{.*}}) name("sum")
// CHECK-NEXT: tfc.yield %[[SUM]]#0
// CHECK-NEXT: }
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xf32>
  %y:2 = Placeholder name("y") {dtype = f32, shape = #tfg.shape<3>} : () -> tensor<3xf32>
  // add and mul chain into relu (y broadcasts; shapes of the chain agree).
  %add:2 = AddV2(%x#0, %y#0) name("add") {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %mul:2 = Mul(%add#0, %x#0) name("mul") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %relu:2 = Relu(%mul#0) name("relu") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // Used twice: materialized.
  %twice:2 = Exp(%x#0) name("twice") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u1:2 = Neg(%twice#0) name("u1") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u2:2 = Abs(%twice#0) name("u2") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // The consumer has another shape (it broadcasts this value).
  %small:2 = Neg(%y#0) name("small") {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
  %big:2 = AddV2(%x#0, %small#0) name("big") {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // The consumer is a MatMul.
  %t:2 = Tanh(%x#0) name("before_matmul") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3>} : () -> tensor<3x3xf32>
  %mm:2 = MatMul(%t#0, %w#0) name("mm") {T = f32} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %s:2 = Sigmoid(%x#0) name("other_device") device("/cpu:1") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n:2 = Neg(%s#0) name("n") {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // A Cast fuses: element types may differ, shapes agree.
  %i:2 = Placeholder name("i") {dtype = i32, shape = #tfg.shape<2x3>} : () -> tensor<2x3xi32>
  %cast:2 = Cast(%i#0) name("cast") {DstT = f32, SrcT = i32} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %sum:2 = AddV2(%cast#0, %x#0) name("sum") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
}

// -----

// A member's control inputs become the group's; the root's users (data
// and control) read the group's results. A consumer that also waits on
// its producer by a control edge still fuses: inside the group it comes
// after it anyway.
// CHECK-LABEL: tfg.graph
// CHECK: %[[C:[0-9]+]]:2 = Placeholder name("c")
// CHECK: %[[G:[0-9]+]]:2 = tfc.fusion_group(%{{[0-9]+}}#0, %[[C]]#1) : (tensor<2xf32>, !tfg.control) -> (tensor<2xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0(%[[GX:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[NEG:[0-9]+]]:2 = Neg(%[[GX]]) name("controlled")
// CHECK-NEXT: %[[EXP:[0-9]+]]:2 = Exp(%[[NEG]]#0) name("waited_on")
// CHECK-NEXT: %[[ABS:[0-9]+]]:2 = Abs(%[[EXP]]#0) name("root")
// CHECK-NEXT: tfc.yield %[[ABS]]#0
// CHECK-NEXT: }
// CHECK-NEXT: Sqrt(%[[G]]#0) [%[[G]]#1] name("after")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %c:2 = Placeholder name("c") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %n:2 = Neg(%x#0) [%c#1] name("controlled") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %e:2 = Exp(%n#0) name("waited_on") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %a:2 = Abs(%e#0) [%e#1] name("root") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // Reads the root's value and waits for it, on another device: the root
  // stays a group's.
  %q:2 = Sqrt(%a#0) [%a#1] name("after") device("/cpu:1") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

// A node outside a group that waits on a member other than the root
// waits instead on what that member waited on. Here (as
// tfc-schedule-recvs leaves a worker's graph) the bias is received after
// the convolution, and the convolution's epilogue adds it: waiting on the
// group would be a cycle, so the receive waits on the convolution's input
// and on the filter's receive.
// CHECK-LABEL: tfg.graph
// CHECK: %[[X:[0-9]+]]:2 = Placeholder name("x")
// CHECK: %[[W:[0-9]+]]:2 = Placeholder name("w")
// CHECK: %[[C:[0-9]+]]:2 = Placeholder name("c")
// CHECK: Placeholder [%[[C]]#1, %[[X]]#1, %[[W]]#1] name("b")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("conv")
// CHECK-NEXT: BiasAdd({{.*}}) name("bias")
// CHECK-NEXT: tfc.yield
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Placeholder name("w") {dtype = f32, shape = #tfg.shape<3x3x2x2>} : () -> tensor<3x3x2x2xf32>
  %c:2 = Placeholder name("c") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %conv:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x4x2xf32>
  // Already waits on %c; its wait on the convolution is replaced.
  %b:2 = Placeholder [%c#1, %conv#1] name("b") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %bias:2 = BiasAdd(%conv#0, %b#0) name("bias") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A convolution claims its epilogue: bias (a per-channel vector), then a
// residual (a tensor of the output's shape), then ReLU; the group's root is
// the ReLU and the convolution joins it. The convolution whose output is
// also used elsewhere keeps its value, and its bias stays a loop.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group({{.*}}) : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>, tensor<2xf32>) -> (tensor<1x4x4x2xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0(%[[GX:.*]]: tensor<1x4x4x2xf32>, %[[GW:.*]]: tensor<3x3x2x2xf32>, %[[GB:.*]]: tensor<2xf32>):
// CHECK-NEXT: %[[CONV:[0-9]+]]:2 = Conv2D(%[[GX]], %[[GW]]) name("conv")
// CHECK-NEXT: %[[BIAS:[0-9]+]]:2 = AddV2(%[[CONV]]#0, %[[GB]]) name("bias")
// CHECK-NEXT: %[[RES:[0-9]+]]:2 = AddV2(%[[GX]], %[[BIAS]]#0) name("residual")
// CHECK-NEXT: %[[RELU:[0-9]+]]:2 = Relu(%[[RES]]#0) name("relu")
// CHECK-NEXT: tfc.yield %[[RELU]]#0
// CHECK-NEXT: }
// CHECK-NEXT: Conv2D({{.*}}) name("shared_conv")
// CHECK-NEXT: AddV2({{.*}}) name("shared_bias")
// CHECK-NEXT: Neg({{.*}}) name("other_use")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<3x3x2x2xf32>} : () -> tensor<3x3x2x2xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %conv:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x4x2xf32>
  %bias:2 = AddV2(%conv#0, %b#0) name("bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %res:2 = AddV2(%x#0, %bias#0) name("residual") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %relu:2 = Relu(%res#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sc:2 = Conv2D(%x#0, %w#0) name("shared_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x4x4x2xf32>
  %sb:2 = AddV2(%sc#0, %b#0) name("shared_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %other:2 = Neg(%sc#0) name("other_use") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// Two convolutions whose biased outputs are added (ResNetV2's first block
// of a stage, whose shortcut is a convolution): the first claims the add
// and the ReLU as its residual and activation, the second keeps its bias
// (each group stands where its root was: the second's bias comes first).
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("second_conv")
// CHECK-NEXT: %[[SECOND:[0-9]+]]:2 = BiasAdd({{.*}}) name("second_bias")
// CHECK-NEXT: tfc.yield %[[SECOND]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("first_conv")
// CHECK-NEXT: AddV2({{.*}}) name("first_bias")
// CHECK-NEXT: AddV2({{.*}}) name("sum")
// CHECK-NEXT: %[[SUM_RELU:[0-9]+]]:2 = Relu({{.*}}) name("relu")
// CHECK-NEXT: tfc.yield %[[SUM_RELU]]#0
// CHECK-NEXT: }
// CHECK-NOT: name(
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %c1:2 = Conv2D(%x#0, %w#0) name("first_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %b1:2 = AddV2(%c1#0, %b#0) name("first_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %c2:2 = Conv2D(%x#0, %w#0) name("second_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %b2:2 = BiasAdd(%c2#0, %b#0) name("second_bias") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %sum:2 = AddV2(%b2#0, %b1#0) name("sum") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %relu:2 = Relu(%sum#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// Swish after a convolution's bias joins its epilogue: Keras' x *
// sigmoid(beta * x) with beta a constant 1, and x * sigmoid(x). With beta
// 2 the kernel cannot apply it: the bias alone joins, and the swish is a
// loop's group.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("conv")
// CHECK-NEXT: AddV2({{.*}}) name("bias")
// CHECK-NEXT: Mul({{.*}}) name("times_beta")
// CHECK-NEXT: Sigmoid({{.*}}) name("sigmoid")
// CHECK-NEXT: %[[SWISH:[0-9]+]]:2 = Mul({{.*}}) name("swish")
// CHECK-NEXT: tfc.yield %[[SWISH]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("plain_conv")
// CHECK-NEXT: Sigmoid({{.*}}) name("plain_sigmoid")
// CHECK-NEXT: %[[PLAIN:[0-9]+]]:2 = Mul({{.*}}) name("plain_swish")
// CHECK-NEXT: tfc.yield %[[PLAIN]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("beta2_conv")
// CHECK-NEXT: %[[B2:[0-9]+]]:2 = AddV2({{.*}}) name("beta2_bias")
// CHECK-NEXT: tfc.yield %[[B2]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Mul({{.*}}) name("beta2_times")
// CHECK-NEXT: Sigmoid({{.*}}) name("beta2_sigmoid")
// CHECK-NEXT: Mul({{.*}}) name("beta2_swish")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %one:2 = Const name("one") {dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %conv:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %bias:2 = AddV2(%conv#0, %b#0) name("bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %tb:2 = Mul(%one#0, %bias#0) name("times_beta") {T = f32} : (tensor<f32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sg:2 = Sigmoid(%tb#0) name("sigmoid") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sw:2 = Mul(%bias#0, %sg#0) name("swish") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pc:2 = Conv2D(%sw#0, %w#0) name("plain_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %ps:2 = Sigmoid(%pc#0) name("plain_sigmoid") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pw:2 = Mul(%ps#0, %pc#0) name("plain_swish") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %c2:2 = Conv2D(%pw#0, %w#0) name("beta2_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %b2:2 = AddV2(%c2#0, %b#0) name("beta2_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %t2:2 = Mul(%two#0, %b2#0) name("beta2_times") {T = f32} : (tensor<f32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %s2:2 = Sigmoid(%t2#0) name("beta2_sigmoid") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %w2:2 = Mul(%b2#0, %s2#0) name("beta2_swish") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// Hard swish (MobileNetV3's x * relu6(x + 3) / 6) after a convolution's
// bias joins its epilogue: as Keras writes it, x times relu6(x + 3) / 6,
// and with the product first and a Mul by 1/6 after. With 2 in place of
// 3 the kernel cannot apply it: the bias alone joins, and the rest is a
// loop's group.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("conv")
// CHECK-NEXT: AddV2({{.*}}) name("bias")
// CHECK-NEXT: AddV2({{.*}}) name("plus3")
// CHECK-NEXT: Relu6({{.*}}) name("relu6")
// CHECK-NEXT: RealDiv({{.*}}) name("over6")
// CHECK-NEXT: %[[HARD:[0-9]+]]:2 = Mul({{.*}}) name("hard_swish")
// CHECK-NEXT: tfc.yield %[[HARD]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("after_conv")
// CHECK-NEXT: AddV2({{.*}}) name("after_bias")
// CHECK-NEXT: AddV2({{.*}}) name("after_plus3")
// CHECK-NEXT: Relu6({{.*}}) name("after_relu6")
// CHECK-NEXT: Mul({{.*}}) name("after_product")
// CHECK-NEXT: %[[AFTER:[0-9]+]]:2 = Mul({{.*}}) name("after_sixth")
// CHECK-NEXT: tfc.yield %[[AFTER]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("two_conv")
// CHECK-NEXT: %[[TWO:[0-9]+]]:2 = AddV2({{.*}}) name("two_bias")
// CHECK-NEXT: tfc.yield %[[TWO]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: AddV2({{.*}}) name("two_plus2")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %two:2 = Const name("two") {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %three:2 = Const name("three") {dtype = f32, value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %six:2 = Const name("six") {dtype = f32, value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %sixth:2 = Const name("sixth") {dtype = f32, value = dense<0.166666672> : tensor<f32>} : () -> tensor<f32>
  %c:2 = Conv2D(%x#0, %w#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %cb:2 = AddV2(%c#0, %b#0) name("bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %p3:2 = AddV2(%cb#0, %three#0) name("plus3") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %r6:2 = Relu6(%p3#0) name("relu6") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %o6:2 = RealDiv(%r6#0, %six#0) name("over6") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %hs:2 = Mul(%cb#0, %o6#0) name("hard_swish") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %ac:2 = Conv2D(%hs#0, %w#0) name("after_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %ab:2 = AddV2(%ac#0, %b#0) name("after_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %ap:2 = AddV2(%three#0, %ab#0) name("after_plus3") {T = f32} : (tensor<f32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %ar:2 = Relu6(%ap#0) name("after_relu6") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %am:2 = Mul(%ar#0, %ab#0) name("after_product") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %as:2 = Mul(%am#0, %sixth#0) name("after_sixth") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %tc:2 = Conv2D(%as#0, %w#0) name("two_conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %tb:2 = AddV2(%tc#0, %b#0) name("two_bias") {T = f32} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %tp:2 = AddV2(%tb#0, %two#0) name("two_plus2") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %tr:2 = Relu6(%tp#0) name("two_relu6") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %td:2 = RealDiv(%tr#0, %six#0) name("two_over6") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %ts:2 = Mul(%tb#0, %td#0) name("two_swish") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A MaxPoolGrad claims the ReluGrad after it when the ReluGrad's features
// are the pooling's input; not when they are another tensor, nor when
// the pooling gradient is used elsewhere too.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group({{.*}}) : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> (tensor<1x4x4x2xf32>, !tfg.control) {
// CHECK-NEXT: ^bb0(%[[GR:.*]]: tensor<1x4x4x2xf32>, %{{.*}}: tensor<1x2x2x2xf32>, %{{.*}}: tensor<1x2x2x2xf32>):
// CHECK-NEXT: %[[PG:[0-9]+]]:2 = MaxPoolGrad(%[[GR]], {{.*}}) name("pool_grad")
// CHECK-NEXT: %[[RG:[0-9]+]]:2 = ReluGrad(%[[PG]]#0, %[[GR]]) name("relu_grad")
// CHECK-NEXT: tfc.yield %[[RG]]#0
// CHECK-NEXT: }
// CHECK-NEXT: MaxPoolGrad({{.*}}) name("other_features_grad")
// CHECK-NEXT: ReluGrad({{.*}}) name("other_relu_grad")
// CHECK-NEXT: MaxPoolGrad({{.*}}) name("shared_grad")
// CHECK-NEXT: ReluGrad({{.*}}) name("shared_relu_grad")
// CHECK-NEXT: Neg({{.*}}) name("shared_use")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %z:2 = Placeholder name("z") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x2x2x2>} : () -> tensor<1x2x2x2xf32>
  %relu:2 = Relu(%x#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %rg:2 = ReluGrad(%pg#0, %relu#0) name("relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %og:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("other_features_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %org:2 = ReluGrad(%og#0, %z#0) name("other_relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("shared_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %srg:2 = ReluGrad(%sg#0, %relu#0) name("shared_relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %sn:2 = Neg(%sg#0) name("shared_use") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A training batch norm takes in the ReLU that alone reads its y: the ReLU
// goes and its users read y. Not an inference batch norm's, nor a ReLU
// that has control inputs.
// CHECK-LABEL: tfg.graph
// CHECK: %[[NORM:[0-9]+]]:7 = FusedBatchNormV3({{.*}}) name("norm") {{.*}}tfc.activation = "Relu"
// CHECK-NOT: name("relu")
// CHECK: Neg(%[[NORM]]#0) name("after_relu")
// CHECK: FusedBatchNormV3({{.*}}) name("inference_norm")
// CHECK-NOT: tfc.activation
// CHECK: Relu({{.*}}) name("inference_relu")
// CHECK: Relu({{.*}}) [{{.*}}] name("controlled_relu")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %s:2 = Const name("s") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %e:2 = Const name("e") {dtype = f32, value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %after:2 = Neg(%relu#0) name("after_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %ibn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %s#0, %s#0) name("inference_norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = false} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %irelu:2 = Relu(%ibn#0) name("inference_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %cbn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("controlled_norm") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %crelu:2 = Relu(%cbn#0) [%x#1] name("controlled_relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A training batch norm takes in its ReLU, then a MaxPool of its y as one
// more result (the window with SAME's padding resolved); a batch norm
// gradient takes in the BiasAddGrad of its x gradient (read through an
// Identity). The users of the
// MaxPool and of the BiasAddGrad (data and control) read the new results.
// A MaxPool on another device stays.
// CHECK-LABEL: tfg.graph
// CHECK: %[[BN:[0-9]+]]:8 = FusedBatchNormV3({{.*}}) name("bn") {{.*}}tfc.activation = "Relu", tfc.max_pool = array<i64: 3, 3, 2, 2, 1, 1>} : {{.*}} -> (tensor<1x5x5x2xf32>, {{.*}}, tensor<1x3x3x2xf32>)
// CHECK-NOT: name("pool")
// CHECK: MaxPool(%[[BN]]#0) name("pool_elsewhere")
// CHECK: %[[PG:[0-9]+]]:2 = MaxPoolGrad(%[[BN]]#0, %[[BN]]#6, %{{[0-9]+}}#0) [%[[BN]]#7] name("pool_grad")
// CHECK: %[[G:[0-9]+]]:7 = FusedBatchNormGradV3(%[[PG]]#0, {{.*}}) name("bn_grad") {{.*}}tfc.input_gradient_sum} : {{.*}} -> ({{.*}}, tensor<2xf32>)
// CHECK-NOT: BiasAddGrad
// CHECK: Neg(%[[G]]#5) [%[[G]]#6] name("bias_grad_user")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x5x5x2>} : () -> tensor<1x5x5x2xf32>
  %s:2 = Placeholder name("s") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %e:2 = Placeholder name("empty") {dtype = f32, shape = #tfg.shape<0>} : () -> tensor<0xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x3x3x2>} : () -> tensor<1x3x3x2xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("bn") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32>
  %other:2 = MaxPool(%relu#0) name("pool_elsewhere") device("/cpu:1") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) [%pool#1] name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x5x5x2xf32>
  %g:6 = FusedBatchNormGradV3(%pg#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x5x5x2xf32>, tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  // Through a gradient tuple's Identity, which waits on something.
  %id:2 = Identity(%g#0) [%s#1] name("tuple") {T = f32} : (tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  %bg:2 = BiasAddGrad(%id#0) name("bias_grad") {T = f32, data_format = "NHWC"} : (tensor<1x5x5x2xf32>) -> tensor<2xf32>
  %use:2 = Neg(%bg#0) [%bg#1] name("bias_grad_user") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

// A batch norm gradient takes in the MaxPoolGrad of its y and that
// gradient's ReluGrad (conv -> batch norm -> ReLU -> max pooling,
// differentiated): it reads the pooled gradient first and y last, with the
// window and the ReLU in attributes, and still takes in its BiasAddGrad.
// What waited on the folded nodes waits on it. Without a ReluGrad the
// MaxPoolGrad alone folds (no tfc.activation); a MaxPoolGrad whose value
// something else reads too stays.
// CHECK-LABEL: tfg.graph
// CHECK: %[[BN:[0-9]+]]:8 = FusedBatchNormV3({{.*}}) name("bn")
// CHECK-NOT: MaxPoolGrad
// CHECK-NOT: ReluGrad
// CHECK: %[[G:[0-9]+]]:7 = FusedBatchNormGradV3(%[[DY:[0-9]+]]#0, %[[X:[0-9]+]]#0, %{{[0-9]+}}#0, %[[BN]]#3, %[[BN]]#4, %[[BN]]#5, %[[BN]]#0) name("bn_grad") {{.*}}tfc.activation = "Relu", tfc.input_gradient_sum, tfc.max_pool_gradient = array<i64: 2, 2, 2, 2, 0, 0>}
// CHECK: Neg(%[[G]]#0) [%[[G]]#6] name("after_relu_grad")
// CHECK: FusedBatchNormGradV3(%[[DY]]#0, %[[X]]#0, {{.*}}, %[[BN]]#0) name("plain_grad")
// CHECK-NOT: tfc.activation
// CHECK-SAME: tfc.max_pool_gradient = array<i64: 2, 2, 2, 2, 0, 0>
// CHECK: %[[SHARED:[0-9]+]]:2 = MaxPoolGrad({{.*}}) name("shared_pool_grad")
// CHECK: FusedBatchNormGradV3(%[[SHARED]]#0, {{.*}}) name("shared_grad")
// CHECK-NOT: tfc.max_pool_gradient
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %s:2 = Placeholder name("s") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %e:2 = Placeholder name("empty") {dtype = f32, shape = #tfg.shape<0>} : () -> tensor<0xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x2x2x2>} : () -> tensor<1x2x2x2xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("bn") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %rg:2 = ReluGrad(%pg#0, %relu#0) name("relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %g:6 = FusedBatchNormGradV3(%rg#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %bg:2 = BiasAddGrad(%g#0) name("bias_grad") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x2xf32>) -> tensor<2xf32>
  %after:2 = Neg(%g#0) [%rg#1] name("after_relu_grad") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pg2:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("plain_pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %g2:6 = FusedBatchNormGradV3(%pg2#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("plain_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %pg3:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("shared_pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %g3:6 = FusedBatchNormGradV3(%pg3#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("shared_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %other:2 = Neg(%pg3#0) name("shared_reader") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// A training batch norm whose y, after those folds, only a pooled gradient
// reads, its windows tiling y (2x2 at stride 2 on 4 x 4), records where
// each window's maximum is: one more data result, int8 of the pooled
// shape, after the pooled one, which the gradient reads in y's place; both
// carry tfc.max_pool_positions. On a 5 x 5 y the same windows leave a row
// and a column out: no record, the gradient reads y.
// CHECK-LABEL: tfg.graph
// CHECK: %[[BN:[0-9]+]]:9 = FusedBatchNormV3({{.*}}) name("bn") {{.*}}tfc.activation = "Relu", tfc.max_pool = array<i64: 2, 2, 2, 2, 0, 0>, tfc.max_pool_positions} : {{.*}} -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xi8>)
// CHECK: Neg(%[[BN]]#6) name("pooled_reader")
// CHECK: FusedBatchNormGradV3(%{{[0-9]+}}#0, %{{[0-9]+}}#0, %{{[0-9]+}}#0, %[[BN]]#3, %[[BN]]#4, %[[BN]]#5, %[[BN]]#7) name("bn_grad") {{.*}}tfc.activation = "Relu", tfc.max_pool_gradient = array<i64: 2, 2, 2, 2, 0, 0>, tfc.max_pool_positions}
// CHECK: %[[ODD:[0-9]+]]:8 = FusedBatchNormV3({{.*}}) name("odd")
// CHECK-NOT: tfc.max_pool_positions
// CHECK-SAME: -> (tensor<1x5x5x2xf32>, {{.*}}, tensor<1x2x2x2xf32>)
// CHECK: FusedBatchNormGradV3({{.*}}, %[[ODD]]#0) name("odd_grad")
// CHECK-NOT: tfc.max_pool_positions
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %s:2 = Placeholder name("s") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %e:2 = Placeholder name("empty") {dtype = f32, shape = #tfg.shape<0>} : () -> tensor<0xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x2x2x2>} : () -> tensor<1x2x2x2xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("bn") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %use:2 = Neg(%pool#0) name("pooled_reader") {T = f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %rg:2 = ReluGrad(%pg#0, %relu#0) name("relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %g:6 = FusedBatchNormGradV3(%rg#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %x5:2 = Placeholder name("x5") {dtype = f32, shape = #tfg.shape<1x5x5x2>} : () -> tensor<1x5x5x2xf32>
  %odd:7 = FusedBatchNormV3(%x5#0, %s#0, %s#0, %e#0, %e#0) name("odd") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %pool5:2 = MaxPool(%odd#0) name("odd_pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x5x5x2xf32>) -> tensor<1x2x2x2xf32>
  %pg5:2 = MaxPoolGrad(%odd#0, %pool5#0, %dy#0) name("odd_pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x5x5x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x5x5x2xf32>
  %g5:6 = FusedBatchNormGradV3(%pg5#0, %x5#0, %s#0, %odd#3, %odd#4, %odd#5) name("odd_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x5x5x2xf32>, tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x5x5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
}

// -----

// A pooled batch norm gradient takes in the filter gradient of the first
// convolution (an image of 3 channels, 3x3, SAME: pads 1 and 1) that
// reads its x gradient through a gradient tuple's Identity: the image one
// more operand, the filter gradient one more result, after the folded
// BiasAddGrad's sum; what read the filter gradient reads it, and what
// waited on it waits on the batch norm gradient. A filter gradient over 4
// channels stays (the few-channel kernel's are 1-3), and so does one whose
// x gradient something else reads too (an input gradient).
// CHECK-LABEL: tfg.graph
// CHECK: %[[G:[0-9]+]]:8 = FusedBatchNormGradV3(%{{[0-9]+}}#0, %{{[0-9]+}}#0, %{{[0-9]+}}#0, %{{[0-9]+}}#3, %{{[0-9]+}}#4, %{{[0-9]+}}#5, %{{[0-9]+}}#{{[0-9]+}}, %[[IMAGE:[0-9]+]]#0) name("bn_grad") {{.*}}tfc.filter_gradient = array<i64: 3, 3, 1, 1, 1, 1>, tfc.input_gradient_sum, tfc.max_pool_gradient = array<i64: 2, 2, 2, 2, 0, 0>} : {{.*}} -> ({{.*}}, tensor<2xf32>, tensor<3x3x3x2xf32>)
// CHECK-NOT: name("filter_grad")
// CHECK: Neg(%[[G]]#6) [%[[G]]#7] name("filter_grad_user")
// CHECK: FusedBatchNormGradV3({{.*}}) name("wide_bn_grad")
// CHECK-NOT: tfc.filter_gradient
// CHECK: Conv2DBackpropFilter({{.*}}) name("wide_filter_grad")
// CHECK: FusedBatchNormGradV3({{.*}}) name("read_bn_grad")
// CHECK-NOT: tfc.filter_gradient
// CHECK: Conv2DBackpropFilter({{.*}}) name("read_filter_grad")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %image:2 = Placeholder name("image") {dtype = f32, shape = #tfg.shape<1x4x4x3>} : () -> tensor<1x4x4x3xf32>
  %sizes:2 = Const name("sizes") {dtype = i32, value = dense<[3, 3, 3, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %s:2 = Placeholder name("s") {dtype = f32, shape = #tfg.shape<2>} : () -> tensor<2xf32>
  %e:2 = Placeholder name("empty") {dtype = f32, shape = #tfg.shape<0>} : () -> tensor<0xf32>
  %dy:2 = Placeholder name("dy") {dtype = f32, shape = #tfg.shape<1x2x2x2>} : () -> tensor<1x2x2x2xf32>
  %bn:7 = FusedBatchNormV3(%x#0, %s#0, %s#0, %e#0, %e#0) name("bn") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>)
  %relu:2 = Relu(%bn#0) name("relu") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %pool:2 = MaxPool(%relu#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %pg:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %rg:2 = ReluGrad(%pg#0, %relu#0) name("relu_grad") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %g:6 = FusedBatchNormGradV3(%rg#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %bg:2 = BiasAddGrad(%g#0) name("bias_grad") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x2xf32>) -> tensor<2xf32>
  %tuple:2 = Identity(%g#0) [%bg#1] name("tuple") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %fg:2 = Conv2DBackpropFilter(%image#0, %sizes#0, %tuple#0) name("filter_grad") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<4xi32>, tensor<1x4x4x2xf32>) -> tensor<3x3x3x2xf32>
  %fuse:2 = Neg(%fg#0) [%fg#1] name("filter_grad_user") {T = f32} : (tensor<3x3x3x2xf32>) -> tensor<3x3x3x2xf32>
  // Over 4 channels.
  %wide:2 = Placeholder name("wide_image") {dtype = f32, shape = #tfg.shape<1x4x4x4>} : () -> tensor<1x4x4x4xf32>
  %wsizes:2 = Const name("wide_sizes") {dtype = i32, value = dense<[3, 3, 4, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %pg2:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("wide_pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %g2:6 = FusedBatchNormGradV3(%pg2#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("wide_bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %fg2:2 = Conv2DBackpropFilter(%wide#0, %wsizes#0, %g2#0) name("wide_filter_grad") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<4xi32>, tensor<1x4x4x2xf32>) -> tensor<3x3x4x2xf32>
  // x's gradient read by an input gradient too.
  %pg3:2 = MaxPoolGrad(%relu#0, %pool#0, %dy#0) name("read_pool_grad") {T = f32, data_format = "NHWC", ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  %g3:6 = FusedBatchNormGradV3(%pg3#0, %x#0, %s#0, %bn#3, %bn#4, %bn#5) name("read_bn_grad") {T = f32, U = f32, data_format = "NHWC", epsilon = 1.0e-3 : f32, is_training = true} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<0xf32>, tensor<0xf32>)
  %fg3:2 = Conv2DBackpropFilter(%image#0, %sizes#0, %g3#0) name("read_filter_grad") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<4xi32>, tensor<1x4x4x2xf32>) -> tensor<3x3x3x2xf32>
  %isizes:2 = Const name("input_sizes") {dtype = i32, value = dense<[1, 4, 4, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %f:2 = Placeholder name("filter") {dtype = f32, shape = #tfg.shape<3x3x3x2>} : () -> tensor<3x3x3x2xf32>
  %ig:2 = Conv2DBackpropInput(%isizes#0, %f#0, %g3#0) name("input_grad") {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<4xi32>, tensor<3x3x3x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32>
}

// -----

// Attention in Keras' layout (q, k, v [batch 2, tokens 4, heads 3, width 5]):
// the scores' Einsum, the Mul by a scalar, the Softmax and the context's
// Einsum form one group rooted at the context; the scale is one of its
// inputs. So do two BatchMatMuls (scores by adj_y) and a Softmax between
// them. A chain whose second product reads the weights transposed (its
// rows would be the scores' columns) stays as it is, as does one whose
// scale is a tensor of several elements.
// CHECK-LABEL: tfg.graph
// CHECK: %[[Q:[0-9]+]]:2 = Placeholder name("q")
// CHECK: %[[K:[0-9]+]]:2 = Placeholder name("k")
// CHECK: %[[V:[0-9]+]]:2 = Placeholder name("v")
// CHECK: %[[S:[0-9]+]]:2 = Const name("scale")
// CHECK: tfc.fusion_group(%[[Q]]#0, %[[K]]#0, %[[S]]#0, %[[V]]#0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Einsum({{.*}}) name("scores")
// CHECK-NEXT: Mul({{.*}}) name("scaled")
// CHECK-NEXT: Softmax({{.*}}) name("weights")
// CHECK-NEXT: %[[C:[0-9]+]]:2 = Einsum({{.*}}) name("context")
// CHECK-NEXT: tfc.yield %[[C]]#0
// CHECK-NEXT: }
// CHECK-NEXT: Placeholder name("a")
// CHECK-NEXT: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: BatchMatMulV2({{.*}}) name("scores_b")
// CHECK-NEXT: Softmax({{.*}}) name("weights_b")
// CHECK-NEXT: %[[CB:[0-9]+]]:2 = BatchMatMulV2({{.*}}) name("context_b")
// CHECK-NEXT: tfc.yield %[[CB]]#0
// CHECK-NEXT: }
// CHECK-NEXT: BatchMatMulV2({{.*}}) name("scores_t")
// CHECK-NEXT: Softmax({{.*}}) name("weights_t")
// CHECK-NEXT: BatchMatMulV2({{.*}}) name("context_t")
// CHECK-NEXT: Const name("per_key")
// CHECK-NEXT: Einsum({{.*}}) name("scores_w")
// CHECK-NEXT: Mul({{.*}}) name("scaled_w")
// CHECK-NEXT: Softmax({{.*}}) name("weights_w")
// CHECK-NEXT: Einsum({{.*}}) name("context_w")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %q:2 = Placeholder name("q") {dtype = f32, shape = #tfg.shape<2x4x3x5>} : () -> tensor<2x4x3x5xf32>
  %k:2 = Placeholder name("k") {dtype = f32, shape = #tfg.shape<2x4x3x5>} : () -> tensor<2x4x3x5xf32>
  %v:2 = Placeholder name("v") {dtype = f32, shape = #tfg.shape<2x4x3x5>} : () -> tensor<2x4x3x5xf32>
  %scale:2 = Const name("scale") {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %scores:2 = Einsum(%q#0, %k#0) name("scores") {N = 2 : i64, T = f32, equation = "BTNH,BSNH->BNTS"} : (tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x3x4x4xf32>
  %scaled:2 = Mul(%scores#0, %scale#0) name("scaled") {T = f32} : (tensor<2x3x4x4xf32>, tensor<f32>) -> tensor<2x3x4x4xf32>
  %weights:2 = Softmax(%scaled#0) name("weights") {T = f32} : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %context:2 = Einsum(%weights#0, %v#0) name("context") {N = 2 : i64, T = f32, equation = "BNTS,BSNH->BTNH"} : (tensor<2x3x4x4xf32>, tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
  // The second product reads the weights transposed (adj_x): its rows
  // are the softmax's axis.
  %a:2 = Placeholder name("a") {dtype = f32, shape = #tfg.shape<6x4x5>} : () -> tensor<6x4x5xf32>
  // BatchMatMul's form: scores by adj_y, no scale; it fuses.
  %sb:2 = BatchMatMulV2(%a#0, %a#0) name("scores_b") {T = f32, adj_x = false, adj_y = true} : (tensor<6x4x5xf32>, tensor<6x4x5xf32>) -> tensor<6x4x4xf32>
  %wb:2 = Softmax(%sb#0) name("weights_b") {T = f32} : (tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %cb:2 = BatchMatMulV2(%wb#0, %a#0) name("context_b") {T = f32, adj_x = false, adj_y = false} : (tensor<6x4x4xf32>, tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
  %st:2 = BatchMatMulV2(%a#0, %a#0) name("scores_t") {T = f32, adj_x = false, adj_y = true} : (tensor<6x4x5xf32>, tensor<6x4x5xf32>) -> tensor<6x4x4xf32>
  %wt:2 = Softmax(%st#0) name("weights_t") {T = f32} : (tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %ct:2 = BatchMatMulV2(%wt#0, %a#0) name("context_t") {T = f32, adj_x = true, adj_y = false} : (tensor<6x4x4xf32>, tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
  // The scale has an element per key: not a scale.
  %per_key:2 = Const name("per_key") {dtype = f32, value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %sw:2 = Einsum(%q#0, %k#0) name("scores_w") {N = 2 : i64, T = f32, equation = "BTNH,BSNH->BNTS"} : (tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x3x4x4xf32>
  %mw:2 = Mul(%sw#0, %per_key#0) name("scaled_w") {T = f32} : (tensor<2x3x4x4xf32>, tensor<4xf32>) -> tensor<2x3x4x4xf32>
  %ww:2 = Softmax(%mw#0) name("weights_w") {T = f32} : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %cw:2 = Einsum(%ww#0, %v#0) name("context_w") {N = 2 : i64, T = f32, equation = "BNTS,BSNH->BTNH"} : (tensor<2x3x4x4xf32>, tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
}

// -----

// A value read by two members of one group joins it (GELU after a bias:
// the BiasAdd is read by the Mul by 0.5 and by the Neg); one read by
// members of two groups does not.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[B:[0-9]+]]:2 = BiasAdd({{.*}}) name("bias")
// CHECK-NEXT: Mul({{.*}}%[[B]]#0) name("half")
// CHECK-NEXT: Neg(%[[B]]#0) name("neg")
// CHECK-NEXT: Mul({{.*}}) name("scaled")
// CHECK-NEXT: Erfc({{.*}}) name("erfc")
// CHECK-NEXT: %[[G:[0-9]+]]:2 = Mul({{.*}}) name("gelu")
// CHECK-NEXT: tfc.yield %[[G]]#0
// CHECK-NEXT: }
// CHECK-NEXT: Exp({{.*}}) name("shared")
// CHECK-NEXT: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Neg({{.*}}) name("first")
// CHECK-NEXT: Abs({{.*}}) name("first_root")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Sqrt({{.*}}) name("second")
// CHECK-NEXT: Abs({{.*}}) name("second_root")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x4>} : () -> tensor<2x4xf32>
  %b:2 = Placeholder name("b") {dtype = f32, shape = #tfg.shape<4>} : () -> tensor<4xf32>
  %half_c:2 = Const name("half_c") {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %root2:2 = Const name("root2") {dtype = f32, value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
  %bias:2 = BiasAdd(%x#0, %b#0) name("bias") {T = f32, data_format = "NHWC"} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %half:2 = Mul(%half_c#0, %bias#0) name("half") {T = f32} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %neg:2 = Neg(%bias#0) name("neg") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %scaled:2 = Mul(%neg#0, %root2#0) name("scaled") {T = f32} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %erfc:2 = Erfc(%scaled#0) name("erfc") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %gelu:2 = Mul(%half#0, %erfc#0) name("gelu") {T = f32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  // Read by two groups: written once.
  %shared:2 = Exp(%x#0) name("shared") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %first:2 = Neg(%shared#0) name("first") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %first_root:2 = Abs(%first#0) name("first_root") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %second:2 = Sqrt(%shared#0) name("second") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %second_root:2 = Abs(%second#0) name("second_root") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %use1:2 = Identity(%first_root#0) name("use1") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %use2:2 = Identity(%second_root#0) name("use2") {T = f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
}

// -----

// Layer norm's moments: the Mean over the last axis (-1) takes in the
// variance around it (SquaredDifference in either operand order, axes
// written as [2] or [-1]) as a second result; what read the variance and
// waited on it or on the squared differences reads and waits on the
// Mean. Not folded: a variance over other axes, squared differences read
// twice, a Mean without keep_dims, and axes that are not contiguous.
// CHECK-LABEL: tfg.graph
// CHECK: %[[M:[0-9]+]]:3 = Mean(%[[X:[0-9]+]]#0, %{{[0-9]+}}#0) name("mean") {{.*}}tfc.variance} : (tensor<2x3x8xf32>, tensor<1xi32>) -> (tensor<2x3x1xf32>, tensor<2x3x1xf32>)
// CHECK-NOT: name("sqdiff")
// CHECK-NOT: name("variance")
// CHECK: Rsqrt(%[[M]]#1) [%[[M]]#2] name("rsqrt")
// CHECK: Neg(%[[M]]#0) [%[[M]]#2] name("neg")
// CHECK: %[[M2:[0-9]+]]:2 = Mean({{.*}}) name("mean2") {{{[^}]*}}keep_dims = true} :
// CHECK: SquaredDifference({{.*}}) name("sqdiff2")
// CHECK: Mean({{.*}}) name("variance2")
// CHECK: Mean({{.*}}) name("mean3")
// CHECK: SquaredDifference({{.*}}) name("sqdiff3")
// CHECK: Mean({{.*}}) name("variance3")
// CHECK: Mean({{.*}}) name("mean4") {{{[^}]*}}keep_dims = false} :
// CHECK: Mean({{.*}}) name("variance4")
// CHECK: Mean({{.*}}) name("mean5") {{{[^}]*}}keep_dims = true} :
// CHECK: Mean({{.*}}) name("variance5")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<2x3x8>} : () -> tensor<2x3x8xf32>
  %last:2 = Const name("last") {dtype = i32, value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %two:2 = Const name("two") {dtype = i32, value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %one:2 = Const name("one") {dtype = i32, value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %ends:2 = Const name("ends") {dtype = i32, value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %mean:2 = Mean(%x#0, %last#0) name("mean") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x3x1xf32>
  %sd:2 = SquaredDifference(%mean#0, %x#0) name("sqdiff") {T = f32} : (tensor<2x3x1xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %var:2 = Mean(%sd#0, %two#0) name("variance") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x3x1xf32>
  %rs:2 = Rsqrt(%var#0) [%sd#1] name("rsqrt") {T = f32} : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %neg:2 = Neg(%mean#0) [%var#1] name("neg") {T = f32} : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  // The variance over the middle axis, around the mean of the last.
  %mean2:2 = Mean(%x#0, %last#0) name("mean2") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x3x1xf32>
  %sd2:2 = SquaredDifference(%x#0, %mean2#0) name("sqdiff2") {T = f32} : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
  %var2:2 = Mean(%sd2#0, %one#0) name("variance2") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x1x8xf32>
  // Squared differences read by something else too.
  %mean3:2 = Mean(%x#0, %last#0) name("mean3") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x3x1xf32>
  %sd3:2 = SquaredDifference(%x#0, %mean3#0) name("sqdiff3") {T = f32} : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
  %var3:2 = Mean(%sd3#0, %last#0) name("variance3") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<2x3x1xf32>
  %use3:2 = Exp(%sd3#0) name("exp3") {T = f32} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  // A Mean without keep_dims is left alone (its result broadcasts against
  // x only where the axes lead, as here).
  %first:2 = Const name("first") {dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %mean4:2 = Mean(%x#0, %first#0) name("mean4") {T = f32, Tidx = i32, keep_dims = false} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<3x8xf32>
  %sd4:2 = SquaredDifference(%x#0, %mean4#0) name("sqdiff4") {T = f32} : (tensor<2x3x8xf32>, tensor<3x8xf32>) -> tensor<2x3x8xf32>
  %var4:2 = Mean(%sd4#0, %first#0) name("variance4") {T = f32, Tidx = i32, keep_dims = false} : (tensor<2x3x8xf32>, tensor<1xi32>) -> tensor<3x8xf32>
  // Axes 0 and 2: not contiguous.
  %mean5:2 = Mean(%x#0, %ends#0) name("mean5") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<2xi32>) -> tensor<1x3x1xf32>
  %sd5:2 = SquaredDifference(%x#0, %mean5#0) name("sqdiff5") {T = f32} : (tensor<2x3x8xf32>, tensor<1x3x1xf32>) -> tensor<2x3x8xf32>
  %var5:2 = Mean(%sd5#0, %ends#0) name("variance5") {T = f32, Tidx = i32, keep_dims = true} : (tensor<2x3x8xf32>, tensor<2xi32>) -> tensor<1x3x1xf32>
}

// -----

// A dense layer (a product by a constant matrix) takes in its epilogue as
// a convolution does, through a reshape that keeps its rows whole:
// Tensordot's [4, 6] rows as [2, 2, 6] with a bias and tf.nn.gelu's exact
// form; a BatchMatMulV2 projection whose rows become [2, 3] heads, with a
// per-head bias. Not taken in: an epilogue after a product by a matrix
// computed at run time, or after a reshape that splits rows; GELU after
// a convolution, whose kernel does not apply it (its bias joins alone).
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: MatMul({{.*}}) name("dense")
// CHECK-NEXT: Reshape({{.*}}) name("rows")
// CHECK-NEXT: BiasAdd({{.*}}) name("dense_bias")
// CHECK-NEXT: Mul({{.*}}) name("half")
// CHECK-NEXT: Neg({{.*}}) name("neg")
// CHECK-NEXT: Mul({{.*}}) name("scaled")
// CHECK-NEXT: Erfc({{.*}}) name("erfc")
// CHECK-NEXT: %[[GELU:[0-9]+]]:2 = Mul({{.*}}) name("gelu")
// CHECK-NEXT: tfc.yield %[[GELU]]#0 : tensor<2x2x6xf32>
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: BatchMatMulV2({{.*}}) name("projection")
// CHECK-NEXT: Reshape({{.*}}) name("heads")
// CHECK-NEXT: %[[HB:[0-9]+]]:2 = AddV2({{.*}}) name("head_bias")
// CHECK-NEXT: tfc.yield %[[HB]]#0
// CHECK: MatMul({{.*}}) name("fed_weights")
// CHECK-NEXT: BiasAdd({{.*}}) name("fed_bias")
// CHECK: MatMul({{.*}}) name("split")
// CHECK-NEXT: Reshape({{.*}}) name("split_rows")
// CHECK-NEXT: AddV2({{.*}}) name("split_bias")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("conv")
// CHECK-NEXT: %[[CB:[0-9]+]]:2 = BiasAdd({{.*}}) name("conv_bias")
// CHECK-NEXT: tfc.yield %[[CB]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Mul({{.*}}) name("conv_half")
// CHECK-NEXT: Neg({{.*}}) name("conv_neg")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<4x5>} : () -> tensor<4x5xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<5x6xf32>} : () -> tensor<5x6xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<6xf32>} : () -> tensor<6xf32>
  %shape:2 = Const name("shape") {dtype = i32, value = dense<[2, 2, 6]> : tensor<3xi32>} : () -> tensor<3xi32>
  %half_c:2 = Const name("half_c") {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %root_c:2 = Const name("root_c") {dtype = f32, value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
  %dense:2 = MatMul(%x#0, %w#0) name("dense") {T = f32, transpose_a = false, transpose_b = false} : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %rows:2 = Reshape(%dense#0, %shape#0) name("rows") {T = f32, Tshape = i32} : (tensor<4x6xf32>, tensor<3xi32>) -> tensor<2x2x6xf32>
  %db:2 = BiasAdd(%rows#0, %b#0) name("dense_bias") {T = f32, data_format = "NHWC"} : (tensor<2x2x6xf32>, tensor<6xf32>) -> tensor<2x2x6xf32>
  %half:2 = Mul(%half_c#0, %db#0) name("half") {T = f32} : (tensor<f32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  %neg:2 = Neg(%db#0) name("neg") {T = f32} : (tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  %scaled:2 = Mul(%neg#0, %root_c#0) name("scaled") {T = f32} : (tensor<2x2x6xf32>, tensor<f32>) -> tensor<2x2x6xf32>
  %erfc:2 = Erfc(%scaled#0) name("erfc") {T = f32} : (tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  %gelu:2 = Mul(%half#0, %erfc#0) name("gelu") {T = f32} : (tensor<2x2x6xf32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  %seq:2 = Placeholder name("seq") {dtype = f32, shape = #tfg.shape<2x3x5>} : () -> tensor<2x3x5xf32>
  %heads_shape:2 = Const name("heads_shape") {dtype = i32, value = dense<[2, 3, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %hb_c:2 = Const name("hb_c") {dtype = f32, value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %proj:2 = BatchMatMulV2(%seq#0, %w#0) name("projection") {T = f32, adj_x = false, adj_y = false} : (tensor<2x3x5xf32>, tensor<5x6xf32>) -> tensor<2x3x6xf32>
  %heads:2 = Reshape(%proj#0, %heads_shape#0) name("heads") {T = f32, Tshape = i32} : (tensor<2x3x6xf32>, tensor<4xi32>) -> tensor<2x3x2x3xf32>
  %hb:2 = AddV2(%heads#0, %hb_c#0) name("head_bias") {T = f32} : (tensor<2x3x2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  %fw:2 = Placeholder name("fw") {dtype = f32, shape = #tfg.shape<5x6>} : () -> tensor<5x6xf32>
  %fed:2 = MatMul(%x#0, %fw#0) name("fed_weights") {T = f32, transpose_a = false, transpose_b = false} : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %fb:2 = BiasAdd(%fed#0, %b#0) name("fed_bias") {T = f32, data_format = "NHWC"} : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %split_shape:2 = Const name("split_shape") {dtype = i32, value = dense<[3, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b8:2 = Const name("b8") {dtype = f32, value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %split:2 = MatMul(%x#0, %w#0) name("split") {T = f32, transpose_a = false, transpose_b = false} : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %sr:2 = Reshape(%split#0, %split_shape#0) name("split_rows") {T = f32, Tshape = i32} : (tensor<4x6xf32>, tensor<2xi32>) -> tensor<3x8xf32>
  %sb:2 = AddV2(%sr#0, %b8#0) name("split_bias") {T = f32} : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  %img:2 = Placeholder name("img") {dtype = f32, shape = #tfg.shape<1x4x4x2>} : () -> tensor<1x4x4x2xf32>
  %cw:2 = Const name("cw") {dtype = f32, value = dense<0.5> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %cb_c:2 = Const name("cb_c") {dtype = f32, value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %conv:2 = Conv2D(%img#0, %cw#0) name("conv") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %cb:2 = BiasAdd(%conv#0, %cb_c#0) name("conv_bias") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %ch:2 = Mul(%half_c#0, %cb#0) name("conv_half") {T = f32} : (tensor<f32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %cn:2 = Neg(%cb#0) name("conv_neg") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %cs:2 = Mul(%cn#0, %root_c#0) name("conv_scaled") {T = f32} : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %ce:2 = Erfc(%cs#0) name("conv_erfc") {T = f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %cg:2 = Mul(%ch#0, %ce#0) name("conv_gelu") {T = f32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
}

// -----

// An expansion (a 1x1 convolution by a constant, with its bias and ReLU6)
// that only a depthwise convolution reads joins the depthwise's group,
// with the depthwise's own bias and ReLU6: one group whose root is the
// last ReLU6. A depthwise without an epilogue joins too. Not joined: an
// expansion also read by another node, one whose epilogue adds a
// residual, one by a filter fed at run time, a strided 1x1, and a 1x1
// that does not double its channels (NASNet's separable convolutions).
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("expand")
// CHECK-NEXT: BiasAdd({{.*}}) name("expand_bias")
// CHECK-NEXT: Relu6({{.*}}) name("expand_relu6")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("depthwise")
// CHECK-NEXT: BiasAdd({{.*}}) name("depthwise_bias")
// CHECK-NEXT: %[[ROOT:[0-9]+]]:2 = Relu6({{.*}}) name("depthwise_relu6")
// CHECK-NEXT: tfc.yield %[[ROOT]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("bare_expand")
// CHECK-NEXT: %[[BARE:[0-9]+]]:2 = DepthwiseConv2dNative({{.*}}) name("bare_depthwise")
// CHECK-NEXT: tfc.yield %[[BARE]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("shared_expand")
// CHECK-NEXT: %[[SHARED:[0-9]+]]:2 = BiasAdd({{.*}}) name("shared_bias")
// CHECK-NEXT: tfc.yield %[[SHARED]]#0
// CHECK: DepthwiseConv2dNative({{.*}}) name("shared_depthwise")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("residual_expand")
// CHECK-NEXT: AddV2({{.*}}) name("residual_add")
// CHECK-NEXT: %[[RESIDUAL:[0-9]+]]:2 = Relu6({{.*}}) name("residual_relu6")
// CHECK-NEXT: tfc.yield %[[RESIDUAL]]#0
// CHECK: DepthwiseConv2dNative({{.*}}) name("residual_depthwise")
// CHECK: Conv2D({{.*}}) name("fed_expand")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("fed_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("strided_expand")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("strided_depthwise")
// CHECK: Conv2D({{.*}}) name("same_width")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("same_width_depthwise")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x8x8x4>} : () -> tensor<1x8x8x4xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x4x16xf32>} : () -> tensor<1x1x4x16xf32>
  %d:2 = Const name("d") {dtype = f32, value = dense<0.25> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %e:2 = Conv2D(%x#0, %w#0) name("expand") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x8x16xf32>
  %eb:2 = BiasAdd(%e#0, %b#0) name("expand_bias") {T = f32, data_format = "NHWC"} : (tensor<1x8x8x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  %er:2 = Relu6(%eb#0) name("expand_relu6") {T = f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %dw:2 = DepthwiseConv2dNative(%er#0, %d#0) name("depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 2, 2, 1], dilations = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32>
  %db:2 = BiasAdd(%dw#0, %b#0) name("depthwise_bias") {T = f32, data_format = "NHWC"} : (tensor<1x4x4x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  %dr:2 = Relu6(%db#0) name("depthwise_relu6") {T = f32} : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %be:2 = Conv2D(%x#0, %w#0) name("bare_expand") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x8x16xf32>
  %bd:2 = DepthwiseConv2dNative(%be#0, %d#0) name("bare_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  %se:2 = Conv2D(%x#0, %w#0) name("shared_expand") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x8x16xf32>
  %sb:2 = BiasAdd(%se#0, %b#0) name("shared_bias") {T = f32, data_format = "NHWC"} : (tensor<1x8x8x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  %sd:2 = DepthwiseConv2dNative(%sb#0, %d#0) name("shared_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  %so:2 = Neg(%sb#0) name("shared_other") {T = f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r:2 = Placeholder name("r") {dtype = f32, shape = #tfg.shape<1x8x8x16>} : () -> tensor<1x8x8x16xf32>
  %re:2 = Conv2D(%x#0, %w#0) name("residual_expand") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x8x16xf32>
  %ra:2 = AddV2(%re#0, %r#0) name("residual_add") {T = f32} : (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %rr:2 = Relu6(%ra#0) name("residual_relu6") {T = f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %rd:2 = DepthwiseConv2dNative(%rr#0, %d#0) name("residual_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  %fw:2 = Placeholder name("fw") {dtype = f32, shape = #tfg.shape<1x1x4x16>} : () -> tensor<1x1x4x16xf32>
  %fe:2 = Conv2D(%x#0, %fw#0) name("fed_expand") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x8x8x16xf32>
  %fd:2 = DepthwiseConv2dNative(%fe#0, %d#0) name("fed_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  %te:2 = Conv2D(%x#0, %w#0) name("strided_expand") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x4x4x16xf32>
  %td:2 = DepthwiseConv2dNative(%te#0, %d#0) name("strided_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32>
  %sw:2 = Const name("sw") {dtype = f32, value = dense<0.5> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %sdf:2 = Const name("sd") {dtype = f32, value = dense<0.25> : tensor<3x3x4x1xf32>} : () -> tensor<3x3x4x1xf32>
  %same:2 = Conv2D(%x#0, %sw#0) name("same_width") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x8x8x4xf32>
  %samed:2 = DepthwiseConv2dNative(%same#0, %sdf#0) name("same_width_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) -> tensor<1x8x8x4xf32>
}

// -----

// A separable convolution: a 1x1 convolution by a constant that alone
// reads a depthwise convolution takes the depthwise in, with the
// depthwise's epilogue and the ReLU before it, and keeps its own epilogue
// (bias, residual, ReLU): one group whose root is the last ReLU. A ReLU
// also read by another node stays out (the depthwise and the 1x1 still
// join); a depthwise also read by another node, a strided 1x1, a 1x1 by a
// filter fed at run time, one of more than 256 input channels and one on
// images of fewer than 32 x 32 pixels join nothing.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Relu({{.*}}) name("relu")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("pointwise")
// CHECK-NEXT: BiasAdd({{.*}}) name("pointwise_bias")
// CHECK-NEXT: AddV2({{.*}}) name("pointwise_residual")
// CHECK-NEXT: %[[ROOT:[0-9]+]]:2 = Relu({{.*}}) name("pointwise_relu")
// CHECK-NEXT: tfc.yield %[[ROOT]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("mobile_depthwise")
// CHECK-NEXT: BiasAdd({{.*}}) name("mobile_depthwise_bias")
// CHECK-NEXT: Relu6({{.*}}) name("mobile_depthwise_relu6")
// CHECK-NEXT: Conv2D({{.*}}) name("mobile_pointwise")
// CHECK-NEXT: %[[MOBILE:[0-9]+]]:2 = Relu6({{.*}}) name("mobile_pointwise_relu6")
// CHECK-NEXT: tfc.yield %[[MOBILE]]#0
// CHECK: Relu({{.*}}) name("shared_relu")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("after_shared_relu")
// CHECK-NEXT: %[[AFTER:[0-9]+]]:2 = Conv2D({{.*}}) name("after_shared_pointwise")
// CHECK-NEXT: tfc.yield %[[AFTER]]#0
// CHECK: DepthwiseConv2dNative({{.*}}) name("shared_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("shared_pointwise")
// CHECK: DepthwiseConv2dNative({{.*}}) name("strided_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("strided_pointwise")
// CHECK: DepthwiseConv2dNative({{.*}}) name("fed_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("fed_pointwise")
// CHECK: DepthwiseConv2dNative({{.*}}) name("wide_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("wide_pointwise")
// CHECK: DepthwiseConv2dNative({{.*}}) name("small_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("small_pointwise")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x32x32x16>} : () -> tensor<1x32x32x16xf32>
  %d:2 = Const name("d") {dtype = f32, value = dense<0.25> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %r:2 = Relu(%x#0) name("relu") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %dw:2 = DepthwiseConv2dNative(%r#0, %d#0) name("depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1], dilations = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %pw:2 = Conv2D(%dw#0, %w#0) name("pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %pb:2 = BiasAdd(%pw#0, %b#0) name("pointwise_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %pa:2 = AddV2(%pb#0, %x#0) name("pointwise_residual") {T = f32} : (tensor<1x32x32x16xf32>, tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %pr:2 = Relu(%pa#0) name("pointwise_relu") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %md:2 = DepthwiseConv2dNative(%pr#0, %d#0) name("mobile_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %mdb:2 = BiasAdd(%md#0, %b#0) name("mobile_depthwise_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %mdr:2 = Relu6(%mdb#0) name("mobile_depthwise_relu6") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %mp:2 = Conv2D(%mdr#0, %w#0) name("mobile_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %mpr:2 = Relu6(%mp#0) name("mobile_pointwise_relu6") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %sr:2 = Relu(%x#0) name("shared_relu") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %srn:2 = Neg(%sr#0) name("shared_relu_other") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %ad:2 = DepthwiseConv2dNative(%sr#0, %d#0) name("after_shared_relu") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %ap:2 = Conv2D(%ad#0, %w#0) name("after_shared_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %sd:2 = DepthwiseConv2dNative(%x#0, %d#0) name("shared_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %sp:2 = Conv2D(%sd#0, %w#0) name("shared_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %sdn:2 = Neg(%sd#0) name("shared_depthwise_other") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %td:2 = DepthwiseConv2dNative(%x#0, %d#0) name("strided_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %tp:2 = Conv2D(%td#0, %w#0) name("strided_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x16x16x16xf32>
  %fw:2 = Placeholder name("fw") {dtype = f32, shape = #tfg.shape<1x1x16x16>} : () -> tensor<1x1x16x16xf32>
  %fd:2 = DepthwiseConv2dNative(%x#0, %d#0) name("fed_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %fp:2 = Conv2D(%fd#0, %fw#0) name("fed_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %xw:2 = Placeholder name("xw") {dtype = f32, shape = #tfg.shape<1x32x32x264>} : () -> tensor<1x32x32x264xf32>
  %dwide:2 = Const name("dwide") {dtype = f32, value = dense<0.25> : tensor<3x3x264x1xf32>} : () -> tensor<3x3x264x1xf32>
  %wwide:2 = Const name("wwide") {dtype = f32, value = dense<0.5> : tensor<1x1x264x16xf32>} : () -> tensor<1x1x264x16xf32>
  %wd:2 = DepthwiseConv2dNative(%xw#0, %dwide#0) name("wide_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x264xf32>, tensor<3x3x264x1xf32>) -> tensor<1x32x32x264xf32>
  %wp:2 = Conv2D(%wd#0, %wwide#0) name("wide_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x264xf32>, tensor<1x1x264x16xf32>) -> tensor<1x32x32x16xf32>
  %xs:2 = Placeholder name("xs") {dtype = f32, shape = #tfg.shape<1x8x8x16>} : () -> tensor<1x8x8x16xf32>
  %sdw:2 = DepthwiseConv2dNative(%xs#0, %d#0) name("small_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  %spw:2 = Conv2D(%sdw#0, %w#0) name("small_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x8x8x16xf32>
}

// -----

// A MaxPool that alone reads a separable group's output joins the group,
// as its root (Xception's blocks: the kernel pools each band). It stays
// out where the 1x1's epilogue adds a residual, and where another node
// reads the group's output too.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("pointwise")
// CHECK-NEXT: BiasAdd({{.*}}) name("pointwise_bias")
// CHECK-NEXT: %[[ROOT:[0-9]+]]:2 = MaxPool({{.*}}) name("pool")
// CHECK-NEXT: tfc.yield %[[ROOT]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("residual_depthwise")
// CHECK-NEXT: Conv2D({{.*}}) name("residual_pointwise")
// CHECK-NEXT: %[[ADDED:[0-9]+]]:2 = AddV2({{.*}}) name("residual_add")
// CHECK-NEXT: tfc.yield %[[ADDED]]#0
// CHECK: MaxPool({{.*}}) name("residual_pool")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("shared_depthwise")
// CHECK-NEXT: %[[SHARED:[0-9]+]]:2 = Conv2D({{.*}}) name("shared_pointwise")
// CHECK-NEXT: tfc.yield %[[SHARED]]#0
// CHECK: MaxPool({{.*}}) name("shared_pool")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x32x32x16>} : () -> tensor<1x32x32x16xf32>
  %d:2 = Const name("d") {dtype = f32, value = dense<0.25> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %dw:2 = DepthwiseConv2dNative(%x#0, %d#0) name("depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1], dilations = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %pw:2 = Conv2D(%dw#0, %w#0) name("pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %pb:2 = BiasAdd(%pw#0, %b#0) name("pointwise_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %p:2 = MaxPool(%pb#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32>
  %rd:2 = DepthwiseConv2dNative(%x#0, %d#0) name("residual_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %rp:2 = Conv2D(%rd#0, %w#0) name("residual_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %ra:2 = AddV2(%rp#0, %x#0) name("residual_add") {T = f32} : (tensor<1x32x32x16xf32>, tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %rpool:2 = MaxPool(%ra#0) name("residual_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32>
  %sd:2 = DepthwiseConv2dNative(%x#0, %d#0) name("shared_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %sp:2 = Conv2D(%sd#0, %w#0) name("shared_pointwise") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x32x32x16xf32>
  %spool:2 = MaxPool(%sp#0) name("shared_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32>
  %sn:2 = Neg(%sp#0) name("shared_other") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
}

// -----

// Two separable groups where the second's depthwise alone reads the
// first's output (Xception's blocks 2 and 3): one group, a pair, whose
// root is the second's MaxPool, where the first's output is 4 MiB an
// image or more. A first group whose output another node reads too
// stays a group of its own, and so does the group after it; so does a
// pooled first group's, whose output is its pooling's, and a first
// group's of 1 MiB an image.
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Relu({{.*}}) name("relu")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("depthwise1")
// CHECK-NEXT: Conv2D({{.*}}) name("pointwise1")
// CHECK-NEXT: BiasAdd({{.*}}) name("bias1")
// CHECK-NEXT: Relu({{.*}}) name("relu1")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("depthwise2")
// CHECK-NEXT: Conv2D({{.*}}) name("pointwise2")
// CHECK-NEXT: BiasAdd({{.*}}) name("bias2")
// CHECK-NEXT: %[[ROOT:[0-9]+]]:2 = MaxPool({{.*}}) name("pool")
// CHECK-NEXT: tfc.yield %[[ROOT]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("shared_depthwise1")
// CHECK-NEXT: %[[SHARED:[0-9]+]]:2 = Conv2D({{.*}}) name("shared_pointwise1")
// CHECK-NEXT: tfc.yield %[[SHARED]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("shared_depthwise2")
// CHECK-NEXT: %[[AFTER:[0-9]+]]:2 = Conv2D({{.*}}) name("shared_pointwise2")
// CHECK-NEXT: tfc.yield %[[AFTER]]#0
// CHECK: Neg({{.*}}) name("shared_other")
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("pooled_depthwise1")
// CHECK-NEXT: Conv2D({{.*}}) name("pooled_pointwise1")
// CHECK-NEXT: %[[POOLED:[0-9]+]]:2 = MaxPool({{.*}}) name("pooled_pool")
// CHECK-NEXT: tfc.yield %[[POOLED]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("pooled_depthwise2")
// CHECK-NEXT: %[[NEXT:[0-9]+]]:2 = Conv2D({{.*}}) name("pooled_pointwise2")
// CHECK-NEXT: tfc.yield %[[NEXT]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("small_depthwise1")
// CHECK-NEXT: %[[SMALL:[0-9]+]]:2 = Conv2D({{.*}}) name("small_pointwise1")
// CHECK-NEXT: tfc.yield %[[SMALL]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("small_depthwise2")
// CHECK-NEXT: %[[SMALL2:[0-9]+]]:2 = Conv2D({{.*}}) name("small_pointwise2")
// CHECK-NEXT: tfc.yield %[[SMALL2]]#0
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x128x128x64>} : () -> tensor<1x128x128x64xf32>
  %d:2 = Const name("d") {dtype = f32, value = dense<0.25> : tensor<3x3x64x1xf32>} : () -> tensor<3x3x64x1xf32>
  %w:2 = Const name("w") {dtype = f32, value = dense<0.5> : tensor<1x1x64x64xf32>} : () -> tensor<1x1x64x64xf32>
  %b:2 = Const name("b") {dtype = f32, value = dense<1.0> : tensor<64xf32>} : () -> tensor<64xf32>
  %r:2 = Relu(%x#0) name("relu") {T = f32} : (tensor<1x128x128x64xf32>) -> tensor<1x128x128x64xf32>
  %d1:2 = DepthwiseConv2dNative(%r#0, %d#0) name("depthwise1") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x128x128x64xf32>
  %p1:2 = Conv2D(%d1#0, %w#0) name("pointwise1") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x128x128x64xf32>
  %b1:2 = BiasAdd(%p1#0, %b#0) name("bias1") {T = f32, data_format = "NHWC"} : (tensor<1x128x128x64xf32>, tensor<64xf32>) -> tensor<1x128x128x64xf32>
  %r1:2 = Relu(%b1#0) name("relu1") {T = f32} : (tensor<1x128x128x64xf32>) -> tensor<1x128x128x64xf32>
  %d2:2 = DepthwiseConv2dNative(%r1#0, %d#0) name("depthwise2") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x128x128x64xf32>
  %p2:2 = Conv2D(%d2#0, %w#0) name("pointwise2") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x128x128x64xf32>
  %b2:2 = BiasAdd(%p2#0, %b#0) name("bias2") {T = f32, data_format = "NHWC"} : (tensor<1x128x128x64xf32>, tensor<64xf32>) -> tensor<1x128x128x64xf32>
  %pool:2 = MaxPool(%b2#0) name("pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x128x128x64xf32>) -> tensor<1x64x64x64xf32>
  %sd1:2 = DepthwiseConv2dNative(%x#0, %d#0) name("shared_depthwise1") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x128x128x64xf32>
  %sp1:2 = Conv2D(%sd1#0, %w#0) name("shared_pointwise1") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x128x128x64xf32>
  %sd2:2 = DepthwiseConv2dNative(%sp1#0, %d#0) name("shared_depthwise2") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x128x128x64xf32>
  %sp2:2 = Conv2D(%sd2#0, %w#0) name("shared_pointwise2") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x128x128x64xf32>
  %sn:2 = Neg(%sp1#0) name("shared_other") {T = f32} : (tensor<1x128x128x64xf32>) -> tensor<1x128x128x64xf32>
  %xl:2 = Placeholder name("xl") {dtype = f32, shape = #tfg.shape<1x256x256x64>} : () -> tensor<1x256x256x64xf32>
  %qd1:2 = DepthwiseConv2dNative(%xl#0, %d#0) name("pooled_depthwise1") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x256x256x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x256x256x64xf32>
  %qp1:2 = Conv2D(%qd1#0, %w#0) name("pooled_pointwise1") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x256x256x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x256x256x64xf32>
  %qpool:2 = MaxPool(%qp1#0) name("pooled_pool") {T = f32, data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x256x256x64xf32>) -> tensor<1x128x128x64xf32>
  %qd2:2 = DepthwiseConv2dNative(%qpool#0, %d#0) name("pooled_depthwise2") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x128x128x64xf32>
  %qp2:2 = Conv2D(%qd2#0, %w#0) name("pooled_pointwise2") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x128x128x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x128x128x64xf32>
  %xs:2 = Placeholder name("xs") {dtype = f32, shape = #tfg.shape<1x64x64x64>} : () -> tensor<1x64x64x64xf32>
  %md1:2 = DepthwiseConv2dNative(%xs#0, %d#0) name("small_depthwise1") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x64x64x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x64x64x64xf32>
  %mp1:2 = Conv2D(%md1#0, %w#0) name("small_pointwise1") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x64x64x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x64x64x64xf32>
  %md2:2 = DepthwiseConv2dNative(%mp1#0, %d#0) name("small_depthwise2") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x64x64x64xf32>, tensor<3x3x64x1xf32>) -> tensor<1x64x64x64xf32>
  %mp2:2 = Conv2D(%md2#0, %w#0) name("small_pointwise2") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x64x64x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x64x64x64xf32>
}

// -----

// MobileNetV2's first block, a depthwise convolution and its projection
// (a separable group), read by the next block's expansion: the expansion
// takes its own depthwise convolution (a pointwise-depthwise group), and
// the separable group, which holds a convolution after its depthwise, is
// no epilogue of a depthwise to it (the groups stay two; the last
// projection, with no epilogue, is none).
// CHECK-LABEL: tfg.graph
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("block0_depthwise")
// CHECK-NEXT: BiasAdd({{.*}}) name("block0_depthwise_bias")
// CHECK-NEXT: Relu6({{.*}}) name("block0_depthwise_relu6")
// CHECK-NEXT: Conv2D({{.*}}) name("block0_project")
// CHECK-NEXT: %[[B0:[0-9]+]]:2 = BiasAdd({{.*}}) name("block0_project_bias")
// CHECK-NEXT: tfc.yield %[[B0]]#0
// CHECK: tfc.fusion_group
// CHECK-NEXT: ^bb0
// CHECK-NEXT: Conv2D({{.*}}) name("block1_expand")
// CHECK-NEXT: BiasAdd({{.*}}) name("block1_expand_bias")
// CHECK-NEXT: Relu6({{.*}}) name("block1_expand_relu6")
// CHECK-NEXT: DepthwiseConv2dNative({{.*}}) name("block1_depthwise")
// CHECK-NEXT: %[[B1:[0-9]+]]:2 = Relu6({{.*}}) name("block1_depthwise_relu6")
// CHECK-NEXT: tfc.yield %[[B1]]#0
// CHECK-NEXT: }
// CHECK-NEXT: Conv2D({{.*}}) name("block1_project")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %x:2 = Placeholder name("x") {dtype = f32, shape = #tfg.shape<1x32x32x16>} : () -> tensor<1x32x32x16xf32>
  %d0:2 = Const name("d0") {dtype = f32, value = dense<0.25> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  %b16:2 = Const name("b16") {dtype = f32, value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %p0:2 = Const name("p0") {dtype = f32, value = dense<0.5> : tensor<1x1x16x8xf32>} : () -> tensor<1x1x16x8xf32>
  %b8:2 = Const name("b8") {dtype = f32, value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %e1:2 = Const name("e1") {dtype = f32, value = dense<0.5> : tensor<1x1x8x48xf32>} : () -> tensor<1x1x8x48xf32>
  %b48:2 = Const name("b48") {dtype = f32, value = dense<1.0> : tensor<48xf32>} : () -> tensor<48xf32>
  %d1:2 = Const name("d1") {dtype = f32, value = dense<0.25> : tensor<3x3x48x1xf32>} : () -> tensor<3x3x48x1xf32>
  %p1:2 = Const name("p1") {dtype = f32, value = dense<0.5> : tensor<1x1x48x8xf32>} : () -> tensor<1x1x48x8xf32>
  %dw0:2 = DepthwiseConv2dNative(%x#0, %d0#0) name("block0_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x32x32x16xf32>
  %dw0b:2 = BiasAdd(%dw0#0, %b16#0) name("block0_depthwise_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %dw0r:2 = Relu6(%dw0b#0) name("block0_depthwise_relu6") {T = f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %pr0:2 = Conv2D(%dw0r#0, %p0#0) name("block0_project") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x16xf32>, tensor<1x1x16x8xf32>) -> tensor<1x32x32x8xf32>
  %pr0b:2 = BiasAdd(%pr0#0, %b8#0) name("block0_project_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x8xf32>, tensor<8xf32>) -> tensor<1x32x32x8xf32>
  %ex1:2 = Conv2D(%pr0b#0, %e1#0) name("block1_expand") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x8xf32>, tensor<1x1x8x48xf32>) -> tensor<1x32x32x48xf32>
  %ex1b:2 = BiasAdd(%ex1#0, %b48#0) name("block1_expand_bias") {T = f32, data_format = "NHWC"} : (tensor<1x32x32x48xf32>, tensor<48xf32>) -> tensor<1x32x32x48xf32>
  %ex1r:2 = Relu6(%ex1b#0) name("block1_expand_relu6") {T = f32} : (tensor<1x32x32x48xf32>) -> tensor<1x32x32x48xf32>
  %dw1:2 = DepthwiseConv2dNative(%ex1r#0, %d1#0) name("block1_depthwise") {T = f32, data_format = "NHWC", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x32x32x48xf32>, tensor<3x3x48x1xf32>) -> tensor<1x32x32x48xf32>
  %dw1r:2 = Relu6(%dw1#0) name("block1_depthwise_relu6") {T = f32} : (tensor<1x32x32x48xf32>) -> tensor<1x32x32x48xf32>
  %pr1:2 = Conv2D(%dw1r#0, %p1#0) name("block1_project") {T = f32, data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x32x32x48xf32>, tensor<1x1x48x8xf32>) -> tensor<1x32x32x8xf32>
}
