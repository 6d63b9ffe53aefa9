//===- PlanSVG.cpp - the memory plan as an SVG timeline -------------------===//
//
// One self-contained SVG document with a panel per arena: x is the schedule
// step, y the offset in the arena, one rectangle per tensor coloured by its
// kind and shaded by its predicted traffic per byte (darker: more bytes
// moved per byte it holds per inference; `data-traffic` gives the bytes). Each
// panel's plot is a nested <svg> whose user units are steps and bytes, so a
// rectangle's y and height are the tensor's offset and size exactly and a
// checker can compare them with the JSON plan. Labels, axes and the peak marker
// are drawn in pixels around it.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Export/PlanSVG.h"
#include "SVGText.h"
#include "helia/Dialect/Helia/Export/Format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::helia;
using namespace mlir::helia::svg;

namespace {
/// Geometry of the document, in pixels.
constexpr double kMarginLeft = 96;
constexpr double kMarginRight = 24;
constexpr double kHeaderHeight = 64;
constexpr double kPanelTitleHeight = 36;
constexpr double kPlotHeight = 220;
constexpr double kAxisHeight = 40;
constexpr double kPanelHeight = kPanelTitleHeight + kPlotHeight + kAxisHeight;
constexpr double kPixelsPerStep = 20;
constexpr double kMinPlotWidth = 560;
constexpr double kMaxPlotWidth = 1800;

/// The header names at most this many functions.
constexpr size_t kMaxTitleFunctions = 8;

constexpr const char *kScratchColor = "#4e79a7";
constexpr const char *kPersistentColor = "#f28e2b";
constexpr const char *kConstantColor = "#59a14f";
constexpr const char *kStreamColor = "#b07aa1";
constexpr const char *kPeakColor = "#d62728";
constexpr const char *kFreeColor = "#f2f2f2";

/// One rectangle of a panel: a tensor in its arena, or a streamed constant
/// in its stream-pool slot.
struct Slot {
  const PlanTensor *tensor;
  int64_t offset;
  int64_t firstStep;
  int64_t lastStep;
  bool stream;
};
} // namespace

static const char *kindColor(const Slot &slot) {
  if (slot.stream)
    return kStreamColor;
  switch (slot.tensor->kind) {
  case TensorKind::Constant:
    return kConstantColor;
  case TensorKind::Persistent:
    return kPersistentColor;
  default:
    return kScratchColor;
  }
}

namespace {
/// Writes one plan: the layout of the x axis and the shading are computed
/// once (the constructor), then the header and one panel per arena.
class SvgWriter {
public:
  SvgWriter(const MemoryPlan &plan, llvm::raw_ostream &os);
  void write();

private:
  void writeHeader(double width, double height);
  void writePanel(unsigned index, const PlanArena &arena);
  // The parts of a panel, top to bottom.
  void writePanelTitle(unsigned index, const PlanArena &arena, double top,
                       bool reused, const std::optional<PlanPeak> &peak);
  void writeRects(const PlanArena &arena, ArrayRef<Slot> arenaSlots,
                  double plotTop, bool reused);
  void writeLabels(ArrayRef<Slot> arenaSlots, double plotTop, double pxPerByte,
                   bool reused);
  void writeAxes(const PlanArena &arena, double plotTop, double pxPerByte);
  /// The fill opacity of `t`'s rectangle: its buffer's traffic per byte,
  /// on a log scale up to the largest.
  double opacity(const PlanTensor &t);

  const MemoryPlan &plan;
  llvm::raw_ostream &os;
  /// Each function's schedule gets a segment of the x axis, in plan order.
  llvm::StringMap<int64_t> stepsOf, baseOf;
  int64_t totalSteps = 0;
  /// The rectangles of every arena, in tensor order.
  std::vector<std::vector<Slot>> slots;
  /// Traffic per byte of every buffer (its primary tensor's), and the
  /// largest, for the shading.
  std::map<unsigned, uint64_t> trafficOf;
  double maxDensity = 0;
  double plotWidth = 0, pxPerStep = 0;
};
} // namespace

