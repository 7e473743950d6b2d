//===- Launcher.h - every task of a compiled cluster on one machine -*- C++ -*-===//
//
//   tfc run-cluster OUTDIR [--max-restarts N] [--grace SECONDS]
//                   [task flags] [program flags]
//
// Runs the programs `tfc compile --cluster` wrote to OUTDIR (ClusterProgram.h)
// as one job on this machine: every task of OUTDIR/cluster.json on a
// loopback port picked free now, its output streamed line by line with the
// task's name in front ("[worker-0] ..."). The task flags
// (--connect-timeout, --health-interval, --health-timeout, --threads,
// --tls-cert, --tls-key, --tls-ca) go to every task, the program flags to
// the chief; under between-graph replication (OUTDIR/replication) to every
// worker, "{index}" in them the worker's index, but the checkpoint flags
// only to the chief.
//
// The job ends when the chief does; the other tasks end with it (the chief
// ends the job), or are stopped --grace seconds (default 10) later. A task
// that ends with TFC_EXIT_CLUSTER_FAILURE (138: a lost peer) fails the job
// restartably: every task is stopped and, with --max-restarts N, the job
// starts again, up to N times (torchrun's habit). With --checkpoint-dir it
// continues from the latest checkpoint: the chief gets --restore and the
// steps left of --steps. The exit status is the chief's (138 when the
// restarts are spent); a usage error is 2.
//
// POSIX only; no gRPC (the tasks talk among themselves).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DISTRIBUTED_LAUNCHER_H
#define TFC_DISTRIBUTED_LAUNCHER_H

namespace tfc {

/// `tfc run-cluster`: argv[0] is the command's name, argv[1] OUTDIR.
int runCluster(int argc, char **argv);

} // namespace tfc

#endif // TFC_DISTRIBUTED_LAUNCHER_H
