# Licensed under the Apache License, Version 2.0.
"""Option checking shared by the Python modules: string options become the C++ enum
values the extension modules take, lists of column names are checked, and renamed
arguments keep their old spelling with a DeprecationWarning."""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Iterable, Mapping, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def choice(name: str, value: object, table: Mapping[str, int]) -> int:
    """``table[value]``; a clear error naming the option and its valid values."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    try:
        return table[value]
    except KeyError:
        valid = " or ".join(repr(k) for k in table)
        raise ValueError(f"{name} must be {valid}, got {value!r}") from None


def names(name: str, value: Any) -> list[str] | None:
    """A list of column names (None stays None). A lone str is refused: iterated, it
    would name one column per character."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a list of column names, got "
                        f"{type(value).__name__} {value!r}")
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold column names (str), got "
                            f"{type(item).__name__} {item!r}")
    return out


def renamed(**old_to_new: str) -> Callable[[F], F]:
    """Accepts each old keyword spelling of an argument with a DeprecationWarning."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{fn.__name__}() got both {old}= and {new}=")
                    warnings.warn(f"{fn.__name__}(): {old}= is deprecated, use {new}=",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
