# Sourced by the shell scripts, read by the Makefile and by
# scripts/llvm_prefix.py: the one place that names where LLVM/MLIR 22 is
# installed. Set LLVM_PREFIX in the environment (or on the make command
# line) to use another installation; the default is Debian's.
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
export LLVM_PREFIX
