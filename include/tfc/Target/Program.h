//===- Program.h - from the lowered step to objects and programs -*- C++ -*-===//
//
// The last stage of `tfc compile`: the module holding `tfc_step_impl` (from
// convert-tfg-to-memref) is lowered to LLVM IR, given the C ABI's step
// wrapper and model descriptor (tfc_runtime.h), optimized for the target
// CPU, emitted as an object file by LLVM's TargetMachine in-process, and
// linked into a program with the system C++ driver (or archived into a
// library, Library.h).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_PROGRAM_H
#define TFC_TARGET_PROGRAM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace tfc {

struct TargetOptions {
  /// Empty: the host's.
  std::string triple, cpu, features;
  /// Threads that optimize and emit a program's code side by side
  /// (linkProgram), 0 for one per hardware thread.
  unsigned codegenThreads = 0;
};

/// One input or output of the step, as the descriptor states it.
struct TensorInfo {
  /// The feed or fetch as given to `tfc compile` ("x", "y:1").
  std::string name;
  /// TensorFlow's DataType number.
  int dtype;
  llvm::SmallVector<int64_t> dims;
};

/// What a caller of the step must know: its inputs and outputs in --feed and
/// --fetch order, and the arena it needs.
struct ModelInterface {
  llvm::SmallVector<TensorInfo> inputs, outputs;
  /// One per device partition of the step: its generated function and
  /// where its part of the arena starts. Partitions run concurrently, each
  /// on its own thread, exchanging tensors through the runtime's rendezvous.
  struct Partition {
    std::string function, device;
    int64_t arenaOffset = 0;
  };
  llvm::SmallVector<Partition> partitions;
  /// The init entry's partitions (none without --init); they share the
  /// arena with the step's, as they never run at the same time.
  llvm::SmallVector<Partition> initPartitions;
  /// The --local-init and --chief-init entries' partitions, sharing the
  /// arena likewise.
  llvm::SmallVector<Partition> localInitPartitions, chiefInitPartitions;
  int64_t arenaBytes = 0;
  /// The queue runners (tfc.queue_runners) whose entries the module holds:
  /// the queue each fills and the enqueue node each of its threads runs,
  /// with that node's entry and the arena it needs of its own (a runner's
  /// threads run beside the step and each other).
  struct RunnerThread {
    std::string node;
    Partition entry;
    int64_t arenaBytes = 0;
  };
  struct QueueRunner {
    std::string queue;
    int64_t queueSlot = 0;
    /// A chief queue runner (tfc.chief_queue_runners).
    bool chief = false;
    llvm::SmallVector<RunnerThread> threads;
  };
  llvm::SmallVector<QueueRunner> queueRunners;
  /// The state area (tfc-plan-state) and the variables in it.
  int64_t stateBytes = 0;
  struct Variable {
    /// The variable, the key checkpoints save it under, and for a part of
    /// a partitioned variable its slice of that key's tensor (a saver's
    /// spec; empty for a whole variable).
    std::string name, key, slice;
    int dtype;
    llvm::SmallVector<int64_t> dims;
    int64_t offset, flag;
  };
  llvm::SmallVector<Variable> variables;
  /// The object graph that checkpoints of a TF2 SavedModel's variables
  /// carry (tfc.checkpoint_object_graph); empty for others.
  std::string objectGraph;
  /// The alignment tfc-plan-memory places buffers at.
  int64_t arenaAlignment = 64;
  /// The cluster task whose program this is (tfc.task), empty for a
  /// whole program. A task's step and init entries are always there, doing
  /// nothing where the task has no partition of them, because the chief
  /// runs every step and the init on every task.
  std::string task;
  /// The inputs every step function takes (tfc.num_inputs; its other
  /// parameters are the outputs). A task's interface lists the inputs and
  /// outputs of its own partitions, the chief's all of them; the others'
  /// functions get null for them.
  size_t stepFeeds = 0;
  /// Rows of the batch one step computes (tfc.batch), 0 when every shape is
  /// static; the inputs and outputs that carry the batch have -1 as their
  /// first dimension.
  int64_t batchTile = 0;
  /// Per output, -1 or the output that holds how many of its rows are
  /// TensorFlow's (tfc.row_counts); empty when no output has a
  /// data-dependent first dimension.
  llvm::SmallVector<int32_t> rowsOutputs;
  /// Per output, the dimension of those rows (tfc.row_axes); empty when
  /// every one is the first.
  llvm::SmallVector<int32_t> rowsOutputAxes;
  /// Per input, -1 or the input that says how many slices of its
  /// dimension rowsInputAxes[i] are given (tfc.feed_row_counts, from
  /// --max-dim); empty when no input has one.
  llvm::SmallVector<int32_t> rowsInputs, rowsInputAxes;
  /// Per output, 1 when it is a serialized Summary (a summary op's output),
  /// else 0; empty when none is.
  llvm::SmallVector<int32_t> summaryOutputs;
  /// How many summary writers the entries write to (kSummaryWriterSlotAttr).
  int32_t numSummaryWriters = 0;
};

