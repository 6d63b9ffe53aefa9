// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=global | FileCheck %s --check-prefixes=COMMON,GLOBAL
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=alloc | FileCheck %s --check-prefixes=COMMON,ARGS,ALLOC
// RUN: helia-opt %s --helia-lower-to-memref=arena-mode=arg | FileCheck %s --check-prefixes=COMMON,ARGS,ARG

// Calls inside the module in every arena mode. The unplanned @main was
// written before planning: it calls the hydrate function through a stub
// (`() -> ()`, only a return, so the unplanned program runs too) and the
// model without arenas. In global mode nothing changes at the calls. With
// arena arguments, @main is the outermost caller and owns the arenas for
// its body: it allocates them on entry (memref.alloc in arg mode,
// @model_alloc_arenas in alloc mode), passes them to every call, and frees
// them before it returns; the planned @outer forwards its own.

// COMMON-LABEL: func.func @main()
// ARG: %[[S:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32xi8, #helia.memory<"dtcm">>
// ARG: %[[P:.*]] = memref.alloc() {alignment = 16 : i64} : memref<16xi8, #helia.memory<"dtcm">>
// ALLOC: %[[A:.*]]:2 = call @model_alloc_arenas() : () -> (memref<32xi8, #helia.memory<"dtcm">>, memref<16xi8, #helia.memory<"dtcm">>)
// GLOBAL: call @model_hydrate_constants() : () -> ()
// ARG: call @model_hydrate_constants(%[[S]], %[[P]])
// ALLOC: call @model_hydrate_constants(%[[A]]#0, %[[A]]#1)
// GLOBAL: %[[R:.*]] = call @model(%{{[^,]*}}) : (memref<4xf32>) -> memref<4xf32, #helia.memory<"dtcm">>
// ARG: %[[R:.*]] = call @model(%{{.*}}, %[[S]], %[[P]]) : (memref<4xf32>, memref<32xi8, #helia.memory<"dtcm">>, memref<16xi8, #helia.memory<"dtcm">>) -> memref<4xf32, #helia.memory<"dtcm">>
// ALLOC: %[[R:.*]] = call @model(%{{.*}}, %[[A]]#0, %[[A]]#1) :
// The result is handed to the caller in the default memory space, and the
// caller (host code) keeps a copy of it: the next call reuses the arena.
// COMMON: %[[PLAIN:.*]] = memref.memory_space_cast %[[R]] : memref<4xf32, #helia.memory<"dtcm">> to memref<4xf32>
// COMMON: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// COMMON: memref.copy %[[PLAIN]], %[[COPY]]
// COMMON: call @consume(%[[COPY]])
// ARG: memref.dealloc %[[S]]
// ARG: memref.dealloc %[[P]]
// ALLOC: call @model_free_arenas(%[[A]]#0, %[[A]]#1)
// COMMON: return

// The hydrate stub is defined (and made public) with the arena arguments.
// GLOBAL-LABEL: func.func @model_hydrate_constants() attributes {helia.unplanned} {
// ARGS-LABEL: func.func @model_hydrate_constants(%{{[^:]*}}: memref<32xi8, #helia.memory<"dtcm">>, %{{[^:]*}}: memref<16xi8, #helia.memory<"dtcm">>) attributes {helia.unplanned} {
// COMMON: helia.hydrate

// ARGS-LABEL: func.func @outer(
// ARGS-SAME: %{{[^:]*}}: memref<4xf32>, %[[OS:[^:]*]]: memref<32xi8, #helia.memory<"dtcm">>, %[[OP:[^:]*]]: memref<16xi8, #helia.memory<"dtcm">>)
// ARGS: call @model(%{{.*}}, %[[OS]], %[[OP]])
// ARGS-NOT: memref.alloc
// ARGS: return

module {
  helia.arena @scratch_dtcm scratch in "dtcm" size 32 align 16
  helia.arena @constant_dtcm_from_mram constant in "dtcm" from "mram" size 16 align 16

  func.func @main() attributes {helia.unplanned} {
    call @model_hydrate_constants() : () -> ()
    %x = arith.constant dense<1.0> : tensor<4xf32>
    %r = call @model(%x) : (tensor<4xf32>) -> tensor<4xf32>
    call @consume(%r) : (tensor<4xf32>) -> ()
    return
  }

  func.func private @consume(tensor<4xf32> {bufferization.access = "read"})

  func.func @model_hydrate_constants() attributes {helia.unplanned} {
    return
  }

  func.func @model(%x: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %w = arith.constant {helia.binding = [#helia.binding<@constant_dtcm_from_mram[0]>]} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %e = tensor.empty() {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} : tensor<4xf32>
    %y = linalg.mul {helia.binding = [#helia.binding<@scratch_dtcm[16]>]} ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }

  func.func @outer(%a: tensor<4xf32> {helia.binding = #helia.binding<@scratch_dtcm[0]>}) -> tensor<4xf32> {
    %r = call @model(%a) {helia.binding = [#helia.binding<@scratch_dtcm[0]>]} : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
