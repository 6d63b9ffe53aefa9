//===- TrafficTest.cpp - bytes per op and per buffer, by hand -------------===//

#include "helia/Dialect/Helia/Analysis/Bufferization.h"
#include "helia/Dialect/Helia/Analysis/Traffic.h"
#include "helia/Dialect/Helia/IR/HeliaDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::helia;

namespace {

class TrafficTest : public ::testing::Test {
protected:
  TrafficTest() {
    DialectRegistry registry;
    registerBufferizationModels(registry);
    context.appendDialectRegistry(registry);
    context.allowUnregisteredDialects();
    context.loadDialect<HeliaDialect, arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, scf::SCFDialect,
                        tensor::TensorDialect>();
  }

  /// Parses `source` and analyses its function `@f`.
  void parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    auto func = module->lookupSymbol<func::FuncOp>("f");
    ASSERT_TRUE(func);
    FailureOr<BufferAnalysis> built = BufferAnalysis::analyze(func);
    ASSERT_TRUE(succeeded(built));
    analysis.emplace(std::move(*built));
    traffic.emplace(*analysis);
  }

  /// The traffic of the buffer holding the tensor named `name`.
  BufferTraffic named(StringRef name) {
    for (const TensorInfo &tensor : analysis->getTensors())
      if (tensor.name && tensor.name.getValue() == name)
        return traffic->getBuffers()[analysis->lookup(tensor.value)->index];
    ADD_FAILURE() << "no tensor named " << name.str();
    return {};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::optional<BufferAnalysis> analysis;
  std::optional<TrafficAnalysis> traffic;
};

TEST_F(TrafficTest, MatmulCountsTheNaiveLoopNest) {
  // 4x8 times 8x2 in f32: 4 * 2 * 8 = 64 iterations, each loading one
  // element of A and of B; C's 8 elements are filled once, then read once
  // and written once by the matmul (the accumulator stays in a register).
  parse(R"mlir(
    func.func @f(%a: tensor<4x8xf32> {helia.name = "a"},
                 %b: tensor<8x2xf32> {helia.name = "b"}) -> tensor<4x2xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() {helia.name = "c"} : tensor<4x2xf32>
      %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
      %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>)
                         outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
      return %r : tensor<4x2xf32>
    })mlir");
  EXPECT_EQ(named("a").readBytes, 64u * 4);
  EXPECT_EQ(named("b").readBytes, 64u * 4);
  EXPECT_EQ(named("a").writeBytes, 0u);
  // Fill writes 32 bytes; the matmul reads and writes them once.
  EXPECT_EQ(named("c").writeBytes, 2u * 32);
  EXPECT_EQ(named("c").readBytes, 32u);
}

TEST_F(TrafficTest, BroadcastInputIsReloadedEveryIteration) {
  // A bias of 3 i8 added to 5x3 i8: 15 iterations load the bias 15 times.
  parse(R"mlir(
    #id = affine_map<(i, j) -> (i, j)>
    #row = affine_map<(i, j) -> (j)>
    func.func @f(%x: tensor<5x3xi8> {helia.name = "x"},
                 %bias: tensor<3xi8> {helia.name = "bias"}) -> tensor<5x3xi8> {
      %e = tensor.empty() {helia.name = "y"} : tensor<5x3xi8>
      %y = linalg.generic {indexing_maps = [#id, #row, #id],
                           iterator_types = ["parallel", "parallel"]}
          ins(%x, %bias : tensor<5x3xi8>, tensor<3xi8>) outs(%e : tensor<5x3xi8>) {
      ^bb0(%a: i8, %b: i8, %out: i8):
        %s = arith.addi %a, %b : i8
        linalg.yield %s : i8
      } -> tensor<5x3xi8>
      return %y : tensor<5x3xi8>
    })mlir");
  EXPECT_EQ(named("x").readBytes, 15u);
  EXPECT_EQ(named("bias").readBytes, 15u);
  // The output is written, never read: the payload ignores %out.
  EXPECT_EQ(named("y").writeBytes, 15u);
  EXPECT_EQ(named("y").readBytes, 0u);
}

TEST_F(TrafficTest, StaticLoopsMultiplyTheirBody) {
  // The body's copy of 16 bytes runs 6 times: (13 - 1) / 2 trips. Its
  // writes go through the loop's iter_arg into the buffer of its init.
  parse(R"mlir(
    func.func @f(%x: tensor<16xi8> {helia.name = "x"}) -> tensor<16xi8> {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c13 = arith.constant 13 : index
      %e = tensor.empty() {helia.name = "acc"} : tensor<16xi8>
      %r = scf.for %i = %c1 to %c13 step %c2 iter_args(%acc = %e) -> tensor<16xi8> {
        %c = linalg.copy ins(%x : tensor<16xi8>) outs(%acc : tensor<16xi8>) -> tensor<16xi8>
        scf.yield %c : tensor<16xi8>
      }
      return %r : tensor<16xi8>
    })mlir");
  EXPECT_EQ(named("x").readBytes, 6u * 16);
  EXPECT_EQ(named("acc").writeBytes, 6u * 16);
}

TEST_F(TrafficTest, TableForImportedOps) {
  // tfl.conv_2d: output 1x4x4x8, weight 8x3x3x2 (18 MACs per output
  // element), i8 input and weight, i32 bias: 128 outputs.
  parse(R"mlir(
    func.func @f(%x: tensor<1x6x6x2xi8> {helia.name = "x"}) -> tensor<1x2x2x8xi8> {
      %w = "tfl.pseudo_qconst"() {helia.constant, helia.name = "w"} : () -> tensor<8x3x3x2xi8>
      %b = "tfl.pseudo_qconst"() {helia.constant, helia.name = "b"} : () -> tensor<8xi32>
      %y = "tfl.conv_2d"(%x, %w, %b) {helia.name = "y"} : (tensor<1x6x6x2xi8>, tensor<8x3x3x2xi8>, tensor<8xi32>) -> tensor<1x4x4x8xi8>
      %p = "tfl.max_pool_2d"(%y) {filter_height = 2 : i32, filter_width = 2 : i32, helia.name = "p"} : (tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8>
      %z = "tfl.add"(%p, %p) {helia.name = "z"} : (tensor<1x2x2x8xi8>, tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8>
      return %z : tensor<1x2x2x8xi8>
    })mlir");
  EXPECT_EQ(named("x").readBytes, 128u * 18);
  EXPECT_EQ(named("w").readBytes, 128u * 18);
  EXPECT_EQ(named("b").readBytes, 128u * 4);
  EXPECT_EQ(named("y").writeBytes, 128u);
  // The 2x2 window of each of the 32 pool outputs.
  EXPECT_EQ(named("y").readBytes, 32u * 4);
  // Both operands of the add are one buffer, read once each.
  EXPECT_EQ(named("p").readBytes, 2u * 32);
  EXPECT_EQ(named("z").writeBytes, 32u);
}

TEST_F(TrafficTest, ViewsMoveNothing) {
  parse(R"mlir(
    func.func @f(%x: tensor<4x4xf32> {helia.name = "x"}) -> tensor<16xf32> {
      %y = tensor.collapse_shape %x [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
      return %y : tensor<16xf32>
    })mlir");
  EXPECT_EQ(named("x").readBytes, 0u);
  EXPECT_EQ(named("x").writeBytes, 0u);
}

} // namespace
