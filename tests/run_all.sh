#!/usr/bin/env bash
# Runs every test of varshred: the GoogleTest suite (plus a CMake find_package consumer
# and a smoke run of every benchmark) through ctest, then pytest, including the tests
# on a real local SparkSession, then the Python suite without Spark over extension
# modules built with AddressSanitizer and UBSan (tests/asan.sh; VARSHRED_SKIP_ASAN=1
# leaves that pass out). Works on a fresh machine: it sets everything up first.
#
#   bash tests/run_all.sh [pytest arguments]
#
# One CMake build serves both: python/bootstrap.sh builds the extension with the tests
# and benchmarks switched on in build/tests, installs the extension into .venv, and
# ctest runs in that same build tree.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build/tests"
if [ -z "${VARSHRED_BOOTSTRAPPED:-}" ]; then
  export VARSHRED_BOOTSTRAPPED=1
  export VARSHRED_BUILD_DIR="$BUILD"
  export VARSHRED_CMAKE_DEFINES="VARSHRED_BUILD_TESTS=ON VARSHRED_BUILD_BENCHMARKS=ON"
  echo "== build: varshred, its extension, the GoogleTest suite and the benchmarks"
  exec bash "$ROOT/python/bootstrap.sh" bash "$ROOT/tests/run_all.sh" "$@"
fi
cd "$ROOT"
export PARQUET_TEST_DATA="${PARQUET_TEST_DATA:-$ROOT/../shared/parquet-testing}"

echo "== C++: ctest"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" 2>&1 | tee "$BUILD/ctest.log"

echo "== Python: pytest"
python -m pytest "$ROOT/tests/python" -q -ra --junitxml="$BUILD/pytest.xml" "$@"

if [ -z "${VARSHRED_SKIP_ASAN:-}" ]; then
  echo "== Python under AddressSanitizer and UBSan (no Spark)"
  bash "$ROOT/tests/asan.sh" "$@"
fi
