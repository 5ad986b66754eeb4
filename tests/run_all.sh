#!/usr/bin/env bash
# Runs every test of varshred: the GoogleTest suite (plus a CMake find_package consumer
# and a benchmark smoke run) through ctest, then pytest, including the tests on a real
# local SparkSession. Works on a fresh machine: it sets everything up first.
#
#   bash tests/run_all.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${VARSHRED_BOOTSTRAPPED:-}" ]; then
  export VARSHRED_BOOTSTRAPPED=1
  exec bash "$ROOT/python/bootstrap.sh" bash "$ROOT/tests/run_all.sh" "$@"
fi
cd "$ROOT"
BUILD="$ROOT/build/tests"
export PARQUET_TEST_DATA="${PARQUET_TEST_DATA:-$ROOT/../shared/parquet-testing}"

echo "== C++: configure and build (GoogleTest, benchmarks)"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVARSHRED_BUILD_TESTS=ON -DVARSHRED_BUILD_BENCHMARKS=ON \
  -DPython_EXECUTABLE="$VIRTUAL_ENV/bin/python" >/dev/null
cmake --build "$BUILD" -j "$(nproc)"

echo "== C++: ctest"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" 2>&1 | tee "$BUILD/ctest.log"

echo "== Python: pytest"
python -m pytest "$ROOT/tests/python" -q -ra --junitxml="$BUILD/pytest.xml" "$@"
