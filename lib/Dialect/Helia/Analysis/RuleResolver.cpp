//===- RuleResolver.cpp - heliaAOT rule precedence over tensors -----------===//

#include "helia/Dialect/Helia/Analysis/RuleResolver.h"

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::rules;

/// Parses `text` as a tensor id reference, or returns std::nullopt when it
/// is a glob over names.
std::optional<TensorIdRef> mlir::helia::rules::parseTensorIdRef(StringRef text) {
  auto [function, number] = text.rsplit('#');
  if (number.size() == text.size() || number.empty())
    return std::nullopt;
  TensorIdRef ref;
  if (number.getAsInteger(10, ref.id))
    return std::nullopt;
  if (function.empty())
    return ref;
  if (!function.consume_back(":") || function.empty())
    return std::nullopt;
  llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(function);
  if (!glob) {
    llvm::consumeError(glob.takeError());
    return std::nullopt;
  }
  ref.function = std::move(*glob);
  return ref;
}

std::string mlir::helia::rules::describeSource(int source) {
  if (source == kOverride)
    return "the op's helia.attributes";
  return "rule #" + std::to_string(source);
}


RuleResolver::RuleResolver(ArrayRef<RuleAttr> ruleList) {
  for (auto [index, rule] : llvm::enumerate(ruleList)) {
    CompiledRule compiled{rule, static_cast<unsigned>(index),
                          2u * rule.givesType() + rule.givesId(), {}};
    if (ArrayAttr ids = rule.getId())
      for (Attribute id : ids) {
        StringRef text = cast<StringAttr>(id).getValue();
        if (std::optional<TensorIdRef> ref = parseTensorIdRef(text))
          compiled.ids.push_back(std::move(*ref));
        else
          compiled.names.push_back(
              cantFail(llvm::GlobPattern::create(text)));
      }
    if (ArrayAttr ops = rule.getOp())
      for (Attribute op : ops)
        compiled.ops.push_back(cantFail(
            llvm::GlobPattern::create(cast<StringAttr>(op).getValue())));
    rules.push_back(std::move(compiled));
  }
}

Resolution RuleResolver::resolve(const TensorInfo &tensor, StringRef function,
                                 TensorAttributesAttr override) {
  Resolution res;
  // winner[f]: the matching rule of highest (rank, index) that sets f.
  const CompiledRule *winner[kNumFields] = {nullptr, nullptr, nullptr};
  // Highest id-only rule per field, for the outranking warning.
  const CompiledRule *idOnly[kNumFields] = {nullptr, nullptr, nullptr};
  for (CompiledRule &rule : rules) {
    if (!rule.matches(tensor, function))
      continue;
    rule.matchedAny = true;
    for (unsigned f = 0; f < kNumFields; ++f) {
      if (!rule.sets(Field(f)))
        continue;
      const CompiledRule *&w = winner[f];
      if (!w || rule.rank >= w->rank)
        w = &rule;
      if (rule.rank == 1)
        idOnly[f] = &rule;
    }
  }
  for (unsigned f = 0; f < kNumFields; ++f) {
    const CompiledRule *w = winner[f];
    if (!w)
      continue;
    res.source[f] = w->index;
    TensorAttributesAttr attrs = w->rule.getAttributes();
    switch (Field(f)) {
    case MemoryField:
      res.memory = attrs.getMemory();
      break;
    case DestinationField:
      res.destination = attrs.getConstantDestinationMemory();
      break;
    case ResidencyField:
      res.residency = attrs.getConstantDestinationMemory()
                          ? Residency::Pin
                          : *attrs.getResidency();
      break;
    }
    // An id-only rule that a type-only rule outranks surprises users.
    if (w->rank == 2 && idOnly[f])
      res.outranked.push_back({Field(f), idOnly[f]->index, w->index});
  }
  if (override) {
    if (StringAttr memory = override.getMemory()) {
      res.memory = memory;
      res.source[MemoryField] = kOverride;
    }
    if (StringAttr dest = override.getConstantDestinationMemory()) {
      res.destination = dest;
      res.source[DestinationField] = kOverride;
      res.residency = Residency::Pin;
      res.source[ResidencyField] = kOverride;
    }
    if (std::optional<Residency> residency = override.getResidency()) {
      res.residency = residency;
      res.source[ResidencyField] = kOverride;
    }
  }
  // The residency decides: direct or stream reads the constant from its
  // source, so a destination from a lower-precedence rule does not apply.
  if (res.destination && res.residency && *res.residency != Residency::Pin) {
    res.destination = {};
    res.source[DestinationField] = kUnset;
    res.droppedDestination = true;
  }
  return res;
}

