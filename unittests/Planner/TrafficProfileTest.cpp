//===- TrafficProfileTest.cpp - measured traffic and the pin solver -------===//

#include "helia/Planner/Traffic.h"
#include "helia/Planner/TrafficProfile.h"

#include "gtest/gtest.h"

#include <string>

using namespace helia::planner;

namespace {

std::string profileText(const std::string &tensors,
                        const std::string &extra = "") {
  return R"({"format": "helia-traffic-profile", "version": 1, "runs": 2, )" +
         extra + R"("functions": [{"name": "main", "tensors": 6}],
           "tensors": [)" +
         tensors + "]}";
}

std::string entry(int id, const char *name, int size, const char *memory,
                  int readBytes) {
  return "{\"function\": \"main\", \"tensor_id\": " + std::to_string(id) +
         ", \"name\": \"" + name + "\", \"kind\": \"constant\", \"size\": " +
         std::to_string(size) + ", \"memory\": \"" + memory +
         "\", \"read_bytes\": " + std::to_string(readBytes) +
         ", \"write_bytes\": 0, \"reads\": " + std::to_string(readBytes / 4) +
         ", \"writes\": 0}";
}

std::string errorOf(const std::string &text) {
  llvm::Expected<TrafficProfile> profile = parseTrafficProfile(text);
  if (profile)
    return "";
  return llvm::toString(profile.takeError());
}

TEST(TrafficProfileTest, ParsesEntriesPerMemory) {
  llvm::Expected<TrafficProfile> profile = parseTrafficProfile(profileText(
      entry(1, "a/w", 64, "flash", 2048) + ", " +
      entry(1, "a/w", 64, "dtcm", 8192) + ", " +
      entry(2, "b/w", 16, "flash", 7)));
  ASSERT_TRUE(static_cast<bool>(profile)) << llvm::toString(profile.takeError());
  EXPECT_EQ(profile->runs, 2u);
  ASSERT_EQ(profile->functions.size(), 1u);
  EXPECT_EQ(profile->functions[0].tensors, 6u);
  ASSERT_EQ(profile->tensors.size(), 3u);
  EXPECT_EQ(profile->tensors[1].memory, "dtcm");
  // Without `members`, an entry's buffer is its tensor alone.
  EXPECT_EQ(profile->tensors[0].members, (std::vector<uint64_t>{1}));
  // Counts are over `runs`; per inference rounds to nearest.
  EXPECT_EQ(profile->perInference(profile->tensors[0].readBytes), 1024u);
  EXPECT_EQ(profile->perInference(profile->tensors[2].readBytes), 4u);
}

TEST(TrafficProfileTest, ErrorsSayWhere) {
  EXPECT_NE(errorOf("{"), "");
  EXPECT_EQ(errorOf(R"({"format": "x", "version": 1, "functions": [], "tensors": []})"),
            "expected 'helia-traffic-profile' at profile.format");
  EXPECT_EQ(errorOf(profileText(entry(1, "a/w", 64, "flash", -8))),
            "expected a non-negative integer at profile.tensors[0].read_bytes");
  EXPECT_EQ(errorOf(profileText(entry(1, "a/w", 64, "flash", 8) + ", " +
                                entry(1, "a/w", 64, "flash", 8))),
            "counts a tensor that another entry counts in the same memory at "
            "profile.tensors[1].members");
  std::string wrongFunction = entry(1, "a/w", 64, "flash", 8);
  wrongFunction.replace(wrongFunction.find("main"), 4, "other");
  EXPECT_EQ(errorOf(profileText(wrongFunction)),
            "is not one of the profile's functions at "
            "profile.tensors[0].function");
}

/// The pin problem of two constants read from flash (6 cycles per 4 bytes)
/// or pinned into a 64-byte DTCM (1 cycle), priced by the bytes read in
/// each memory: what objective=traffic builds from a profile.
PinProblem problemFrom(const TrafficProfile &profile) {
  AccessCost flash{6, 6, 4}, dtcm{1, 1, 4};
  PinProblem problem;
  problem.capacities = {64};
  problem.inferences = 1000;
  for (uint64_t id : {1u, 2u}) {
    PinItem item;
    double inFlash = 0, inDtcm = -1;
    for (const ProfileEntry &e : profile.tensors) {
      if (e.tensorId != id)
        continue;
      item.size = static_cast<int64_t>(e.size);
      double bytes = static_cast<double>(profile.perInference(e.readBytes));
      if (e.memory == "flash")
        inFlash = bytes;
      else if (e.memory == "dtcm")
        inDtcm = bytes;
    }
    if (inDtcm < 0)
      inDtcm = inFlash;
    item.directCycles = flash.read(inFlash);
    item.pinnedCycles = {dtcm.read(inDtcm)};
    item.hydrateCycles = {flash.read(static_cast<double>(item.size)) +
                          dtcm.write(static_cast<double>(item.size))};
    problem.items.push_back(item);
  }
  return problem;
}

TEST(TrafficProfileTest, SolverFollowsMeasuredCounts) {
  // Both weights take 64 bytes; DTCM holds one. Measured in flash, a/w is
  // read 4096 bytes per inference and b/w 2048: a/w is pinned.
  llvm::Expected<TrafficProfile> flashOnly = parseTrafficProfile(profileText(
      entry(1, "a/w", 64, "flash", 8192) + ", " +
      entry(2, "b/w", 64, "flash", 4096)));
  ASSERT_TRUE(static_cast<bool>(flashOnly));
  PinProblem problem = problemFrom(*flashOnly);
  EXPECT_EQ(choosePins(problem).destination, (std::vector<int>{0, -1}));
  // The run with both in DTCM measured a/w read 4 times as often there
  // (the lowering's code for it differs): pinned it would cost 4096
  // cycles, saving 2048; b/w saves 2560. The solver pins b/w, and agrees
  // with the exact optimum.
  llvm::Expected<TrafficProfile> perMemory = parseTrafficProfile(profileText(
      entry(1, "a/w", 64, "flash", 8192) + ", " +
      entry(2, "b/w", 64, "flash", 4096) + ", " +
      entry(1, "a/w", 64, "dtcm", 32768) + ", " +
      entry(2, "b/w", 64, "dtcm", 4096)));
  ASSERT_TRUE(static_cast<bool>(perMemory));
  problem = problemFrom(*perMemory);
  PinChoice chosen = choosePins(problem);
  EXPECT_EQ(chosen.destination, (std::vector<int>{-1, 0}));
  std::optional<PinChoice> exact = choosePinsExact(problem);
  ASSERT_TRUE(exact);
  EXPECT_DOUBLE_EQ(chosen.cycles, exact->cycles);
  // Direct a/w: 6144 cycles; b/w pinned: 512 + (96 + 16) / 1000.
  EXPECT_DOUBLE_EQ(chosen.cycles, 6144 + 512 + 112.0 / 1000);
}

} // namespace
