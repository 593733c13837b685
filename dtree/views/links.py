"""The view in a link, in plain Python: reading settings from a URL's query
parameters, writing them back, and the words about a link that asked for
something unknown.

The app keeps its settings in the URL (``?data=iris&max_depth=3``) so that
a lecturer can prepare a link.  Here the query parameters are plain
``{key: [values]}`` dicts and the settings a plain mapping: the Streamlit
side (``pages/state/url_state.py``) reads ``st.query_params`` and the session state,
calls these, and writes back what they return.
"""

from __future__ import annotations

from .vocabulary import t

from collections.abc import Callable, Mapping

_MARKDOWN_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$:&")


def md(text) -> str:
    """User text made literal for Streamlit Markdown (one line)."""
    text = " ".join(str(text).split())
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in text)


# -- readers: each takes the link's text and returns the value, or raises ValueError --

def one_of(*options, labels: Mapping | None = None) -> Callable:
    """A reader that accepts one of ``options`` as written; with ``labels``
    ({label: option}), also an option's label, read as the option (a link
    written when the URL kept the label a widget showed)."""
    def read(value):
        if value not in options and labels:  # (an option's own key comes first)
            value = labels.get(value, value)
        if value not in options:
            raise ValueError(value)
        return value
    return read


def named(options, *namers, languages=("en", "zh")) -> Callable:
    """:func:`one_of` ``options``, also accepting the name each of ``namers``
    (``namer(option, lang)``) gives an option in any of ``languages``."""
    labels = {namer(option, lang): option
              for namer in namers for option in options for lang in languages}
    return one_of(*options, labels=labels)


def number(kind, lo, hi, none=False) -> Callable:
    """A reader of a number of ``kind`` (int or float) within ``lo..hi``;
    with ``none``, "", "none" and "None" read as None."""
    def read(value):
        if none and value in ("", "none", "None"):
            return None
        x = kind(float(value))
        if not lo <= x <= hi:
            raise ValueError(value)
        return x
    return read


def text(value) -> str:
    return str(value)


def flag(word: str) -> Callable:
    """A reader of a switch written as ``word`` when on (``edges=samples``):
    ``word`` reads as True, "off" and "none" as False.  Its ``write`` gives
    the link's text of a value: ``word`` when on, None (left out) when off."""
    def read(value):
        if value == word:
            return True
        if value in ("off", "none"):
            return False
        raise ValueError(value)
    read.write = lambda value: word if value else None
    return read


def node_list(limit: int = 255) -> Callable:
    """A reader of node ids written ``3.7.12`` (``fold=3.7``): at most
    ``limit`` distinct ids from 0 to 10**9, read as a sorted tuple; "" and
    "none" as empty.  Its ``write`` gives the link's text (None when
    empty, so that the key is left out)."""
    def read(value):
        if value in ("", "none"):
            return ()
        parts = value.split(".")
        digits = all(p.isascii() and p.isdigit() and len(p) <= 10 for p in parts)
        if len(parts) > limit or not digits:
            raise ValueError(value)
        ids = sorted({int(p) for p in parts})
        if ids[-1] > 10**9:
            raise ValueError(value)
        return tuple(ids)
    read.write = lambda ids: ".".join(str(int(i)) for i in sorted(ids)) if ids else None
    return read


def read_link(params: Mapping, readers: Mapping, known: Callable) -> tuple[dict, list]:
    """The settings a link asks for: ``(values, ignored)``.

    ``params`` maps each query key to its list of values; ``readers`` maps a
    setting's key to its reader (``list`` for a repeated parameter, kept as
    the list); settings for which ``known(key)`` is true (already set in the
    session) are left alone.  ``ignored`` names the keys whose value did not
    read."""
    values, ignored = {}, []
    for key, read in readers.items():
        if key not in params or known(key):
            continue
        given = list(params[key])
        try:
            values[key] = given if read is list else read(given[-1] if given else "")
        except (TypeError, ValueError):
            ignored.append(key)
    return values, ignored


def link_params(current: Mapping, settings: Mapping, readers: Mapping, none_keys,
                *, data: str | None, lang: str) -> dict:
    """The query parameters that show these ``settings``: ``current`` (the
    URL's parameters, key -> list of values) with ``data`` (a built-in
    dataset's key, None for an upload), every setting of ``readers`` that
    is set (None written as "none" for ``none_keys``, dropped otherwise; a
    :func:`flag`'s value as its reader writes it) and the language."""
    wanted = dict(current)
    if data is not None:
        wanted["data"] = [data]
    else:
        wanted.pop("data", None)
    for key, read in readers.items():
        value = settings.get(key)
        if key in settings and hasattr(read, "write"):  # a switch: its word, or left out
            value = read.write(value)
        if key not in settings or value is None and key not in none_keys:
            wanted.pop(key, None)
        elif isinstance(value, (list, tuple)):
            wanted[key] = [str(v) for v in value]
        else:
            wanted[key] = ["none" if value is None else str(value)]
    wanted["lang"] = [lang]
    return wanted


def link_warning(asked_data, ignored, *, dataset_keys, shown: str, lang="en") -> str:
    """What to tell about a link that asked for an unknown dataset
    (``asked_data``, None if it did not) or had values that did not read
    (``ignored``, keys of our own); ``shown`` is the dataset shown instead."""
    parts = []
    if asked_data is not None:
        asked = str(asked_data)
        asked = md(asked if len(asked) <= 60 else asked[:59] + "…")
        keys = ", ".join(f"`{key}`" for key in dataset_keys)
        parts.append(t(lang,
                        f"The link asks for the dataset “{asked}”, which is "
                        f"not a built-in one; the keys are {keys} (or a dataset's full "
                        f"title). Showing {md(shown)} instead.",
                        f"链接要求的数据集“{asked}”不是内置数据集；可用的键为 "
                        f"{keys}（或数据集的完整名称）。现在显示的是{md(shown)}。"))
    if ignored:
        names = ", ".join(f"`{k}`" for k in ignored)
        parts.append(t(lang,
                        f"These link parameters could not be read and were ignored: {names} "
                        "(their defaults are used).",
                        f"以下链接参数无法读取，已被忽略：{names}（使用默认值）。"))
    return "  \n".join(parts)
