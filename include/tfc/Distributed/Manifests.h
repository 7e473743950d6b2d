//===- Manifests.h - Kubernetes manifests for a compiled cluster -*- C++ -*-===//
//
// `tfc compile --cluster SPEC --k8s-manifests -o OUTDIR` also writes
// OUTDIR/k8s/ (docs/Distributed.md):
//   tfjob.yaml  a Kubeflow TFJob (kubeflow.org/v1): one replica spec per job
//               (Chief, Worker, PS, Evaluator), each pod running
//               `run-task` from OUTDIR baked into the image, restartPolicy
//               ExitCode (a task's status 138, a lost peer, restarts it);
//               the operator sets every pod's TF_CONFIG.
//   pods.yaml   for clusters without Kubeflow: per task a headless Service
//               named after it and a Pod with its TF_CONFIG (restartPolicy
//               OnFailure).
// Every pod mounts one volume at /checkpoints, which the tasks share
// (each writes its shard of a checkpoint there): a PersistentVolumeClaim
// that can be mounted by several nodes (ReadWriteMany). The chief runs
// with `--checkpoint-dir /checkpoints --resume`, so a restarted job
// continues from its latest checkpoint.
//
// Standard C++ only.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_MANIFESTS_H
#define TFC_DISTRIBUTED_MANIFESTS_H

#include "tfc/Distributed/ClusterSpec.h"

#include <string>

namespace tfc {

struct ManifestOptions {
  /// The job's name: a DNS-1123 label (lower case letters, digits, '-').
  std::string name;
  /// The container image holding OUTDIR at `programDir`.
  std::string image = "tfc-job:latest";
  std::string programDir = "/tfc";
  /// The PersistentVolumeClaim mounted at /checkpoints.
  std::string volumeClaim = "tfc-checkpoints";
  /// The port every task listens on.
  int port = 2222;
};

/// The job name made of `text` (OUTDIR's file name): lower case, other
/// characters as '-', at most 40 characters, "tfc-job" when none is left.
std::string manifestJobName(const std::string &text);

std::string tfJobManifest(const ClusterSpec &cluster,
                          const ManifestOptions &options);
std::string podManifests(const ClusterSpec &cluster,
                         const ManifestOptions &options);

} // namespace tfc

#endif // TFC_DISTRIBUTED_MANIFESTS_H
