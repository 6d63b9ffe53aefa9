//===- GoldenTest.cpp - the device's outputs against the expected ones ----===//
//
// Integer outputs are compared in LSB (|device - expected| as integers of
// the output's type: for a quantized tensor, steps of its scale); float
// outputs by max |device - expected| over the output's elements of every
// sample, relative to max |expected| (the measure bench/tflite/run.py and
// the networks' tests use). NaN equals NaN; a NaN against a number is an
// infinite difference.
//
//===----------------------------------------------------------------------===//

#include "GoldenTest.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
namespace numpy = ::helia::numpy;
namespace endian = llvm::support::endian;

namespace helia::compile {

namespace {
/// What one output's comparison found.
struct Difference {
  /// Integers: in LSB; floats: absolute.
  double max = 0;
  uint64_t maxLSB = 0;
  int64_t sample = 0, element = 0;
  /// Elements that are not equal, and those over the tolerance.
  int64_t differing = 0, over = 0;
  /// Floats: max |expected|.
  double scale = 0;
};
} // namespace

static double readFloat(const uint8_t *p, unsigned bytes) {
  if (bytes == 2)
    return llvm::APFloat(llvm::APFloat::IEEEhalf(),
                         llvm::APInt(16, endian::read16le(p)))
        .convertToDouble();
  if (bytes == 4) {
    uint32_t bits = endian::read32le(p);
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  uint64_t bits = endian::read64le(p);
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

/// |a - b| of two integers of `dtype` at `pa` and `pb`.
static uint64_t integerDistance(const uint8_t *pa, const uint8_t *pb,
                                numpy::DType dtype) {
  auto read = [&](const uint8_t *p) -> uint64_t {
    switch (dtype.bytes) {
    case 1:
      return *p;
    case 2:
      return endian::read16le(p);
    case 4:
      return endian::read32le(p);
    default:
      return endian::read64le(p);
    }
  };
  uint64_t a = read(pa), b = read(pb);
  if (dtype.kind == 'i') {
    // Sign-extend, then order as signed numbers.
    unsigned shift = 64 - 8 * dtype.bytes;
    int64_t sa = static_cast<int64_t>(a << shift) >> shift;
    int64_t sb = static_cast<int64_t>(b << shift) >> shift;
    return sa >= sb ? static_cast<uint64_t>(sa) - static_cast<uint64_t>(sb)
                    : static_cast<uint64_t>(sb) - static_cast<uint64_t>(sa);
  }
  return a >= b ? a - b : b - a;
}

static Difference compare(const TensorSpec &spec, ArrayRef<uint8_t> device,
                          ArrayRef<uint8_t> expected,
                          const TestOptions &options) {
  Difference d;
  unsigned bytes = spec.dtype.bytes;
  int64_t count = expected.size() / bytes;
  bool isFloat = spec.dtype.kind == 'f';
  if (isFloat)
    for (int64_t k = 0; k < count; ++k) {
      double e = readFloat(expected.data() + k * bytes, bytes);
      if (std::isfinite(e))
        d.scale = std::max(d.scale, std::fabs(e));
    }
  for (int64_t k = 0; k < count; ++k) {
    const uint8_t *pd = device.data() + k * bytes,
                  *pe = expected.data() + k * bytes;
    double distance;
    bool over;
    if (isFloat) {
      double a = readFloat(pd, bytes), b = readFloat(pe, bytes);
      if (std::isnan(a) || std::isnan(b))
        distance = std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
      else if (a == b)
        distance = 0;
      else
        distance = std::fabs(a - b);
      over = distance > options.floatTolerance * d.scale ||
             (distance > 0 && d.scale == 0);
    } else {
      uint64_t lsb = integerDistance(pd, pe, spec.dtype);
      distance = static_cast<double>(lsb);
      over = lsb > options.tolerance;
      if (lsb > d.maxLSB)
        d.maxLSB = lsb;
    }
    d.differing += distance != 0;
    d.over += over;
    if (distance > d.max) {
      d.max = distance;
      d.sample = k / spec.elements;
      d.element = k % spec.elements;
    }
  }
  return d;
}

FailureOr<bool> compareOutputs(Location dataLoc, const GoldenData &data,
                               ArrayRef<uint8_t> device,
                               const TestOptions &options) {
  // The device wrote, per sample, every output in order.
  int64_t sampleBytes = 0;
  for (unsigned k = data.numInputs; k < data.specs.size(); ++k)
    sampleBytes += data.specs[k].bytes();

  bool passed = true;
  std::vector<numpy::Array> computed;
  int64_t offset = 0;
  for (unsigned k = data.numInputs; k < data.specs.size(); ++k) {
    const TensorSpec &spec = data.specs[k];
    const numpy::Array &golden = data.arrays[k];
    numpy::Array out;
    out.name = spec.key;
    out.dtype = spec.dtype;
    out.shape = golden.shape;
    out.data.reserve(golden.data.size());
    for (int64_t s = 0; s < data.samples; ++s) {
      const uint8_t *begin = device.data() + s * sampleBytes + offset;
      out.data.insert(out.data.end(), begin, begin + spec.bytes());
    }
    offset += spec.bytes();

    Difference d = compare(spec, out.data, golden.data, options);
    bool ok = d.over == 0;
    passed &= ok;
    std::string where = d.max > 0 ? llvm::formatv(" at sample {0}, element {1}",
                                                  d.sample, d.element)
                                        .str()
                                  : std::string();
    std::string line;
    if (spec.dtype.kind == 'f') {
      double relative =
          d.scale > 0 ? d.max / d.scale : (d.max > 0 ? INFINITY : 0.0);
      line =
          llvm::formatv("max |difference| {0:e2} (relative {1:e2} of max "
                        "|expected| {2:g}){3}; tolerance {4:e2} relative",
                        d.max, relative, d.scale, where, options.floatTolerance)
              .str();
    } else {
      line = llvm::formatv("max |difference| {0} LSB{1}; tolerance {2} LSB",
                           d.maxLSB, where, options.tolerance)
                 .str();
    }
    llvm::outs() << "helia-compile: test    " << spec.key << " (" << spec.type
                 << "): " << line << "; " << d.differing << " of "
                 << out.data.size() / spec.dtype.bytes << " values differ"
                 << (ok ? "" : ", ")
                 << (ok ? "" : std::to_string(d.over) + " over the tolerance")
                 << ": " << (ok ? "PASS" : "FAIL") << "\n";
    computed.push_back(std::move(out));
  }
  llvm::outs() << "helia-compile: test    " << (passed ? "PASS" : "FAIL")
               << " (" << data.samples << " sample"
               << (data.samples == 1 ? "" : "s") << ")\n";
  llvm::outs().flush();

  if (!options.outputPath.empty()) {
    llvm::Expected<std::string> npz = numpy::writeNpz(computed);
    if (!npz)
      return emitError(dataLoc) << "cannot write '" << options.outputPath
                                << "': " << llvm::toString(npz.takeError());
    std::error_code ec;
    llvm::raw_fd_ostream os(options.outputPath, ec, llvm::sys::fs::OF_None);
    if (!ec)
      os << *npz;
    if (ec || (os.close(), os.has_error()))
      return emitError(FileLineColLoc::get(dataLoc.getContext(),
                                           options.outputPath, 0, 0))
             << "cannot write the test output '" << options.outputPath
             << "': " << (ec ? ec : os.error()).message();
  }
  return passed;
}

} // namespace helia::compile
