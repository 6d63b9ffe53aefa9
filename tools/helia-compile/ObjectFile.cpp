//===- ObjectFile.cpp - an LLVM-dialect module to a Cortex-M55 object ----===//

#include "ObjectFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

// The ARM target of libLLVM; only it is initialised, not every target.
extern "C" {
void LLVMInitializeARMTargetInfo();
void LLVMInitializeARMTarget();
void LLVMInitializeARMTargetMC();
void LLVMInitializeARMAsmPrinter();
}

using namespace mlir;

/// Creates the target machine for `target`, once the ARM target is
/// registered.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const helia::compile::ObjectTarget &target,
                    std::string &error) {
  static bool initialized = [] {
    LLVMInitializeARMTargetInfo();
    LLVMInitializeARMTarget();
    LLVMInitializeARMTargetMC();
    LLVMInitializeARMAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(target.triple);
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return nullptr;
  llvm::TargetOptions options;
  options.FloatABIType =
      target.hardFloat ? llvm::FloatABI::Hard : llvm::FloatABI::Soft;
  // Bare metal: no PIC, no unwind tables; the default -O2 code generator.
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, /*Features=*/"", options, llvm::Reloc::Static,
      std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!machine)
    error = "the ARM target cannot create a machine for '" + target.triple +
            "' and cpu '" + target.cpu + "'";
  return machine;
}

/// Runs the new pass manager's default -O2 pipeline, tuned for `machine`.
static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  pipeline.run(module, modules);
}

FailureOr<uint64_t> helia::compile::emitObjectFile(ModuleOp module,
                                                   const ObjectTarget &target,
                                                   StringRef objectPath,
                                                   StringRef llvmIRPath) {
  Location loc = module.getLoc();
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, error);
  if (!machine)
    return emitError(loc) << "cannot compile for '" << target.triple
                          << "': " << error,
           failure();

  // Translation errors (an op without an LLVM IR translation) are located
  // at the op.
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "helia");
  if (!llvmModule)
    return emitError(loc) << "cannot translate the LLVM dialect module to "
                             "LLVM IR",
           failure();
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  optimize(*llvmModule, *machine);

  if (!llvmIRPath.empty()) {
    std::error_code ec;
    llvm::ToolOutputFile ir(llvmIRPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return emitError(loc)
                 << "cannot write '" << llvmIRPath << "': " << ec.message(),
             failure();
    llvmModule->print(ir.os(), nullptr);
    ir.keep();
  }

  std::error_code ec;
  llvm::ToolOutputFile object(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return emitError(loc) << "cannot write '" << objectPath
                          << "': " << ec.message(),
           failure();
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, object.os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return emitError(loc) << "the ARM target cannot emit an object file",
           failure();
  codegen.run(*llvmModule);
  object.os().flush();
  uint64_t size = object.os().tell();
  object.keep();
  return size;
}
