//===- TestImage.cpp - the golden-data test's image on QEMU ---------------===//
//
// Links the module helia-compile wrote with a generated test main, the
// start-up and runtime of examples/firmware (compiled into helia-compile,
// FirmwareSources.inc) and the mps3-an547 board script, and runs it once on
// qemu-system-arm. The main reads each sample's inputs from a file through
// semihosting (SYS_READ straight into the inputs' slots in the arena), runs
// the model and writes its outputs to another file (SYS_WRITE): one QEMU
// run for every sample, two host calls per tensor and sample.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "GoldenTest.h"

#include "helia/Dialect/Helia/Export/FirmwareLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace mlir;

namespace helia::compile {

namespace {
struct FirmwareSource {
  const char *name;
  const char *text;
};
} // namespace

// kFirmwareSources: startup.c, runtime.c, aeabi.c and mps3_an547.ld.
#include "FirmwareSources.inc"

FailureOr<TestTools> findTestTools(Location loc) {
  TestTools tools;
  struct Need {
    const char *name, *why, *package;
    std::string *path;
  } needs[] = {
      {"clang-22", "compiles the test main and the start-up code", "clang-22",
       &tools.clang},
      {"ld.lld-22", "links the test image", "lld-22", &tools.lld},
      {"qemu-system-arm", "runs the image on the mps3-an547 board",
       "qemu-system-arm", &tools.qemu},
  };
  for (Need &need : needs) {
    llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(need.name);
    if (!path)
      return emitError(loc)
             << "--test-data needs " << need.name << ", which " << need.why
             << ", and it is not on PATH; install it (Debian: apt-get "
             << "install " << need.package << ")";
    *need.path = *path;
  }
  return tools;
}

/// `text` as a C string literal: every byte that is not a letter, a digit
/// or one of "/._-" as an octal escape.
static std::string cString(StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (llvm::isAlnum(c) || StringRef("/._-").contains(c)) {
      out += static_cast<char>(c);
      continue;
    }
    char escape[8];
    snprintf(escape, sizeof escape, "\\%03o", c);
    out += escape;
  }
  return out + "\"";
}

/// The test main against the model API of `<prefix>.h`.
static std::string writeTestMain(StringRef prefix, const GoldenData &data,
                                 StringRef inputsPath, StringRef outputsPath) {
  std::string upper = mlir::helia::toCIdentifier(prefix, /*upper=*/true);
  std::string p = prefix.str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* The golden-data test of helia-compile: every sample through " << p
     << "_model_run. */\n"
     << "#include <stdint.h>\n#include \"" << p << ".h\"\n\n"
     << "void helia_exit(int status);\n\n"
     << "static int semihost(int op, const void *arg) {\n"
     << "  register int r0 __asm__(\"r0\") = op;\n"
     << "  register const void *r1 __asm__(\"r1\") = arg;\n"
     << "  __asm__ volatile(\"bkpt 0xab\" : \"+r\"(r0) : \"r\"(r1) : "
        "\"memory\");\n"
     << "  return r0;\n}\n\n"
     << "enum { SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE0 = 0x04, "
        "SYS_WRITE = 0x05, SYS_READ = 0x06 };\n\n"
     << "static void fail(const char *message) {\n"
     << "  semihost(SYS_WRITE0, message);\n  helia_exit(1);\n}\n\n"
     << "static int openFile(const char *path, uint32_t length, uint32_t "
        "mode) {\n"
     << "  uint32_t args[3] = {(uint32_t)path, mode, length};\n"
     << "  return semihost(SYS_OPEN, args);\n}\n\n"
     << "/* The bytes not transferred (0: all of them). */\n"
     << "static int transfer(int op, int file, const void *buffer, uint32_t "
        "bytes) {\n"
     << "  uint32_t args[3] = {(uint32_t)file, (uint32_t)buffer, bytes};\n"
     << "  return semihost(op, args);\n}\n\n"
     << "static const char inputsPath[] = " << cString(inputsPath) << ";\n"
     << "static const char outputsPath[] = " << cString(outputsPath) << ";\n\n";
  // An input the plan gives no slot gets a buffer of the image's own.
  for (unsigned i = 0; i < data.numInputs; ++i)
    os << "static uint8_t input" << i << "[" << upper << "_INPUT_" << i
       << "_BYTES] __attribute__((section(\".app.sram\"), aligned(16)));\n";
  os << "\nvoid main(void) {\n"
     << "  static " << p << "_model_context_t ctx;\n"
     << "  if (" << p << "_model_init(&ctx) != " << upper << "_OK)\n"
     << "    fail(\"helia test: " << p << "_model_init failed\\n\");\n"
     << "  /* \"rb\" and \"wb\" */\n"
     << "  int in = openFile(inputsPath, sizeof inputsPath - 1, 1);\n"
     << "  int out = openFile(outputsPath, sizeof outputsPath - 1, 5);\n"
     << "  if (in < 0 || out < 0)\n"
     << "    fail(\"helia test: cannot open the sample files\\n\");\n"
     << "  for (uint32_t sample = 0; sample < " << data.samples
     << "u; ++sample) {\n";
  for (unsigned i = 0; i < data.numInputs; ++i)
    os << "    if (!ctx.input_" << i << ")\n      ctx.input_" << i << " = ("
       << p << "_input_" << i << "_t *)input" << i << ";\n"
       << "    if (transfer(SYS_READ, in, ctx.input_" << i << ", " << upper
       << "_INPUT_" << i << "_BYTES))\n"
       << "      fail(\"helia test: the inputs file is short\\n\");\n";
  os << "    if (" << p << "_model_run(&ctx) != " << upper << "_OK)\n"
     << "      fail(\"helia test: " << p << "_model_run failed\\n\");\n";
  for (unsigned j = 0; j + data.numInputs < data.specs.size(); ++j)
    os << "    if (transfer(SYS_WRITE, out, ctx.output_" << j << ", " << upper
       << "_OUTPUT_" << j << "_BYTES))\n"
       << "      fail(\"helia test: cannot write the outputs file\\n\");\n";
  os << "  }\n  semihost(SYS_CLOSE, &in);\n  semihost(SYS_CLOSE, &out);\n}\n";
  return text;
}

