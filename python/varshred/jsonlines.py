# Licensed under the Apache License, Version 2.0.
"""JSON-lines files read by varshred itself: byte-range splits (Hadoop's line rule),
blocks of whole lines, a driver-side sample, the Spark task that parses and writes a
split, and errors that name the file and line.

Local paths and URIs alike (docs/storage.md), read by Arrow's filesystems: a plain file
is read in byte ranges (range requests on object stores); gzip, bz2 and zstd files are
decompressed by Arrow, one split each. Hadoop's other codecs (.deflate, .lz4,
.snappy) are Spark's to read, for local files.
"""

from __future__ import annotations

import itertools
import re
import sys
import uuid
from dataclasses import dataclass

import pyarrow as pa

import varshred as vs
from varshred import _fs

__all__ = ["DEFAULT_SAMPLE_BYTES", "RESULT_DDL", "Split", "WriteSplits", "readable", "sample_stats",
           "split_blocks", "splits"]


# The inference sample's default byte bound (besides its rows): 100 000 documents of
# about 1 KB; wider documents are sampled fewer.
DEFAULT_SAMPLE_BYTES = 128 << 20


_CODECS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd", ".zstd": "zstd"}
_SPARK_CODECS = (".deflate", ".lz4", ".snappy")


def _codec(path: str) -> str | None:
    path = _fs.without_query(path)
    return next((c for ext, c in _CODECS.items() if path.endswith(ext)), None)


def open_file(path: str):
    """A JSON-lines file (local path or URI) for binary reading through Arrow's
    filesystem: random access for plain files, decompressed for .gz, .bz2, .zst."""
    fs, inner = _fs.resolve(path)
    codec = _codec(path)
    if codec:
        return fs.open_input_stream(inner, compression=codec)
    return fs.open_input_file(inner)


def readable(files: list[str]) -> bool:
    """Whether varshred reads these JSON-lines files itself: plain, gzip, bz2, zstd
    (Hadoop's other codecs go through Spark's text reader)."""
    return not any(_fs.without_query(f).endswith(_SPARK_CODECS) for f in files)


def _lines(split: "Split", block: int, longest: int | None = None):
    """The non-blank lines that start in ``split``, as the tasks read them; without
    those longer than ``longest`` bytes when given (split_blocks())."""
    for _, data in split_blocks(split, block, longest=longest):
        yield from (line for line in data.to_pybytes().split(b"\n") if line.strip())


# Documents parsed at once by the driver-side sample: at most this many, or this many
# bytes of JSON, so that wide documents do not multiply the driver's memory.
_SAMPLE_CHUNK_ROWS = 65536
_SAMPLE_CHUNK_BYTES = 8 << 20
# Longer documents are left out of the driver-side sample, without being read whole: a
# single line of hundreds of MB would otherwise take several times its size on the
# driver, whatever the sample's byte bound. The tasks write them (or report them).
_SAMPLE_LONGEST_LINE = 16 << 20


def _bounded(lines, rows: int | None, nbytes: int | None):
    """The first lines of ``lines`` within ``rows`` lines and ``nbytes`` bytes (None: no
    bound); the line that crosses the byte bound is the last one. A None line (a null
    document) weighs nothing."""
    seen = 0
    for line in itertools.islice(lines, rows):
        yield line
        seen += len(line) if line is not None else 0
        if nbytes is not None and seen >= nbytes:
            return


