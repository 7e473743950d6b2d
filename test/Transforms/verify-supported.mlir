// Tests that unknown op types are rejected with one error naming each type
// and its first node, and that known ones pass.
// RUN: tfc-opt %s -split-input-file -tfc-verify-supported -verify-diagnostics | FileCheck %s

// CHECK: NoOp name("ok")
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  %a = NoOp name("ok")
}

// -----

tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
  // expected-error @+1 {{2 unsupported op types: FancyOp (node 'f1'), OtherOp (node 'o')}}
  %f1 = FancyOp name("f1")
  %f2 = FancyOp name("f2")
  %o = OtherOp name("o")
}

// -----

// Unsupported ops inside functions count too.
tfg.graph #tfg.version<producer = 1, min_consumer = 0> {
}
tfg.func @f() -> () {
  // expected-error @+1 {{1 unsupported op type: Mystery (node 'm')}}
  %m = Mystery name("m")
  return
}