static LogicalResult writeFile(Location loc, StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec)
    os << bytes;
  if (ec || (os.close(), os.has_error()))
    return emitError(loc) << "cannot write '" << path
                          << "': " << (ec ? ec : os.error()).message();
  return success();
}

/// The error of a program that failed: its status and the log's first
/// lines.
static LogicalResult reportFailure(Location loc, StringRef program, int status,
                                   StringRef message, StringRef logPath) {
  std::string log;
  if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().take_front(2000).rtrim().str();
  InFlightDiagnostic diag = emitError(loc);
  diag << llvm::sys::path::filename(program) << " failed";
  if (!message.empty())
    diag << " (" << message << ")";
  else
    diag << " with exit status " << status;
  diag << "; " << logPath << (log.empty() ? " is empty" : ":\n" + log);
  return failure();
}

/// Runs `args` (args[0] is the program), its output into `logPath`.
static LogicalResult execute(Location loc, ArrayRef<std::string> args,
                             StringRef logPath) {
  SmallVector<StringRef> argv(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {StringRef(""), logPath, logPath};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(args[0], argv, std::nullopt, redirects,
                                         0, 0, &message);
  if (status == 0)
    return success();
  return reportFailure(loc, args[0], status, message, logPath);
}

/// Runs QEMU like execute(), and every 5 seconds prints how many samples
/// the image has written to `outputsPath`.
static LogicalResult runQemu(Driver &driver, Location loc,
                             ArrayRef<std::string> args, StringRef logPath,
                             StringRef outputsPath, int64_t sampleBytes,
                             int64_t samples, unsigned timeout) {
  SmallVector<StringRef> argv(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {StringRef(""), logPath, logPath};
  std::string message;
  bool failedToStart = false;
  Stopwatch watch;
  llvm::sys::ProcessInfo child = llvm::sys::ExecuteNoWait(
      args[0], argv, std::nullopt, redirects, 0, &message, &failedToStart);
  if (failedToStart)
    return reportFailure(loc, args[0], -1, message, logPath);
  double nextReport = 5;
  for (;;) {
    llvm::sys::ProcessInfo state =
        llvm::sys::Wait(child, /*SecondsToWait=*/0, &message);
    if (state.Pid != 0) {
      if (state.ReturnCode == 0)
        return success();
      return reportFailure(loc, args[0], state.ReturnCode, message, logPath);
    }
    if (timeout && watch.seconds() > timeout) {
      // A wait that expires kills the child.
      llvm::sys::Wait(child, /*SecondsToWait=*/1, &message);
      return reportFailure(loc, args[0], -2,
                           "killed after " + std::to_string(timeout) +
                               " s; raise --test-timeout",
                           logPath);
    }
    if (watch.seconds() >= nextReport) {
      uint64_t written = 0;
      llvm::sys::fs::file_size(outputsPath, written);
      driver.progress("run", watch,
                      Twine(sampleBytes ? written / sampleBytes : 0) + " of " +
                          Twine(samples) + " samples");
      nextReport += 5;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

FailureOr<std::vector<uint8_t>> runOnDevice(Driver &driver, StringRef prefix,
                                            StringRef objectPath,
                                            const GoldenData &data,
                                            const TestOptions &options,
                                            const TestTools &tools) {
  Location loc = driver.inputLoc();
  // The board script INCLUDEs plan.ld: the fragment under that name.
  auto fragment = llvm::MemoryBuffer::getFile(driver.outputPath(".ld"));
  if (!fragment)
    return emitError(loc) << "cannot read '" << driver.outputPath(".ld")
                          << "': " << fragment.getError().message();
  // The image runs on QEMU's board: the plan must put the arenas at its
  // addresses. The fragment names the platform it was written for, as
  // scripts/firmware-image.sh reads it.
  StringRef text = (*fragment)->getBuffer();
  StringRef platform;
  size_t at = text.find("for platform '");
  if (at != StringRef::npos)
    platform =
        text.drop_front(at + 14).take_until([](char c) { return c == '\''; });
  if (platform != "mps3_an547")
    return emitError(loc)
           << "--test-data runs the module on QEMU's mps3-an547 board, but "
           << "it is planned for platform '" << platform
           << "'; compile with --platform=mps3_an547";
  Stopwatch linkWatch;
  std::string dir = driver.outputPath(".test");
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return emitError(loc) << "cannot create '" << dir << "': " << ec.message();
  SmallString<128> absolute(dir);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return emitError(loc) << "cannot resolve '" << dir << "': " << ec.message();
  auto inDir = [&](StringRef name) {
    SmallString<128> path(absolute);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  std::string inputs = inDir("inputs.bin"), outputs = inDir("outputs.bin");

  if (failed(writeFile(loc, inDir("plan.ld"), text)))
    return failure();
  for (const FirmwareSource &source : kFirmwareSources)
    if (failed(writeFile(loc, inDir(source.name), source.text)))
      return failure();
  if (failed(writeFile(loc, inDir("test_main.c"),
                       writeTestMain(prefix, data, inputs, outputs))))
    return failure();

  std::vector<std::string> cflags = {"--target=thumbv8.1m.main-none-eabi",
                                     "-mcpu=cortex-m55",
                                     "-mfloat-abi=hard",
                                     "-O2",
                                     "-ffreestanding",
                                     "-nostdlib",
                                     "-Wall",
                                     "-Wno-main-return-type"};
  std::string log = inDir("build.log");
  std::string headerDir =
      llvm::sys::path::parent_path(driver.outputPath(".h")).str();
  if (headerDir.empty())
    headerDir = ".";
  std::vector<std::string> objects;
  for (StringRef source :
       {"startup.c", "runtime.c", "aeabi.c", "test_main.c"}) {
    std::vector<std::string> args = {tools.clang};
    llvm::append_range(args, cflags);
    // The C library stand-ins must not turn into calls of themselves.
    if (source != "test_main.c")
      args.push_back("-fno-builtin");
    std::string object = inDir(source.drop_back(2).str() + ".o");
    llvm::append_range(args,
                       std::vector<std::string>{"-I", headerDir, "-c",
                                                inDir(source), "-o", object});
    if (failed(execute(loc, args, log)))
      return failure();
    objects.push_back(object);
  }
  std::string image = inDir("image.elf");
  std::vector<std::string> link = {tools.lld, "-L", absolute.str().str(), "-T",
                                   inDir("mps3_an547.ld")};
  llvm::append_range(link, objects);
  link.push_back(objectPath.str());
  llvm::append_range(link, std::vector<std::string>{"-o", image});
  if (failed(execute(loc, link, log)))
    return failure();
  SmallString<128> shown(dir);
  llvm::sys::path::append(shown, "image.elf");
  driver.progress("link", linkWatch,
                  Twine(shown) + " (mps3-an547: the module, a test main and "
                                 "examples/firmware's start-up)");

  // Every sample's inputs, in order, each input's bytes as the arena holds
  // them.
  Stopwatch runWatch;
  std::string inputBytes;
  for (int64_t sample = 0; sample < data.samples; ++sample)
    for (unsigned i = 0; i < data.numInputs; ++i) {
      const std::vector<uint8_t> &bytes = data.arrays[i].data;
      int64_t size = data.specs[i].bytes();
      inputBytes.append(bytes.begin() + sample * size,
                        bytes.begin() + (sample + 1) * size);
    }
  if (failed(writeFile(loc, inputs, inputBytes)))
    return failure();
  llvm::sys::fs::remove(outputs);
  std::vector<std::string> qemu = {tools.qemu,
                                   "-M",
                                   "mps3-an547",
                                   "-cpu",
                                   "cortex-m55",
                                   "-nographic",
                                   "-semihosting-config",
                                   "enable=on,target=native",
                                   "-kernel",
                                   image};
  int64_t sampleBytes = 0;
  for (unsigned j = data.numInputs; j < data.specs.size(); ++j)
    sampleBytes += data.specs[j].bytes();
  if (failed(runQemu(driver, loc, qemu, inDir("qemu.log"), outputs, sampleBytes,
                     data.samples, options.timeout)))
    return failure();

  int64_t expected = sampleBytes * data.samples;
  auto buffer = llvm::MemoryBuffer::getFile(outputs, /*IsText=*/false);
  if (!buffer || static_cast<int64_t>((*buffer)->getBufferSize()) != expected)
    return emitError(loc) << "the image wrote "
                          << (buffer ? (*buffer)->getBufferSize() : 0)
                          << " bytes of outputs to '" << outputs
                          << "', not the " << expected << " of " << data.samples
                          << " samples; see " << inDir("qemu.log");
  double seconds = runWatch.seconds();
  driver.progress("run", runWatch,
                  llvm::formatv("{0} sample{1} on QEMU mps3-an547 ({2:f1} ms "
                                "per sample)",
                                data.samples, data.samples == 1 ? "" : "s",
                                1000 * seconds / data.samples)
                      .str());
  StringRef bytes = (*buffer)->getBuffer();
  return std::vector<uint8_t>(bytes.bytes_begin(), bytes.bytes_end());
}

} // namespace helia::compile
