# Licensed under the Apache License, Version 2.0.
"""vs.variant_get against Spark's own variant_get / try_variant_get on generated data:
a few hundred (path, type) combinations in one Spark query, on unshredded and on
shredded input, including casts that fail (errors="raise" raises exactly when Spark's
variant_get does)."""

from __future__ import annotations

import decimal
import json
import math
import random

import pyarrow as pa
import pytest

import varshred as vs

pytestmark = pytest.mark.spark

SCALARS = [
    0, 1, -1, 127, 128, -129, 32767, 40000, 2147483647, 2147483648, -9223372036854775808,
    9223372036854775807, 1.5, -0.25, 0.1, 123.456, 99999.999, 1e10, 1.5e300, -2.5e-8,
    12345678901234567890.123456789, 3.4e38, 1e39,
    True, False, None,
    "", "abc", "12", " 34 ", "-7", "1.5", "1e3", "true", "false", "t", "NO", "0",
    "2024-02-29", "2024-02-30", "2024-02-29T12:34:56", "2024-02-29 12:34:56.123456",
    "2024-02-29T12:34:56Z", "2024-02-29T12:34:56+02:00", "NaN", "Infinity", "-inf",
    "9999999999999999999999", "0.000001", "ab\u00e9\U0001F600",
    "2024-03-10 02:30:00", "2024-11-03 01:30:00", "2024-11-03T01:30:00-07:00",
    "2024-07-01 12:00", "1969-12-31 23:59:59.999999",
]
PATHS = ["$", "$.a", "$.b", "$.n.x", "$.n.y", "$.arr[0]", "$.arr[1]", "$.arr[7]",
         "$['k sp']", "$.missing", "$.n", "$.arr"]
TYPES = ["boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
         "decimal(5,2)", "decimal(18,0)", "decimal(38,10)", "string", "date", "timestamp",
         "timestamp_ntz", "binary"]
SHREDDING = ("a bigint, b string, n struct<x: double, y: decimal(9,3)>, arr array<string>, "
             "`k sp` date")


def _documents(n=160, seed=20261121):
    rng = random.Random(seed)

    def scalar():
        return rng.choice(SCALARS)

    docs = []
    for i in range(n):
        if i % 23 == 22:
            docs.append(json.dumps(scalar()))        # top-level scalars
            continue
        doc = {"a": scalar(), "b": scalar(), "n": {"x": scalar(), "y": scalar()},
               "arr": [scalar() for _ in range(rng.randrange(4))], "k sp": scalar()}
        for key in list(doc):
            if rng.random() < 0.1:
                del doc[key]
        if rng.random() < 0.1:
            doc["n"] = scalar()                       # object turned scalar
        docs.append(json.dumps(doc))
    return docs


def _comparable(v):
    if isinstance(v, bytearray):
        return bytes(v)
    if isinstance(v, float) and math.isnan(v):
        return "NaN"  # NaN != NaN; both sides giving NaN is a match
    return v


def _ours(result: pa.Array, type_name: str) -> list:
    if type_name == "timestamp":
        result = result.cast(pa.int64())
    elif type_name == "variant":
        result = vs.to_json(result)
    return [_comparable(v) for v in result.to_pylist()]


def _spark_expr(fn: str, path: str, type_name: str) -> str:
    quoted = path.replace("'", "\\'")
    call = f"{fn}(v, '{quoted}', '{type_name}')"
    if type_name == "timestamp":
        return f"unix_micros({call})"        # instants, whatever the local zone
    if type_name == "variant":
        return f"to_json({call})"
    return call


@pytest.fixture(scope="module")
def data(spark):
    docs = _documents()
    df = spark.createDataFrame([(i, d) for i, d in enumerate(docs)], "i int, j string") \
        .selectExpr("i", "parse_json(j) as v").cache()
    return docs, df


