// RUN: helia-opt %s -verify-diagnostics --helia-expand-strided-copies

// An unranked copy has no loops: reported.
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  // expected-error @+1 {{cannot expand a copy of an unranked memref into loops; cast it to a ranked memref first}}
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