def sample_stats(files: list[str], rows: int,
                 sample_bytes: int = DEFAULT_SAMPLE_BYTES) -> "vs.ShreddingStats":
    """ShreddingStats of at most ``rows / len(files)`` documents, and about
    ``sample_bytes / len(files)`` bytes of JSON, of every file (0: no bound), read on
    the driver: a sample pass without a Spark job. Plain files are sampled from
    byte ranges spread over the whole file (``_sample_lines``), so that later rows
    count as much as the first. The driver holds one chunk of at most 64k documents or
    8 MB at a time. Bad documents are skipped here; the write reports them."""
    stats = vs.ShreddingStats()
    per_file = -(-rows // len(files)) if rows > 0 else None
    per_file_bytes = -(-sample_bytes // len(files)) if sample_bytes > 0 else None
    for path in files:
        lines = _sample_lines(path, per_file, per_file_bytes)
        while chunk := list(_bounded(lines, _SAMPLE_CHUNK_ROWS, _SAMPLE_CHUNK_BYTES)):
            text = pa.array(chunk, pa.binary()).view(pa.string())  # the parser checks UTF-8
            stats.add_json(text, errors="null")
    return stats


# A plain file's sample comes from this many byte ranges spread evenly over it.
_SAMPLE_WINDOWS = 16


def _sample_lines(path: str, rows: int | None, nbytes: int | None):
    """The non-blank lines of one file for the inference sample, within ``rows`` lines
    and ``nbytes`` bytes (None: no bound; each range's last line may cross it). A
    compressed file is read from its head (it cannot be read from the middle); a plain
    one from ``_SAMPLE_WINDOWS`` ranges that share the bounds, each starting at a line,
    so that a file sorted by time or drifting in type is sampled over its whole length
    (a head sample of 1M events once typed a decimal from the first 100k rows only)."""
    if _codec(path):
        yield from _bounded(_lines(Split(path, 0, sys.maxsize), 1 << 20,
                                   _SAMPLE_LONGEST_LINE), rows, nbytes)
        return
    size = _fs.size(path)
    if size == 0:
        return
    k = min(_SAMPLE_WINDOWS, rows or _SAMPLE_WINDOWS)
    window = -(-size // k)
    per_rows = -(-rows // k) if rows else None
    per_bytes = -(-nbytes // k) if nbytes else None

    def ranges():
        for start in range(0, size, window):
            lines = _lines(Split(path, start, min(start + window, size)), 1 << 20,
                           _SAMPLE_LONGEST_LINE)
            yield from _bounded(lines, per_rows, per_bytes)

    yield from itertools.islice(ranges(), rows)


_BOM = b"\xef\xbb\xbf"
_MIN_SPLIT = 4 << 20
_MAX_SPLIT = 128 << 20


@dataclass(frozen=True)
class Split:
    """Bytes [start, end) of a JSON-lines file: the lines that start inside them."""

    path: str
    start: int
    end: int


def splits(files: list[str], parallelism: int) -> list[Split]:
    """Splits sized as Spark sizes text splits: total / parallelism, within 4-128 MB;
    a compressed file is one split (it cannot be read from the middle)."""
    sizes = {f: _fs.size(f) for f in files}
    size = min(_MAX_SPLIT, max(_MIN_SPLIT, -(-sum(sizes.values()) // max(parallelism, 1))))
    out = []
    for f in files:
        if _codec(f):
            out.append(Split(f, 0, sys.maxsize))
            continue
        out += [Split(f, s, min(s + size, sizes[f])) for s in range(0, sizes[f], size)]
    return out


def split_blocks(split: Split, block: int = 16 << 20, batch: int | None = None,
                 longest: int | None = None):
    """(byte offset, pa.Buffer) blocks of whole lines: the lines that start in the split.
    With ``longest``, lines longer than that many bytes are skipped, never read whole
    (a sample's reading; a task reads every line).

    A split that begins mid-line skips to the next line (the previous split reads it
    to its end), as Hadoop's line reader does. Reads are large blocks only: on an object
    store each read is a range request. With ``batch``, each block is handed on in
    pieces of about that many bytes of whole lines (slices, no copy)."""
    with open_file(split.path) as f:
        blocks = _blocks_at(f, split, block, longest) if f.seekable() else \
            _streamed_blocks(f, block, longest)
        for offset, data in _naming(split.path, blocks):
            if offset == 0 and data.size >= len(_BOM) and \
                    data.slice(0, len(_BOM)).to_pybytes() == _BOM:
                # A UTF-8 byte order mark opens the file, not its first line: Hadoop's
                # line reader, and so Spark's text source, drops it.
                offset, data = len(_BOM), data.slice(len(_BOM))
            if batch:
                yield from _pieces(offset, data, batch)
            else:
                yield offset, data


def _naming(path: str, blocks):
    """``blocks``, a failed read (a truncated or corrupt compressed file: bad input, a
    VariantError as bad JSON is) named by its file."""
    try:
        yield from blocks
    except (OSError, pa.ArrowException) as e:
        raise vs.VariantError(f"{path}: {e}") from None


def _pieces(offset: int, data: pa.Buffer, size: int):
    """(offset, slice) pieces of a block of whole lines, each about ``size`` bytes of
    whole lines (or one line longer than that)."""
    start = 0
    while data.size - start > size:
        n = size
        cut = _rfind_newline(data.slice(start, n))
        while cut < 0 and start + n < data.size:  # a line longer than ``size``
            n = min(n * 2, data.size - start)
            cut = _rfind_newline(data.slice(start, n))
        if cut < 0:  # the rest is one line without its '\n' (the file's last)
            break
        yield offset + start, data.slice(start, cut + 1)
        start += cut + 1
    if start < data.size:
        yield offset + start, data.slice(start)


def _blocks_at(f, split: Split, block: int, longest: int | None = None):
    """split_blocks() of a file read at any offset: each block is read once into its own
    buffer and handed on as it is; the partial line at its end is read again as the
    start of the next block (no copy to join the two)."""
    size = f.size()
    pos = split.start
    if pos > 0:  # the line holding the byte before the split belongs to the previous one
        pos = _line_end(f, pos - 1, size)
    while pos < min(split.end, size):
        n = min(block, size - pos)
        while True:
            f.seek(pos)
            data = f.read_buffer(n)
            eof = pos + data.size >= size
            # At the end of the file a last line may lack its '\n'.
            cut = data.size - 1 if eof else _rfind_newline(data)
            if cut >= 0 or (longest is not None and n > longest):
                break
            n *= 2  # a line longer than the block: read it whole
        if cut < 0:  # a line longer than ``longest`` starts the block: skip it
            pos = _line_end(f, pos + n - 1, size)
            continue
        whole = data.slice(0, cut + 1)
        if pos + whole.size > split.end:
            # The line holding the split's last byte is ours; later ones are not.
            yield pos, whole.slice(0, _line_end(f, split.end - 1, size) - pos)
            return
        yield pos, whole
        pos += whole.size


def _line_end(f, at: int, size: int) -> int:
    """The offset just past the end of the line holding byte ``at``; reads in growing
    windows (lines are short, but one range request per 64 KB of a long one would not
    be)."""
    pos, window = at, 1 << 16
    while pos < size:
        f.seek(pos)
        data = f.read(window)
        nl = data.find(b"\n")
        if nl >= 0:
            return pos + nl + 1
        pos, window = pos + len(data), min(window * 4, 16 << 20)
    return size


def _rfind_newline(data: pa.Buffer) -> int:
    """The offset of the last newline in ``data``, or -1; reads from the end, in
    growing windows (lines are short)."""
    end, window = data.size, 1 << 16
    while end > 0:
        start = max(0, end - window)
        nl = data.slice(start, end - start).to_pybytes().rfind(b"\n")
        if nl >= 0:
            return start + nl
        end, window = start, window * 4
    return -1


def _streamed_blocks(f, block: int, longest: int | None = None):
    """split_blocks() of a compressed stream: always one split, the whole file."""
    pos, carry = 0, b""
    while True:
        data = f.read(block)
        eof = not data
        data = carry + data
        if not data:
            return
        # At the end of the file a last line may lack its '\n'.
        cut = len(data) - 1 if eof else data.rfind(b"\n")
        if cut < 0 and longest is not None and len(data) > longest:
            # A line longer than ``longest``: skip to its end.
            skipped = len(data)
            while (data := f.read(block)) and (nl := data.find(b"\n")) < 0:
                skipped += len(data)
            if not data:
                return
            pos += skipped + nl + 1
            carry = data[nl + 1:]
            continue
        if cut < 0:  # a line longer than the block: read on
            carry = data
            continue
        whole, carry = data[:cut + 1], data[cut + 1:]
        yield pos, pa.py_buffer(whole)
        if eof:
            return
        pos += len(whole)


def line_error(path: str, offset: int, block, error: str) -> str:
    """``path:line: message`` for the first bad document in a block (a pa.Buffer or
    bytes) at ``offset``."""
    block = bytes(block)
    row = re.match(r"row (\d+)", error)
    index = int(row.group(1)) if row else 0
    seen = -1
    line_start = 0
    for line_start_candidate, line in _lines_with_offsets(block):
        if line.strip():
            seen += 1
            if seen == index:
                line_start = line_start_candidate
                break
    with open_file(path) as f:
        before = 0
        remaining = offset + line_start
        while remaining > 0:
            chunk = f.read(min(remaining, 16 << 20))
            if not chunk:
                break
            before += chunk.count(b"\n")
            remaining -= len(chunk)
    message = re.sub(r"^row \d+: ", "", error)
    return f"{path}:{before + 1}: {message}"


def _lines_with_offsets(block: bytes):
    start = 0
    while start < len(block):
        end = block.find(b"\n", start)
        end = len(block) if end < 0 else end
        yield start, block[start:end]
        start = end + 1


# A task parses and writes its split a piece of about this size at a time: the
# piece's Variants and shredded columns then stay in the CPU's caches and the task
# touches less fresh memory (1 MB vs 16 MB pieces on a 100 MB split: tasks 8-25%
# faster, peak memory 230 -> 170-180 MB).
_TASK_BATCH = 1 << 20


@dataclass(frozen=True)
class WriteSplits:
    """Run once per split id: reads its split of a JSON-lines file, parses it with
    varshred and writes one shredded Parquet file into ``staging``, with no JVM in
    between. Yields (file, rows, bytes, nulled, ddl): as a mapInArrow function, one
    record batch per split; through :meth:`over_ids` (an RDD's mapPartitions), a dict."""

    splits: tuple
    column: str
    shredding: str            # a DDL, "none" or "per-file"
    errors: str
    compression: str
    staging: str
    duplicate_keys: str = "error"  # the session's spark.sql.variant.allowDuplicateKeys

    def __call__(self, batches):
        for batch in batches:
            for result in self.over_ids(batch.column(0).to_pylist()):
                yield pa.RecordBatch.from_pylist([result], schema=RESULT_SCHEMA)

    def over_ids(self, split_ids):
        from pyspark import TaskContext

        ctx = TaskContext.get()
        attempt = f"{ctx.attemptNumber()}" if ctx else "0"
        for split_id in split_ids:
            yield self._write(self.splits[split_id], split_id, attempt)

    def _write(self, split: Split, split_id: int, attempt: str) -> dict:
        target = _fs.join(self.staging,
                          f"part-{split_id:05d}-{attempt}-{uuid.uuid4().hex[:8]}.parquet")
        schema = pa.schema([(self.column, vs.variant_type())])
        writer = None
        rows = nulled = 0
        ddl = self.shredding
        try:
            for offset, block in split_blocks(split, batch=_TASK_BATCH):
                try:
                    if writer is None and ddl == "per-file":
                        # The first piece holding rows chooses the file's schema and is
                        # written as parsed for it.
                        variants = vs.from_json_lines(block, errors=self.errors,
                                                      duplicate_keys=self.duplicate_keys)
                        if len(variants) == 0:  # blank lines only
                            continue
                        ddl = vs.infer_schema(variants).to_ddl()
                        writer = self._open(target, schema, ddl)
                        writer.write_batch(pa.record_batch([variants], schema=schema))
                        nulled += variants.null_count
                        continue
                    if writer is None:
                        writer = self._open(target, schema, ddl)
                    # Straight from the text into the shredded columns.
                    nulled += writer.write_json_lines(block, errors=self.errors,
                                                      duplicate_keys=self.duplicate_keys)
                except vs.VariantError as e:
                    raise vs.VariantError(line_error(split.path, offset, block, str(e))) \
                        from None
            rows = writer.num_rows if writer is not None else 0
            if rows == 0 and writer is not None:  # blank lines only: no file for them
                writer.abort()
                writer = None
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        size = _fs.size(target) if writer is not None else 0
        return {"file": target if writer is not None else None, "rows": rows, "bytes": size,
                "nulled": nulled, "ddl": ddl}

    def write_empty(self) -> dict:
        """A part file of no rows, for a job whose input holds none."""
        target = vs.parquet._write_empty_part(
            self.staging, pa.schema([(self.column, vs.variant_type())]), self.compression)
        return {"file": target, "rows": 0, "bytes": _fs.size(target), "nulled": 0,
                "ddl": "none"}

    def _open(self, target: str, schema: pa.Schema, ddl: str) -> "vs.parquet.ParquetWriter":
        return vs.parquet.ParquetWriter(target, schema, shredding={self.column: ddl},
                                        compression=self.compression,
                                        trusted_columns=[self.column])


RESULT_SCHEMA = pa.schema([("file", pa.string()), ("rows", pa.int64()), ("bytes", pa.int64()),
                          ("nulled", pa.int64()), ("ddl", pa.string())])
RESULT_DDL = "file string, rows long, bytes long, nulled long, ddl string"
