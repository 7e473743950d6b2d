// Tests tfc-bind-tables: a static table (HashTableV2) filled with constants
// by an initializer in the graph (TF1's tables_initializer) or in a
// function a call of the graph runs (a SavedModel's init op) gets them as
// tfc.table_keys and tfc.table_values; a table filled otherwise keeps
// none; two initializers, and a key given two values, are errors.
// RUN: tfc-opt %s -split-input-file -tfc-bind-tables -verify-diagnostics | FileCheck %s

// In the graph, through an Identity of the handle; a table whose keys are
// fed stays unbound.
// CHECK-LABEL: tfg.graph
// CHECK-DAG: HashTableV2 name("words") {{.*}}tfc.table_keys = dense<["the", "cat"]> : tensor<2x!tfg.string>, tfc.table_values = dense<[3, 1]> : tensor<2xi64>
// CHECK-DAG: HashTableV2 name("fed") {key_dtype = !tfg.string, value_dtype = i64}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %words:2 = HashTableV2 name("words") {key_dtype = !tfg.string, value_dtype = i64} : () -> tensor<!tfg.resource>
  %handle:2 = Identity(%words#0) name("handle") {T = !tfg.resource} : (tensor<!tfg.resource>) -> tensor<!tfg.resource>
  %keys:2 = Const name("keys") {dtype = !tfg.string, value = dense<["the", "cat"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  %values:2 = Const name("values") {dtype = i64, value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %init = LookupTableImportV2(%handle#0, %keys#0, %values#0) name("init") {Tin = !tfg.string, Tout = i64} : (tensor<!tfg.resource>, tensor<2x!tfg.string>, tensor<2xi64>) -> ()
  %fed:2 = HashTableV2 name("fed") {key_dtype = !tfg.string, value_dtype = i64} : () -> tensor<!tfg.resource>
  %fedKeys:2 = Placeholder name("fed_keys") {dtype = !tfg.string} : () -> tensor<2x!tfg.string>
  %fedInit = InitializeTableV2(%fed#0, %fedKeys#0, %values#0) name("fed_init") {Tkey = !tfg.string, Tval = i64} : (tensor<!tfg.resource>, tensor<2x!tfg.string>, tensor<2xi64>) -> ()
}

// -----

// In a function that a call of the graph runs, its arguments the table
// and the constants.
// CHECK-LABEL: tfg.graph
// CHECK: HashTableV2 name("ids") {{.*}}tfc.table_keys = dense<[7, -2]> : tensor<2xi64>, tfc.table_values = dense<["seven", "minus two"]> : tensor<2x!tfg.string>
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %ids:2 = HashTableV2 name("ids") {key_dtype = i64, value_dtype = !tfg.string} : () -> tensor<!tfg.resource>
  %keys:2 = Const name("keys") {dtype = i64, value = dense<[7, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %values:2 = Const name("values") {dtype = !tfg.string, value = dense<["seven", "minus two"]> : tensor<2x!tfg.string>} : () -> tensor<2x!tfg.string>
  %call = StatefulPartitionedCall(%ids#0, %keys#0, %values#0) name("initializer") {Tin = [!tfg.resource, i64, !tfg.string], Tout = [], f = #tfg.func<@initialize, {}>} : (tensor<!tfg.resource>, tensor<2xi64>, tensor<2x!tfg.string>) -> ()
}
tfg.func @initialize(%table: tensor<!tfg.resource> {tfg.name = "table"}, %k: tensor<2xi64> {tfg.name = "k"}, %v: tensor<2x!tfg.string> {tfg.name = "v"}) -> () {
  %import = LookupTableImportV2(%table, %k, %v) name("import") {Tin = i64, Tout = !tfg.string} : (tensor<!tfg.resource>, tensor<2xi64>, tensor<2x!tfg.string>) -> ()
  return
}

// -----

// A key given two values: TensorFlow's error.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %t:2 = HashTableV2 name("t") {key_dtype = i64, value_dtype = i64} : () -> tensor<!tfg.resource>
  %keys:2 = Const name("keys") {dtype = i64, value = dense<[4, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %values:2 = Const name("values") {dtype = i64, value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{node 'init' (LookupTableImportV2): HashTable has different value for same key. Key 4 has 1 and trying to add value 2}}
  %init = LookupTableImportV2(%t#0, %keys#0, %values#0) name("init") {Tin = i64, Tout = i64} : (tensor<!tfg.resource>, tensor<2xi64>, tensor<2xi64>) -> ()
}

// -----

// Two initializers of one table.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %t:2 = HashTableV2 name("t") {key_dtype = i64, value_dtype = i64} : () -> tensor<!tfg.resource>
  %keys:2 = Const name("keys") {dtype = i64, value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %values:2 = Const name("values") {dtype = i64, value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %first = LookupTableImportV2(%t#0, %keys#0, %values#0) name("first") {Tin = i64, Tout = i64} : (tensor<!tfg.resource>, tensor<2xi64>, tensor<2xi64>) -> ()
  // expected-error @+1 {{node 'second' (LookupTableImportV2) initializes table node 't' (HashTableV2), which another initializer fills already}}
  %second = LookupTableImportV2(%t#0, %keys#0, %values#0) name("second") {Tin = i64, Tout = i64} : (tensor<!tfg.resource>, tensor<2xi64>, tensor<2xi64>) -> ()
}

// -----

// A vocabulary file whose name is fed: which file a step sees only the
// feed decides, so the table stays unbound (tfc-verify-supported refuses
// it). Files the compiler reads are tested end to end
// (e2e/vocabulary-files.test).
// CHECK-LABEL: tfg.graph
// CHECK: HashTableV2 name("fed") {key_dtype = !tfg.string, value_dtype = i64}
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %fed:2 = HashTableV2 name("fed") {key_dtype = !tfg.string, value_dtype = i64} : () -> tensor<!tfg.resource>
  %file:2 = Placeholder name("file") {dtype = !tfg.string} : () -> tensor<!tfg.string>
  %init = InitializeTableFromTextFileV2(%fed#0, %file#0) name("init") {delimiter = "\09", key_index = -2 : i64, offset = 0 : i64, value_index = -1 : i64, vocab_size = -1 : i64} : (tensor<!tfg.resource>, tensor<!tfg.string>) -> ()
}

// -----

// Line numbers as the keys of a table of string keys: TensorFlow's error,
// before any file is read.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %t:2 = HashTableV2 name("t") {key_dtype = !tfg.string, value_dtype = i64} : () -> tensor<!tfg.resource>
  %file:2 = Const name("file") {dtype = !tfg.string, value = dense<"no-such-file.txt"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  // expected-error @+1 {{node 'init' (InitializeTableFromTextFileV2), which fills node 't' (HashTableV2): Key index for line number requires table key dtype of int64, got string}}
  %init = InitializeTableFromTextFileV2(%t#0, %file#0) name("init") {delimiter = "\09", key_index = -1 : i64, offset = 0 : i64, value_index = -2 : i64, vocab_size = -1 : i64} : (tensor<!tfg.resource>, tensor<!tfg.string>) -> ()
}

// -----

// Keys and values of different counts.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %t:2 = HashTableV2 name("t") {key_dtype = i64, value_dtype = i64} : () -> tensor<!tfg.resource>
  %keys:2 = Const name("keys") {dtype = i64, value = dense<[4, 5, 6]> : tensor<3xi64>} : () -> tensor<3xi64>
  %values:2 = Const name("values") {dtype = i64, value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{node 'init' (LookupTableImportV2) gives table node 't' (HashTableV2) 3 keys and 2 values}}
  %init = LookupTableImportV2(%t#0, %keys#0, %values#0) name("init") {Tin = i64, Tout = i64} : (tensor<!tfg.resource>, tensor<3xi64>, tensor<2xi64>) -> ()
}

// -----

// Whole lines as the values of a table of float values: TensorFlow's
// error, before any file is read.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %t:2 = HashTableV2 name("t") {key_dtype = i64, value_dtype = f32} : () -> tensor<!tfg.resource>
  %file:2 = Const name("file") {dtype = !tfg.string, value = dense<"no-such-file.txt"> : tensor<!tfg.string>} : () -> tensor<!tfg.string>
  // expected-error @+1 {{node 'init' (InitializeTableFromTextFileV2), which fills node 't' (HashTableV2): Value index for whole line requires table value dtype of integer or string, got float}}
  %init = InitializeTableFromTextFileV2(%t#0, %file#0) name("init") {delimiter = "\09", key_index = -1 : i64, offset = 0 : i64, value_index = -2 : i64, vocab_size = -1 : i64} : (tensor<!tfg.resource>, tensor<!tfg.string>) -> ()
}
