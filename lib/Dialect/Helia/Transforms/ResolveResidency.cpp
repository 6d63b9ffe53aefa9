//===- ResolveResidency.cpp - apply placement rules to every tensor -------===//
//
// Gives every tensor its kind and its resolved TensorAttributes, with
// heliaAOT's rule precedence: a rule ranks by the pair (gives a type, gives
// an id), type compared first; ties go to the later rule; fields merge one by
// one; an op's `helia.attributes` beats every rule.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Analysis/Functions.h"
#include "helia/Dialect/Helia/Analysis/RuleResolver.h"
#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "helia/Dialect/Helia/IR/Platform.h"
#include "helia/Dialect/Helia/Transforms/Passes.h"
#include "helia/Dialect/Helia/Transforms/RulesFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/GlobPattern.h"

namespace mlir::helia {
#define GEN_PASS_DEF_HELIARESOLVERESIDENCY
#include "helia/Dialect/Helia/Transforms/Passes.h.inc"
} // namespace mlir::helia

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::rules;

namespace {

struct HeliaResolveResidency
    : mlir::helia::impl::HeliaResolveResidencyBase<HeliaResolveResidency> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult checkMemories(TensorAttributesAttr attrs, Location loc,
                              const Twine &who);
  LogicalResult checkRule(const CompiledRule &rule, Location loc);
  Resolution resolve(const TensorInfo &tensor, TensorAttributesAttr override,
                     Location loc);
  LogicalResult checkTensor(const TensorInfo &tensor, const Resolution &res,
                            Location loc);
  Attribute placementFor(const TensorInfo &tensor, TensorAttributesAttr over,
                         Location loc, bool &ok);
  /// The module's rules (or rules-file's), checked, in `resolver`.
  FailureOr<SmallVector<RuleAttr>> loadRules();
  /// Writes the placement of every tensor of `func`; false after an error.
  bool placeFunction(FunctionOpInterface func);

  PlatformAttr platformAttr;
  std::optional<RuleResolver> resolver;
  /// The function whose tensors are being resolved.
  StringRef currentFunction;
  /// (id-only rule, type-only rule) pairs already warned about.
  llvm::DenseSet<std::pair<unsigned, unsigned>> warnedOutranked;
};

} // namespace

/// Checks that the memories named in `attrs` exist and suit their field.
LogicalResult HeliaResolveResidency::checkMemories(TensorAttributesAttr attrs,
                                                   Location loc,
                                                   const Twine &who) {
  auto unknown = [&](StringAttr name, StringRef field) {
    return emitError(loc) << who << " sets " << field << " to unknown memory '"
                          << name.getValue() << "'; platform '"
                          << platformAttr.getName() << "' has: "
                          << platformAttr.getMemoryNamesForDiagnostic();
  };
  if (StringAttr memory = attrs.getMemory())
    if (!platformAttr.lookupMemory(memory.getValue()))
      return unknown(memory, "memory");
  if (StringAttr dest = attrs.getConstantDestinationMemory()) {
    MemoryDescAttr desc = platformAttr.lookupMemory(dest.getValue());
    if (!desc)
      return unknown(dest, "constant_destination_memory");
    if (!desc.getWritable())
      return emitError(loc) << who << " sets constant_destination_memory to '"
                            << dest.getValue()
                            << "', which is read-only at run time; a pinned "
                               "constant is copied into a writable memory";
  }
  return success();
}

/// Checks what can be known about a rule before it meets any tensor.
LogicalResult HeliaResolveResidency::checkRule(const CompiledRule &rule,
                                               Location loc) {
  std::string who = "rule #" + std::to_string(rule.index);
  TensorAttributesAttr attrs = rule.rule.getAttributes();
  if (failed(checkMemories(attrs, loc, who)))
    return failure();
  std::optional<TensorKind> type = rule.rule.getType();
  bool nonConstant = rule.rule.givesType() && *type != TensorKind::Constant;
  if (nonConstant &&
      (attrs.getResidency() || attrs.getConstantDestinationMemory()))
    return emitError(loc) << who << " sets "
                          << (attrs.getResidency() ? "residency"
                                                   : "constant_destination_"
                                                     "memory")
                          << " on " << stringifyTensorKind(*type)
                          << " tensors; only constants have a residency";
  if (StringAttr memory = attrs.getMemory()) {
    MemoryDescAttr desc = platformAttr.lookupMemory(memory.getValue());
    if (nonConstant && !desc.getWritable())
      return emitError(loc) << who << " places " << stringifyTensorKind(*type)
                            << " tensors in '" << memory.getValue()
                            << "', which is read-only at run time";
    if (rule.rule.givesType() && *type == TensorKind::Constant &&
        !desc.getInit())
      return emitError(loc)
             << who << " places constants in '" << memory.getValue()
             << "', which holds no initialised data at boot; "
                "use a memory with init (e.g. mram), and "
                "constant_destination_memory to copy it there";
  }
  return success();
}