SvgWriter::SvgWriter(const MemoryPlan &plan, llvm::raw_ostream &os)
    : plan(plan), os(os), slots(plan.arenas.size()) {
  for (const std::string &f : plan.functions)
    stepsOf[f] = 1;
  for (const PlanTensor &t : plan.tensors) {
    int64_t last = std::max(t.lastStep, t.streamArena ? t.streamLastStep : 0);
    stepsOf[t.function] = std::max(stepsOf[t.function], last + 1);
  }
  for (const std::string &f : plan.functions) {
    baseOf[f] = totalSteps;
    totalSteps += stepsOf[f];
  }
  totalSteps = std::max<int64_t>(totalSteps, 1);

  for (const PlanTensor &t : plan.tensors) {
    slots[t.arena].push_back({&t, t.offset, t.firstStep, t.lastStep, false});
    if (t.streamArena)
      slots[*t.streamArena].push_back(
          {&t, t.streamOffset, t.streamStep, t.streamLastStep, true});
  }

  for (const PlanTensor &t : plan.tensors)
    if (t.primary) {
      uint64_t moved = t.readBytes + t.writeBytes;
      trafficOf[t.buffer] = moved;
      if (t.size > 0)
        maxDensity = std::max(maxDensity, static_cast<double>(moved) /
                                              static_cast<double>(t.size));
    }
  plotWidth =
      std::clamp(totalSteps * kPixelsPerStep, kMinPlotWidth, kMaxPlotWidth);
  pxPerStep = plotWidth / totalSteps;
}

double SvgWriter::opacity(const PlanTensor &t) {
  if (maxDensity <= 0 || t.size <= 0)
    return 1.0;
  double density =
      static_cast<double>(trafficOf[t.buffer]) / static_cast<double>(t.size);
  return 0.25 + 0.75 * std::log1p(density) / std::log1p(maxDensity);
}

void SvgWriter::write() {
  double width = kMarginLeft + plotWidth + kMarginRight;
  double height =
      kHeaderHeight + std::max<size_t>(plan.arenas.size(), 1) * kPanelHeight;
  writeHeader(width, height);
  for (auto [index, arena] : llvm::enumerate(plan.arenas))
    writePanel(index, arena);
  os << "</svg>\n";
}

/// The document's opening, its title and the legend.
void SvgWriter::writeHeader(double width, double height) {
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width)
     << "\" height=\"" << px(height) << "\" viewBox=\"0 0 " << px(width) << " "
     << px(height) << "\" font-family=\"DejaVu Sans Mono, monospace\" "
     << "font-size=\"" << kFontSize << "\">\n";
  os << "<title>helia memory plan: " << escape(plan.platform) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";

  os << "<text x=\"" << px(kMarginLeft) << "\" y=\"22\" font-size=\"15\" "
     << "font-weight=\"bold\">helia memory plan: platform "
     << escape(plan.platform) << ", function"
     << (plan.functions.size() == 1 ? " " : "s ")
     << escape(llvm::join(
            ArrayRef(plan.functions).take_front(kMaxTitleFunctions), ", "));
  if (plan.functions.size() > kMaxTitleFunctions)
    os << ", ... (" << plan.functions.size() << " functions)";
  os << "</text>\n";
  double legendX = kMarginLeft;
  for (auto [color, label] :
       {std::pair{kScratchColor, "scratch"},
        std::pair{kPersistentColor, "persistent"},
        std::pair{kConstantColor, "constant"},
        std::pair{kStreamColor, "streamed constant (pool slot)"},
        std::pair{kPeakColor, "peak step"}}) {
    os << "<rect x=\"" << px(legendX) << "\" y=\"34\" width=\"12\" "
       << "height=\"12\" fill=\"" << color << "\"/>";
    os << "<text x=\"" << px(legendX + 16) << "\" y=\"44\">" << label
       << "</text>\n";
    legendX += 16 + std::strlen(label) * kCharWidth + 20;
  }
  if (plan.arenas.empty())
    os << "<text x=\"" << px(kMarginLeft) << "\" y=\"" << px(kHeaderHeight + 20)
       << "\">no arenas</text>\n";
}

