//===- Passes.td - helia passes ----------------------------*- tablegen -*-===//
//
// The passes of helia, by stage of the pipeline; each file declares its
// passes with their options, statistics and dependent dialects.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD

include "helia/Dialect/Helia/Transforms/PreparationPasses.td"
include "helia/Dialect/Helia/Transforms/PlanningPasses.td"
include "helia/Dialect/Helia/Transforms/LoweringPasses.td"
include "helia/Dialect/Helia/Transforms/LLVMPasses.td"

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
