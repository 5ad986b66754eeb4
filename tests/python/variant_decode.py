# Licensed under the Apache License, Version 2.0.
"""An independent, minimal Variant decoder for tests: it turns (metadata, value) bytes
into tagged Python values so that comparisons see exact physical types
(docs/shredding.md#logical-equality: int8(34) != int32(34), decimal4 != decimal8, scale must match), while
objects compare by key and short/long strings compare equal."""

from __future__ import annotations

import struct

_FIXED = {3: ("int8", "<b"), 4: ("int16", "<h"), 5: ("int32", "<i"), 6: ("int64", "<q"),
          7: ("double", "<d"), 11: ("date", "<i"), 12: ("timestamp", "<q"),
          13: ("timestamp_ntz", "<q"), 14: ("float", "<f"), 17: ("time", "<q"),
          18: ("timestamp_nanos", "<q"), 19: ("timestamp_ntz_nanos", "<q")}


def metadata_size(buf: bytes) -> int:
    """Length of the metadata at the start of ``buf`` (docs/format.md#metadata)."""
    size = (buf[0] >> 6) + 1
    n = int.from_bytes(buf[1:1 + size], "little")
    last_at = 1 + size * (n + 1)
    return 1 + size * (n + 2) + int.from_bytes(buf[last_at:last_at + size], "little")


def keys(metadata: bytes) -> list[str]:
    size = (metadata[0] >> 6) + 1
    n = int.from_bytes(metadata[1:1 + size], "little")
    offs = [int.from_bytes(metadata[1 + size * (i + 1):1 + size * (i + 2)], "little")
            for i in range(n + 1)]
    base = 1 + size * (n + 2)
    return [metadata[base + offs[i]:base + offs[i + 1]].decode("utf-8") for i in range(n)]


def decode(metadata: bytes, value: bytes):
    return _decode(keys(metadata), value, 0)


def _decode(names: list[str], v: bytes, pos: int):
    h = v[pos]
    basic, vh = h & 3, h >> 2
    if basic == 1:
        return ("string", v[pos + 1:pos + 1 + vh].decode("utf-8"))
    if basic in (2, 3):
        large = vh & (0x10 if basic == 2 else 0x04)
        off_size = (vh & 3) + 1
        id_size = ((vh >> 2) & 3) + 1 if basic == 2 else 0
        count_size = 4 if large else 1
        n = int.from_bytes(v[pos + 1:pos + 1 + count_size], "little")
        ids_at = pos + 1 + count_size
        offs_at = ids_at + n * id_size
        data_at = offs_at + (n + 1) * off_size
        offs = [int.from_bytes(v[offs_at + i * off_size:offs_at + (i + 1) * off_size], "little")
                for i in range(n)]
        if basic == 3:
            return ("array", tuple(_decode(names, v, data_at + o) for o in offs))
        ids = [int.from_bytes(v[ids_at + i * id_size:ids_at + (i + 1) * id_size], "little")
               for i in range(n)]
        return ("object", tuple(sorted((names[i], _decode(names, v, data_at + o))
                                       for i, o in zip(ids, offs))))
    if vh == 0:
        return ("null", None)
    if vh in (1, 2):
        return ("boolean", vh == 1)
    if vh in _FIXED:
        name, fmt = _FIXED[vh]
        return (name, struct.unpack_from(fmt, v, pos + 1)[0])
    if vh in (8, 9, 10):
        width = {8: 4, 9: 8, 10: 16}[vh]
        scale = v[pos + 1]
        unscaled = int.from_bytes(v[pos + 2:pos + 2 + width], "little", signed=True)
        return (f"decimal{width}", (unscaled, scale))
    if vh in (15, 16):
        length = int.from_bytes(v[pos + 1:pos + 5], "little")
        data = v[pos + 5:pos + 5 + length]
        return ("binary", data) if vh == 15 else ("string", data.decode("utf-8"))
    if vh == 20:
        return ("uuid", v[pos + 1:pos + 17])
    raise ValueError(f"unknown primitive id {vh}")


def decode_column(array) -> list:
    """Tagged values of a Variant struct array (None for SQL NULL rows)."""
    out = []
    for row in array.to_pylist():
        out.append(None if row is None else decode(row["metadata"], row["value"]))
    return out
