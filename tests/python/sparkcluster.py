# Licensed under the Apache License, Version 2.0.
"""A real Spark standalone cluster on 127.0.0.1 for the tests: a master and workers, each
its own JVM, started through pyspark's ``bin/spark-class`` (the pip package ships no
start scripts), with small memory.

Every daemon runs in its own session, so that stopping it (or killing it mid-job) also
ends the executor JVM and the Python workers it launched: ``Cluster.stop()`` kills the
process groups it started, and nothing else."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pyspark

SPARK_HOME = os.path.dirname(pyspark.__file__)
# A loaded 2-core machine starts a JVM in 10-60 s: generous bounds, never timing checks.
START_TIMEOUT = 240


def spark_env(tmp: str) -> dict:
    """The environment of every JVM and driver of the cluster: loopback only, the
    interpreter that has varshred for every Python worker, no user Spark config."""
    conf_dir = os.path.join(tmp, "conf")
    os.makedirs(conf_dir, exist_ok=True)
    env = dict(os.environ)
    env.update({
        "SPARK_HOME": SPARK_HOME,
        "SPARK_CONF_DIR": conf_dir,
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_DAEMON_MEMORY": "256m",
        # The REST submission server would take the fixed port 6066.
        "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false",
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
    })
    return env


class Daemon:
    def __init__(self, name: str, args: list, env: dict, tmp: str):
        self.name = name
        self.log = os.path.join(tmp, f"{name}.log")
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [os.path.join(SPARK_HOME, "bin", "spark-class"), *args], env=env,
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)

    def text(self) -> str:
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_for(self, pattern: str, count: int = 1) -> list:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            found = re.findall(pattern, self.text())
            if len(found) >= count:
                return found
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.process.returncode}):\n"
                                   f"{self.text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: no {pattern!r} after {START_TIMEOUT} s:\n"
                                   f"{self.text()[-3000:]}")
            time.sleep(0.5)

    def session_pids(self) -> list[int]:
        """The live processes of this daemon's session (itself, its executors and their
        Python workers)."""
        out = subprocess.run(["ps", "-eo", "pid=,sid=,stat="], capture_output=True,
                             text=True).stdout
        return [int(pid) for pid, sid, stat in (line.split() for line in out.splitlines())
                if int(sid) == self.process.pid and not stat.startswith("Z")]

    def kill(self, sig=signal.SIGKILL) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        self.kill(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        self.kill(signal.SIGKILL)  # the executors and Python workers of the session too
        self.process.wait()


class Cluster:
    """A master and ``workers`` workers (``cores`` cores, ``memory`` each) on 127.0.0.1;
    ``url`` is ``spark://127.0.0.1:PORT``. A context manager: stopped on exit, also on
    failure."""

    def __init__(self, tmp: str, workers: int = 2, cores: int = 1, memory: str = "1g"):
        self.tmp = tmp
        self.env = spark_env(tmp)
        self.daemons: list[Daemon] = []
        try:
            self.master = self._start("master", ["org.apache.spark.deploy.master.Master",
                                                 "--host", "127.0.0.1", "--port", "0",
                                                 "--webui-port", "0"])
            self.url = self.master.wait_for(r"Starting Spark master at (spark://\S+)")[0]
            self.workers = []
            for i in range(workers):
                work = os.path.join(tmp, f"work{i}")
                os.makedirs(work, exist_ok=True)
                self.workers.append(self._start(
                    f"worker{i}", ["org.apache.spark.deploy.worker.Worker", "--host",
                                   "127.0.0.1", "--cores", str(cores), "--memory", memory,
                                   "--webui-port", "0", "--work-dir", work, self.url]))
            self.master.wait_for(r"Registering worker 127\.0\.0\.1", workers)
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, args: list) -> Daemon:
        daemon = Daemon(name, args, self.env, self.tmp)
        self.daemons.append(daemon)
        return daemon

    def stop(self) -> None:
        for d in reversed(self.daemons):
            d.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def executor_logs(self) -> str:
        """The executors' stderr, for failure messages."""
        out = []
        for root, _, files in os.walk(self.tmp):
            out += [os.path.join(root, f) for f in files if f == "stderr"]
        text = ""
        for path in out:
            with open(path, encoding="utf-8", errors="replace") as f:
                text += f"== {path}\n" + f.read()[-2000:]
        return text
