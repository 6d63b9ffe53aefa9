//===- plan-example.cpp - the packing library without MLIR ----------------===//
//
// The example of docs/Embedding.md: three buffers with lifetimes, packed
// into one arena; then the same problem under a capacity it cannot meet.
//
//===----------------------------------------------------------------------===//

#include "helia/Planner/Planner.h"

#include "llvm/Support/raw_ostream.h"

using namespace helia::planner;

int main() {
  Problem problem;
  // {id, size, alignment, firstStep, lastStep}; lifetimes are closed.
  problem.buffers = {{0, 1024, 16, 0, 1}, {1, 512, 16, 1, 2},
                     {2, 1024, 16, 2, 3}};

  llvm::Expected<Solution> solution = plan(problem);
  if (!solution) {
    llvm::errs() << "error: " << llvm::toString(solution.takeError()) << "\n";
    return 1;
  }
  for (auto [buffer, offset] : llvm::zip(problem.buffers, solution->offsets))
    llvm::outs() << "buffer " << buffer.id << ": offset " << offset << "\n";
  llvm::outs() << "peak " << solution->peak << ", lower bound "
               << solution->lowerBound
               << (solution->optimal ? ", optimal" : "") << "\n";

  // Over capacity: the error says by how much.
  problem.capacity = 1024;
  llvm::Expected<Solution> tooSmall = plan(problem);
  if (tooSmall)
    return 1;
  llvm::handleAllErrors(tooSmall.takeError(), [](const PlanError &error) {
    llvm::outs() << "capacity " << error.getCapacity() << ": needs "
                 << error.getRequired() << "\n";
  });
  return 0;
}
