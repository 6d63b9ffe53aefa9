#!/usr/bin/env bash
# Installs the Debian packages helia needs, only those that are missing, so
# that a repeat run costs one dpkg query.
set -euo pipefail

packages=(
  cmake ninja-build python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libflatbuffers-dev flatbuffers-compiler
  python3-numpy python3-pyarmnn libarmnn-cpuref-backend22
  libgtest-dev zlib1g-dev libzstd-dev libedit-dev libcurl4-openssl-dev
  chromium
  qemu-system-arm
)
# Packages one make target needs on top (e.g. libclang-rt-22-dev, the
# sanitizer and libFuzzer runtimes, for check-sanitize and fuzz).
packages+=("$@")

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "helia: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