@pytest.fixture(params=["UTC", "America/Los_Angeles"])
def session_zone(spark, request):
    """Runs a test under a Spark session time zone (varshred gets the same zone)."""
    spark.conf.set("spark.sql.session.timeZone", request.param)
    yield request.param
    spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_try_variant_get_matches_spark(spark, data, session_zone):
    docs, df = data
    combos = [(p, t) for p in PATHS for t in TYPES + ["variant"]]
    assert len(combos) >= 180
    exprs = [f"{_spark_expr('try_variant_get', p, t)} as c{k}"
             for k, (p, t) in enumerate(combos)]
    rows = sorted(df.selectExpr("i", *exprs).collect(), key=lambda r: r.i)
    variants = vs.from_json(docs)
    shredded = vs.shred(variants, vs.ShreddingSchema.parse(SHREDDING))
    mismatches = []
    failing = 0
    for k, (path, type_name) in enumerate(combos):
        want = [_comparable(r[f"c{k}"]) for r in rows]
        target = None if type_name == "variant" else type_name
        for name, source in [("unshredded", variants), ("shredded", shredded)]:
            got = _ours(vs.variant_get(source, path, target, errors="null",
                                       timezone=session_zone), type_name)
            if got != want:
                bad = next(i for i in range(len(docs)) if got[i] != want[i])
                mismatches.append(f"{session_zone} {name} {path} {type_name} row {bad}: "
                                  f"{docs[bad]} -> "
                                  f"ours {got[bad]!r}, Spark {want[bad]!r}")
        failing += sum(1 for w in want if w is None)
    assert not mismatches, "\n".join(mismatches[:20])
    assert failing > 0  # the data does exercise failed casts and missing paths


@pytest.mark.parametrize("path,type_name", [
    ("$.a", "int"), ("$.a", "boolean"), ("$.b", "date"), ("$.b", "decimal(5,2)"),
    ("$.n.x", "bigint"), ("$.n.x", "string"), ("$.arr[0]", "double"), ("$['k sp']", "timestamp"),
    ("$.missing", "int"), ("$", "string"),
])
def test_variant_get_raises_exactly_when_spark_does(spark, data, path, type_name):
    docs, df = data
    spark_failed = False
    try:
        df.selectExpr(_spark_expr("variant_get", path, type_name)).collect()
    except Exception as e:  # Spark raises INVALID_VARIANT_CAST through py4j
        assert "INVALID_VARIANT_CAST" in str(e) or "VARIANT" in str(e), str(e)[:300]
        spark_failed = True
    variants = vs.from_json(docs)
    shredded = vs.shred(variants, vs.ShreddingSchema.parse(SHREDDING))
    for source in (variants, shredded):
        if spark_failed:
            with pytest.raises(vs.VariantError, match=r"row \d+"):
                vs.variant_get(source, path, type_name, errors="raise")
        else:
            vs.variant_get(source, path, type_name, errors="raise")


def test_decimal_results_are_exact(spark, data):
    docs, df = data
    rows = sorted(df.selectExpr("i", "try_variant_get(v, '$.a', 'decimal(38,10)') as d")
                  .collect(), key=lambda r: r.i)
    ours = vs.variant_get(vs.from_json(docs), "$.a", "decimal(38,10)").to_pylist()
    assert [r.d for r in rows] == ours
    assert any(isinstance(d, decimal.Decimal) for d in ours)


def test_timestamps_print_and_truncate_in_the_session_zone(spark, session_zone):
    """Spark-built Variant timestamps (tz and ntz) cast to string, date, timestamp and
    timestamp_ntz under the session zone, across DST transitions."""
    instants = ["2024-01-15 08:00:00", "2024-07-01 06:30:00.5", "2024-03-10 10:30:00",
                "2024-11-03 08:30:00", "2024-11-03 09:30:00", "1969-12-31 23:59:59.999999"]
    values = ", ".join(f"(timestamp'{t}', timestamp_ntz'{t}')" for t in instants)
    df = spark.sql(f"select to_variant_object(named_struct('tz', a, 'ntz', b)) as v "
                   f"from values {values} as t(a, b)").cache()
    rows = df.collect()
    variants = pa.StructArray.from_arrays(
        [pa.array([bytes(r.v.metadata) for r in rows], pa.binary()),
         pa.array([bytes(r.v.value) for r in rows], pa.binary())], ["metadata", "value"])
    for path in ("$.tz", "$.ntz"):
        for type_name in ("string", "date", "timestamp", "timestamp_ntz"):
            want = [_comparable(r.c) for r in
                    df.selectExpr(f"{_spark_expr('try_variant_get', path, type_name)} as c")
                    .collect()]
            got = _ours(vs.variant_get(variants, path, type_name, timezone=session_zone),
                        type_name)
            assert got == want, (session_zone, path, type_name)


