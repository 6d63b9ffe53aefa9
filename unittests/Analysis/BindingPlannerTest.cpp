//===- BindingPlannerTest.cpp - memory choice, streams, spills, no pass ---===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"
#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

class BindingPlannerTest : public ::testing::Test {
protected:
  BindingPlannerTest() {
    DialectRegistry registry;
    registerBufferizationModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<HeliaDialect, arith::ArithDialect, func::FuncDialect,
                        tensor::TensorDialect>();
  }

  /// Parses `source`, builds its schedule and an empty plan on the platform
  /// of its `helia.platform`, every memory at its usable size.
  void parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    auto platform = (*module)->getAttrOfType<PlatformAttr>("helia.platform");
    ASSERT_TRUE(platform);
    FailureOr<ModuleSchedule> built = ModuleSchedule::build(*module);
    ASSERT_TRUE(succeeded(built));
    schedule = std::move(*built);
    llvm::StringMap<int64_t> capacities;
    for (MemoryDescAttr memory : platform.getMemoryList())
      capacities[memory.getName()] =
          static_cast<int64_t>(memory.getUsableSize());
    plan.emplace(*schedule, platform, std::move(capacities), module->getLoc());
  }

  /// The plan of the buffer whose root tensor is named `name`.
  const BufferPlan &named(StringRef name) {
    for (const BufferPlan &buffer : plan->getBuffers())
      if (plan->describe(buffer) == "'" + name.str() + "'")
        return buffer;
    ADD_FAILURE() << "no buffer named " << name.str();
    return plan->getBuffers().front();
  }

  /// The diagnostics reported while `fn` runs, one string each.
  template <typename Fn>
  std::vector<std::string> collectDiagnostics(Fn fn) {
    std::vector<std::string> messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      messages.push_back(diag.str());
      return success();
    });
    fn();
    return messages;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::optional<ModuleSchedule> schedule;
  std::optional<BindingPlan> plan;
};

