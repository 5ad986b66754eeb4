# Licensed under the Apache License, Version 2.0.
"""Shared fixtures: the parquet-testing corpus, a seeded RNG, hypothesis profiles and
one local SparkSession for the whole run."""

from __future__ import annotations

import os
import pathlib
import random
import sys

import pytest
from hypothesis import HealthCheck, settings

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = 20240917

# Deterministic by default so failures reproduce; HYPOTHESIS_PROFILE=explore to search.
settings.register_profile("default", derandomize=True, max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "spark: needs a local SparkSession (pyspark and Java); skipped when "
        "pyspark is missing, except under CI=true where that is a failure")


# tests/asan.sh runs the suite over the ASan+UBSan extension with this set.
UNDER_ASAN = os.environ.get("VARSHRED_ASAN_RUN") == "1"


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


def skip_or_fail(reason: str):
    """Outside CI a missing optional dependency skips; under CI it fails."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: never skipped)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def corpus_dir() -> pathlib.Path:
    env = os.environ.get("PARQUET_TEST_DATA")
    path = pathlib.Path(env) if env else ROOT.parent / "shared" / "parquet-testing"
    if not (path / "variant").is_dir():
        skip_or_fail(f"parquet-testing corpus not found at {path}")
    return path


@pytest.fixture
def rng() -> random.Random:
    return random.Random(SEED)


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession per test run (docs/interop.md#local-sessions): startup takes 15-20 s."""
    try:
        import pyspark  # noqa: F401
        from pyspark.sql import SparkSession
    except ImportError:
        skip_or_fail("pyspark is not installed")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (SparkSession.builder.master("local[2]")
               .appName("varshred-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.memory", "2g")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("OFF")
    yield session
    session.stop()


# The foreign-producer corpus (foreign.py): made by the real engines once per run.


@pytest.fixture(scope="session")
def duckdb_corpus(tmp_path_factory):
    try:
        import duckdb  # noqa: F401
    except ImportError:
        skip_or_fail("duckdb is not installed")
    import foreign

    return foreign.build_duckdb(tmp_path_factory.mktemp("duckdb_corpus"))


@pytest.fixture(scope="session")
def spark_corpus(spark, tmp_path_factory):
    import foreign

    return foreign.build_spark(spark, tmp_path_factory.mktemp("spark_corpus"))


@pytest.fixture(scope="session")
def s3_server():
    """A real S3-compatible server on loopback (moto, tests/python/s3server.py)."""
    try:
        import boto3  # noqa: F401
        import moto  # noqa: F401
    except ImportError:
        skip_or_fail("moto[server] is not installed (python/bootstrap.sh installs it)")
    from s3server import S3Server

    server = S3Server()
    yield server
    server.stop()


@pytest.fixture
def s3(s3_server, monkeypatch):
    """A fresh bucket on ``s3_server``, with the standard AWS_* variables (endpoint
    included: AWS_ENDPOINT_URL) set for this test: ``s3.uri("key")`` is ``s3://...``."""
    from s3server import new_bucket, set_env

    set_env(s3_server, monkeypatch)
    return new_bucket(s3_server)
