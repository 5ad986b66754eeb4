# Licensed under the Apache License, Version 2.0.
"""A real S3-compatible server on loopback for the tests: moto's server in its own
process (an in-process ThreadedMotoServer would deadlock with any Arrow call that holds
the GIL while it waits for the server, e.g. an S3 stream's destructor).

Fixtures (tests/python/conftest.py): ``s3_server`` (one per run) and ``s3`` (a fresh
bucket per test, with the standard ``AWS_*`` environment variables pointing at it)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass

ACCESS_KEY = "testing"
SECRET_KEY = "testing"
REGION = "us-east-1"


class S3Server:
    """``python -m moto.server`` on 127.0.0.1 and a free port, until stop()."""

    def __init__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a loaded machine: generous, not a timing test
        while True:
            try:
                urllib.request.urlopen(self.endpoint + "/moto-api/", timeout=5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("moto server did not start") from None
                time.sleep(0.1)

    @property
    def env(self) -> dict:
        """The standard variables an S3 client reads (AWS SDKs, Arrow, boto3)."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_DEFAULT_REGION": REGION,
                "AWS_REGION": REGION, "AWS_EC2_METADATA_DISABLED": "true"}

    @property
    def query(self) -> str:
        """Arrow's URI query parameters for this server (no environment needed)."""
        return f"endpoint_override=127.0.0.1:{self.port}&scheme=http&region={REGION}"

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY, region_name=REGION)

    def filesystem(self):
        """A pyarrow S3FileSystem on this server, configured explicitly."""
        import pyarrow.fs as pafs

        return pafs.S3FileSystem(access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION,
                                 endpoint_override=f"127.0.0.1:{self.port}", scheme="http")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Bucket:
    """One fresh bucket on the server."""

    server: S3Server
    name: str

    def uri(self, key: str = "", *, query: bool = False) -> str:
        """``s3://bucket/key``; with ``query`` the endpoint rides in the URI (and the
        credentials in its user part), for processes that do not have the environment."""
        if not query:
            return f"s3://{self.name}/{key}"
        return (f"s3://{ACCESS_KEY}:{SECRET_KEY}@{self.name}/{key}?{self.server.query}")

    def keys(self, prefix: str = "") -> list[str]:
        """Every object's key (complete uploads only: what a reader can see)."""
        out = []
        for page in self.server.client().get_paginator("list_objects_v2").paginate(
                Bucket=self.name, Prefix=prefix):
            out += [o["Key"] for o in page.get("Contents", [])]
        return sorted(out)

    def uploads(self) -> list[str]:
        """Keys of multipart uploads begun and neither completed nor aborted."""
        r = self.server.client().list_multipart_uploads(Bucket=self.name)
        return sorted(u["Key"] for u in r.get("Uploads", []))

    def put(self, key: str, data: bytes) -> None:
        self.server.client().put_object(Bucket=self.name, Key=key, Body=data)

    def get(self, key: str) -> bytes:
        return self.server.client().get_object(Bucket=self.name, Key=key)["Body"].read()


def new_bucket(server: S3Server) -> Bucket:
    name = f"test-{uuid.uuid4().hex[:12]}"
    server.client().create_bucket(Bucket=name)
    return Bucket(server, name)


def set_env(server: S3Server, monkeypatch) -> None:
    for key, value in server.env.items():
        monkeypatch.setenv(key, value)
    os.environ.pop("AWS_PROFILE", None)
