//===- helia-profile-fuzzer.cpp - the traffic profile parser -------------===//
//
// Feeds arbitrary bytes to parseTrafficProfile (Planner/TrafficProfile.h).
// Either the text is refused with a message, or the profile it yields keeps
// the parser's promises: at least one run, every entry of a listed function,
// its members holding its tensor id, no tensor counted twice in one memory,
// a kind of the three, and parsing the same bytes again gives the same
// profile.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/TrafficProfile.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <set>
#include <string>
#include <tuple>

namespace planner = ::helia::planner;

[[noreturn]] static void fail(const char *what) {
  llvm::errs() << "helia profile fuzzer: " << what << "\n";
  std::abort();
}

static bool sameEntry(const planner::ProfileEntry &a,
                      const planner::ProfileEntry &b) {
  return a.function == b.function && a.tensorId == b.tensorId &&
         a.members == b.members && a.name == b.name && a.kind == b.kind &&
         a.size == b.size && a.memory == b.memory &&
         a.readBytes == b.readBytes && a.writeBytes == b.writeBytes &&
         a.reads == b.reads && a.writes == b.writes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<planner::TrafficProfile> profile =
      planner::parseTrafficProfile(text);
  if (!profile) {
    if (llvm::toString(profile.takeError()).empty())
      fail("an error without a message");
    return 0;
  }
  if (profile->runs == 0)
    fail("a profile of zero runs");
  std::set<std::string> functions;
  for (const planner::ProfileFunction &function : profile->functions)
    if (!functions.insert(function.name).second)
      fail("a function listed twice");
  std::set<std::tuple<std::string, uint64_t, std::string>> seen;
  for (const planner::ProfileEntry &entry : profile->tensors) {
    if (!functions.count(entry.function))
      fail("an entry of a function the profile does not list");
    if (entry.kind != "constant" && entry.kind != "persistent" &&
        entry.kind != "scratch")
      fail("an entry of an unknown kind");
    bool holdsId = false;
    for (uint64_t member : entry.members) {
      holdsId |= member == entry.tensorId;
      if (!seen.insert({entry.function, member, entry.memory}).second)
        fail("a tensor counted twice in one memory");
    }
    if (!holdsId)
      fail("members without the entry's tensor id");
    if (profile->perInference(entry.readBytes) > entry.readBytes)
      fail("more bytes per inference than in all runs");
  }
  llvm::Expected<planner::TrafficProfile> again =
      planner::parseTrafficProfile(text);
  if (!again)
    fail("the same bytes refused the second time");
  if (again->tensors.size() != profile->tensors.size() ||
      again->functions.size() != profile->functions.size() ||
      again->runs != profile->runs)
    fail("the same bytes parsed differently");
  for (size_t i = 0; i < again->tensors.size(); ++i)
    if (!sameEntry(again->tensors[i], profile->tensors[i]))
      fail("the same bytes parsed differently");
  return 0;
}
