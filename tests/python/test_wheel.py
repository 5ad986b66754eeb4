# Licensed under the Apache License, Version 2.0.
"""The wheel the cluster recipe ships (README, "On a cluster"): built with
``pip wheel --no-build-isolation --no-deps``, installed into a fresh virtual environment
that has only pyarrow, and a smoke test run there from an empty directory: no compiler
step, no source tree on the path.

The build reuses the CMake build tree python/bootstrap.sh made (tests/run_all.sh exports
its VARSHRED_BUILD_DIR and VARSHRED_CMAKE_DEFINES), so it relinks nothing when the tree is
current: the test costs a venv and two pip installs (about 30-60 s)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap
import venv

import pytest
from conftest import UNDER_ASAN

ROOT = pathlib.Path(__file__).resolve().parents[2]

SMOKE = textwrap.dedent("""
    import json, os, sys, tempfile
    import pyarrow as pa
    import varshred as vs

    here = os.path.dirname(vs.__file__)
    assert here.startswith(sys.prefix), (here, sys.prefix)  # the installed wheel
    import varshred_daemon  # the local sessions' daemon module, a package of its own
    assert varshred_daemon.__file__.startswith(sys.prefix)
    docs = [json.dumps({"id": i, "user": {"name": f"u{i}"}, "tags": ["a"] * (i % 3)})
            for i in range(1000)] + ['{"id": "legacy", "x": 1.5}']
    v = vs.from_json(pa.array(docs))
    schema = vs.infer_schema(v)
    path = os.path.join(tempfile.mkdtemp(), "smoke.parquet")
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": schema})
    back = vs.parquet.read_table(path)["v"]
    assert [json.loads(s) for s in vs.to_json(back).to_pylist()] == \\
        [json.loads(d) for d in docs]
    ids = vs.parquet.read_paths(path, "v", {"id": "bigint"}).column(0).to_pylist()
    assert ids[:3] == [0, 1, 2] and ids[-1] is None
    assert vs.parquet.prunable_row_groups(path, "v", "id", "==", -5) == []  # a residual
    print("smoke ok", vs.__version__, path)
""")


def _run(args, **kwargs):
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{args}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


# The packaging, not memory safety, is under test: the wheel is a plain build, and with
# libasan preloaded into pip and the venv it took 340 s. The plain pass runs it.
@pytest.mark.skipif(UNDER_ASAN, reason="tests the packaging; run in the plain pass, not under ASan")
def test_wheel_in_a_fresh_venv_with_only_pyarrow(tmp_path):
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    config = []
    if os.environ.get("VARSHRED_BUILD_DIR"):  # tests/run_all.sh's build tree
        config.append(f"-Cbuild-dir={os.environ['VARSHRED_BUILD_DIR']}")
    for define in os.environ.get("VARSHRED_CMAKE_DEFINES", "").split():
        config.append(f"-Ccmake.define.{define}")
    dist = tmp_path / "dist"
    _run([*pip, "wheel", "--no-build-isolation", "--no-deps", *config, "-w", str(dist),
          str(ROOT)])
    wheels = list(dist.glob("varshred-*.whl"))
    assert len(wheels) == 1, wheels

    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    import pyarrow

    _run([python, "-m", "pip", "--disable-pip-version-check", "-q", "install",
          f"pyarrow=={pyarrow.__version__}"])
    # --no-build-isolation is moot for a wheel; --only-binary makes any source build fail.
    _run([python, "-m", "pip", "--disable-pip-version-check", "-q", "install",
          "--only-binary", ":all:", str(wheels[0])])
    installed = _run([python, "-m", "pip", "list", "--format=freeze"]).lower()
    names = {line.split("==")[0] for line in installed.split()}
    assert names - {"pip", "setuptools", "wheel"} == {"pyarrow", "numpy", "varshred"} or \
        names - {"pip", "setuptools", "wheel"} == {"pyarrow", "varshred"}, names

    work = tmp_path / "empty"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    out = _run([python, "-c", SMOKE], cwd=work, env=env)
    assert "smoke ok" in out
    written = out.split()[-1]
    varshred = str(env_dir / "bin" / "varshred")
    assert "varshred shred" in _run([varshred, "--help"], cwd=work, env=env)
    # The CLI's commands that need no Spark work from the wheel alone.
    assert "shredded" in _run([varshred, "inspect", written], cwd=work, env=env)
