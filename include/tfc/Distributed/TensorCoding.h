//===- TensorCoding.h - tensors on the wire without copies ------*- C++ -*-===//
//
// A tensor travels between tasks as a TensorMessage (task_service.proto),
// encoded by hand around its bytes so that no protobuf object holds them
// (as TensorFlow's grpc_tensor_coding does): the sender writes the header
// fields and the `data` field's tag and length as one small piece, then
// gives gRPC the tensor's own buffer as a second; the receiver reads the
// header from gRPC's slices, wherever they split, and copies the data
// straight into the _Recv's buffer. The bytes on the wire are a valid
// TensorMessage, so any protobuf reader can read them too.
//
// The decoder reads what peers send: it checks every length against what
// is there and refuses anything that is not a TensorMessage, naming what
// is wrong; it never reads past the message.
//
// Standard C++ only (no gRPC here: the fuzzer drives the decoder alone).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_TENSORCODING_H
#define TFC_DISTRIBUTED_TENSORCODING_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tfc::distributed {

/// Where the bytes of a tensor sent to a task on the same host lie
/// instead of the message's `data`: in a shared memory region of the
/// sender (SharedMemory.h), which the receiver maps and copies from.
struct SharedTensor {
  /// The sender's host identity (hostIdentity()): the receiver maps the
  /// region only when it is its own.
  std::string host;
  /// The sender's process and the region's file descriptor in it.
  int64_t pid = 0;
  int64_t fd = 0;
  /// What the region holds at its start, so that a region the sender has
  /// since replaced is not taken for this one.
  uint64_t token = 0;
  /// The tensor's size; its bytes start at kSharedDataOffset.
  uint64_t bytes = 0;
};

/// The fields of a TensorMessage but its data.
struct TensorHeader {
  uint64_t incarnation = 0;
  int64_t stepId = 0;
  std::string key;
  std::string sender;
  std::optional<SharedTensor> shared;
};

/// A contiguous piece of a received message (one of gRPC's slices).
struct Span {
  const uint8_t *data;
  size_t size;
};

/// What precedes a tensor's bytes on the wire: the header's fields, then
/// the tag and length of `data` (`dataBytes` long; 0 with `shared`).
std::string encodeTensorPrefix(const TensorHeader &header, uint64_t dataBytes);

/// A decoded message: its header and where its data lies.
struct DecodedTensor {
  TensorHeader header;
  /// The data's offset in the message (the pieces laid end to end).
  size_t dataOffset = 0;
  uint64_t dataBytes = 0;
};

/// Longest key or sender name accepted (TensorFlow's keys are far shorter).
constexpr size_t kMaxNameBytes = 64 * 1024;

/// Decodes the message laid out in `pieces`; false, with `error` saying
/// what is wrong, when it is not a well-formed TensorMessage with a key
/// and either data or a shared tensor (not both).
bool decodeTensorMessage(const std::vector<Span> &pieces, DecodedTensor &out,
                         std::string &error);

/// Copies `bytes` bytes from offset `offset` of the message in `pieces`
/// (which must hold them: a decoded message's data does) to `dest`.
void copyFromPieces(const std::vector<Span> &pieces, size_t offset, void *dest,
                    size_t bytes);

} // namespace tfc::distributed

#endif // TFC_DISTRIBUTED_TENSORCODING_H
