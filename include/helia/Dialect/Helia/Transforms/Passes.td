//===- Passes.td - helia passes ----------------------------*- tablegen -*-===//

#ifndef HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
#define HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HeliaResolveResidency : Pass<"helia-resolve-residency", "::mlir::ModuleOp"> {
  let summary = "Give every tensor its kind and its resolved placement";
  let description = [{
    For every tensor of every function (op results and entry-block
    arguments) decides its kind (`constant`, `persistent`, `scratch`), applies
    the placement rules with heliaAOT's precedence, and attaches the merged
    attributes as `helia.placement`. See docs/Rules.md.
  }];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"\"",
           "Platform preset; overrides the module's helia.platform">,
    Option<"rulesFile", "rules-file", "std::string", /*default=*/"\"\"",
           "JSON rules file (heliaAOT field names); overrides helia.rules">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark per tensor saying which rule set each field">,
  ];
  let dependentDialects = ["::mlir::helia::HeliaDialect"];
}

#endif // HELIA_DIALECT_HELIA_TRANSFORMS_PASSES_TD
