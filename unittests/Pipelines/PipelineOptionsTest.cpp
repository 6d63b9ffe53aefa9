//===- PipelineOptionsTest.cpp - every pipeline option reaches a pass -----===//
//
// helia-memory-pipeline's options are the union of its passes' options and
// its own switches. Each one, set alone to a value other than its default,
// must change the pipeline it builds: a pass's printed options (the value
// forwarded) or the passes that run. An option the pipeline forgets to
// forward changes nothing, and so does an option without a test value here.
//
//===----------------------------------------------------------------------===//

#include "helia/Dialect/Helia/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::helia;

namespace {

/// Lists the options the pipeline declares, by the names it parses.
struct OptionNames : HeliaMemoryPipelineOptions {
  std::vector<std::string> get() const {
    std::vector<std::string> names;
    for (auto &entry : OptionsMap)
      names.push_back(entry.first.str());
    std::sort(names.begin(), names.end());
    return names;
  }
};

/// A value other than the default, and the options it takes effect with.
struct TestValue {
  const char *value;
  const char *context = "";
};

const llvm::StringMap<TestValue> &getTestValues() {
  static const llvm::StringMap<TestValue> values = {
      {"platform", {"test-board"}},
      {"in-place", {"true"}},
      {"carry-in-place", {"false"}},
      {"rules-file", {"test-rules.json"}},
      {"explain", {"true"}},
      {"algorithm", {"heuristic"}},
      {"effort", {"12345"}},
      {"stream-pool", {"test-pool"}},
      {"stream-budget", {"4096"}},
      {"memory-limit", {"test-sram=1024"}},
      {"remarks", {"true"}},
      {"objective", {"traffic"}},
      {"amortize", {"77"}},
      {"traffic-profile", {"test-profile.json"}},
      {"memory-cost", {"test-mram=3"}},
      {"plan-json", {"test-plan.json"}},
      {"plan-report", {"test-report.txt"}},
      {"plan-svg", {"test-plan.svg"}},
      {"fuse-accumulators", {"true"}},
      {"fold-constants", {"true"}},
      {"lower", {"false"}},
      {"arena-mode", {"alloc"}},
      {"prefix", {"testprefix"}},
      {"hydrate", {"first-call"}},
      {"lower-copies", {"true"}},
      {"copy-mode", {"dma", "lower-copies=true"}},
      {"to-llvm", {"true"}},
      {"plan-ld", {"test-arenas.ld"}},
      {"plan-ld-memory", {"false", "to-llvm=true"}},
      {"plan-header", {"test-arenas.h"}},
      {"triple", {"thumbv8m.main-none-eabi", "to-llvm=true"}},
      {"data-layout", {"e-m:e-p:32:32", "to-llvm=true"}},
      {"approximate-math", {"false", "to-llvm=true"}},
      {"outline-ops", {"true", "to-llvm=true"}},
      {"slot-addresses", {"constant", "to-llvm=true"}},
      {"model-api", {"false", "to-llvm=true"}},
  };
  return values;
}

/// The pipeline built from `text`, printed with every pass's options.
std::string buildPipeline(const std::string &text) {
  HeliaMemoryPipelineOptions options;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  EXPECT_TRUE(succeeded(options.parseFromString(text, errorStream)))
      << "'" << text << "': " << errors;
  OpPassManager pm("builtin.module");
  buildHeliaMemoryPipeline(pm, options);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  pm.printAsTextualPipeline(os);
  return printed;
}

TEST(PipelineOptions, EveryOptionHasATestValue) {
  std::vector<std::string> names = OptionNames().get();
  ASSERT_FALSE(names.empty());
  for (const std::string &name : names)
    EXPECT_TRUE(getTestValues().contains(name))
        << "helia-memory-pipeline option '" << name
        << "' has no test value in PipelineOptionsTest.cpp";
  EXPECT_EQ(names.size(), getTestValues().size())
      << "a test value names no option of helia-memory-pipeline";
}

TEST(PipelineOptions, EveryOptionChangesThePipeline) {
  for (const std::string &name : OptionNames().get()) {
    auto found = getTestValues().find(name);
    if (found == getTestValues().end())
      continue;
    const TestValue &test = found->second;
    std::string value = test.value;
    std::string base = buildPipeline(test.context);
    std::string changed =
        buildPipeline(std::string(test.context) + " " + name + "=" + value);
    EXPECT_NE(base, changed)
        << "setting helia-memory-pipeline option '" << name << "=" << value
        << "' changes no pass of the pipeline";
    // A value that is not a bare switch must reach a pass's options (a
    // list prints as `name={a,b}`).
    if (value != "true" && value != "false")
      EXPECT_TRUE(changed.find("=" + value) != std::string::npos ||
                  changed.find("={" + value) != std::string::npos)
          << "helia-memory-pipeline option '" << name << "=" << value
          << "' reaches no pass: " << changed;
  }
}

} // namespace