/// The rules' resolution of `tensor`, with the warning when a type-only
/// rule outranks an id-only one (once per pair of rules).
Resolution HeliaResolveResidency::resolve(const TensorInfo &tensor,
                                          TensorAttributesAttr override,
                                          Location loc) {
  Resolution res = resolver->resolve(tensor, currentFunction, override);
  for (auto [field, idOnly, winner] : res.outranked)
    if (warnedOutranked.insert({idOnly, winner}).second)
      emitWarning(loc) << "rule #" << idOnly << " (id only) sets "
                       << kFieldNames[field] << " for tensor '"
                       << (tensor.name ? tensor.name.getValue() : "")
                       << "' but rule #" << winner
                       << " (type only) outranks it; add \"type\" to rule #"
                       << idOnly << " to make it win";
  return res;
}

LogicalResult HeliaResolveResidency::checkTensor(const TensorInfo &tensor,
                                                 const Resolution &res,
                                                 Location loc) {
  // Only an error names the tensor.
  auto what = [&]() { return "tensor '" + tensor.getDisplayName() + "'"; };
  if (tensor.kind != TensorKind::Constant) {
    for (Field f : {DestinationField, ResidencyField}) {
      if (res.source[f] == kUnset)
        continue;
      return emitError(loc)
             << describeSource(res.source[f]) << " sets " << kFieldNames[f]
             << " on " << stringifyTensorKind(tensor.kind) << " " << what()
             << "; only constants have a residency (restrict the rule with "
                "\"type\": \"constant\")";
    }
    if (res.memory) {
      MemoryDescAttr desc = platformAttr.lookupMemory(res.memory.getValue());
      if (!desc.getWritable())
        return emitError(loc)
               << describeSource(res.source[MemoryField]) << " places "
               << stringifyTensorKind(tensor.kind) << " " << what() << " in '"
               << res.memory.getValue()
               << "', which is read-only at run time; choose a writable "
                  "memory";
    }
    return success();
  }
  if (res.memory) {
    MemoryDescAttr desc = platformAttr.lookupMemory(res.memory.getValue());
    if (!desc.getInit())
      return emitError(loc)
             << describeSource(res.source[MemoryField]) << " makes '"
             << res.memory.getValue() << "' the source memory of constant "
             << what()
             << ", but it holds no initialised data at boot; keep the bytes "
                "in a memory with init (e.g. mram) and copy them with "
                "constant_destination_memory";
  }
  if (res.residency == Residency::Pin && !res.destination)
    return emitError(loc) << describeSource(res.source[ResidencyField])
                          << " pins constant " << what()
                          << " but no rule gives it a "
                             "constant_destination_memory; add one";
  return success();
}

Attribute HeliaResolveResidency::placementFor(const TensorInfo &tensor,
                                              TensorAttributesAttr override,
                                              Location loc, bool &ok) {
  Resolution res = resolve(tensor, override, loc);
  if (failed(checkTensor(tensor, res, loc))) {
    ok = false;
    return {};
  }
  if (explain) {
    InFlightDiagnostic remark = emitRemark(loc);
    remark << "tensor '" << (tensor.name ? tensor.name.getValue() : "")
           << "' (#" << tensor.id << ", " << stringifyTensorKind(tensor.kind)
           << "):";
    for (unsigned f = 0; f < kNumFields; ++f) {
      remark << (f ? "; " : " ") << kFieldNames[f];
      if (res.source[f] == kUnset)
        remark << " unset";
      else
        remark << " from " << describeSource(res.source[f]);
    }
    if (res.droppedDestination)
      remark << " (constant_destination_memory dropped: residency is "
             << stringifyResidency(*res.residency) << ")";
  }
  // A placement that sets nothing would only repeat the tensor's id, name
  // and kind, which every pass derives from the IR: the planner chooses.
  if (!allPlacements && !res.memory && !res.destination && !res.residency)
    return {};
  return PlacementAttr::get(&getContext(), tensor.id, tensor.name, tensor.kind,
                            res.memory, res.destination, res.residency);
}