# Doubles and floats at the printing boundaries: subnormals, extremes, the switch
# between plain and E notation at 1e-3 and 1e7, negative zero; each written as Spark
# prints it. Spark runs here on Java 17, whose older Double/Float.toString sometimes
# prints more digits than the shortest form varshred follows (Java 19+): 2e23 ->
# 1.9999999999999998E23, 1e-323 -> 1.0E-323 (Java 19+: 9.9E-324), Float.MIN_NORMAL ->
# 1.17549435E-38 (1.1754944E-38); those are left out.
DOUBLES = ["4.9E-324", "-4.9E-324", "2.2250738585072014E-308", "2.225073858507201E-308",
           "1.7976931348623157E308", "-1.7976931348623157E308", "1.0E21", "1.0E-7",
           "0.001", "9.99E-4", "0.002", "9999999.0", "1.0E7", "1.2345678E7", "0.1", "-0.0",
           "0.0", "123.456", "1.0E22", "6.02214076E23", "1.0E-5", "1.5E300"]
FLOATS = ["1.4E-45", "2.8E-45", "3.3E-40", "3.4028235E38", "-3.4028235E38", "0.001",
          "9.99E-4", "9999999.0", "1.0E7", "0.1", "-0.0", "1.0E21", "1.0E-7", "1.6777216E7",
          "3.14159", "8.5E-5"]


def test_float_and_double_to_string_match_spark(spark):
    """variant_get(..., 'string') and to_json print floats and doubles with ONE shortest
    round-trip printer, as Spark does (Double.MIN_VALUE is 4.9E-324, not 5.0E-324)."""
    rows = [f"select {i} as i, cast(cast('{d}' as double) as variant) as v"
            for i, d in enumerate(DOUBLES)]
    rows += [f"select {len(DOUBLES) + i} as i, cast(cast('{f}' as float) as variant) as v"
             for i, f in enumerate(FLOATS)]
    df = spark.sql(" union all ".join(rows))
    got = df.selectExpr("i", "v", "variant_get(v, '$', 'string') as s",
                        "to_json(v) as j").orderBy("i").collect()
    variants = pa.StructArray.from_arrays(
        [pa.array([bytes(r.v.metadata) for r in got], pa.binary()),
         pa.array([bytes(r.v.value) for r in got], pa.binary())], ["metadata", "value"])
    assert [r.s for r in got] == DOUBLES + FLOATS  # Spark's own text, as written above
    assert vs.variant_get(variants, "$", "string").to_pylist() == [r.s for r in got]
    assert vs.to_json(variants).to_pylist() == [r.j for r in got]


# Instants, wall-clock times and dates at the ends of their ranges, and strings naming
# them, each as Spark builds it: years past 9999 print with '+', and a cast whose result
# lies past int64 microseconds (a zone's offset added at either end included) is
# invalid. varshred printed these years without '+', and wrapped around past the ends.
EXTREME_TIMES = [
    "timestamp_micros(-9223372036854775808)", "timestamp_micros(-9223372036854675808)",
    "timestamp_micros(9223372036854775807)", "timestamp'+10000-01-01 00:00:00Z'",
    "timestamp'9999-12-31 23:59:59.999999Z'",
    "timestamp_ntz'+294247-01-10 04:00:54.775807'",
    "timestamp_ntz'-290308-12-21 19:59:05.224192'", "timestamp_ntz'+10000-01-01 00:00:00'",
    "date'+10000-01-01'", "date'-0001-01-01'", "date'+5881580-07-11'", "date'-5877641-06-23'",
] + [f"'{s}'" for s in (
    "+294247-01-10 04:00:54", "294247-01-10", "294247-01-01 00:00:00",
    "-290308-12-21 19:59:06", "-290309-01-01 00:00:00", "9999999-01-01 00:00:00",
    "10000-01-01T00:00:00Z", "294247-01-10 04:00:54+05:00",
    "-290308-12-21 19:59:06-05:00")]


