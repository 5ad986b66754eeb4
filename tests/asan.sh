#!/usr/bin/env bash
# Runs the Python test suite (without the Spark tests) over a varshred extension built
# with AddressSanitizer and UndefinedBehaviorSanitizer (CMake option VARSHRED_ASAN).
#
#   bash tests/asan.sh                       # build build/asan-python, then pytest -m "not spark"
#   bash tests/asan.sh -k fuzz -x            # extra arguments go to pytest
#
# The instrumented module is assembled in build/asan-python/pkg/varshred (the sources of
# python/varshred plus the ASan extension modules) and put first on PYTHONPATH, so the project's
# .venv (pyarrow, pytest, duckdb) is used unchanged. The interpreter itself is not
# instrumented, so libasan is preloaded; leak checking is off (CPython's allocator
# never frees everything). Any ASan or UBSan report aborts the process and fails the run;
# reports are also written to build/asan-python/report.* (pytest's capture hides stderr).
# Time on the 2-core machine: the first build 10-25 min (25 under heavy load), an
# incremental one 1-3 min; the tests about 10 min (980 tests, the fuzz tests included;
# 2026-11-29, with the slowest at 140 s: the corrupt-footer fuzz of test_limits.py).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VARSHRED_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
BUILD="$ROOT/build/asan-python"  # not build/asan: the C++ ASan suite (README) uses Debug
[ -x "$PY" ] || bash "$ROOT/python/bootstrap.sh"

cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVARSHRED_BUILD_PYTHON=ON -DVARSHRED_ASAN=ON -DPython_EXECUTABLE="$PY" >/dev/null
cmake --build "$BUILD" -j "${JOBS:-2}" --target varshred_python

PKG="$BUILD/pkg/varshred"
rm -rf "$BUILD/pkg" && mkdir -p "$PKG"
for f in "$ROOT"/python/varshred/*; do
  case "$f" in *.so) ;; *) ln -s "$f" "$PKG/" ;; esac
done
find "$BUILD/python" -maxdepth 1 -name '_*.so' -exec ln -s {} "$PKG/" \;
PYARROW_LIBS="$("$PY" -c 'import pyarrow, os; print(os.path.dirname(pyarrow.__file__))')"

export PYTHONPATH="$BUILD/pkg${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$PYARROW_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# Reports go to build/asan-python/report.<pid> as well.
rm -f "$BUILD"/report.*
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:log_path=$BUILD/report:log_exe_name=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$BUILD/report:${UBSAN_OPTIONS:-}"
export PATH="$VENV/bin:$PATH"
# Every Python object through malloc, so that ASan sees them (pymalloc pools hide
# use-after-free of small objects).
export PYTHONMALLOC=malloc
export VARSHRED_ASAN_RUN=1   # known memory-corrupting defects are skipped, not run
"$PY" -c 'import varshred._status as m, sys; assert "build/asan-python" in m.__file__, m.__file__; print("asan modules:", m.__file__, file=sys.stderr)'
cd "$ROOT"
status=0
"$PY" -m pytest tests/python -q -m "not spark" -p no:cacheprovider "$@" || status=$?
if ls "$BUILD"/report.* >/dev/null 2>&1; then
  echo "== sanitizer reports (build/asan-python/report.*):" >&2
  cat "$BUILD"/report.* >&2
  status=1
fi
exit $status