FailureOr<SmallVector<RuleAttr>> HeliaResolveResidency::loadRules() {
  ModuleOp module = getOperation();
  // A rule read from a YAML file is checked at its line there.
  SmallVector<Location> ruleLocs;
  FailureOr<SmallVector<RuleAttr>> ruleList =
      rulesFile.empty() ? lookupRules(module)
                        : readRulesFile(rulesFile, module.getLoc(), &ruleLocs);
  if (failed(ruleList))
    return failure();
  warnedOutranked.clear();
  resolver.emplace(*ruleList);
  for (const CompiledRule &rule : resolver->getRules()) {
    Location ruleLoc =
        rule.index < ruleLocs.size() ? ruleLocs[rule.index] : module.getLoc();
    if (failed(checkRule(rule, ruleLoc)))
      return failure();
  }
  return ruleList;
}

bool HeliaResolveResidency::placeFunction(FunctionOpInterface func) {
  MLIRContext *ctx = &getContext();
  StringAttr placementName =
      StringAttr::get(ctx, HeliaDialect::PlacementAttrHelper::getNameStr());
  currentFunction = func.getName();
  FailureOr<SmallVector<TensorInfo>> tensors = collectTensors(func);
  if (failed(tensors))
    return false;
  bool ok = true;
  // Results of one op are gathered into one array attribute, which only ops
  // with a placement get (a stale one from an earlier run goes).
  Operation *currentOp = nullptr;
  SmallVector<Attribute> current;
  auto flush = [&]() {
    if (currentOp && llvm::all_of(current, llvm::IsaPred<UnitAttr>)) {
      if (currentOp->hasAttr(placementName))
        currentOp->removeAttr(placementName);
    } else if (currentOp) {
      currentOp->setAttr(placementName, ArrayAttr::get(ctx, current));
    }
    currentOp = nullptr;
    current.clear();
  };
  StringRef attributesName = HeliaDialect::AttributesAttrHelper::getNameStr();
  for (const TensorInfo &tensor : *tensors) {
    if (auto arg = dyn_cast<BlockArgument>(tensor.value)) {
      auto override = func.getArgAttrOfType<TensorAttributesAttr>(
          arg.getArgNumber(), attributesName);
      if (override &&
          failed(checkMemories(override, arg.getLoc(), "helia.attributes"))) {
        ok = false;
        continue;
      }
      if (Attribute placement =
              placementFor(tensor, override, arg.getLoc(), ok))
        func.setArgAttr(arg.getArgNumber(), placementName, placement);
      else if (func.getArgAttr(arg.getArgNumber(), placementName))
        func.removeArgAttr(arg.getArgNumber(), placementName);
      continue;
    }
    auto result = cast<OpResult>(tensor.value);
    Operation *op = result.getOwner();
    if (op != currentOp) {
      flush();
      currentOp = op;
      current.assign(op->getNumResults(), UnitAttr::get(ctx));
    }
    auto override = op->getAttrOfType<TensorAttributesAttr>(attributesName);
    if (override &&
        failed(checkMemories(override, op->getLoc(), "helia.attributes"))) {
      ok = false;
      continue;
    }
    if (Attribute placement = placementFor(tensor, override, op->getLoc(), ok))
      current[result.getResultNumber()] = placement;
  }
  flush();
  return ok;
}

void HeliaResolveResidency::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  FailureOr<PlatformAttr> platformOr = lookupPlatform(module, platform);
  if (failed(platformOr))
    return signalPassFailure();
  platformAttr = *platformOr;
  FailureOr<SmallVector<RuleAttr>> ruleList = loadRules();
  if (failed(ruleList))
    return signalPassFailure();

  // The platform and rules that were applied become the module's, so that
  // later passes and readers see them; a preset stays a name.
  if (!platform.empty() ||
      !module->hasAttr(HeliaDialect::PlatformAttrHelper::getNameStr()))
    module->setAttr(HeliaDialect::PlatformAttrHelper::getNameStr(),
                    StringAttr::get(ctx, platformAttr.getName()));
  if (!rulesFile.empty()) {
    SmallVector<Attribute> ruleAttrs(ruleList->begin(), ruleList->end());
    module->setAttr(HeliaDialect::RulesAttrHelper::getNameStr(),
                    ArrayAttr::get(ctx, ruleAttrs));
  }

  bool ok = true;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (isPlannedFunction(func))
      ok &= placeFunction(func);
  if (!ok)
    return signalPassFailure();

  for (const CompiledRule &rule : resolver->getRules())
    if (!rule.matchedAny)
      emitWarning(module.getLoc())
          << "rule #" << rule.index << " " << rule.rule << " matches no tensor";
}
