//===- ClusterProgram.h - one program per task of a cluster -----*- C++ -*-===//
//
// `tfc compile --cluster SPEC -o OUTDIR` of a cluster of several tasks
// (docs/Distributed.md): the graph is placed, partitioned and compiled once
// (tfc-graph, tfc-codegen), then each task's partitions are linked into a
// program of their own with the cluster task's main
// (lib/Distributed/TaskMain.cpp), which runs them with the other tasks
// over gRPC. OUTDIR gets
//   <job>-<index>   one executable per task (worker-0, ps-0, ...);
//   cluster.json    the TF_CONFIG "cluster" object the programs were
//                   compiled for (the shorthand's tasks on loopback ports
//                   from 2222, to be replaced at deploy time);
//   run-task        runs the executable of the task TF_CONFIG names;
//   replication     "between-graph", under between-graph replication
//                   (below), for the launchers;
//   k8s/            with --k8s-manifests, Kubernetes manifests (Manifests.h).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TARGET_CLUSTERPROGRAM_H
#define TFC_TARGET_CLUSTERPROGRAM_H

#include "tfc/Distributed/ClusterSpec.h"
#include "tfc/Distributed/Manifests.h"
#include "tfc/Target/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tfc {

/// The part of `module` (after tfc-codegen) that `task` runs: the step and
/// init partitions on its devices with their functions, and the variables
/// they hold; marked tfc.task. Null, after an error, when a partition's
/// device names no task of `cluster`.
mlir::OwningOpRef<mlir::ModuleOp>
extractTaskModule(mlir::ModuleOp module, const TaskName &task,
                  const ClusterSpec &cluster);

/// Gives a task's LLVM module what the task main reads: its job and index
/// (tfc_task_job, tfc_task_index) and the cluster it was compiled for
/// (tfc_cluster_spec, TF_CONFIG's "cluster" JSON).
void addTaskIdentity(llvm::Module &module, const TaskName &task,
                     const ClusterSpec &cluster);

/// Whether `module` (after tfc-graph) can run as one program per task of
/// `cluster`: the cluster has a chief, and the feeds and fetches are its.
/// An error naming the feed or fetch otherwise.
mlir::LogicalResult checkClusterProgram(mlir::ModuleOp module,
                                        const ClusterSpec &cluster);

/// Between-graph replication (docs/Distributed.md): the graph is built
/// for the template replica, worker 0 (TF1's replica_device_setter with
/// its variables on ps tasks), and every worker runs it as a client of its
/// own. The default for a cluster with a ps job, several workers and no
/// chief job.
inline const TaskName kTemplateReplica{"worker", 0};
bool isBetweenGraphCluster(const ClusterSpec &cluster);
/// The cluster that placement sees under between-graph replication: the
/// worker job reduced to the template replica. None when the cluster has
/// no worker job.
std::optional<ClusterSpec> templateCluster(const ClusterSpec &cluster);

/// Compiles `module` (after tfc-codegen) into OUTDIR as described above.
/// Everything is written to a directory beside OUTDIR first and moved in
/// when all of it is there, so a failure leaves nothing half-written.
/// With `manifests`, OUTDIR/k8s/ gets the Kubernetes manifests
/// (Manifests.h; their job name defaults to OUTDIR's). With
/// `betweenGraph`, `module` was placed over templateCluster(cluster) and
/// each worker's program runs the template's partitions.
mlir::LogicalResult
writeClusterPrograms(mlir::ModuleOp module, const ClusterSpec &cluster,
                     llvm::StringRef outDir, const TargetOptions &options,
                     std::optional<ManifestOptions> manifests = std::nullopt,
                     bool betweenGraph = false);

} // namespace tfc

#endif // TFC_TARGET_CLUSTERPROGRAM_H
