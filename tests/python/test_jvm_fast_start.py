# Licensed under the Apache License, Version 2.0.
"""The driver JVM options of the JSON-lines job (varshred._jvm): the class-data archive
is written by one run, adopted once that run has ended, and never read half-written."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from varshred import _jvm


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "varshred" / "jvm"


def _archive_option(options: list[str]) -> str | None:
    return next((o for o in options if "Archive" in o), None)


def _ended_runs_archive(ours: str, content: bytes) -> str:
    """An archive beside ``ours`` (this run's name) named after a process that has
    ended, last changed a minute ago; returns its path."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    written = ours.replace(f".{os.getpid()}.jsa", f".{ended}.jsa")
    with open(written, "wb") as f:
        f.write(content)
    old = time.time() - 60
    os.utime(written, (old, old))
    return written


def test_first_run_writes_an_archive_named_after_itself(cache):
    options = _jvm.driver_options()
    assert "-XX:TieredStopAtLevel=1" in options and "-XX:+UseSerialGC" in options
    option = _archive_option(options)
    assert option.startswith("-XX:ArchiveClassesAtExit=")
    assert option.endswith(f".{os.getpid()}.jsa")
    assert os.path.dirname(option.split("=", 1)[1]) == str(cache)


def test_writes_archive_tells_the_run_that_writes_one(cache):
    assert _jvm.writes_archive(_jvm.driver_options())
    assert not _jvm.writes_archive(["-XX:SharedArchiveFile=x.jsa", "-XX:+UseSerialGC"])
    assert not _jvm.writes_archive([])


def test_an_ended_runs_archive_is_adopted(cache):
    ours = _archive_option(_jvm.driver_options()).split("=", 1)[1]
    written = _ended_runs_archive(ours, b"archive")
    option = _archive_option(_jvm.driver_options())
    final = ours.replace(f".{os.getpid()}.jsa", ".jsa")
    assert option == f"-XX:SharedArchiveFile={final}"
    assert os.path.exists(final) and not os.path.exists(written)


def test_archives_of_other_ended_runs_are_removed(cache):
    """Two runs that started together both write an archive: one is adopted, the
    other (about 150 MB) does not stay in the cache."""
    ours = _archive_option(_jvm.driver_options()).split("=", 1)[1]
    for _ in range(2):
        _ended_runs_archive(ours, b"archive")
    final = ours.replace(f".{os.getpid()}.jsa", ".jsa")
    assert _archive_option(_jvm.driver_options()) == f"-XX:SharedArchiveFile={final}"
    assert sorted(os.listdir(cache)) == [os.path.basename(final)]


def test_an_archive_being_written_is_left_alone(cache):
    ours = _archive_option(_jvm.driver_options()).split("=", 1)[1]
    with open(ours, "wb") as f:  # this process is alive: still writing
        f.write(b"part")
    assert _archive_option(_jvm.driver_options()) is None
    assert os.path.exists(ours)


def _started_with(pid: int, option: str) -> bool:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return option.encode() in f.read().split(b"\0")


def test_an_archive_whose_jvm_is_still_dumping_is_left_alone(cache):
    # The JVM writes the archive at its exit, after the Python process named in it has
    # ended: while a process started with the archive's option lives, it is not adopted,
    # however long ago the file last changed.
    ours = _archive_option(_jvm.driver_options()).split("=", 1)[1]
    written = _ended_runs_archive(ours, b"part")
    option = f"-XX:ArchiveClassesAtExit={written}"
    jvm = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", option])
    try:
        # Until it has exec'd, the child's /proc entry still shows pytest's command line.
        deadline = time.monotonic() + 10
        while not _started_with(jvm.pid, option):
            assert time.monotonic() < deadline, "the stand-in JVM did not start"
            time.sleep(0.01)
        assert _archive_option(_jvm.driver_options()) is None
        assert os.path.exists(written)
    finally:
        jvm.kill()
        jvm.wait()
    final = ours.replace(f".{os.getpid()}.jsa", ".jsa")
    assert _archive_option(_jvm.driver_options()) == f"-XX:SharedArchiveFile={final}"


def test_fast_start_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("VARSHRED_JVM_FAST_START", "0")
    assert not _jvm.enabled()
    monkeypatch.delenv("VARSHRED_JVM_FAST_START")
    assert _jvm.enabled()


def test_the_first_run_writes_its_archive_quietly(cache):
    # A real JVM with the first run's options, on Spark's jars: the archive is written
    # and the dump's per-class warnings (signed jars...) stay off the user's terminal.
    import shutil

    import pyspark

    java = shutil.which("java")
    if java is None:
        pytest.skip("no java")
    options = _jvm.driver_options()
    archive = _archive_option(options).split("=", 1)[1]
    jars = os.path.join(os.path.dirname(pyspark.__file__), "jars", "*")
    r = subprocess.run([java, *options, "-cp", jars, "org.apache.spark.deploy.SparkSubmit",
                        "--version"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert os.path.getsize(archive) > 0
    assert "[cds]" not in r.stdout + r.stderr


def _blas_setting(argv0: str, env: dict | None = None) -> str:
    code = (f"import sys; sys.argv = [{argv0!r}]; import os, varshred; "
            "print(os.environ.get('OPENBLAS_NUM_THREADS'))")
    environ = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    return subprocess.run([sys.executable, "-c", code], env={**environ, **(env or {})},
                          capture_output=True, text=True, check=True).stdout.strip()


def test_the_command_process_runs_no_blas_threads():
    """OpenBLAS's thread (numpy, imported by pyarrow) spun ~0.1 s of CPU while the JVM
    started: the command's process asks for none; library users keep their setting."""
    assert _blas_setting("/somewhere/bin/varshred") == "1"
    assert _blas_setting("-m") == "1"  # python -m varshred
    assert _blas_setting("/somewhere/bin/varshred", {"OPENBLAS_NUM_THREADS": "3"}) == "3"
    assert _blas_setting("my_job.py") == "None"