def _wall_clock_micros(text: str) -> int:
    """Microseconds since 1970-01-01 00:00 of Spark's text of a timestamp_ntz
    ([+-]yyyy-MM-dd HH:mm:ss[.ffffff]), by the proleptic Gregorian calendar."""
    sign = -1 if text.startswith("-") else 1
    date, time = text.lstrip("+-").split(" ")
    year, month, day = (int(x) for x in date.split("-"))
    year *= sign
    hms, _, fraction = time.partition(".")
    hours, minutes, seconds = (int(x) for x in hms.split(":"))
    y = year - (month <= 2)  # days from civil: years start in March
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
    return ((days * 86400 + hours * 3600 + minutes * 60 + seconds) * 1_000_000
            + int(fraction.ljust(6, "0")))


def _try_spark(df):
    """The one value of ``df``; None where Spark 4.3's try_variant_get raises instead
    of giving null (an instant near the ends of int64 shifted into a zone: its
    convertTz fails with "long overflow"), as varshred gives."""
    from pyspark.errors import ArithmeticException

    try:
        return df.collect()[0].c
    except ArithmeticException as e:
        if "long overflow" not in str(e):
            raise
        return None


def test_extreme_times_cast_as_spark_does(spark, session_zone):
    df = spark.sql(" union all ".join(f"select {i} as i, cast({e} as variant) as v"
                                      for i, e in enumerate(EXTREME_TIMES))).orderBy("i")
    rows = df.collect()
    variants = pa.StructArray.from_arrays(
        [pa.array([bytes(r.v.metadata) for r in rows], pa.binary()),
         pa.array([bytes(r.v.value) for r in rows], pa.binary())], ["metadata", "value"])
    # Numbers on both sides but for strings: Python's datetime ends at year 9999.
    # Spark's own arithmetic on timestamp_ntz goes through the session zone, which
    # overflows here: its text is read back instead.
    spark_side = {
        "string": "{}", "date": "unix_date({})", "timestamp": "unix_micros({})",
        "timestamp_ntz": "cast({} as string)"}
    ours_as = {"date": pa.int32(), "timestamp": pa.int64(), "timestamp_ntz": pa.int64()}
    for type_name, expr in spark_side.items():
        call = expr.format(f"try_variant_get(v, '$', '{type_name}')")
        want = [_try_spark(df.where(f"i = {i}").selectExpr(f"{call} as c"))
                for i in range(len(EXTREME_TIMES))]
        if type_name == "timestamp_ntz":
            want = [None if w is None else _wall_clock_micros(w) for w in want]
        got = vs.variant_get(variants, "$", type_name, timezone=session_zone)
        if type_name in ours_as:
            got = got.cast(ours_as[type_name])
        assert list(zip(EXTREME_TIMES, got.to_pylist())) == list(zip(EXTREME_TIMES, want)), \
            (session_zone, type_name)


NESTED = [("struct<x: int, y: string>", pa.struct([("x", pa.int32()), ("y", pa.string())])),
          ("array<bigint>", pa.list_(pa.int64())),
          ("array<struct<x: double>>", pa.list_(pa.struct([("x", pa.float64())]))),
          ("map<string,string>", pa.map_(pa.string(), pa.string())),
          ("struct<x: map<string, int>>",
           pa.struct([("x", pa.map_(pa.string(), pa.int32()))])),
          ("array<map<string,double>>", pa.list_(pa.map_(pa.string(), pa.float64())))]


