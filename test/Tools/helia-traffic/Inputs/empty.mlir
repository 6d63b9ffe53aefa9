// No model: the image is the C program of copy.test with the board's
// start-up code (the module's harness @main is weak and replaced).
module attributes {helia.platform = "mps3_an547"} {
  func.func @main() attributes {helia.unplanned} {
    return
  }
}
