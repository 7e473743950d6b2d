# lit configuration of tfc's tests: .mlir, .pbtxt and .test files under
# test/, run with tfc's tools and LLVM's FileCheck and not.
import os
import platform
import shutil

import subprocess

import lit.formats

config.name = "tfc"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".pbtxt", ".test"]
config.excludes = ["Inputs", "corpus", "cases", "unit", "fuzz", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tfc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.tfc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%corpus", os.path.join(config.tfc_src_root, "test", "corpus")))
config.substitutions.append(("%srcroot", config.tfc_src_root))
config.substitutions.append(("%objroot", config.tfc_obj_root))

# Tests that parse YAML (the Kubernetes manifests) need PyYAML in the
# Python that runs them (Debian: python3-yaml, which install-deps.sh adds);
# jsonschema validates them (Debian: python3-jsonschema).
for module, feature in (("yaml", "pyyaml"), ("jsonschema", "jsonschema")):
    if subprocess.run([config.python_executable, "-c", "import " + module],
                      capture_output=True).returncode == 0:
        config.available_features.add(feature)

# Tests that name an x86-64 processor (--target-cpu) run on x86-64 hosts.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# Tests of AVX-512 code (bench/pointwise_kernel.py's micro-kernel) run on
# processors that have it.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if " avx512f" in cpuinfo.read():
            config.available_features.add("avx512")
except OSError:
    pass

# Tests that run a task as another user (setpriv, util-linux) need root.
if os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("root")
    # Tests that make their own hosts in network namespaces (iproute2's ip)
    # need a kernel that lets them: probe with one.
    probe = "tfc-lit-probe-%d" % os.getpid()
    if shutil.which("ip") and subprocess.run(["ip", "netns", "add", probe],
                                             capture_output=True).returncode == 0:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
        config.available_features.add("netns")