// As test/Transforms/assign-bindings/stream-budget.mlir: `a` and `b` are
// read at the same step, `c` after them; a 64-byte pool keeps one at a time.
constexpr const char *kStreams = R"mlir(
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 4096, init = true>,
    #helia.memory_desc<name = "sram", size = 4096, init = true>,
    #helia.memory_desc<name = "flash", size = 4096, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm", "sram"], alignment = 16>} {
  func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
    %a = arith.constant {helia.name = "a", helia.placement = [#helia.placement<id = 1, kind = constant, residency = stream>]} dense<1.0> : tensor<16xf32>
    %b = arith.constant {helia.name = "b", helia.placement = [#helia.placement<id = 2, kind = constant, residency = stream>]} dense<2.0> : tensor<16xf32>
    %c = arith.constant {helia.name = "c", helia.placement = [#helia.placement<id = 3, kind = constant, residency = stream>]} dense<3.0> : tensor<16xf32>
    %s = arith.addf %a, %b : tensor<16xf32>
    %t = arith.addf %s, %c : tensor<16xf32>
    %u = arith.addf %t, %x : tensor<16xf32>
    return %u : tensor<16xf32>
  }
}
)mlir";

TEST_F(BindingPlannerTest, StreamPoolBudgetFallsBackToDirect) {
  parse(kStreams);
  MemoryChooser memories(*plan);
  ASSERT_TRUE(succeeded(memories.chooseConstantHomes()));
  // No rule gives a memory: the non-volatile one holds the constants.
  EXPECT_EQ(named("a").arena.memory, "flash");
  EXPECT_TRUE(named("b").streamed);

  BindingOptions options;
  options.streamPool = "sram";
  options.streamBudget = 64;
  options.remarks = true;
  std::vector<std::string> remarks = collectDiagnostics(
      [&] { ASSERT_TRUE(succeeded(StreamScheduler(*plan, options).run())); });
  ASSERT_EQ(remarks.size(), 1u);
  EXPECT_EQ(remarks.front(),
            "streamed constant 'b' (64 bytes) falls back to direct: the "
            "stream pool in 'sram' has 64 bytes and needs 128 with it");
  EXPECT_FALSE(named("b").streamed);
  EXPECT_TRUE(named("a").streamed);
  EXPECT_TRUE(named("c").streamed);
  // `c` is read after `a`'s last reader: it takes the same slot.
  EXPECT_EQ(named("a").streamOffset, 0);
  EXPECT_EQ(named("c").streamOffset, 0);
  EXPECT_EQ(plan->getArenaSizes().at(ArenaKey::getScratch("sram", true)), 64);
  EXPECT_EQ(plan->getStatistics().streamFallbacks, 1u);
}

TEST_F(BindingPlannerTest, StreamPoolMustBeWritable) {
  parse(kStreams);
  ASSERT_TRUE(succeeded(MemoryChooser(*plan).chooseConstantHomes()));
  BindingOptions options;
  options.streamPool = "flash";
  std::vector<std::string> errors = collectDiagnostics(
      [&] { EXPECT_TRUE(failed(StreamScheduler(*plan, options).run())); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.front(),
            "stream-pool 'flash' is read-only on platform 'p'; the pool must "
            "be a readable, writable memory: dtcm, sram");
}

// Constants without a rule go to the first memory that holds initialised
// data, whatever its name: "psram" here has init, "ext" (PSRAM-like, empty
// at boot) has not, and no memory is non-volatile.
TEST_F(BindingPlannerTest, DefaultConstantSourceByProperties) {
  parse(R"mlir(
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "ext", size = 4096>,
    #helia.memory_desc<name = "psram", size = 4096, init = true>,
    #helia.memory_desc<name = "dtcm", size = 4096, init = true>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = arith.constant {helia.name = "w"} dense<1.0> : tensor<4xf32>
    %y = arith.addf %x, %w : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
)mlir");
  ASSERT_TRUE(succeeded(MemoryChooser(*plan).chooseConstantHomes()));
  const BufferPlan &w = named("w");
  EXPECT_EQ(w.arena.role, ArenaRole::Constant);
  EXPECT_EQ(w.arena.memory, "psram");
  EXPECT_FALSE(w.arena.isStaged());
  EXPECT_EQ(w.offset, 0);
}

// A pinned constant's arena is staged into dtcm; its source blob takes
// bytes of flash beside the constants read in place there, and the
// capacity check names both.
TEST_F(BindingPlannerTest, SourceBlobsCountTowardsTheirMemory) {
  parse(R"mlir(
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 256, init = true>,
    #helia.memory_desc<name = "flash", size = 64, writable = false, init = true, nonvolatile = true>],
    preferred = ["dtcm"], alignment = 16>} {
  func.func @f(%x: tensor<32xi8>) -> tensor<32xi8> {
    %p = arith.constant {helia.name = "p", helia.placement = [#helia.placement<id = 1, kind = constant, memory = "flash", constant_destination_memory = "dtcm", residency = pin>]} dense<1> : tensor<32xi8>
    %w = arith.constant {helia.name = "w"} dense<2> : tensor<48xi8>
    %y = arith.addi %x, %p : tensor<32xi8>
    return %y : tensor<32xi8>
  }
}
)mlir");
  MemoryChooser memories(*plan);
  ASSERT_TRUE(succeeded(memories.chooseConstantHomes()));
  const BufferPlan &p = named("p");
  EXPECT_EQ(p.arena.memory, "dtcm");
  EXPECT_EQ(p.arena.source, "flash");
  EXPECT_EQ(p.arena.getName(), "constant_dtcm_from_flash");

  // In key order: the cold arena of flash, then its source blobs.
  SmallVector<std::pair<std::string, int64_t>> flash;
  for (const auto &[key, bytes] : plan->getArenaSizes())
    if (key.memory == "flash")
      flash.push_back({key.sourceBlob ? "blobs" : key.getName(), bytes});
  ASSERT_EQ(flash.size(), 2u);
  EXPECT_EQ(flash[0], std::make_pair(std::string("constant_flash"),
                                     int64_t(48)));
  EXPECT_EQ(flash[1], std::make_pair(std::string("blobs"), int64_t(32)));
  EXPECT_EQ(plan->getFreeBytes("flash"), 64 - 80);
  EXPECT_EQ(plan->getFreeBytes("dtcm"), 256 - 32);

  std::vector<std::string> errors = collectDiagnostics(
      [&] { EXPECT_TRUE(failed(memories.checkCapacities())); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.front(),
            "memory 'flash' over capacity: it holds 64 bytes but its arenas "
            "need 80, short by 16 bytes: constant_flash (48 bytes) source "
            "blobs of staged constants (32 bytes); the tensors there, largest "
            "first: 'w' (48 bytes, constant read in place) 'p' (32 bytes, "
            "source of a constant pinned to 'dtcm')");
}

// Three 64-byte scratch buffers, two live at each step, and 64 bytes of
// dtcm: what dtcm cannot keep spills to sram, and every arena fits.
TEST_F(BindingPlannerTest, ScratchSpillsToTheNextPreferredMemory) {
  parse(R"mlir(
module attributes {helia.platform = #helia.platform<name = "p", memories = [
    #helia.memory_desc<name = "dtcm", size = 64, init = true>,
    #helia.memory_desc<name = "sram", size = 4096, init = true>],
    preferred = ["dtcm", "sram"], alignment = 16>} {
  func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
    %y = arith.addf %x, %x {helia.name = "y"} : tensor<16xf32>
    %z = arith.addf %y, %y {helia.name = "z"} : tensor<16xf32>
    return %z : tensor<16xf32>
  }
}
)mlir");
  BindingOptions options;
  ASSERT_TRUE(succeeded(ScratchPacker(*plan, options).run()));
  unsigned inSram = 0;
  for (const BufferPlan &buffer : plan->getBuffers()) {
    ASSERT_EQ(buffer.arena.role, ArenaRole::Scratch);
    EXPECT_FALSE(buffer.memoryFixed);
    inSram += buffer.arena.memory == "sram";
  }
  EXPECT_GT(inSram, 0u);
  EXPECT_EQ(plan->getStatistics().spilled, inSram);
  EXPECT_LE(plan->getArenaSizes().at(ArenaKey::getScratch("dtcm")), 64);
  EXPECT_GE(plan->getFreeBytes("sram"), 0);
  // Buffers of one arena that live at the same step do not overlap.
  for (const BufferPlan &a : plan->getBuffers())
    for (const BufferPlan &b : plan->getBuffers())
      if (&a != &b && a.arena.memory == b.arena.memory &&
          a.first <= b.last && b.first <= a.last)
        EXPECT_TRUE(a.offset + a.alignedSize <= b.offset ||
                    b.offset + b.alignedSize <= a.offset);
}

} // namespace
