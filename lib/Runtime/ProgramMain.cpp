//===- ProgramMain.cpp - the main of compiled programs --------------------===//
//
// Every program `tfc compile --emit exe` produces links this main against
// the model it compiled (the symbol tfc_compiled_model); what it does with
// its flags is ProgramDriver.h's.
//
//===----------------------------------------------------------------------===//

#include "tfc/Runtime/ProgramDriver.h"

extern "C" const tfc_model tfc_compiled_model;

int main(int argc, char **argv) {
  return tfc::rt::runProgram(argc, argv, tfc_compiled_model, {});
}
