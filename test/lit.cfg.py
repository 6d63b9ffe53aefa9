# -*- Python -*-

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "HELIA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.helia_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%helia_src", config.helia_src_root))
config.substitutions.append(("%bench", config.bench_dir))
config.substitutions.append(("%helia_build", config.helia_obj_root))
# helia as a plugin of other MlirOptMain tools (lib/Plugin).
config.substitutions.append(
    ("%helia_plugin", os.path.join(config.helia_obj_root, "lib", "HeliaPlugin.so")))
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Debian ships `not`, `count`, `FileCheck` and `split-file` in the LLVM tools
# directory; put it on PATH so that RUN lines find them.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.helia_tools_dir, append_path=True)

tool_dirs = [config.helia_tools_dir, config.llvm_tools_dir]
tools = ["helia-compile", "helia-opt", "helia-plan", "helia-translate", "mlir-runner", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Execution tests JIT-run lowered modules (test/Fuzz, test/Integration).
if os.path.exists(os.path.join(config.llvm_tools_dir, "mlir-runner")):
    config.available_features.add("mlir-runner")

# Instrumented builds: a plugin built with the sanitizers cannot load into
# an uninstrumented host tool.
if config.helia_sanitizers.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitizers")

if os.path.isdir(config.bench_dir):
    config.available_features.add("bench")
if os.path.isdir(os.path.join(config.bench_dir, "frontend")):
    config.available_features.add("frontend")
# The TFLite models with their golden data (test/TFLite, bench/tflite/run.py).
if os.path.isdir(os.path.join(config.bench_dir, "tflite")):
    config.available_features.add("tflite")
# Arm NN's TfLite parser on CpuRef, the networks' reference: Debian's
# python3-pyarmnn for /usr/bin/python3. bench/tflite/run.py installs it
# when it runs as root, so root has it too.
if os.path.isdir("/usr/lib/python3/dist-packages/pyarmnn") or os.geteuid() == 0:
    config.available_features.add("armnn")

# Headless Chromium renders the SVG plan picture (scripts/render-svg.py).
chromium = shutil.which("chromium") or "/usr/bin/chromium"
if os.path.exists(chromium):
    config.available_features.add("chromium")
config.substitutions.append(("%chromium", chromium))

# Firmware images (test/Firmware): clang-22 and ld.lld-22 cross-compile and
# link for the Cortex-M55; qemu-system-arm runs the image on mps3-an547.
# scripts/install-deps.sh installs all three, so CI runs every firmware
# test; without QEMU only the runs are skipped.
for tool in ["clang-22", "ld.lld-22"]:
    if not shutil.which(tool):
        break
else:
    config.available_features.add("arm-toolchain")
if shutil.which("qemu-system-arm"):
    config.available_features.add("qemu-arm")
