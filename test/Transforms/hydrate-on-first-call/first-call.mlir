// RUN: helia-opt %s -split-input-file --helia-hydrate-on-first-call | FileCheck %s

// Global arenas: the public entry point hydrates once, guarded by a flag; a
// private planned callee that only the entry calls is not guarded.

// CHECK-LABEL: func.func @model(
// CHECK-NEXT: %[[FLAG:.*]] = memref.get_global @model_hydrated : memref<i1>
// CHECK-NEXT: %[[DONE:.*]] = memref.load %[[FLAG]][] : memref<i1>
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[TODO:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[TODO]] {
// CHECK-NEXT:   func.call @model_hydrate_constants() : () -> ()
// CHECK-NEXT:   memref.store %[[TRUE]], %[[FLAG]][] : memref<i1>
// CHECK-NEXT: }
// CHECK-NEXT: call @layer
// CHECK-LABEL: func.func private @layer(
// CHECK-NOT: model_hydrated
// CHECK: memref.global "private" @model_hydrated : memref<i1> = dense<false>
// CHECK-NEXT: func.func @model_hydrate_constants()
module attributes {helia.firmware = #helia.firmware<entries = [@model, @layer], prefix = "model">} {
  memref.global "private" constant @source : memref<16xi8> = dense<1>
  memref.global "private" @runtime : memref<16xi8> = uninitialized
  func.func @model(%x: memref<4xf32>) {
    call @layer(%x) : (memref<4xf32>) -> ()
    return
  }
  func.func private @layer(%x: memref<4xf32>) {
    return
  }
  func.func @model_hydrate_constants() {
    %s = memref.get_global @source : memref<16xi8>
    %r = memref.get_global @runtime : memref<16xi8>
    memref.copy %s, %r : memref<16xi8> to memref<16xi8>
    return
  }
}

// -----

// arena-mode=alloc: the arenas are hydrated as they are allocated.

// CHECK-LABEL: func.func @model_alloc_arenas()
// CHECK-NEXT: %[[S:.*]] = memref.alloc
// CHECK-NEXT: %[[P:.*]] = memref.alloc
// CHECK-NEXT: call @model_hydrate_constants(%[[S]], %[[P]]) : (memref<64xi8>, memref<16xi8>) -> ()
// CHECK-NEXT: return %[[S]], %[[P]]
// CHECK-NOT: model_hydrated
module attributes {helia.firmware = #helia.firmware<interfaces = [#helia.firmware_interface<name = @model, type = (memref<4xf32>, memref<64xi8>, memref<16xi8>) -> ()>], prefix = "model">} {
  func.func @model(%x: memref<4xf32>, %s: memref<64xi8>, %p: memref<16xi8>) {
    return
  }
  func.func @model_hydrate_constants(%s: memref<64xi8>, %p: memref<16xi8>) {
    return
  }
  func.func @model_alloc_arenas() -> (memref<64xi8>, memref<16xi8>) {
    %s = memref.alloc() : memref<64xi8>
    %p = memref.alloc() : memref<16xi8>
    return %s, %p : memref<64xi8>, memref<16xi8>
  }
}

// -----

// arena-mode=arg: a caller that allocates the arenas hydrates them once,
// right after allocating, however often it runs the model; one that already
// hydrates them is left alone.

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[S:.*]] = memref.alloc() : memref<64xi8>
// CHECK-NEXT: %[[P:.*]] = memref.alloc() : memref<16xi8>
// CHECK-NEXT: call @model_hydrate_constants(%[[S]], %[[P]])
// CHECK-NEXT: call @model(%{{.*}}, %[[S]], %[[P]])
// CHECK-NEXT: call @model(%{{.*}}, %[[S]], %[[P]])
// CHECK-LABEL: func.func @hydrates(
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: call @model_hydrate_constants
// CHECK-NEXT: call @model(
// CHECK-NEXT: return
module attributes {helia.firmware = #helia.firmware<entries = [@model], prefix = "model">} {
  func.func @model(%x: memref<4xf32>, %s: memref<64xi8>, %p: memref<16xi8>) {
    return
  }
  func.func @model_hydrate_constants(%s: memref<64xi8>, %p: memref<16xi8>) {
    return
  }
  func.func @main(%x: memref<4xf32>) {
    %s = memref.alloc() : memref<64xi8>
    %p = memref.alloc() : memref<16xi8>
    call @model(%x, %s, %p) : (memref<4xf32>, memref<64xi8>, memref<16xi8>) -> ()
    call @model(%x, %s, %p) : (memref<4xf32>, memref<64xi8>, memref<16xi8>) -> ()
    return
  }
  func.func @hydrates(%x: memref<4xf32>) {
    %s = memref.alloc() : memref<64xi8>
    %p = memref.alloc() : memref<16xi8>
    call @model_hydrate_constants(%s, %p) : (memref<64xi8>, memref<16xi8>) -> ()
    call @model(%x, %s, %p) : (memref<4xf32>, memref<64xi8>, memref<16xi8>) -> ()
    return
  }
}

// -----

// Nothing staged (no hydrate function): the module is left as it is.

// CHECK-LABEL: func.func @model(
// CHECK-NEXT: return
// CHECK-NOT: model_hydrated
module attributes {helia.firmware = #helia.firmware<entries = [@model], prefix = "model">} {
  func.func @model(%x: memref<4xf32>) {
    return
  }
}