void SvgWriter::writePanel(unsigned index, const PlanArena &arena) {
  double top = kHeaderHeight + index * kPanelHeight;
  double plotTop = top + kPanelTitleHeight;
  int64_t size = std::max<int64_t>(arena.size, 1);
  double pxPerByte = kPlotHeight / size;
  const std::vector<Slot> &arenaSlots = slots[index];
  // Bytes of persistent and constant arenas are never reused: their
  // tensors hold them for the whole run.
  bool reused = arena.role == ArenaRole::Scratch;
  std::optional<PlanPeak> peak;
  if (reused)
    peak = plan.findPeak(index);

  writePanelTitle(index, arena, top, reused, peak);
  writeRects(arena, arenaSlots, plotTop, reused);
  // The peak marker, under the labels.
  if (peak) {
    double x = kMarginLeft +
               (baseOf.lookup(peak->function) + peak->step + 0.5) * pxPerStep;
    os << "<line class=\"peak\" data-step=\"" << peak->step << "\" x1=\""
       << px(x) << "\" y1=\"" << px(plotTop - 4) << "\" x2=\"" << px(x)
       << "\" y2=\"" << px(plotTop + kPlotHeight) << "\" stroke=\""
       << kPeakColor << "\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n";
  }
  writeLabels(arenaSlots, plotTop, pxPerByte, reused);
  writeAxes(arena, plotTop, pxPerByte);
  os << "</g>\n";
}

void SvgWriter::writePanelTitle(unsigned index, const PlanArena &arena,
                                double top, bool reused,
                                const std::optional<PlanPeak> &peak) {
  size_t numSlots = slots[index].size();
  os << "<g class=\"arena\" id=\"arena-" << index << "\" data-region=\""
     << index << "\" data-name=\"" << escape(arena.name) << "\">\n";
  os << "<text x=\"" << px(kMarginLeft) << "\" y=\"" << px(top + 16)
     << "\" font-size=\"13\" font-weight=\"bold\">" << escape(arena.name)
     << "</text>";
  os << "<text x=\"" << px(kMarginLeft) << "\" y=\"" << px(top + 30) << "\">"
     << stringifyArenaRole(arena.role) << " in " << escape(arena.memory);
  if (arena.sourceMemory != arena.memory)
    os << " from " << escape(arena.sourceMemory);
  os << ", " << getArenaKindName(arena) << ", " << arena.size << " bytes, "
     << numSlots << " tensor" << (numSlots == 1 ? "" : "s");
  if (!reused)
    os << ", held for the whole run";
  if (peak) {
    os << "; peak " << peak->bytes << " bytes at step " << peak->step;
    if (plan.functions.size() > 1)
      os << " of " << escape(peak->function);
  }
  os << "</text>\n";
}

/// The plot, in steps and bytes: one rectangle per slot.
void SvgWriter::writeRects(const PlanArena &arena, ArrayRef<Slot> arenaSlots,
                           double plotTop, bool reused) {
  int64_t size = std::max<int64_t>(arena.size, 1);
  os << "<svg class=\"plot\" x=\"" << px(kMarginLeft) << "\" y=\""
     << px(plotTop) << "\" width=\"" << px(plotWidth) << "\" height=\""
     << px(kPlotHeight) << "\" viewBox=\"0 0 " << totalSteps << " " << size
     << "\" preserveAspectRatio=\"none\">\n";
  os << "<rect class=\"free\" x=\"0\" y=\"0\" width=\"" << totalSteps
     << "\" height=\"" << size << "\" fill=\"" << kFreeColor << "\"/>\n";
  for (const Slot &slot : arenaSlots) {
    const PlanTensor &t = *slot.tensor;
    int64_t base = baseOf.lookup(t.function);
    int64_t x = reused ? base + slot.firstStep : 0;
    int64_t steps = reused ? slot.lastStep - slot.firstStep + 1 : totalSteps;
    os << "<rect class=\"" << (slot.stream ? "tensor stream-slot" : "tensor")
       << "\" data-function=\"" << escape(t.function) << "\" data-tensor-id=\""
       << t.tensorId << "\" x=\"" << x << "\" y=\"" << slot.offset
       << "\" width=\"" << steps << "\" height=\"" << t.size << "\" fill=\""
       << kindColor(slot) << "\" fill-opacity=\""
       << llvm::format("%.2f", opacity(t)) << "\" data-traffic=\""
       << trafficOf[t.buffer] << "\" stroke=\"#ffffff\" stroke-width=\"1\" "
       << "vector-effect=\"non-scaling-stroke\"><title>"
       << escape(t.getDisplayName());
    if (plan.functions.size() > 1)
      os << " (" << escape(t.function) << ")";
    os << ": " << stringifyTensorKind(t.kind);
    if (t.residency)
      os << "/" << stringifyResidency(*t.residency);
    os << ", " << t.size << " bytes at offset " << slot.offset << ", steps ["
       << slot.firstStep << ", " << slot.lastStep << "], "
       << trafficOf[t.buffer] << " bytes moved per inference</title></rect>\n";
  }
  os << "</svg>\n";
}

