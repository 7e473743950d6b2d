// Tests tfc-place's cost file: measured node times and link figures
// replace the model and change the placement of two independent nodes on
// two CPUs (a transfer costs 1 us of latency by default):
// - measured at 0.01 us each, splitting them gains less than the transfer
//   costs: both stay on CPU:0;
// - measured at 1000 us each, they run side by side on CPU:0 and CPU:1;
// - at 1000 us but with 5000 us of link latency, they stay together.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"nodes": {"a": {"CPU": 0.01}, "b": {"CPU": 0.01}}}' > %t/cheap.json
// RUN: echo '{"nodes": {"a": {"CPU": 1000}, "b": {"CPU": 1000}}}' > %t/slow.json
// RUN: echo '{"nodes": {"a": {"CPU": 1000}, "b": {"CPU": 1000}}, "links": {"same_task": {"latency_us": 5000}}}' > %t/far.json
// RUN: tfc-opt %s -tfc-place=cost-file=%t/cheap.json | FileCheck %s --check-prefix=TOGETHER
// RUN: tfc-opt %s -tfc-place=cost-file=%t/slow.json | FileCheck %s --check-prefix=SPLIT
// RUN: tfc-opt %s -tfc-place=cost-file=%t/far.json | FileCheck %s --check-prefix=TOGETHER
// TOGETHER: name("a") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
// TOGETHER: name("b") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
// SPLIT: name("a") assigned_device("/job:localhost/replica:0/task:0/device:CPU:0")
// SPLIT: name("b") assigned_device("/job:localhost/replica:0/task:0/device:CPU:1")

// Bad cost files are one error naming the file and the key.
// RUN: echo '{"devices": {"CPU": {"flops": -1}}}' > %t/negative.json
// RUN: not tfc-opt %s -tfc-place=cost-file=%t/negative.json 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: cost file {{.*}}negative.json: devices.CPU.flops must be a positive number
// RUN: echo '{"speeds": {}}' > %t/unknown.json
// RUN: not tfc-opt %s -tfc-place=cost-file=%t/unknown.json 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: cost file {{.*}}unknown.json: unknown key "speeds" (expected devices, links or nodes)
// RUN: echo '{"links": {"pcie": {}}}' > %t/link.json
// RUN: not tfc-opt %s -tfc-place=cost-file=%t/link.json 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: error: cost file {{.*}}link.json: links.pcie: expected same_task or cross_task
// RUN: echo '{"nodes": ' > %t/truncated.json
// RUN: not tfc-opt %s -tfc-place=cost-file=%t/truncated.json 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: cost file {{.*}}truncated.json:
// The driver checks the file before compiling.
// RUN: not tfc compile %S/../e2e/Inputs/cross-task.pbtxt --cost-file %t/missing.json -o %t/x 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: --cost-file {{.*}}missing.json: No such file or directory
// RUN: not ls %t/x
module attributes {tfc.devices = ["/cpu:0", "/cpu:1"]} {
  tfg.graph #tfg.version<producer = 1, min_consumer = 0> attributes {tfg.entry = "step"} {
    %x:2 = _Arg name("x") {T = f32, index = 0} : () -> tensor<4xf32>
    %a:2 = Neg(%x#0) name("a") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
    %b:2 = Abs(%x#0) name("b") {T = f32} : (tensor<4xf32>) -> tensor<4xf32>
  }
}
