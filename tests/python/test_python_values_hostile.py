# Licensed under the Apache License, Version 2.0.
"""from_python with hostile Python values: long strings and keys, deep nesting,
reference cycles."""

from __future__ import annotations

import json

import pytest

import varshred as vs
from variant_decode import decode_column


# ---- long strings and keys (the UTF-8 bytes must outlive the view passed to C++) ----

def _long_texts():
    for n in (3000, 100_000, 1 << 20):
        yield "a" * (n - 7) + "0123456"  # a distinct tail: corruption shows at the end
        yield ("é€😀" * n)[:n]  # 2-, 3- and 4-byte UTF-8


@pytest.mark.parametrize("text", list(_long_texts()), ids=lambda t: f"{len(t)}")
def test_long_strings_and_keys_are_copied_intact(text):
    # Many rows, so that a freed buffer is reused by the next allocation.
    objs = [text, {text: 1, "k": text}, [text, {"a": {text: text}}], text + "!"]
    arr = vs.from_python(objs)
    assert decode_column(arr) == [
        ("string", text),
        ("object", tuple(sorted([(text, ("int8", 1)), ("k", ("string", text))]))),
        ("array", (("string", text),
                   ("object", (("a", ("object", ((text, ("string", text)),))),)))),
        ("string", text + "!"),
    ]
    assert vs.to_python(arr) == objs
    assert [json.loads(s) for s in vs.to_json(arr).to_pylist()] == objs


def test_long_str_subclass_is_copied_intact():
    class S(str):
        pass
    text = S("x" * 5000 + "tail")
    assert vs.to_python(vs.from_python([text, [text]])) == [text, [text]]


# ---- nesting depth and reference cycles --------------------------------------------

def _nested(depth, make):
    v = 0
    for _ in range(depth):
        v = make(v)
    return v


@pytest.mark.parametrize("make", [lambda v: [v], lambda v: (v,), lambda v: {"a": v}],
                         ids=["list", "tuple", "dict"])
def test_nesting_is_limited_like_validation(make):
    # 500 levels is what validation (and so every reader) accepts ...
    arr = vs.from_python([_nested(500, make)])
    vs.validate(arr)
    assert len(vs.to_python(arr)) == 1
    # ... one more is a clear error, as is a value that would overflow the C stack.
    for depth in (501, 40_000):
        with pytest.raises(vs.VariantError, match=r"^row 1: \$.*: nesting deeper than "
                                                  r"the limit of 500$"):
            vs.from_python([None, _nested(depth, make)])


def test_reference_cycles_are_an_error_naming_the_path():
    # The path names a value that contains itself.
    lst = [1]
    lst.append(lst)
    with pytest.raises(vs.VariantError, match=r"^row 0: \$: the value contains itself "
                                              r"\(a reference cycle\)$"):
        vs.from_python([lst])
    inner = []
    inner.append(inner)
    with pytest.raises(vs.VariantError, match=r"^row 1: \$\.x\['y z'\]: the value "
                                              r"contains itself"):
        vs.from_python([{}, {"x": {"y z": inner}}])
    d = {"a": {"b": []}}
    d["a"]["b"].append(d)  # d, d["a"] and d["a"]["b"] all contain themselves
    with pytest.raises(vs.VariantError, match=r"^row 0: \$(\.a(\.b)?)?: .*cycle"):
        vs.from_python([d])
    t = ([],)
    t[0].append(t)
    with pytest.raises(vs.VariantError, match=r"^row 0: \$(\[0\])?: .*reference cycle"):
        vs.from_python([t])


def test_shared_values_that_are_not_cycles_are_fine():
    shared = {"x": [1, 2]}
    assert vs.to_python(vs.from_python([[shared, shared, {"a": shared}]])) == [
        [shared, shared, {"a": shared}]]
    # The converter is reusable after an error (no state left behind).
    lst = []
    lst.append(lst)
    with pytest.raises(vs.VariantError):
        vs.from_python([lst])
    assert vs.to_python(vs.from_python([[[1]]])) == [[[1]]]


def test_sets_are_not_variants():
    with pytest.raises(TypeError, match=r"row 0: \$\.s: cannot convert set"):
        vs.from_python([{"s": {1, 2}}])
