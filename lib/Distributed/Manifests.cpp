//===- Manifests.cpp - Kubernetes manifests for a compiled cluster --------===//

#include "tfc/Distributed/Manifests.h"

#include <cctype>
#include <sstream>

namespace tfc {
namespace {

/// TFJob's replica type of a TF_CONFIG job.
std::string replicaType(const std::string &job) {
  if (job == "ps")
    return "PS";
  std::string type = job;
  type[0] = char(std::toupper(static_cast<unsigned char>(type[0])));
  return type;
}

std::string taskLabel(const std::string &job, size_t index) {
  return job + "-" + std::to_string(index);
}

/// The container of a task's pod, indented by `indent` spaces; the chief
/// gets the checkpoint flags.
void container(std::ostringstream &out, const std::string &indent,
               const ManifestOptions &options, bool chief,
               const std::string &tfConfig) {
  out << indent << "- name: tensorflow\n"
      << indent << "  image: " << jsonString(options.image) << "\n"
      << indent << "  command: [" << jsonString(options.programDir + "/run-task")
      << "]\n";
  // Pods start in any order, some after an image pull: each waits for its
  // peers up to ten minutes.
  out << indent << "  args: [\"--connect-timeout\", \"600\""
      << (chief ? ", \"--checkpoint-dir\", \"/checkpoints\", \"--resume\""
                : "")
      << "]\n";
  if (!tfConfig.empty())
    out << indent << "  env:\n"
        << indent << "    - name: TF_CONFIG\n"
        << indent << "      value: " << jsonString(tfConfig) << "\n";
  out << indent << "  ports:\n"
      << indent << "    - name: tfjob-port\n"
      << indent << "      containerPort: " << options.port << "\n"
      << indent << "  volumeMounts:\n"
      << indent << "    - name: checkpoints\n"
      << indent << "      mountPath: /checkpoints\n";
}

void volumes(std::ostringstream &out, const std::string &indent,
             const ManifestOptions &options) {
  out << indent << "volumes:\n"
      << indent << "  - name: checkpoints\n"
      << indent << "    persistentVolumeClaim:\n"
      << indent << "      claimName: " << jsonString(options.volumeClaim) << "\n";
}

} // namespace

std::string manifestJobName(const std::string &text) {
  std::string name;
  for (char c : text) {
    char lower = char(std::tolower(static_cast<unsigned char>(c)));
    bool ok = std::isalnum(static_cast<unsigned char>(lower));
    if (ok || (!name.empty() && name.back() != '-'))
      name += ok ? lower : '-';
    if (name.size() == 40)
      break;
  }
  while (!name.empty() && name.back() == '-')
    name.pop_back();
  return name.empty() ? "tfc-job" : name;
}

std::string tfJobManifest(const ClusterSpec &cluster,
                          const ManifestOptions &options) {
  std::optional<TaskName> chief = cluster.chief();
  std::ostringstream out;
  out << "# A Kubeflow TFJob running the programs tfc compiled for this "
         "cluster,\n# one pod per task. The operator sets each pod's "
         "TF_CONFIG; run-task\n# starts the task's program. A task that "
         "ends with status 138 (a lost\n# peer) is restarted, and the chief "
         "resumes from /checkpoints.\n"
      << "apiVersion: kubeflow.org/v1\n"
      << "kind: TFJob\n"
      << "metadata:\n"
      << "  name: " << options.name << "\n"
      << "spec:\n"
      << "  tfReplicaSpecs:\n";
  for (const ClusterSpec::Job &job : cluster.jobs) {
    out << "    " << replicaType(job.name) << ":\n"
        << "      replicas: " << job.tasks.size() << "\n"
        << "      restartPolicy: ExitCode\n"
        << "      template:\n"
        << "        spec:\n"
        << "          containers:\n";
    // The chief's flags go to every replica of its job: run-task passes
    // them to the chief's program only.
    container(out, "            ", options, chief && chief->job == job.name,
              "");
    volumes(out, "          ", options);
  }
  return out.str();
}

std::string podManifests(const ClusterSpec &cluster,
                         const ManifestOptions &options) {
  std::optional<TaskName> chief = cluster.chief();
  // Every task at its Service's name.
  ClusterSpec services = cluster;
  for (ClusterSpec::Job &job : services.jobs)
    for (size_t t = 0; t < job.tasks.size(); ++t)
      job.tasks[t] = options.name + "-" + taskLabel(job.name, t) + ":" +
                     std::to_string(options.port);
  std::string clusterJson = services.toJson();

  std::ostringstream out;
  out << "# The programs tfc compiled for this cluster as plain Pods, for "
         "clusters\n# without Kubeflow: per task a headless Service (its "
         "stable name in\n# TF_CONFIG) and a Pod with its TF_CONFIG.\n";
  for (const ClusterSpec::Job &job : cluster.jobs)
    for (size_t t = 0; t < job.tasks.size(); ++t) {
      std::string name = options.name + "-" + taskLabel(job.name, t);
      std::string tfConfig = "{\"cluster\": " + clusterJson +
                             ", \"task\": {\"type\": " + jsonString(job.name) +
                             ", \"index\": " + std::to_string(t) + "}}";
      out << "---\n"
          << "apiVersion: v1\n"
          << "kind: Service\n"
          << "metadata:\n"
          << "  name: " << name << "\n"
          << "spec:\n"
          << "  clusterIP: None\n"
          << "  selector:\n"
          << "    tfc-job: " << options.name << "\n"
          << "    tfc-task: " << taskLabel(job.name, t) << "\n"
          << "  ports:\n"
          << "    - name: tfjob-port\n"
          << "      port: " << options.port << "\n"
          << "---\n"
          << "apiVersion: v1\n"
          << "kind: Pod\n"
          << "metadata:\n"
          << "  name: " << name << "\n"
          << "  labels:\n"
          << "    tfc-job: " << options.name << "\n"
          << "    tfc-task: " << taskLabel(job.name, t) << "\n"
          << "spec:\n"
          << "  restartPolicy: OnFailure\n"
          << "  containers:\n";
      container(out, "    ", options,
                chief && chief->job == job.name && int(t) == chief->index,
                tfConfig);
      volumes(out, "  ", options);
    }
  return out.str();
}

} // namespace tfc
