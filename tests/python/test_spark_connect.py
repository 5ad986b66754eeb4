# Licensed under the Apache License, Version 2.0.
"""varshred on Spark Connect: a real Connect server (pyspark's own jars:
spark-connect_2.13-4.3.0.jar, started through ``bin/spark-submit --class
org.apache.spark.sql.connect.service.SparkConnectServer``) on 127.0.0.1, then
``varshred shred --remote sc://...`` and the library functions given a Connect session,
each in its own client process. The Python client needs grpcio, grpcio-status,
googleapis-common-protos and zstandard (pyspark's "connect" extra, pinned in
python/bootstrap.sh)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

import varshred as vs

pytestmark = pytest.mark.spark

HERE = pathlib.Path(__file__).resolve().parent
TIMEOUT = 600  # hang guards only


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def connect_url(tmp_path_factory):
    from conftest import skip_or_fail

    try:
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except ImportError as e:
        skip_or_fail(f"the Spark Connect client's packages are missing: {e}")
    import sparkcluster

    tmp = str(tmp_path_factory.mktemp("connect"))
    env = sparkcluster.spark_env(tmp)
    # The launcher sizes the Connect server as a daemon (SPARK_DAEMON_MEMORY), not by
    # --driver-memory; it runs the server's driver and executors in one JVM.
    env["SPARK_DAEMON_MEMORY"] = "1g"
    port = _free_port()
    log_path = os.path.join(tmp, "server.log")
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [os.path.join(sparkcluster.SPARK_HOME, "bin", "spark-submit"), "--class",
             "org.apache.spark.sql.connect.service.SparkConnectServer", "--master", "local[2]",
             "--conf", "spark.ui.enabled=false",
             "--conf", "spark.driver.host=127.0.0.1",
             "--conf", "spark.driver.bindAddress=127.0.0.1",
             "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
             "--conf", f"spark.connect.grpc.binding.port={port}"],
            env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
    try:
        deadline = time.monotonic() + sparkcluster.START_TIMEOUT
        while True:
            if server.poll() is not None:
                raise RuntimeError("the Connect server exited:\n" +
                                   pathlib.Path(log_path).read_text(errors="replace")[-3000:])
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("the Connect server did not listen")
            time.sleep(0.5)
        yield f"sc://127.0.0.1:{port}", env
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(server.pid, signal.SIGKILL)  # its Python workers too
        except ProcessLookupError:
            pass
        server.wait()


def _events(path: pathlib.Path, n: int) -> list[dict]:
    docs = [{"id": i, "kind": ("a", "b")[i % 2], "user": {"name": f"u{i}"}} for i in range(n)]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return docs


def test_shred_with_remote(connect_url, tmp_path):
    url, env = connect_url
    docs = _events(tmp_path / "events.jsonl", 2000)
    done = subprocess.run([sys.executable, "-m", "varshred", "shred", "events.jsonl", "out",
                           "--remote", url], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"on {url}" in done.stdout
    assert "rows 2000" in done.stdout
    got = []
    for f in vs.spark._part_files(str(tmp_path / "out")):
        got += [json.loads(s) for s in vs.to_json(vs.parquet.read_table(f)["data"]).to_pylist()]
    assert sorted(got, key=lambda d: d["id"]) == docs
    # Parquet input (that output) is read by Spark on the server.
    done = subprocess.run([sys.executable, "-m", "varshred", "shred", "out", "again",
                           "--remote", url], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "rows 2000" in done.stdout
    again = vs.parquet.read_table(str(tmp_path / "again"))
    assert sorted(json.loads(s)["id"] for s in vs.to_json(again["data"]).to_pylist()) == \
        [d["id"] for d in docs]


def test_library_functions_on_a_connect_session(connect_url, tmp_path):
    url, env = connect_url
    _events(tmp_path / "events.jsonl", 500)
    done = subprocess.run([sys.executable, str(HERE / "connect_client.py"), url,
                           str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(next(line for line in done.stdout.splitlines()
                             if line.startswith("RESULT "))[len("RESULT "):])
    assert result["connect"].startswith("pyspark.sql.connect")
    assert result["schema"] == "struct<id: bigint, kind: string, user: struct<name: string>>"
    assert result["rows"] == 500
    assert result["back"] == list(range(500))
    assert result["unshredded"] == 500
    assert result["hit"] == [7]
    assert result["relative"] == str(tmp_path / "relative_out")
    assert vs.parquet.read_table(str(tmp_path / "relative_out")).num_rows == 3


def test_shred_with_remote_names_a_server_that_is_not_there(tmp_path):
    # The Connect client retried for minutes without a word (found by probing).
    _events(tmp_path / "events.jsonl", 10)
    with socket.socket() as s:  # a port nothing listens on: bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "varshred", "shred", "events.jsonl",
                               "out", "--remote", f"sc://127.0.0.1:{port}"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"cannot reach the Spark Connect server at 127.0.0.1:{port}" in done.stderr
    assert not (tmp_path / "out").exists()
