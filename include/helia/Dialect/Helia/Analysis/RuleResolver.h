//===- RuleResolver.h - heliaAOT rule precedence over tensors ---*- C++ -*-===//
//
// Resolves the TensorAttributes of a tensor from the module's rules with
// heliaAOT's precedence: a rule ranks by the pair (gives a type, gives an
// id), type compared first; ties go to the later rule; fields merge one by
// one; an op's `helia.attributes` beats every rule. helia-resolve-residency
// drives it; tools and tests can use it on their own.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_DIALECT_HELIA_ANALYSIS_RULERESOLVER_H
#define HELIA_DIALECT_HELIA_ANALYSIS_RULERESOLVER_H

#include "helia/Dialect/Helia/Analysis/Tensors.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"
#include "llvm/Support/GlobPattern.h"

#include <optional>
#include <tuple>
#include <vector>

namespace mlir::helia::rules {

enum Field : unsigned { MemoryField, DestinationField, ResidencyField };
inline constexpr unsigned kNumFields = 3;
inline constexpr const char *kFieldNames[kNumFields] = {
    "memory", "constant_destination_memory", "residency"};

/// Where a resolved field came from.
inline constexpr int kUnset = -1;
inline constexpr int kOverride = -2;

/// An `id` entry that names a tensor by the id the report shows: `#12`, or
/// `model:#12` (a glob over function names before the colon).
struct TensorIdRef {
  std::optional<llvm::GlobPattern> function;
  uint64_t id;
};

/// Parses `text` as a tensor id reference, or returns std::nullopt when it
/// is a glob over names.
std::optional<TensorIdRef> parseTensorIdRef(StringRef text);

/// A rule with its globs compiled and its precedence computed.
struct CompiledRule {
  RuleAttr rule;
  unsigned index;
  /// 3: type and identity, 2: type only, 1: identity only, 0: neither.
  unsigned rank;
  SmallVector<llvm::GlobPattern> names;
  SmallVector<TensorIdRef> ids;
  SmallVector<llvm::GlobPattern> ops;
  bool matchedAny = false;

  bool matches(const TensorInfo &tensor, StringRef function) const {
    if (rule.givesType() && *rule.getType() != tensor.kind)
      return false;
    if (rule.getId()) {
      bool byName = tensor.name && llvm::any_of(names, [&](const auto &p) {
                      return p.match(tensor.name);
                    });
      bool byId = llvm::any_of(ids, [&](const TensorIdRef &ref) {
        return ref.id == tensor.id &&
               (!ref.function || ref.function->match(function));
      });
      if (!byName && !byId)
        return false;
    }
    if (rule.getOp()) {
      Operation *producer = tensor.value.getDefiningOp();
      if (!producer ||
          llvm::none_of(ops, [&](const llvm::GlobPattern &p) {
            return p.match(producer->getName().getStringRef());
          }))
        return false;
    }
    return true;
  }

  /// True if the rule sets `field`; a destination also sets the residency
  /// (to pin) at the rule's precedence.
  bool sets(Field field) const {
    TensorAttributesAttr attrs = rule.getAttributes();
    switch (field) {
    case MemoryField:
      return static_cast<bool>(attrs.getMemory());
    case DestinationField:
      return static_cast<bool>(attrs.getConstantDestinationMemory());
    case ResidencyField:
      return attrs.getResidency() ||
             static_cast<bool>(attrs.getConstantDestinationMemory());
    }
    llvm_unreachable("unknown field");
  }
};

/// The merged attributes of one tensor and where each field came from.
struct Resolution {
  StringAttr memory, destination;
  std::optional<Residency> residency;
  int source[kNumFields] = {kUnset, kUnset, kUnset};
  /// True when a winning residency of direct or stream dropped a
  /// destination set by a lower-precedence rule.
  bool droppedDestination = false;
  /// (field, id-only rule, type-only rule): the type-only rule won a field
  /// that a matching id-only rule also sets, which surprises users.
  SmallVector<std::tuple<Field, unsigned, unsigned>, 1> outranked;
};

/// "rule #N", or the op's own attributes for kOverride.
std::string describeSource(int source);

/// The rules of a module, compiled once, and the resolution of tensors
/// against them.
class RuleResolver {
public:
  /// Compiles `rules` (their globs were checked when they were parsed).
  explicit RuleResolver(ArrayRef<RuleAttr> rules);

  /// The compiled rules, in order; `matchedAny` says which matched a tensor
  /// so far.
  ArrayRef<CompiledRule> getRules() const { return rules; }

  /// The merged attributes of `tensor` of `function`: the winning rule per
  /// field, then `override` (an op's or argument's `helia.attributes`).
  Resolution resolve(const TensorInfo &tensor, StringRef function,
                     TensorAttributesAttr override);

private:
  std::vector<CompiledRule> rules;
};

} // namespace mlir::helia::rules

#endif // HELIA_DIALECT_HELIA_ANALYSIS_RULERESOLVER_H
