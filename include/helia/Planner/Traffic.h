//===- Traffic.h - Which constants to copy into fast memory -----*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The pin problem of objective=traffic (docs/Placement.md): every open
// constant is either read where it is stored (direct) or copied once into
// one of a few fast memories (pinned) and read there. Each choice has a cost
// in predicted memory cycles per inference; a pin also costs its hydration
// (read the source, write the destination) once, which the problem
// amortises over `inferences` runs. The destinations have byte capacities;
// the pinned constants of a destination must fit it. Minimise the sum.
//
// This is a multiple-choice, multiple knapsack. choosePins() first drops
// what needs no search: a destination that can hold every item it would
// serve better than direct is unbounded, and an item's best home among
// direct and the unbounded destinations is free to take. Only the items
// that a bounded destination serves better still choose, among the bounded
// destinations. None bounded: every item takes its best home (optimal).
// One bounded: an exact 0/1 knapsack by its Pareto front (bytes against
// saving). Else a branch-and-bound of a few thousand nodes from a greedy
// fill proves the optimum on small instances; when it cannot, a 0/1
// knapsack per destination (dynamic programming on sizes rounded up to a
// grain, exact when the grain divides them) and pooled knapsacks over sets
// of destinations, each refilled by the same knapsack with the others
// fixed while that lowers the cost, then moves and swaps of single items,
// from every order of the destinations when there are at most four; then a
// bounded branch-and-bound from its answer. choosePinsExact() is a
// branch-and-bound for small instances to compare with; choosePinsByKey()
// is the hand method (pin in the order of a key, each where it still fits).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_PLANNER_TRAFFIC_H
#define HELIA_PLANNER_TRAFFIC_H

#include <cstdint>
#include <optional>
#include <vector>

namespace helia::planner {

/// What helia-assign-bindings optimises when it chooses where constants go.
enum class Objective {
  /// Constants stay where the rules put them (cold in their source memory
  /// unless pinned or streamed); scratch spills by accessed bytes.
  Default,
  /// Predicted memory cycles per inference: choosePins().
  Traffic,
  /// The same objective solved by choosePinsExact() (small instances).
  Exact,
  /// heliaAOT's hand method: pin the constants with the most traffic that
  /// fit (choosePinsByKey on bytes read).
  Hand,
  /// The fast_share proxy: pin by size x readers (choosePinsByKey).
  FastShare,
};

/// The cost of one memory: CPU cycles per access of `accessBytes` bytes.
struct AccessCost {
  uint64_t readCycles = 1;
  uint64_t writeCycles = 1;
  uint64_t accessBytes = 4;

  /// Cycles to read or write `bytes` bytes: whole accesses, each
  /// `accessBytes` wide.
  double read(double bytes) const;
  double write(double bytes) const;
};

/// One constant whose home the solver chooses.
struct PinItem {
  /// Bytes it takes in a destination (rounded up to the alignment).
  int64_t size = 0;
  /// Predicted cycles per inference when it is read where it is stored.
  double directCycles = 0;
  /// Per destination: predicted cycles per inference when pinned there, and
  /// the cycles of its hydration (once). A negative `pinnedCycles` forbids
  /// the destination.
  std::vector<double> pinnedCycles;
  std::vector<double> hydrateCycles;
};

struct PinProblem {
  /// Bytes free in each destination.
  std::vector<int64_t> capacities;
  std::vector<PinItem> items;
  /// Inferences the hydration is amortised over (at least 1).
  double inferences = 1;

  /// The cost of item `i` at `choice` (-1: direct), hydration amortised.
  double getCost(unsigned i, int choice) const;
  /// True when `choice` may hold item `i` (direct always may).
  bool allows(unsigned i, int choice) const;
};

/// A choice per item: -1 direct, else the index of its destination.
struct PinChoice {
  std::vector<int> destination;
  /// The sum of the items' costs (PinProblem::getCost).
  double cycles = 0;
};

/// The cost of `destination` for `problem`, or nullopt when a destination
/// holds more bytes than its capacity or an item sits where it may not.
std::optional<double> evaluatePins(const PinProblem &problem,
                                   const std::vector<int> &destination);

/// The objective=traffic solver (see above): what needs no search, the exact
/// single-destination knapsack, a short branch-and-bound, else knapsack
/// starts, descent, and then a branch-and-bound of at most `searchNodes`
/// nodes from its answer (0: no search at all, the starts and descent
/// alone), which proves that answer optimal or improves it when it
/// finishes. Never exceeds a capacity. On a DP table of at most `maxCells`
/// cells the sizes are exact multiples of their grain; beyond, sizes round
/// up (still feasible).
PinChoice choosePins(const PinProblem &problem, uint64_t searchNodes = 20'000,
                     uint64_t maxCells = 1 << 16);

/// The optimum by branch-and-bound (bound: a fractional knapsack of the
/// remaining items over the remaining bytes), or nullopt when it needs more
/// than `nodeLimit` nodes.
std::optional<PinChoice> choosePinsExact(const PinProblem &problem,
                                         uint64_t nodeLimit = 10'000'000);

/// The hand method: items in decreasing `key` (ties by index), each pinned
/// into the first destination that allows it and still has room, else read
/// direct. Items with a key of 0 stay direct.
PinChoice choosePinsByKey(const PinProblem &problem,
                          const std::vector<double> &key);

} // namespace helia::planner

#endif // HELIA_PLANNER_TRAFFIC_H
