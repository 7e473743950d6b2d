// Tests tfc-freeze-variables on the corpus MLP's checkpoint (TF2 keys).
// RUN: sed 's|@CORPUS@|%corpus|' %s | tfc-opt -tfc-freeze-variables -split-input-file | FileCheck %s

// Inference: the step only reads its variable, so the read becomes a Const
// of the checkpoint's [32,16] value, the variable and the init entry go,
// and so does the module attribute.
// CHECK-NOT: tfc.freeze_variables
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfg.entry = "step"
// CHECK-NOT: VarHandleOp
// CHECK: Const name("read_kernel") {dtype = f32, value = dense<{{.*}}> : tensor<32x16xf32>}
// CHECK-NOT: ReadVariableOp
// CHECK-NOT: tfg.entry = "init"
module attributes {tfc.freeze_variables = "@CORPUS@/mlp/saved_model/variables/variables", tfc.init = ["restore"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %k:2 = VarHandleOp name("kernel") {dtype = f32, shape = #tfg.shape<32x16>, shared_name = "kernel"} : () -> tensor<!tfg.resource>
    %r:2 = ReadVariableOp(%k#0) name("read_kernel") {dtype = f32} : (tensor<!tfg.resource>) -> tensor<*xf32>
    %x:2 = _Arg name("x") {T = f32, index = 0 : i64} : () -> tensor<2x32xf32>
    %m:2 = MatMul(%x#0, %r#0) name("mm") {T = f32} : (tensor<2x32xf32>, tensor<*xf32>) -> tensor<*xf32>
    %ret = _Retval(%m#0) name("mm/_retval_0") {T = f32, index = 0 : i64} : (tensor<*xf32>) -> ()
  }
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "init"} {
    %k:2 = VarHandleOp name("kernel") {dtype = f32, shape = #tfg.shape<32x16>, shared_name = "kernel"} : () -> tensor<!tfg.resource>
    %p:2 = Placeholder name("saver_filename") {dtype = !tfg.string, shape = #tfg.shape<>} : () -> tensor<!tfg.string>
    %n:2 = Const name("names") {dtype = !tfg.string, value = dense<["model_variables/0/.ATTRIBUTES/VARIABLE_VALUE"]> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    %s:2 = Const name("slices") {dtype = !tfg.string, value = dense<""> : tensor<1x!tfg.string>} : () -> tensor<1x!tfg.string>
    %v:2 = RestoreV2(%p#0, %n#0, %s#0) name("restore/RestoreV2") {dtypes = [f32]} : (tensor<!tfg.string>, tensor<1x!tfg.string>, tensor<1x!tfg.string>) -> (tensor<*xf32>)
    %i:2 = Identity(%v#0) name("restore/Identity") {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
    %a0 = AssignVariableOp(%k#0, %i#0) name("restore/assign_kernel") {dtype = f32} : (tensor<!tfg.resource>, tensor<*xf32>) -> ()
    %done = NoOp [%a0] name("restore")
  }
}

// -----

// Training: the step assigns "bias", so every variable stays in the state
// area with its checkpoint key. The key of "bias" is the restore op's; that
// of "kernel" comes from the SavedModel's object graph (variable_keys),
// because the restore op assigns another copy, "kernel_copy", as Keras 3
// models have it. The init entry becomes one Const assignment per variable
// of the step, under the restore op's name; RestoreV2 and the copy go. The
// checkpoint's object graph goes on the module.
// CHECK: module attributes {tfc.checkpoint_object_graph = "{{.+}}",
// CHECK-NOT: tfc.freeze_variables
// CHECK-LABEL: tfg.graph
// CHECK-SAME: tfg.entry = "step"
// CHECK-DAG: VarHandleOp name("kernel") {{.*}}tfc.checkpoint_key = "model_variables/0/.ATTRIBUTES/VARIABLE_VALUE"
// CHECK-DAG: VarHandleOp name("bias") {{.*}}tfc.checkpoint_key = "model_variables/1/.ATTRIBUTES/VARIABLE_VALUE"
// CHECK-DAG: ReadVariableOp
// CHECK: tfg.entry = "init"
// CHECK-NOT: RestoreV2
// CHECK-NOT: kernel_copy
// CHECK: %[[KV:.+]]:2 = Const name("kernel/initial_value") {dtype = f32, value = dense<{{.*}}> : tensor<32x16xf32>}
// CHECK: %[[K:.+]]:2 = VarHandleOp name("kernel")
// CHECK: %[[KA:.+]] = AssignVariableOp(%[[K]]#0, %[[KV]]#0) name("kernel/initialize")
// CHECK: %[[BV:.+]]:2 = Const name("bias/initial_value") {dtype = f32, value = dense<{{.*}}> : tensor<16xf32>}
// CHECK: %[[B:.+]]:2 = VarHandleOp name("bias")
// CHECK: %[[BA:.+]] = AssignVariableOp(%[[B]]#0, %[[BV]]#0) name("bias/initialize")
// CHECK: NoOp [%[[KA]], %[[BA]]] name("restore")
// CHECK-NOT: RestoreV2
module attributes {tfc.freeze_variables = "@CORPUS@/mlp/saved_model/variables/variables", tfc.init = ["restore"], tfg.saved_model = {variable_keys = {kernel = "model_variables/0/.ATTRIBUTES/VARIABLE_VALUE"}}} {
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
    %k:2 = VarHandleOp name("kernel_copy") {dtype = f32, shape = #tfg.shape<32x16>, shared_name = "kernel_copy"} : () -> tensor<!tfg.resource>
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
