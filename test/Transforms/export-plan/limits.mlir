// The report and the JSON show the capacity the plan was made for (the
// memory-limit it obeyed) and, beside it, the memory's physical size.
// RUN: helia-opt %s --helia-memory-pipeline="lower=false memory-limit=dtcm=1024 plan-json=%t.json plan-report=%t.txt" -o %t.mlir
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.txt
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir
// The recorded limit is what a later export reads.
// RUN: helia-opt %t.mlir --helia-export-plan=report=- -o /dev/null | FileCheck %s --check-prefix=REPORT
// Without limits nothing is recorded and no physical size is repeated.
// RUN: helia-opt %s --helia-memory-pipeline="lower=false plan-json=-" -o /dev/null | FileCheck %s --check-prefix=PLAIN
// A limit above the physical size is allowed (benchmarks measure packing
// alone that way) but draws a warning.
// RUN: helia-opt %s --helia-memory-pipeline="lower=false memory-limit=dtcm=1048576" -verify-diagnostics -o /dev/null

// JSON: "name": "dtcm",
// JSON-NEXT: "capacity": 1024,
// JSON-NEXT: "physical_capacity": 507904,
// JSON-NEXT: "used": 1024,
// JSON-NEXT: "free": 0
// REPORT: dtcm{{ +}}1024{{ +}}1024{{ +}}0 100.0%  (memory-limit; physical 507904)
// REPORT: sram{{ +}}3145728{{ +}}[[SRAM:[0-9]+]]
// REPORT-NOT: memory-limit;
// IR: module attributes {helia.memory_limits = {dtcm = 1024 : i64}
// PLAIN: "name": "dtcm",
// PLAIN-NEXT: "capacity": 507904,
// PLAIN-NEXT: "used"

// expected-warning @below {{memory-limit gives 'dtcm' 1048576 bytes, more than the 507904 it has on platform 'apollo510_evb'; the plan may not fit the device (use such a limit only to measure packing)}}
module {
  func.func @f(%x: tensor<128xf32>) -> tensor<128xf32> {
    %e = tensor.empty() : tensor<128xf32>
    %a = linalg.add ins(%x, %x : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
    %e1 = tensor.empty() : tensor<128xf32>
    %b = linalg.mul ins(%a, %x : tensor<128xf32>, tensor<128xf32>) outs(%e1 : tensor<128xf32>) -> tensor<128xf32>
    %e2 = tensor.empty() : tensor<128xf32>
    %c = linalg.sub ins(%b, %a : tensor<128xf32>, tensor<128xf32>) outs(%e2 : tensor<128xf32>) -> tensor<128xf32>
    return %c : tensor<128xf32>
  }
}
