//===- ArenaPacker.cpp - pack buffers of a binding plan -------------------===//

#include "helia/Dialect/Helia/Analysis/BindingPlanner.h"

using namespace mlir;
using namespace mlir::helia;
namespace planner = ::helia::planner;

planner::Problem ArenaPacker::getProblem(ArrayRef<unsigned> members,
                                         bool stream) const {
  planner::Problem problem;
  problem.buffers.reserve(members.size());
  for (unsigned i : members) {
    const BufferPlan &member = plan.getBuffer(i);
    planner::Buffer buffer;
    buffer.id = i;
    buffer.size = member.alignedSize;
    buffer.alignment = plan.getAlignment();
    buffer.firstStep = stream ? member.streamFirst : member.first;
    buffer.lastStep = stream ? member.streamLast : member.last;
    problem.buffers.push_back(buffer);
  }
  return problem;
}

planner::Options ArenaPacker::getOptions(planner::Algorithm algorithm) const {
  planner::Options result;
  result.algorithm = algorithm;
  result.effort = options.effort;
  return result;
}

FailureOr<planner::Solution>
ArenaPacker::pack(ArrayRef<unsigned> members, bool stream,
                  planner::Algorithm algorithm) const {
  llvm::Expected<planner::Solution> solution =
      planner::plan(getProblem(members, stream), getOptions(algorithm));
  if (!solution)
    return emitError(plan.getLoc())
           << "packing failed: " << llvm::toString(solution.takeError());
  return std::move(*solution);
}
