// A small model for the consumer's opt tool.
func.func @main(%x: tensor<256xf32> {helia.name = "input"}) -> tensor<256xf32> {
  %w = arith.constant {helia.name = "weights"} dense<0.5> : tensor<256xf32>
  %a = arith.mulf %x, %w {helia.name = "scaled"} : tensor<256xf32>
  %b = arith.addf %a, %x {helia.name = "output"} : tensor<256xf32>
  return %b : tensor<256xf32>
}