/// Labels where they fit, in pixels.
void SvgWriter::writeLabels(ArrayRef<Slot> arenaSlots, double plotTop,
                            double pxPerByte, bool reused) {
  for (const Slot &slot : arenaSlots) {
    const PlanTensor &t = *slot.tensor;
    int64_t base = baseOf.lookup(t.function);
    double x0 = reused ? (base + slot.firstStep) * pxPerStep : 0;
    double w =
        reused ? (slot.lastStep - slot.firstStep + 1) * pxPerStep : plotWidth;
    double h = t.size * pxPerByte;
    // Tall, narrow rectangles take their label vertically when more of the
    // name fits that way.
    std::string name = t.getDisplayName();
    StringRef across = fitLabel(name, w, h), along = fitLabel(name, h, w);
    double cx = kMarginLeft + x0 + w / 2;
    double cy = plotTop + slot.offset * pxPerByte + h / 2;
    if (along.size() > across.size())
      os << "<text class=\"label\" x=\"" << px(cx) << "\" y=\"" << px(cy + 3.5)
         << "\" text-anchor=\"middle\" transform=\"rotate(-90 " << px(cx) << " "
         << px(cy) << ")\" fill=\"#ffffff\">" << escape(along) << "</text>\n";
    else if (!across.empty())
      os << "<text class=\"label\" x=\"" << px(kMarginLeft + x0 + 2)
         << "\" y=\"" << px(cy + 3.5) << "\" fill=\"#ffffff\">"
         << escape(across) << "</text>\n";
  }
}

/// Frame, offset axis and step axis.
void SvgWriter::writeAxes(const PlanArena &arena, double plotTop,
                          double pxPerByte) {
  os << "<rect x=\"" << px(kMarginLeft) << "\" y=\"" << px(plotTop)
     << "\" width=\"" << px(plotWidth) << "\" height=\"" << px(kPlotHeight)
     << "\" fill=\"none\" stroke=\"#444444\"/>\n";
  for (int i = 0; i <= 4; ++i) {
    int64_t offset = arena.size * i / 4;
    double y = plotTop + offset * pxPerByte;
    os << "<line x1=\"" << px(kMarginLeft - 4) << "\" y1=\"" << px(y)
       << "\" x2=\"" << px(kMarginLeft) << "\" y2=\"" << px(y)
       << "\" stroke=\"#444444\"/><text x=\"" << px(kMarginLeft - 6)
       << "\" y=\"" << px(y + 3.5) << "\" text-anchor=\"end\">"
       << formatBytes(offset, ByteStyle::Short) << "</text>\n";
  }
  os << "<text x=\"12\" y=\"" << px(plotTop + kPlotHeight / 2)
     << "\" transform=\"rotate(-90 12 " << px(plotTop + kPlotHeight / 2)
     << ")\" text-anchor=\"middle\">offset</text>\n";
  double axisY = plotTop + kPlotHeight;
  for (const std::string &f : plan.functions) {
    int64_t base = baseOf.lookup(f), steps = stepsOf.lookup(f);
    int64_t spacing =
        tickSpacing(steps, std::max<int64_t>(steps * pxPerStep / 40, 1));
    for (int64_t s = 0; s < steps; s += spacing) {
      double x = kMarginLeft + (base + s + 0.5) * pxPerStep;
      os << "<line x1=\"" << px(x) << "\" y1=\"" << px(axisY) << "\" x2=\""
         << px(x) << "\" y2=\"" << px(axisY + 4)
         << "\" stroke=\"#444444\"/><text x=\"" << px(x) << "\" y=\""
         << px(axisY + 14) << "\" text-anchor=\"middle\">" << s << "</text>\n";
    }
    double x = kMarginLeft + base * pxPerStep;
    if (base > 0)
      os << "<line x1=\"" << px(x) << "\" y1=\"" << px(plotTop) << "\" x2=\""
         << px(x) << "\" y2=\"" << px(axisY + 28)
         << "\" stroke=\"#444444\" stroke-dasharray=\"2 2\"/>\n";
    std::string label = "step of " + f;
    if (label.size() * kCharWidth + 4 <= steps * pxPerStep)
      os << "<text x=\"" << px(x + 2) << "\" y=\"" << px(axisY + 28) << "\">"
         << escape(label) << "</text>\n";
  }
}

void mlir::helia::writePlanSVG(const MemoryPlan &plan, llvm::raw_ostream &os) {
  SvgWriter(plan, os).write();
}
