// RUN: helia-opt %s -split-input-file --helia-hydrate-on-first-call -verify-diagnostics

// expected-error @below {{module has no 'helia.firmware' record of its prefix and entry points; run helia-lower-to-memref first}}
module {
  func.func @model_hydrate_constants() {
    return
  }
}

// -----

module attributes {helia.firmware = #helia.firmware<entries = [@model], prefix = "model">} {
  // expected-error @below {{symbol @model_hydrated is taken; helia-hydrate-on-first-call keeps its flag in a global of that name (choose another prefix=)}}
  memref.global "private" @model_hydrated : memref<i1> = dense<true>
  func.func @model() {
    return
  }
  func.func @model_hydrate_constants() {
    return
  }
}

// -----

// arena-mode=arg: arenas received from the caller may or may not be fresh.

module attributes {helia.firmware = #helia.firmware<entries = [@model], prefix = "model">} {
  func.func @model(%x: memref<4xf32>, %s: memref<64xi8>) {
    return
  }
  func.func @model_hydrate_constants(%s: memref<64xi8>) {
    return
  }
  func.func @run(%x: memref<4xf32>, %s: memref<64xi8>) {
    // expected-warning @below {{@run passes @model arenas it did not allocate itself, so helia-hydrate-on-first-call cannot tell when they are fresh and leaves them unhydrated; call @model_hydrate_constants on them once after allocating them (or lower with arena-mode=global or arena-mode=alloc)}}
    call @model(%x, %s) : (memref<4xf32>, memref<64xi8>) -> ()
    return
  }
}

// -----

module attributes {helia.firmware = #helia.firmware<entries = [@model], prefix = "model">} {
  func.func @model(%x: memref<4xf32>, %s: memref<64xi8>) {
    return
  }
  func.func @model_hydrate_constants(%s: memref<64xi8>) {
    return
  }
  // expected-error @below {{@model_alloc_arenas returns 'memref<32xi8>' but @model_hydrate_constants takes 'memref<64xi8>'; run helia-hydrate-on-first-call right after helia-lower-to-memref}}
  func.func @model_alloc_arenas() -> memref<32xi8> {
    %s = memref.alloc() : memref<32xi8>
    return %s : memref<32xi8>
  }
}
