#!/usr/bin/env bash
# Sets up everything varshred needs on a fresh Debian machine, then runs "$@" inside
# the project's virtual environment (.venv at the project root).
#
#   bash python/bootstrap.sh varshred demo     # the main job
#   bash python/bootstrap.sh                    # set up only
#
# Idempotent: a second run installs nothing new. As root it installs Debian packages
# (Java for Spark, GoogleTest and Google Benchmark for the C++ suite); as another user
# it only checks for them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VARSHRED_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

need_apt=()
command -v java >/dev/null 2>&1 || need_apt+=(openjdk-17-jre-headless)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
[ -f /usr/include/benchmark/benchmark.h ] || need_apt+=(libbenchmark-dev)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "bootstrap: apt-get install ${need_apt[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "bootstrap: missing Debian packages (install them as root): ${need_apt[*]}" >&2
  fi
fi

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip -q --disable-pip-version-check)
stamp="$VENV/.varshred-deps"
# pyspark[connect]: grpcio, grpcio-status, googleapis-common-protos and zstandard, the
# Spark Connect client (varshred shred --remote, tests/python/test_spark_connect.py).
deps=("pyarrow==26.*" "pysimdjson==7.0.2" "scikit-build-core>=0.10" "cython>=3.0" "cmake>=3.21"
      "ninja" "pytest" "hypothesis" "pyspark[connect]==4.3.0" "pandas<3" "numpy" "duckdb==2.0.0"
      "ruff==0.17.6" "clang-format==23.1.5" "moto[server]==5.2.5")
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${deps[*]}" ]; then
  "${PIP[@]}" install "${deps[@]}"
  echo "${deps[*]}" > "$stamp"
fi
# Build and install varshred itself (incremental: scikit-build-core keeps build/).
# VARSHRED_BUILD_DIR and VARSHRED_CMAKE_DEFINES ("NAME=VALUE ...") let tests/run_all.sh
# build the GoogleTest suite in the same CMake build as the extension.
build_log="$VENV/.varshred-build.log"
config=()
[ -n "${VARSHRED_BUILD_DIR:-}" ] && config+=(-C "build-dir=$VARSHRED_BUILD_DIR")
for define in ${VARSHRED_CMAKE_DEFINES:-}; do config+=(-C "cmake.define.$define"); done
if ! "${PIP[@]}" install --no-build-isolation --no-deps "${config[@]}" "$ROOT" >"$build_log" 2>&1; then
  grep -v "^WARNING: Location" "$build_log" >&2 || true
  echo "bootstrap: building varshred failed (log: $build_log)" >&2
  exit 1
fi

if [ $# -gt 0 ]; then
  export PATH="$VENV/bin:$PATH"
  export VIRTUAL_ENV="$VENV"
  export PYSPARK_PYTHON="${PYSPARK_PYTHON:-$VENV/bin/python}"
  export PYSPARK_DRIVER_PYTHON="${PYSPARK_DRIVER_PYTHON:-$VENV/bin/python}"
  exec "$@"
fi
