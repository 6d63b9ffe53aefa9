"""Where LLVM/MLIR 22 is installed, for the project's Python scripts.

The environment's LLVM_PREFIX when set (the Makefile exports its own),
else the default of scripts/llvm-prefix.sh, the one place that names it.
Scripts outside scripts/ put this directory on sys.path first.
"""

import os
import re

_SNIPPET = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "llvm-prefix.sh")


def _default_prefix():
    with open(_SNIPPET) as f:
        match = re.search(r"LLVM_PREFIX=\$\{LLVM_PREFIX:-([^}]+)\}", f.read())
    if not match:
        raise RuntimeError(f"{_SNIPPET} does not set a default LLVM_PREFIX")
    return match.group(1)


PREFIX = os.environ.get("LLVM_PREFIX") or _default_prefix()
BIN_DIR = os.path.join(PREFIX, "bin")
LIB_DIR = os.path.join(PREFIX, "lib")


def tool(name):
    """The path of an LLVM/MLIR tool, e.g. tool("mlir-runner")."""
    return os.path.join(BIN_DIR, name)


def lib(name):
    """The path of a library of the installation."""
    return os.path.join(LIB_DIR, name)


def runner_libs():
    """The runtime libraries mlir-runner needs to print memrefs."""
    return [lib("libmlir_runner_utils.so"), lib("libmlir_c_runner_utils.so")]
