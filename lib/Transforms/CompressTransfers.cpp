//===- CompressTransfers.cpp - lossy 32->16-bit transfers between tasks ---===//
//
// OSDI'16 §5.5 and white paper §5.5: "many machine learning algorithms ...
// are tolerant of reduced precision arithmetic": when sending 32-bit floats
// between devices, the sender drops the low 16 bits of each float's
// mantissa and the receiver fills them with zeros. Here that is, for each
// _Send/_Recv pair of float32 between different tasks (the network hops;
// devices of one task share memory), a Cast to bfloat16 with
// Truncate=true before the _Send and a Cast back to float32 after the
// _Recv. Both are standard TensorFlow ops, so partitions stay runnable by
// TensorFlow, and the Casts fuse into the neighbouring elementwise loops.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfg/NodeUtils.h"
#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "tfc/Support/DeviceName.h"
#include "tfc/Support/PassCounters.h"
#include "tfc/Transforms/GraphUtils.h"
#include "tfc/Transforms/OpTable.h"
#include "tfc/Transforms/Passes.h"
#include "tfc/Transforms/Partition.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace tfc {
#define GEN_PASS_DEF_COMPRESSTRANSFERSPASS
#include "tfc/Transforms/Passes.h.inc"

namespace {

bool crossesTasks(Operation *transfer) {
  auto device = [&](StringRef attr) {
    return DeviceName::parse(transfer->getAttrOfType<StringAttr>(attr).getValue())
        .value_or(DeviceName());
  };
  return !device("send_device").sameTask(device("recv_device"));
}

struct CompressTransfersPass
    : public impl::CompressTransfersPassBase<CompressTransfersPass> {
  using CompressTransfersPassBase::CompressTransfersPassBase;
  PassCounter numCompressed{this, "compressed", "float32 transfers sent as 16 bits"};

  void runOnOperation() override {
    numCompressed = 0;
    ModuleOp module = getOperation();
    std::string format = this->format;
    if (format.empty())
      if (auto attr = module->getAttrOfType<StringAttr>(kCompressTransfersAttr))
        format = attr.str();
    if (format.empty() || format == "none")
      return;
    if (format != "bf16") {
      module.emitError() << "transfer compression '" << format
                         << "' is not bf16 or none";
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    Type f32 = b.getF32Type(), bf16 = b.getBF16Type();
    // The receives, by rendezvous key.
    llvm::StringMap<Operation *> recvs;
    module.walk([&](Operation *op) {
      if (tfg::isNode(op) && opKindOf(op) == OpKind::InternalRecv)
        recvs[rendezvousKey(op)] = op;
    });
    SmallVector<Operation *> sends;
    module.walk([&](Operation *op) {
      if (tfg::isNode(op) && opKindOf(op) == OpKind::InternalSend &&
          op->getAttrOfType<TypeAttr>("T").getValue() == f32 && crossesTasks(op))
        sends.push_back(op);
    });
    // One name uniquer per partition, made once (each scans its block).
    llvm::DenseMap<Block *, std::unique_ptr<NameUniquer>> uniquers;
    auto namesIn = [&](Block *block) -> NameUniquer & {
      std::unique_ptr<NameUniquer> &names = uniquers[block];
      if (!names)
        names = std::make_unique<NameUniquer>(*block);
      return *names;
    };
    for (Operation *send : sends) {
      Operation *recv = recvs.lookup(rendezvousKey(send));
      if (!recv)
        continue; // The receiver is compiled elsewhere; nothing to pair.
      NameUniquer &sendNames = namesIn(send->getBlock());
      NameUniquer &recvNames = namesIn(recv->getBlock());
      auto common = [&](Operation *node, NameUniquer &names, StringRef suffix) {
        return SmallVector<NamedAttribute>{
            b.getNamedAttr(tfg::kNameAttr,
                           b.getStringAttr(names.get(
                               (tfg::getNodeName(node) + suffix).str()))),
            b.getNamedAttr(tfg::kAssignedDeviceAttr,
                           b.getStringAttr(tfg::getAssignedDevice(node)))};
      };
      // Sender: truncate, then send 16 bits.
      Value tensor = tfg::getDataOperands(send)[0];
      auto type = cast<RankedTensorType>(tensor.getType());
      b.setInsertionPoint(send);
      SmallVector<NamedAttribute> attrs = common(send, sendNames, "/_compress");
      attrs.append({b.getNamedAttr("SrcT", TypeAttr::get(f32)),
                    b.getNamedAttr("DstT", TypeAttr::get(bf16)),
                    b.getNamedAttr("Truncate", b.getBoolAttr(true))});
      Operation *truncate = tfg::createNode(b, send->getLoc(), "Cast",
                                            type.clone(bf16), {tensor}, {}, attrs);
      send->setOperand(0, truncate->getResult(0));
      send->setAttr("T", TypeAttr::get(bf16));

      // Receiver: receive 16 bits, expand with zeros.
      b.setInsertionPointAfter(recv);
      SmallVector<NamedAttribute> recvAttrs(recv->getAttrs());
      for (NamedAttribute &attr : recvAttrs)
        if (attr.getName() == "tensor_type")
          attr.setValue(TypeAttr::get(bf16));
      Operation *narrow = tfg::createNode(b, recv->getLoc(), "_Recv",
                                          type.clone(bf16), {}, {}, recvAttrs);
      attrs = common(recv, recvNames, "/_expand");
      attrs.append({b.getNamedAttr("SrcT", TypeAttr::get(bf16)),
                    b.getNamedAttr("DstT", TypeAttr::get(f32)),
                    b.getNamedAttr("Truncate", b.getBoolAttr(false))});
      Operation *expand = tfg::createNode(b, recv->getLoc(), "Cast", type,
                                          {narrow->getResult(0)}, {}, attrs);
      tfg::getDataResults(recv)[0].replaceAllUsesWith(expand->getResult(0));
      tfg::getControlToken(recv).replaceAllUsesWith(tfg::getControlToken(expand));
      recv->erase();
      ++numCompressed;
    }
  }
};

} // namespace
} // namespace tfc
