//===- SVGText.h - text helpers of the SVG plan writer ----------*- C++ -*-===//
//
// Escaping, pixel coordinates, labels that fit and axis ticks, for
// PlanSVG.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_DIALECT_HELIA_EXPORT_SVGTEXT_H
#define HELIA_LIB_DIALECT_HELIA_EXPORT_SVGTEXT_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir::helia::svg {

/// The label font's size, and the approximate advance of one character.
constexpr int kFontSize = 10;
constexpr double kCharWidth = 6.1;

/// Text for an SVG document: streamed with the characters XML reserves
/// escaped (llvm::printHTMLEscaped).
struct Escaped {
  llvm::StringRef text;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Escaped escaped) {
  llvm::printHTMLEscaped(escaped.text, os);
  return os;
}

inline Escaped escape(llvm::StringRef text) { return {text}; }

inline std::string px(double value) {
  std::string result;
  llvm::raw_string_ostream(result) << llvm::format("%.2f", value);
  return result;
}

/// The longest label that fits a run of `length` pixels with `thickness`
/// pixels across: the name, or its trailing '/'-separated components; empty
/// if none fits.
inline llvm::StringRef fitLabel(llvm::StringRef name, double length,
                                double thickness) {
  if (thickness < kFontSize + 1)
    return "";
  llvm::StringRef candidate = name;
  while (candidate.size() * kCharWidth + 4 > length) {
    size_t slash = candidate.find('/');
    if (slash == llvm::StringRef::npos)
      return "";
    candidate = candidate.drop_front(slash + 1);
  }
  return candidate;
}

/// Spacing of axis ticks: 1, 2, 5, 10, 20, ... so that `range` gets at most
/// `maxTicks` of them.
inline int64_t tickSpacing(int64_t range, int64_t maxTicks) {
  int64_t spacing = 1;
  while (true) {
    for (int64_t factor : {1, 2, 5})
      if (range / (spacing * factor) <= maxTicks)
        return spacing * factor;
    spacing *= 10;
  }
}

} // namespace mlir::helia::svg

#endif // HELIA_LIB_DIALECT_HELIA_EXPORT_SVGTEXT_H
