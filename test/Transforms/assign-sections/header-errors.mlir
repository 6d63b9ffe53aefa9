// RUN: helia-opt %s -split-input-file -verify-diagnostics --helia-assign-sections="header=%t.h"
// RUN: helia-opt %s -split-input-file --helia-assign-sections="model-api=false" 2>&1 | FileCheck %s --check-prefix=NOAPI

// With model-api=false an entry point the API cannot pass is no error (only
// the header's C interface needs C types, and no header is written here).
// NOAPI-NOT: error: cannot pass

// The model API passes memrefs and scalars of C types only.
// expected-error @+1 {{cannot pass argument 0 of @net ('vector<4xf32>') through the model API: its element type has no C spelling here (f16, bf16, f32, f64, i1-i64 and index only; model-api=false leaves the entry points' C interface)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (vector<4xf32>) -> ()>]>} {
}

// -----

// expected-error @+1 {{cannot pass result 0 of @net ('memref<?xf32>') through the model API: it takes statically shaped, contiguous memrefs; call the entry point through its C interface (model-api=false)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>) -> memref<?xf32>>]>} {
}

// -----

// The C header declares the other entry points through their C interface,
// of memrefs and scalars only.
// expected-error @+1 {{cannot declare entry point 'aux' in C: its type 'vector<4xf32>' has no C spelling here (memrefs and scalars of f16, bf16, f32, f64, i8-i64 and index only)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>) -> memref<4xf32>>,
                  #helia.firmware_interface<name = @aux, type = (vector<4xf32>) -> ()>]>} {
  llvm.func @net(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %0 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
}

// -----

// expected-error @+1 {{the module already has a symbol @net_model_run; the model API needs the name (choose another prefix=)}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>) -> memref<4xf32>>]>} {
  llvm.func @net(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
    %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    llvm.return %0 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  }
  llvm.func @net_model_run()
}

// -----

// expected-error @+1 {{the model's entry point @net is not defined in the module}}
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>) -> memref<4xf32>>]>} {
}

// -----

module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (memref<4xf32>) -> memref<4xf32>>]>} {
  // expected-error @+1 {{@net has type '!llvm.func<ptr (ptr)>', not the type the model API calls ('!llvm.func<struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> (ptr, ptr, i64, i64, i64)>'): lower with finalize-memref-to-llvm's expanded descriptors (no bare pointers) from the recorded entry type}}
  llvm.func @net(%a: !llvm.ptr) -> !llvm.ptr {
    llvm.return %a : !llvm.ptr
  }
}

// -----

// A result the record does not promise (a scalar for a memref).
module attributes {helia.firmware = #helia.firmware<prefix = "net", platform = "mps3_an547",
    interfaces = [#helia.firmware_interface<name = @net, type = (f32) -> memref<4xf32>>]>} {
  // expected-error @+1 {{@net has type '!llvm.func<f32 (f32)>', not the type the model API calls ('!llvm.func<struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> (f32)>')}}
  llvm.func @net(%a: f32) -> f32 {
    llvm.return %a : f32
  }
}
