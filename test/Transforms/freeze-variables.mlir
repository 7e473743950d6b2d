// Tests tfc-freeze-variables on the corpus MLP's checkpoint: the init
// entry restores two variables; the step reads "kernel" (frozen: its read
// becomes a Const of the checkpoint's [32,16] value) and assigns "bias"
// (not frozen, so the init entry stays). The module attribute goes.
// RUN: sed 's|@CORPUS@|%corpus|' %s | tfc-opt -tfc-freeze-variables | FileCheck %s

// CHECK-NOT: tfc.freeze_variables
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfg.entry = "step"
// CHECK: Const name("read_kernel") {dtype = f32, value = dense<{{.*}}> : tensor<32x16xf32>}
// CHECK-NOT: ReadVariableOp(%{{.*}}) name("read_kernel")
// CHECK: AssignVariableOp
// CHECK: tfg.entry = "init"
module attributes {tfc.freeze_variables = "@CORPUS@/mlp/saved_model/variables/variables", tfc.init = ["restore"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %k:2 = VarHandleOp name("kernel") {dtype = f32, shape = #tfg.shape<32x16>, shared_name = "kernel"} : () -> tensor<!tfg.resource>
    %b:2 = VarHandleOp name("bias") {dtype = f32, shape = #tfg.shape<16>, shared_name = "bias"} : () -> tensor<!tfg.resource>
    %r:2 = ReadVariableOp(%k#0) name("read_kernel") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<*xf32>
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x32xf32>
    %m:2 = MatMul(%x#0, %r#0) name("mm") {T = f32} : (tensor<2x32xf32>, tensor<*xf32>) -> tensor<*xf32>
    %z:2 = Const name("zeros") {dtype = f32, value = dense<0.0> : tensor<16xf32>} : () -> tensor<16xf32>
    %a = AssignVariableOp(%b#0, %z#0) name("reset_bias") {dtype = f32} : (tensor<!tfg.resource>, tensor<16xf32>) -> ()
    %ret = _Retval(%m#0) name("mm/_retval_0") {T = f32, index = 0 : i64} : (tensor<*xf32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "init"} {
    %k:2 = VarHandleOp name("kernel") {dtype = f32, shape = #tfg.shape<32x16>, shared_name = "kernel"} : () -> tensor<!tfg.resource>
    %b:2 = VarHandleOp name("bias") {dtype = f32, shape = #tfg.shape<16>, shared_name = "bias"} : () -> tensor<!tfg.resource>
    %p:2 = Placeholder name("saver_filename") {dtype = !tfg.string, shape = #tfg.shape<>} : () -> tensor<!tfg.string>
    %n:2 = Const name("names") {dtype = !tfg.string, value = dense<["model_variables/0/.ATTRIBUTES/VARIABLE_VALUE", "model_variables/1/.ATTRIBUTES/VARIABLE_VALUE"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
    %s:2 = Const name("slices") {dtype = !tfg.string, value = dense<""> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
    %v:3 = RestoreV2(%p#0, %n#0, %s#0) name("restore/RestoreV2") {dtypes = [f32, f32]} : (tensor<!tfg.string>, tensor<2x!tfg.string>, tensor<2x!tfg.string>) -> (tensor<*xf32>, tensor<*xf32>)
    %i:2 = Identity(%v#0) name("restore/Identity") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %a0 = AssignVariableOp(%k#0, %i#0) name("restore/assign_kernel") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
    %a1 = AssignVariableOp(%b#0, %v#1) name("restore/assign_bias") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
    %done = NoOp [%a0, %a1] name("restore")
  }
}
