//===- InitHelia.h - register everything helia provides ---------*- C++ -*-===//
//
// One entry point for compilers that embed helia: the dialect, the passes
// and the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef HELIA_INITHELIA_H
#define HELIA_INITHELIA_H

namespace mlir {
class DialectRegistry;
namespace helia {

/// Adds the helia dialect to `registry`.
void registerHeliaDialect(DialectRegistry &registry);

/// Registers every helia pass and the `helia-memory-pipeline` with the global
/// pass registry (for command-line parsing).
void registerHeliaPasses();

} // namespace helia
} // namespace mlir

#endif // HELIA_INITHELIA_H