/// Reads the interface from the module's step entry graph (after
/// tfc-plan-memory, which records the arena size).
mlir::FailureOr<ModelInterface> readModelInterface(mlir::ModuleOp module);

/// Lowers `module` (after convert-tfg-to-memref) to the LLVM dialect: reads
/// the model's interface from the module's graphs, drops the graphs and
/// lowers the step functions (the tfc-lower-to-llvm pipeline).
/// translateToLLVM goes on to an LLVM module with `tfc_step` and
/// `tfc_compiled_model` for the target, not yet optimized (what linkProgram
/// takes); optimizeLLVMModule optimizes it at O3 (for --emit obj, lib and
/// llvm).
///
/// Where a function here takes `timing` (`--mlir-timing`'s scope), it times
/// its phases (and the lowering its passes) nested in it; null times none.
mlir::FailureOr<ModelInterface>
lowerToLLVMDialect(mlir::ModuleOp module, mlir::TimingScope *timing = nullptr);

/// The module's tfg graphs describe the interface and are dropped. With a
/// `libraryName`, the module also gets a library's entry points
/// (Library.h), and they are all it exports.
std::unique_ptr<llvm::Module>
translateToLLVM(mlir::ModuleOp module, llvm::LLVMContext &context,
                const TargetOptions &options, llvm::StringRef libraryName = {},
                mlir::TimingScope *timing = nullptr);
mlir::LogicalResult optimizeLLVMModule(llvm::Module &module,
                                       const TargetOptions &options,
                                       mlir::TimingScope *timing = nullptr);

/// Writes `module` as an object file (to a stream, or a file), or as LLVM IR
/// text.
mlir::LogicalResult emitObject(llvm::Module &module,
                               const TargetOptions &options,
                               llvm::raw_pwrite_stream &os,
                               mlir::TimingScope *timing = nullptr);
mlir::LogicalResult writeObject(llvm::Module &module, llvm::StringRef path,
                                const TargetOptions &options,
                                mlir::TimingScope *timing = nullptr);
mlir::LogicalResult writeLLVMIR(llvm::Module &module, llvm::StringRef path);

/// The target machine for `options`: host triple, CPU and features by
/// default. Null, with `error` set, when the target is not available.
std::unique_ptr<llvm::TargetMachine>
makeTargetMachine(const TargetOptions &options, std::string &error);

/// What the targets of some device types link: their kernel archives in
/// order, and their system libraries once each.
struct TargetLinkInputs {
  std::vector<std::string> kernelArchives, systemLibraries;
};

/// The link inputs of the targets of `deviceTypes` (DeviceTarget.h) for
/// code generated with `options`; an error at `loc` naming a device type
/// without a target.
mlir::FailureOr<TargetLinkInputs>
targetLinkInputs(llvm::ArrayRef<std::string> deviceTypes,
                 const TargetOptions &options, mlir::Location loc);

/// The device types of a module's partitions (its step and init graphs):
/// CPU when none is named.
std::vector<std::string> partitionDeviceTypes(mlir::ModuleOp module);

/// The directory holding the runtime and kernel archives: `lib/tfc`
/// beside the `bin` of the running executable (in the build tree as in an
/// installed prefix, `cmake --install`, so the toolchain can be moved).
const std::string &runtimeLibraryDir();

/// The system libraries the runtime's functions that `module` calls need
/// beyond the C++ library: RE2 for the regular expression ops.
std::vector<std::string> runtimeSystemLibraries(const llvm::Module &module);

/// The main a program links: a standalone program's (ProgramMain.cpp), or
/// a cluster task's (lib/Distributed/TaskMain.cpp), which brings the
/// transport and gRPC.
enum class ProgramMain { Standalone, ClusterTask };

/// What `main` links before the kernels (its archives, in order) and after
/// the runtime (its system libraries).
TargetLinkInputs programMainLinkInputs(ProgramMain main);

/// Optimizes `module` (holding a model, from translateToLLVM) and emits it
/// as objects in temporary files, in parts on several threads
/// (TargetOptions::codegenThreads), and links them into the program
/// `output` with `main` and the runtime library,
/// and the kernels and system libraries of the device target of each of
/// `deviceTypes` (DeviceTarget.h; the kernels of the ISA level `options`
/// generate code for). Errors at `loc`.
mlir::LogicalResult linkProgram(llvm::Module &module, llvm::StringRef output,
                                mlir::Location loc,
                                const TargetOptions &options,
                                llvm::ArrayRef<std::string> deviceTypes,
                                ProgramMain main = ProgramMain::Standalone,
                                mlir::TimingScope *timing = nullptr);

} // namespace tfc

#endif // TFC_TARGET_PROGRAM_H