def _plain(v):
    """A Spark Row / map or a pyarrow struct / map as plain dicts and lists."""
    if hasattr(v, "asDict"):
        return {k: _plain(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list) and v and all(isinstance(e, tuple) and len(e) == 2 for e in v):
        return {k: _plain(x) for k, x in v}  # a pyarrow map
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return _comparable(v)


def test_nested_targets_match_spark(spark, data):
    """Spark's variant_get of struct, array and map types: the value at the path cast as
    cast(v as <type>) casts it, failed fields and elements null under try_variant_get."""
    docs, df = data
    combos = [(p, ddl, t) for p in ["$", "$.n", "$.arr"] for ddl, t in NESTED]
    exprs = [f"{_spark_expr('try_variant_get', p, ddl)} as c{k}"
             for k, (p, ddl, _) in enumerate(combos)]
    rows = sorted(df.selectExpr("i", *exprs).collect(), key=lambda r: r.i)
    variants = vs.from_json(docs)
    shredded = vs.shred(variants, vs.ShreddingSchema.parse(SHREDDING))
    cast = 0
    for k, (path, ddl, arrow) in enumerate(combos):
        want = [_plain(r[f"c{k}"]) for r in rows]
        cast += sum(w is not None for w in want)
        for source in (variants, shredded):
            for target in (arrow, ddl):  # map names were refused ("unknown type 'map'")
                got = [_plain(v) for v in vs.variant_get(source, path, target).to_pylist()]
                assert got == want, (path, ddl, next(
                    (docs[i], got[i], want[i]) for i in range(len(docs)) if got[i] != want[i]))
    assert cast > 300  # objects, arrays and their failed fields, not only nulls
    with pytest.raises(vs.VariantError, match=r"row \d+, path \$\.n"):
        vs.variant_get(variants, "$.n", "array<bigint>", errors="raise")


def test_instants_at_the_ends_of_the_range_come_from_text_as_spark_does(spark):
    """The range check is on the instant, after the zone applies, not on the wall-clock
    time (these were NULL)."""
    texts = ["294247-01-10 12:00:00+11:00", "294247-01-10 09:30:54 +05:30",
             "-290308-12-21 12:00:00-08:00", "294247-01-10 12:00:00"]
    df = spark.createDataFrame([(i, json.dumps(t)) for i, t in enumerate(texts)],
                               "i int, j string")
    rows = sorted(df.selectExpr("i", "unix_micros(try_variant_get(parse_json(j), '$', "
                                "'timestamp')) as t").collect(), key=lambda r: r.i)
    ours = vs.variant_get(vs.from_json([json.dumps(t) for t in texts]), "$", "timestamp")
    assert ours.cast(pa.int64()).to_pylist() == [r.t for r in rows]
    assert rows[0].t is not None and rows[3].t is None


def test_wide_decimals_cast_to_integers_and_round_as_spark_does(spark):
    """Spark casts a Variant decimal to int, smallint and tinyint through its double value
    (bigint exactly), and rounds scale-38 fractions half up (a 128-bit overflow in the
    rounding gave 0 for 0.95)."""
    nines = "9" * 38
    texts = ["0.99999999999999999", "-0.99999999999999999", f"9.{nines[:37]}",
             f"127.{nines[:35]}", f"-128.{nines[:35]}", f"0.95{'0' * 36}", f"0.{nines}",
             f"0.6{'0' * 36}1", f"-0.85{'0' * 36}", f"0.5{'0' * 37}", f"0.4{nines[:37]}",
             "2147483647.5", "32767.99999999999999999"]
    types = ["tinyint", "smallint", "int", "bigint", "decimal(1,0)", "decimal(38,0)",
             "decimal(20,1)"]
    df = spark.createDataFrame([(i, t) for i, t in enumerate(texts)], "i int, j string")
    exprs = [f"try_variant_get(parse_json(j), '$', '{t}') as c{k}" for k, t in enumerate(types)]
    rows = sorted(df.selectExpr("i", *exprs).collect(), key=lambda r: r.i)
    variants = vs.from_json(texts)
    for k, t in enumerate(types):
        want = [r[f"c{k}"] for r in rows]
        assert vs.variant_get(variants, "$", t).to_pylist() == want, t


def _timestamp_texts(n=400, seed=20261127):
    """Strings shaped like Spark's timestamp grammar and its near misses: every prefix of
    the full form, zones as offsets, region names and short ids, odd separators."""
    rng = random.Random(seed)
    dates = ["2024", "2024-02", "2024-2-9", "2024-02-29", "+2024-02-29", "0044-03-15",
             "2023-02-29", "2024-13-01", "24-02-29", "2024-02-29T"]
    times = ["", " 12", "T12", " 12:34", "T1:2", " 12:34:56", "T12:34:56.", " 12:34:56.7",
             " 12:34:56.123456789012", " 24:00:00", " 12:60", " 12:34:5"]
    zones = ["", "Z", "+02:00", "-5:30", "+0530", "+053000", "+05:3", " UTC", "UTC+1",
             " Europe/Paris", "Europe/Paris", " PST", "PST", "GMT-08:00", " Mars/Olympus",
             "+25:00", " America/Los_Angeles", "  Asia/Kolkata ", "z", " EST"]
    texts = ["12:34:56", "T12:00", "2024 12:34:56", "2024-02 12:00", "2024T12",
             "2024-02-29 12:34Z", "2024-02-29 12:34+02:00", " 2024-02-29 ", "",
             "2021-03-04\x7f", "\x7f2021-03-04 05:06", "2021-03-04T05:06:07+1:2",
             "2021-03-04T05:06:07+18:00", "2021-03-04T05:06:07+18:01",
             "2021-03-04T05:06:07UTC-18:00:01", "2021-03-04T05:06:07+180001"]
    for _ in range(n):
        texts.append(rng.choice(dates) + rng.choice(times) + rng.choice(zones))
    return texts


def test_timestamp_and_date_text_casts_as_spark_does(spark, session_zone):
    """Strings cast to timestamp, timestamp_ntz and date by Spark's grammar: a time of
    hours only, a trailing '.', region and short zone ids, no zone right after the
    minutes, no time after a year or a year-month (129 of 399 such strings differed);
    DEL trimmed, +h:m offsets, nothing past +-18:00."""
    texts = _timestamp_texts()
    df = spark.createDataFrame([(i, json.dumps(t)) for i, t in enumerate(texts)],
                               "i int, j string").selectExpr("i", "parse_json(j) as v")
    types = ["timestamp", "timestamp_ntz", "date"]
    exprs = [f"{_spark_expr('try_variant_get', '$', t)} as c{k}" for k, t in enumerate(types)]
    rows = sorted(df.selectExpr("i", *exprs).collect(), key=lambda r: r.i)
    variants = vs.from_json([json.dumps(t) for t in texts])
    for k, t in enumerate(types):
        want = [r[f"c{k}"] for r in rows]
        got = _ours(vs.variant_get(variants, "$", t, timezone=session_zone), t)
        # Spark puts a time alone on the current date; varshred gives NULL on purpose.
        bad = [(texts[i], got[i], want[i]) for i in range(len(texts))
               if got[i] != want[i] and not (got[i] is None and texts[i].startswith(("T", "12:")))]
        assert not bad, (t, bad[:10])
        assert sum(w is not None for w in want) > 50, t


def test_path_reader_and_spark_functions_take_the_session_zone(spark, session_zone,
                                                               tmp_path):
    """read_paths and format("varshred") cast in the zone they are given, and
    vs.spark.to_json / to_arrow in the DataFrame's session zone, as Spark's
    try_variant_get, to_json and try_cast do (all cast in UTC before)."""
    vs.spark.register(spark)
    df = spark.sql(
        "select i, to_variant_object(named_struct('ts', a, 's', b, 'd', c)) as v from values"
        " (0, timestamp'2024-01-15 08:00:00', '2024-07-01 12:30:00', date'2024-03-10'),"
        " (1, timestamp'2024-11-03 09:30:00', '2024-11-03 01:30:00', date'1969-12-31')"
        " as t(i, a, b, c)").cache()
    rows = sorted(df.collect(), key=lambda r: r.i)
    variants = pa.StructArray.from_arrays(
        [pa.array([bytes(r.v.metadata) for r in rows], pa.binary()),
         pa.array([bytes(r.v.value) for r in rows], pa.binary())], ["metadata", "value"])
    out = str(tmp_path / "zones.parquet")
    vs.parquet.write_table(pa.table({"v": variants}), out)
    paths = {"ts": "string", "s": "timestamp", "d": "timestamp"}
    want = sorted(df.selectExpr("i", *(f"{_spark_expr('try_variant_get', '$.' + p, t)} as {p}"
                                       for p, t in paths.items())).collect(),
                  key=lambda r: r.i)
    read = vs.parquet.read_paths(out, "v", paths, timezone=session_zone)
    for p, t in paths.items():
        assert _ours(read[p], t) == [r[p] for r in want], (p, t)
    source = (spark.read.format("varshred").option("timezone", session_zone)
              .option("variant_paths", ",".join(f"{p}:{t}" for p, t in paths.items()))
              .load(out).selectExpr("ts", "unix_micros(s) as s", "unix_micros(d) as d")
              .collect())
    assert sorted(tuple(r) for r in source) == sorted((r.ts, r.s, r.d) for r in want)
    spark_json = [r.j for r in df.orderBy("i").selectExpr("to_json(v) as j").collect()]
    ours = vs.spark.to_json(df.orderBy("i"), "v").select("v").collect()
    assert [r.v for r in ours] == spark_json
    cast = vs.spark.to_arrow(df.orderBy("i"), "v",
                             pa.struct([("s", pa.timestamp("us", tz="UTC"))]))
    assert ([r.v.s for r in cast.collect()]
            == [r.s for r in df.orderBy("i").selectExpr("try_cast(v as struct<s: timestamp>) as c")
                .selectExpr("c.s as s").collect()])
    with pytest.raises(Exception, match="option timezone"):
        spark.read.format("varshred").option("timezone", "Mars/Olympus") \
            .option("variant_paths", "s:timestamp").load(out).collect()


def _time_texts(n=300, seed=20261130):
    """Strings around Spark 4.3's TIME grammar: T? h[h]:m[m][:s[s][.fraction]]."""
    rng = random.Random(seed)
    texts = ["12:34:56", "T12:00", "23:59:59.9999999", "24:00:00", " 12:34 ", "1:2:3", "12",
             "12:34:56Z", "12:34:56+01:00", "2024-07-01 12:34:56", "2024-07-01T12:34:56",
             "12:34:60", "12:60", "00:00", "12:34:56.", "12:34:56.1", "T", "", "12:3",
             "012:34", "12:34:5", "12 : 34", "t12:00", "\t12:34\n", "\x7f12:34", "TT12:00",
             "12:34:56.123456789012", "12:34:56..1", "12:34:56 PM", "-1:00", "+1:00",
             "01:00 PM", "1:00 pm", "12:00 AM", "12:00AM", "01:00:00.5 PM", "13:00 PM",
             "00:30 AM", "12:34  PM", "T01:00 PM", "12:34:56 PMX", "12:34 P", "0:30 PM"]
    parts = ["", "T", " "]
    for _ in range(n):
        h = rng.choice(["0", "00", "7", "23", "24", "123", ""])
        m = rng.choice(["0", "05", "59", "60", ""])
        s = rng.choice(["", ":0", ":59", ":60", ":5", ":"])
        f = rng.choice(["", ".", ".5", ".1234567", ".x"]) if s else ""
        texts.append(rng.choice(parts) + f"{h}:{m}{s}{f}" +
                     rng.choice(["", " ", "Z", " AM", "pm", " Pm "]))
    return texts


def test_time_casts_as_spark_does(spark, session_zone):
    """variant_get to time: Spark 4.3 reads a string's time of day and a timestamp's
    wall-clock time (an instant's in the session zone); varshred gave NULL for all."""
    texts = _time_texts()
    df = spark.createDataFrame([(i, json.dumps(t)) for i, t in enumerate(texts)],
                               "i int, j string").selectExpr("i", "parse_json(j) as v")
    rows = sorted(df.selectExpr("i", f"{_spark_expr('try_variant_get', '$', 'time')} as t")
                  .collect(), key=lambda r: r.i)
    got = vs.variant_get(vs.from_json([json.dumps(t) for t in texts]), "$", "time",
                         timezone=session_zone).to_pylist()
    bad = [(texts[i], got[i], r.t) for i, r in enumerate(rows) if got[i] != r.t]
    assert not bad, bad[:10]
    assert sum(r.t is not None for r in rows) > 50
    instants = ["2024-07-01 12:34:56.123456", "1969-12-31 23:59:59.999999", "1900-01-01 00:00:00",
                "2024-03-10 02:30:00"]
    for ntz in (False, True):
        kind = "timestamp_ntz" if ntz else "timestamp"
        want = [r.t for r in spark.sql(" union all ".join(
            f"select {i} i, try_variant_get(cast({kind}'{t}' as variant), '$', 'time') t"
            for i, t in enumerate(instants))).orderBy("i").collect()]
        values = spark.sql(" union all ".join(
            f"select {i} i, {kind}'{t}' t" for i, t in enumerate(instants))).orderBy("i")
        arrow = pa.array([r.t for r in values.collect()],
                         pa.timestamp("us") if ntz else pa.timestamp("us", "UTC"))
        variants = vs.from_arrow(pa.table({"t": arrow}))
        got = vs.variant_get(variants, "$.t", "time", timezone=session_zone).to_pylist()
        assert got == want, (kind, got, want)
