//===- RuleResolverTest.cpp - heliaAOT rule precedence, without a pass ----===//

#include "helia/Dialect/Helia/Analysis/RuleResolver.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::rules;

namespace {

class RuleResolverTest : public ::testing::Test {
protected:
  RuleResolverTest() {
    context.loadDialect<HeliaDialect, arith::ArithDialect, func::FuncDialect>();
  }

  /// Parses `source`, collects the tensors of its function `@f` and the
  /// rules of its `helia.rules`.
  void parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    auto func = module->lookupSymbol<func::FuncOp>("f");
    ASSERT_TRUE(func);
    FailureOr<SmallVector<TensorInfo>> collected = collectTensors(func);
    ASSERT_TRUE(succeeded(collected));
    tensors = std::move(*collected);
    auto list = (*module)->getAttrOfType<ArrayAttr>("helia.rules");
    ASSERT_TRUE(list);
    for (Attribute rule : list)
      ruleList.push_back(cast<RuleAttr>(rule));
  }

  const TensorInfo &named(StringRef name) {
    for (const TensorInfo &tensor : tensors)
      if (tensor.name && tensor.name.getValue() == name)
        return tensor;
    ADD_FAILURE() << "no tensor named " << name.str();
    return tensors.front();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  SmallVector<TensorInfo> tensors;
  SmallVector<RuleAttr> ruleList;
};

constexpr const char *kModule = R"mlir(
module attributes {helia.rules = [
    #helia.rule<id = ["w*"], attributes = <memory = "sram">>,
    #helia.rule<type = constant, attributes = <memory = "mram">>,
    #helia.rule<type = constant, id = ["w2"], attributes = <memory = "dtcm">>,
    #helia.rule<type = constant, id = ["#1"], attributes = <residency = stream>>]} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w1 = arith.constant {helia.name = "w1"} dense<1.0> : tensor<4xf32>
    %w2 = arith.constant {helia.name = "w2"} dense<2.0> : tensor<4xf32>
    %s = arith.addf %w1, %w2 {helia.name = "s"} : tensor<4xf32>
    %y = arith.addf %s, %x {helia.name = "y"} : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
)mlir";

TEST_F(RuleResolverTest, TypeAndIdOutrankTypeOutranksId) {
  parse(kModule);
  RuleResolver resolver(ruleList);
  // w1: the id-only rule #0 loses the memory to the type-only rule #1, and
  // the id rule #3 (`#1`, its position) makes it streamed.
  Resolution w1 = resolver.resolve(named("w1"), "f", {});
  EXPECT_EQ(w1.memory.getValue(), "mram");
  EXPECT_EQ(w1.source[MemoryField], 1);
  ASSERT_TRUE(w1.residency);
  EXPECT_EQ(*w1.residency, Residency::Stream);
  EXPECT_EQ(w1.source[ResidencyField], 3);
  ASSERT_EQ(w1.outranked.size(), 1u);
  EXPECT_EQ(std::get<1>(w1.outranked.front()), 0u);
  EXPECT_EQ(std::get<2>(w1.outranked.front()), 1u);
  // w2: type and id (rule #2) beat type alone.
  Resolution w2 = resolver.resolve(named("w2"), "f", {});
  EXPECT_EQ(w2.memory.getValue(), "dtcm");
  EXPECT_EQ(w2.source[MemoryField], 2);
  EXPECT_FALSE(w2.residency);
  // s: scratch; only the name glob could apply, and it does not match.
  Resolution s = resolver.resolve(named("s"), "f", {});
  EXPECT_FALSE(s.memory);
  EXPECT_EQ(s.source[MemoryField], kUnset);
  EXPECT_TRUE(resolver.getRules()[0].matchedAny);
}

TEST_F(RuleResolverTest, AttributesOnTheOpBeatEveryRule) {
  parse(kModule);
  RuleResolver resolver(ruleList);
  auto override = cast<TensorAttributesAttr>(
      parseAttribute("#helia.attributes<memory = \"psram\">", &context));
  Resolution w2 = resolver.resolve(named("w2"), "f", override);
  EXPECT_EQ(w2.memory.getValue(), "psram");
  EXPECT_EQ(w2.source[MemoryField], kOverride);
  EXPECT_EQ(describeSource(w2.source[MemoryField]),
            "the op's helia.attributes");
}

TEST(TensorIdRefTest, ParsesIdsAndLeavesGlobs) {
  std::optional<TensorIdRef> plain = parseTensorIdRef("#12");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->id, 12u);
  EXPECT_FALSE(plain->function);
  std::optional<TensorIdRef> scoped = parseTensorIdRef("model*:#3");
  ASSERT_TRUE(scoped);
  EXPECT_EQ(scoped->id, 3u);
  ASSERT_TRUE(scoped->function);
  EXPECT_TRUE(scoped->function->match("model_a"));
  EXPECT_FALSE(parseTensorIdRef("conv*"));
  EXPECT_FALSE(parseTensorIdRef("#x"));
  EXPECT_FALSE(parseTensorIdRef("f#3"));
}

} // namespace
