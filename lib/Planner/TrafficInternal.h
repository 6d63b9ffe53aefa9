//===- TrafficInternal.h - the pin solver's steps ---------------*- C++ -*-===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The steps of choosePins() (Planner/Traffic.h), shared by the files that
// implement them: Traffic.cpp (what needs no search, the driver),
// TrafficKnapsack.cpp (0/1 knapsacks), TrafficDescent.cpp (the heuristic's
// starts and descent), TrafficSearch.cpp (branch-and-bound).
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_LIB_PLANNER_TRAFFICINTERNAL_H
#define HELIA_LIB_PLANNER_TRAFFICINTERNAL_H

#include "helia/Planner/Traffic.h"

namespace helia::planner::detail {

/// The cycles item `i` saves at destination `d` against direct (0 when it
/// saves none or may not go there).
double getSaving(const PinProblem &problem, unsigned i, int d);

/// 0/1 knapsack over `candidates` (item indices) with `capacity` bytes:
/// the subset with the largest sum of `value`s whose sizes fit, within a
/// table of at most `maxCells` cells (exact when a grain that divides
/// every size fits it; else sizes round up, still feasible).
std::vector<unsigned> solveKnapsack(const PinProblem &problem,
                                    const std::vector<unsigned> &candidates,
                                    const std::vector<double> &value,
                                    int64_t capacity, uint64_t maxCells);

/// One destination: the exact 0/1 knapsack of the savings by its Pareto
/// front, or nullopt when the front would visit more than `maxStates`
/// states.
std::optional<PinChoice> solveSingle(const PinProblem &problem,
                                     uint64_t maxStates);

/// Moves single items (and swaps pairs) while a move lowers the cost and
/// keeps every capacity.
void improve(const PinProblem &problem, std::vector<int> &choice);

/// The knapsack starts, their descent and the bounded search (see
/// choosePins) on a problem whose every destination is bounded.
PinChoice searchBounded(const PinProblem &problem, uint64_t searchNodes,
                        uint64_t maxCells);

/// Branch-and-bound from `start` (the first incumbent); nullopt when it
/// needs more than `nodeLimit` nodes.
std::optional<PinChoice> searchPins(const PinProblem &problem,
                                    const PinChoice &start, uint64_t nodeLimit);

} // namespace helia::planner::detail

#endif // HELIA_LIB_PLANNER_TRAFFICINTERNAL_H
