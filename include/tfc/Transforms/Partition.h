//===- Partition.h - device partitions and their rendezvous keys ----------===//

#ifndef TFC_TRANSFORMS_PARTITION_H
#define TFC_TRANSFORMS_PARTITION_H

#include "tfc/Dialect/Tfc/TfcAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tfc {

/// The incarnation number tfc gives `device` in rendezvous keys: a stable
/// hash of its name, so that every program compiled from one graph agrees.
int64_t deviceIncarnation(llvm::StringRef device);

/// The device type of a partition (a graph with `tfc.device`, tfc-partition),
/// "CPU" when it names none: the device target its code is generated and
/// linked for.
std::string partitionDeviceType(mlir::Operation *graph);

/// The rendezvous key of a _Send or _Recv, in TensorFlow's format:
/// "send_device;incarnation (16 hex digits);recv_device;tensor_name;0:0".
std::string rendezvousKey(mlir::Operation *sendOrRecv);

/// The key of a _Send or _Recv inside a loop that spans devices, but for
/// the iteration's number, which the runtime appends: the frame part is
/// "FRAME:" with FRAME a stable hash of the frame's path (16 hex digits).
std::string rendezvousKeyPrefixInFrame(mlir::Operation *sendOrRecv,
                                       llvm::StringRef framePath);

} // namespace tfc

#endif // TFC_TRANSFORMS_PARTITION_H
