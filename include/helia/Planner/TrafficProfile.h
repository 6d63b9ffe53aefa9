//===- TrafficProfile.h - measured traffic per tensor -----------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// A traffic profile is what a measured run (bench/traffic.py --profile, the
// helia-traffic QEMU plugin) says about each buffer of a plan: the bytes and
// accesses it read and wrote per inference (docs/Placement.md, "Placement
// by measured traffic"). The counts do not depend on where a buffer lives
// (the code is the same, only its addresses differ), so one profile prices
// every placement of the model it was measured on; objective=traffic reads
// it instead of the static model (helia-assign-bindings traffic-profile=).
//
// The file is JSON:
//
//   {"format": "helia-traffic-profile", "version": 1,
//    "model": "kws.tflite", "platform": "mps3_an547", "runs": 1,
//    "functions": [{"name": "main", "tensors": 52}],
//    "tensors": [{"function": "main", "tensor_id": 3, "members": [3, 4],
//                 "name": "conv1/w", "kind": "constant", "size": 1024,
//                 "memory": "qspi", "read_bytes": 512000, "write_bytes": 0,
//                 "reads": 128000, "writes": 0}]}
//
// `functions` gives every planned function with its number of tensors (the
// model's fingerprint); each entry of `tensors` one buffer, by the id of
// one of its tensors, with `members` the tensor ids of the whole buffer,
// measured while it lived in `memory`. A buffer may have one entry per
// memory: the generated code is not always the same in every memory (the
// lowering's alignment and aliasing facts differ), so a run with the
// constants pinned into each fast memory prices them there. Counts are
// totals over `runs` inferences. This library only reads the
// file; matching it against a module is helia-assign-bindings'.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_TRAFFICPROFILE_H
#define HELIA_PLANNER_TRAFFICPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace helia::planner {

/// One measured buffer.
struct ProfileEntry {
  std::string function;
  uint64_t tensorId = 0;
  /// The tensor ids of the buffer (`tensorId` among them).
  std::vector<uint64_t> members;
  std::string name;
  /// `constant`, `persistent` or `scratch`.
  std::string kind;
  uint64_t size = 0;
  /// The memory it was measured in ("" when not given).
  std::string memory;
  uint64_t readBytes = 0, writeBytes = 0, reads = 0, writes = 0;
};

struct ProfileFunction {
  std::string name;
  /// Tensors the function has (BufferAnalysis's tensor ids 0 .. N-1).
  uint64_t tensors = 0;
};

struct TrafficProfile {
  std::string model, platform;
  /// Inferences the counts add up (at least 1).
  uint64_t runs = 1;
  std::vector<ProfileFunction> functions;
  std::vector<ProfileEntry> tensors;

  /// Bytes per inference: `total` over `runs`, rounded to nearest.
  uint64_t perInference(uint64_t total) const;
};

/// Parses a profile. Errors say where in the JSON (`tensors[3].read_bytes`)
/// and what is wrong: not JSON, a missing or mistyped field, a negative
/// count, another `format` or `version`, an entry of a function not in
/// `functions`, two entries for one tensor and memory, an entry whose `members` do not hold its
/// `tensor_id`.
llvm::Expected<TrafficProfile> parseTrafficProfile(llvm::StringRef text);

} // namespace helia::planner

#endif // HELIA_PLANNER_TRAFFICPROFILE_H
