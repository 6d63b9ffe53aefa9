//===- GoldenTest.h - helia-compile's golden-data test ----------*- C++ -*-===//
//
// heliaAOT's `--test.enabled` for helia-compile: `--test-data=golden.npz`
// holds `input_<i>` and `output_<j>` (the entry point's order, a leading
// sample axis, each sample in the tensor's shape or flat). The module just
// compiled is linked with a test main into an image for QEMU's mps3-an547
// board, which reads every sample through semihosting, runs the model and
// writes its outputs back, all in one QEMU run; the outputs are compared
// with the expected ones (docs/Compile.md, "The golden-data test").
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_TOOLS_HELIA_COMPILE_GOLDENTEST_H
#define HELIA_TOOLS_HELIA_COMPILE_GOLDENTEST_H

#include "helia/Support/NumPy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace helia::compile {

class Driver;

struct TestOptions {
  /// The golden .npz; the test is off when empty.
  std::string dataPath;
  /// Where the device's outputs go (keys output_<j>), if anywhere.
  std::string outputPath;
  /// Integer outputs: the largest |difference| that passes, in LSB.
  uint64_t tolerance = 1;
  /// Float outputs: the largest max |difference| / max |expected| that
  /// passes.
  double floatTolerance = 1e-4;
  /// Seconds QEMU may run before the test fails.
  unsigned timeout = 600;
};

/// One input or output of the entry point as the test file holds it.
struct TensorSpec {
  /// "input_0", "output_1": the key in the .npz.
  std::string key;
  numpy::DType dtype;
  llvm::SmallVector<int64_t> shape;
  /// The MLIR type, for messages.
  std::string type;
  int64_t elements = 0;
  int64_t bytes() const { return elements * dtype.bytes; }
};

/// The samples of a golden-data file, checked against the entry point:
/// arrays[k] belongs to specs[k]; the inputs come first.
struct GoldenData {
  int64_t samples = 0;
  unsigned numInputs = 0;
  std::vector<TensorSpec> specs;
  std::vector<numpy::Array> arrays;
};

/// The cross tools the test image needs, found on PATH.
struct TestTools {
  std::string clang, lld, qemu;
};

/// The entry point's inputs and outputs, or a located error if one has no
/// NumPy counterpart (a scalar, a dynamic shape, an element type NumPy
/// lacks).
mlir::FailureOr<std::vector<TensorSpec>>
getTensorSpecs(mlir::func::FuncOp entry);

/// Reads `options.dataPath` and checks it against `specs`: every key
/// there, no other, the right dtype, one sample count, each sample the
/// tensor's shape or flat with its element count. Errors are located at
/// the file and name the array.
mlir::FailureOr<GoldenData> loadGoldenData(mlir::MLIRContext *ctx,
                                           const TestOptions &options,
                                           std::vector<TensorSpec> specs);

/// clang-22, ld.lld-22 and qemu-system-arm, or an error at `loc` naming
/// the first one missing.
mlir::FailureOr<TestTools> findTestTools(mlir::Location loc);

/// Builds the image of the module helia-compile wrote (its object at
/// `objectPath`, its header and fragment beside it) with a test main, runs
/// every sample on QEMU and returns the bytes of the outputs, sample after
/// sample, in the order of the outputs. Prints the link and run progress lines.
mlir::FailureOr<std::vector<uint8_t>>
runOnDevice(Driver &driver, llvm::StringRef prefix, llvm::StringRef objectPath,
            const GoldenData &data, const TestOptions &options,
            const TestTools &tools);

/// Compares the device's outputs with the expected ones, prints a line per
/// output to stdout and writes --test-output. Returns whether every output
/// is within its tolerance.
mlir::FailureOr<bool> compareOutputs(mlir::Location dataLoc,
                                     const GoldenData &data,
                                     llvm::ArrayRef<uint8_t> device,
                                     const TestOptions &options);

} // namespace helia::compile

#endif // HELIA_TOOLS_HELIA_COMPILE_GOLDENTEST_H
