"""Read a scikit-learn tree from a ``.skops`` file, trusting nothing in it.

A ``.skops`` file is a zip archive: ``schema.json`` describes the saved
object as nested nodes (``{"__class__", "__module__", "__loader__",
"content", ...}``) and NumPy arrays lie beside it as ``.npy`` members.
skops' own loader builds whatever the schema names once a type is trusted,
and ``sklearn.tree._tree.Tree`` holds raw node ids that scikit-learn follows
without bounds checks.  So dtree reads the format itself, and builds only:

* the four tree estimators (``ObjectNode``) at the top, and their ``Tree``
  (``TreeNode``) as ``tree_``;
* dicts, lists and tuples of their builtin classes, JSON scalars, a
  ``RandomState`` as ``random_state``;
* NumPy arrays of numbers (and of the strings in ``classes_`` and
  ``feature_names_in_``), whose ``.npy`` header is checked against the
  member's size before a byte is allocated.

Everything is bounded by :class:`~dtree._sklearn_check.SkopsLimits`: the
file, each member (declared and actual unpacked size, read in chunks that
stop at the limit), all members together, the schema's size, nesting and
number of entries, the tree's nodes, features and classes, and the time.
The tree's arrays are checked (:func:`~dtree._sklearn_check.check_tree_arrays`,
through ``from_sklearn``) before anything walks them.  Any failure reaches the
caller as a :class:`~dtree._errors.TreeFileError` (a ``ValueError``) naming
the file and the rule; an unexpected error inside is chained to one.
"""

import io
import json
import os
import re
import time
import zipfile
import zlib

import numpy as np

from ._errors import TreeFileError
from ._sklearn import SKLEARN_TREE_TYPES, open_sklearn_tree
from ._sklearn_check import SkopsLimits, check_sizes

__all__ = ["load_sklearn"]

_CHUNK = 1 << 20
_SCALARS = (str, int, float, bool, type(None))
_NUMERIC_SCALARS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                    "intp", "float16", "float32", "float64", "bool_"}
_SUPPORTED_COMPRESSION = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2,
                          zipfile.ZIP_LZMA}
_ESTIMATOR_MODULE = "sklearn.tree._classes"
_TREE_CLASS = ("sklearn.tree._tree", "Tree")
_ALLOWED = ({(_ESTIMATOR_MODULE, name) for name in SKLEARN_TREE_TYPES} | {_TREE_CLASS}
            | {("builtins", name) for name in ("dict", "list", "tuple", "str", "int", "float",
                                               "bool", "NoneType")}
            | {("numpy", "ndarray")} | {("numpy", name) for name in _NUMERIC_SCALARS}
            | {("numpy.random.mtrand", "RandomState")})


# ---------------------------------------------------------------------------
# the file and its members
# ---------------------------------------------------------------------------

def _read_source(source, limits):
    """(the file's bytes, its name for messages), reading at most the limit."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, where = bytes(source), "the data"
    elif hasattr(source, "read"):
        data, where = source.read(limits.max_file_bytes + 1), str(
            getattr(source, "name", "the file"))
    else:
        path = os.fspath(source)
        where = repr(str(path))
        with open(path, "rb") as fh:
            data = fh.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:
        raise TreeFileError("file_too_big", where, limit=_size(limits.max_file_bytes))
    return data, where


def _size(n_bytes):
    """A size limit as people read it: "256 MiB" (or "100 bytes")."""
    if n_bytes < 1 << 20:
        return f"{n_bytes:,} bytes"
    return f"{n_bytes / (1 << 20):,.4g} MiB"


def _kind_of(data):
    """What a file that is not a zip archive looks like."""
    if data[:1] == b"\x80" or data[:2] in (b"(d", b"(l", b"cc"):
        return "a pickle"
    if data[:2] == b"\x1f\x8b" or data[:1] == b"x" or data[:3] == b"BZh" or \
            data[:6] == b"\xfd7zXZ\x00" or data[:4] == b"\x04\x22\x4d\x18" or \
            data[:7] == b"ZF\x00\x00\x00\x00\x00":
        return "a compressed (joblib?) pickle"
    return None


class _Archive:
    """The zip archive's members, read within the limits and the deadline."""

    def __init__(self, data, where, limits):
        self.where, self.limits = where, limits
        self.deadline = time.monotonic() + limits.max_seconds
        self.unpacked = 0
        self.zf = zipfile.ZipFile(io.BytesIO(data))
        infos = self.zf.infolist()
        if len(infos) > limits.max_members:
            raise TreeFileError("too_many_members", where, count=len(infos),
                                limit=limits.max_members)
        self.infos = {}
        for info in infos:
            if info.flag_bits & 0x1:
                raise TreeFileError("zip_broken", where, part=info.filename[:80],
                                    problem="encrypted")
            if info.compress_type not in _SUPPORTED_COMPRESSION:
                raise TreeFileError("zip_broken", where, part=info.filename[:80],
                                    problem="compression", method=info.compress_type)
            if info.file_size > limits.max_member_bytes:
                raise TreeFileError("member_too_big", where, member=info.filename,
                                    limit=_size(limits.max_member_bytes))
            self.infos[info.filename] = info

    def tick(self):
        if time.monotonic() > self.deadline:
            raise TreeFileError("too_slow", self.where, limit=self.limits.max_seconds)

    def read(self, name, limit=None):
        """The member's bytes; stops as soon as it unpacks past its declared
        size, ``limit`` or the total budget."""
        info = self.infos.get(name) if isinstance(name, str) else None
        if info is None:
            raise TreeFileError("member_missing", self.where, member=str(name)[:80])
        limit = min(limit or self.limits.max_member_bytes, self.limits.max_member_bytes)
        if info.file_size > limit:
            raise TreeFileError("member_too_big", self.where, member=name, limit=_size(limit))
        out = bytearray(info.file_size)
        view, size = memoryview(out), 0
        with self.zf.open(info) as fh:
            while size < info.file_size:
                self.tick()
                got = fh.readinto(view[size:size + _CHUNK])
                if not got:
                    raise TreeFileError("zip_broken", self.where, part=name,
                                        problem="shorter")
                size += got
            if fh.read(1):
                raise TreeFileError("zip_broken", self.where, part=name, problem="longer")
        self.unpacked += size
        if self.unpacked > self.limits.max_total_bytes:
            raise TreeFileError("total_too_big", self.where,
                                limit=_size(self.limits.max_total_bytes))
        return out


# ---------------------------------------------------------------------------
# the schema
# ---------------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def _json_shape(text):
    """(how deeply the JSON text nests, how many values it holds), counted on
    its brackets and commas with the strings taken out, so that a text too
    deep for the recursive parser, or with too many values to hold in
    memory, is refused before it is parsed."""
    raw = np.frombuffer(_STRING.sub("", text).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    opens = (raw == ord("[")) | (raw == ord("{"))
    closes = (raw == ord("]")) | (raw == ord("}"))
    steps = opens[opens | closes].astype(np.int64) * 2 - 1
    depth = int(np.cumsum(steps).max()) if len(steps) else 0
    return depth, int(opens.sum() + (raw == ord(",")).sum())


def _read_schema(archive):
    limits, where = archive.limits, archive.where
    if "schema.json" not in archive.infos:
        raise TreeFileError("no_schema", where)
    raw = archive.read("schema.json", limits.max_schema_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TreeFileError("zip_broken", where, part="schema.json", problem="not_utf8") from exc
    depth, values = _json_shape(text)
    if depth > limits.max_schema_depth:
        raise TreeFileError("schema_too_deep", where, limit=limits.max_schema_depth)
    if values > limits.max_schema_entries:
        raise TreeFileError("schema_too_big", where, limit=limits.max_schema_entries)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TreeFileError("schema_not_json", where, detail=str(exc)[:120]) from exc


def _types_named(schema):
    """Every (module, class) the schema names."""
    found, stack = set(), [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "__class__" in item or "__module__" in item:
                found.add((str(item.get("__module__"))[:200], str(item.get("__class__"))[:200]))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


class _Builder:
    """Builds the values a schema describes, one node kind at a time.

    ``part`` names where in the file a value sits, as code would reach it
    (``estimator.tree_.nodes``); messages use it."""

    def __init__(self, archive):
        self.archive = archive
        self.where = archive.where
        self.limits = archive.limits

    def fail(self, part, problem, **values):
        raise TreeFileError("malformed", self.where, part=part, problem=problem, **values)

    def node(self, state, part):
        if not isinstance(state, dict):
            self.fail(part, "not_a_node")
        kind = (state.get("__module__"), state.get("__class__"))
        loader = state.get("__loader__")
        if not all(isinstance(k, str) for k in kind):
            self.fail(part, "no_class")
        if kind not in _ALLOWED:
            raise TreeFileError("types_refused", self.where, types=f"{kind[0]}.{kind[1]}")
        handler = {"JsonNode": self.json_value, "DictNode": self.dict_value,
                   "ListNode": self.list_value, "TupleNode": self.tuple_value,
                   "NdArrayNode": self.array, "RandomStateNode": self.random_state
                   }.get(loader)
        if handler is None:
            self.fail(part, "loader_refused", loader=str(loader)[:40])
        self.archive.tick()
        return handler(state, kind, part)

    def content(self, state, part, of_type):
        content = state.get("content")
        if not isinstance(content, of_type):
            self.fail(part, "no_content")
        return content

    def json_value(self, state, kind, part):
        if kind[0] != "builtins":
            self.fail(part, "wrong_kind", kind=kind[1], stored="JSON")
        text = self.content(state, part, str)
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            self.fail(part, "not_json")
        if not isinstance(value, _SCALARS):
            self.fail(part, "not_json")
        return value

    def items(self, state, kind, part, cls):
        if kind != ("builtins", cls):
            self.fail(part, "wrong_kind", kind=f"{kind[0]}.{kind[1]}", stored=cls)
        content = self.content(state, part, list)
        return [self.node(item, f"{part}[{i}]") for i, item in enumerate(content)]

    def list_value(self, state, kind, part):
        return self.items(state, kind, part, "list")

    def tuple_value(self, state, kind, part):
        return tuple(self.items(state, kind, part, "tuple"))

    def dict_value(self, state, kind, part):
        if kind != ("builtins", "dict"):
            self.fail(part, "wrong_kind", kind=f"{kind[0]}.{kind[1]}", stored="dict")
        content = self.content(state, part, dict)
        key_types = state.get("key_types", {"content": []})
        types = key_types.get("content") if isinstance(key_types, dict) else None
        if not isinstance(types, list) or (types and len(types) != len(content)):
            self.fail(part, "bad_keys")
        out = {}
        for i, (key, value) in enumerate(content.items()):
            if types:
                spec = types[i]
                key_class = spec.get("__class__") if isinstance(spec, dict) else None
                if not isinstance(spec, dict) or spec.get("__module__") != "builtins" or \
                        key_class not in ("str", "int"):
                    self.fail(part, "bad_keys")
                if key_class == "int":
                    try:
                        key = int(key)
                    except ValueError:
                        self.fail(part, "bad_keys")
            out[key] = self.node(value, f"{part}.{key}"[:120])
        return out

    def array(self, state, kind, part):
        if state.get("type") == "json":
            return self.object_array(state, kind, part)
        if state.get("type") != "numpy":
            self.fail(part, "wrong_kind", kind=kind[1], stored=str(state.get("type"))[:20])
        arr = _npy_array(self.archive.read(state.get("file")), self.where, part)
        if kind[1] == "ndarray":
            return arr
        if arr.size != 1:
            self.fail(part, "bad_shape", count=arr.size, expected=1)
        return getattr(np, kind[1])(arr.reshape(()).item())

    def object_array(self, state, kind, part):
        if kind[1] != "ndarray":
            self.fail(part, "wrong_kind", kind=kind[1], stored="list")
        content = self.content(state, part, list)
        shape = self.node(state.get("shape"), f"{part}.shape")
        if shape != (len(content),):
            self.fail(part, "bad_shape", count=len(content), expected=str(shape)[:40])
        items = [self.node(item, f"{part}[{i}]") for i, item in enumerate(content)]
        if not all(isinstance(item, _SCALARS) for item in items):
            self.fail(part, "not_plain")
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out

    def random_state(self, state, kind, part):
        content = self.node(state.get("content"), f"{part}.state")
        rs = np.random.RandomState()
        try:
            rs.set_state(content)
        except (TypeError, ValueError, KeyError):
            self.fail(part, "bad_random_state")
        return rs


def _npy_array(data, where, part):
    """An array read from ``.npy`` bytes whose header must match their size,
    so that no header can ask for more memory than the file holds."""
    fh = io.BytesIO(data)
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fh)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fh)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = fmt.read_array_header_2_0(fh)
        else:
            raise ValueError(f"version {version}")
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError) as exc:
        raise TreeFileError("malformed", where, part=part, problem="not_npy") from exc
    if dtype.hasobject or dtype.kind not in "biufUV":
        raise TreeFileError("malformed", where, part=part, problem="not_numbers",
                            dtype=str(dtype)[:40])
    count = 1
    for side in shape:
        count *= int(side)
    body = memoryview(data)[fh.tell():]
    if count * dtype.itemsize != len(body):
        raise TreeFileError("malformed", where, part=part, problem="bad_size",
                            declared=count * dtype.itemsize, held=len(body))
    arr = np.frombuffer(body, dtype=dtype, count=count)
    return arr.reshape(shape, order="F" if fortran else "C")


# ---------------------------------------------------------------------------
# the estimator
# ---------------------------------------------------------------------------

def _tree(builder, state, n_features_in, limits):
    """scikit-learn's Tree from a TreeNode, its arrays checked first."""
    from sklearn.tree._tree import NODE_DTYPE, Tree

    where = builder.where
    if not isinstance(state, dict) or state.get("__loader__") != "TreeNode" or \
            (state.get("__module__"), state.get("__class__")) != _TREE_CLASS:
        stored = state.get("__loader__") if isinstance(state, dict) else type(state).__name__
        builder.fail("estimator.tree_", "wrong_kind", kind="Tree", stored=str(stored)[:40])
    reduce = state.get("__reduce__")
    args = builder.node(reduce.get("args") if isinstance(reduce, dict) else None,
                        "estimator.tree_.args")
    if not isinstance(args, tuple) or len(args) != 3:
        builder.fail("estimator.tree_.args", "bad_tree_args")
    n_features, n_classes_arr, n_outputs = args
    tree_state = builder.node(state.get("content"), "estimator.tree_")
    if not isinstance(tree_state, dict) or not {"node_count", "nodes", "values"} <= set(tree_state):
        builder.fail("estimator.tree_.nodes", "not_fitted")
    n_classes_arr = np.asarray(n_classes_arr)
    if n_classes_arr.dtype.kind not in "iu" or n_classes_arr.shape != (1,):
        check_sizes(where, limits, n_features=1, n_outputs=len(np.atleast_1d(n_classes_arr)))
        builder.fail("estimator.tree_.args", "bad_tree_args")
    n_features, n_class_cols, node_count = check_sizes(
        where, limits, n_features=n_features, n_classes=n_classes_arr[0], n_outputs=n_outputs,
        node_count=tree_state["node_count"])
    if n_features != n_features_in:
        builder.fail("estimator.tree_", "features_differ", count=n_features,
                     expected=n_features_in)
    nodes, values = tree_state["nodes"], tree_state["values"]
    if not isinstance(nodes, np.ndarray) or nodes.dtype.names is None or \
            nodes.shape != (node_count,):
        builder.fail("estimator.tree_.nodes", "bad_nodes", count=node_count)
    missing = {"left_child", "right_child", "feature", "threshold", "impurity",
               "n_node_samples", "weighted_n_node_samples"} - set(nodes.dtype.names)
    if missing:
        builder.fail("estimator.tree_.nodes", "bad_nodes", count=node_count)
    if not isinstance(values, np.ndarray) or values.dtype.kind != "f":
        dtype = getattr(values, "dtype", type(values).__name__)
        builder.fail("estimator.tree_.values", "not_numbers", dtype=str(dtype)[:40])
    # the arrays' rules are checked once, by from_sklearn, before anything walks
    # the tree; scikit-learn's Tree only copies them, but it needs this shape
    expected = (node_count, 1, n_class_cols)
    if values.shape != expected:
        raise TreeFileError("value_shape", where, shape=tuple(values.shape),
                            node_count=node_count, n_classes=n_class_cols, expected=expected)
    if nodes.dtype != NODE_DTYPE:  # a file from another scikit-learn: same fields, new layout
        converted = np.zeros(node_count, dtype=NODE_DTYPE)
        for name in NODE_DTYPE.names:
            if name in nodes.dtype.names:
                converted[name] = nodes[name]
        nodes = converted
    max_depth = tree_state.get("max_depth", 0)
    if not isinstance(max_depth, int) or not 0 <= max_depth <= node_count:
        builder.fail("estimator.tree_.max_depth", "bad_depth")
    tree = Tree(n_features, np.asarray([n_class_cols], dtype=np.intp), 1)
    tree.__setstate__({"max_depth": max_depth, "node_count": node_count,
                       "nodes": np.ascontiguousarray(nodes),
                       "values": np.ascontiguousarray(values, dtype=np.float64)})
    return tree


def _estimator(builder, schema, limits):
    """The scikit-learn estimator the schema describes, built by dtree."""
    import sklearn.tree as sktree

    where = builder.where
    kind = (schema.get("__module__"), schema.get("__class__"))
    if kind[0] != _ESTIMATOR_MODULE or kind[1] not in SKLEARN_TREE_TYPES or \
            schema.get("__loader__") != "ObjectNode":
        raise TreeFileError("not_a_tree", where, kind=f"{kind[0]}.{kind[1]}")
    content = schema.get("content")
    if not isinstance(content, dict) or content.get("__loader__") != "DictNode" or \
            not isinstance(content.get("content"), dict):
        builder.fail("estimator", "no_content")
    raw = dict(content["content"])
    tree_state = raw.pop("tree_", None)
    if tree_state is None:
        builder.fail("estimator.tree_", "not_fitted")
    attrs = builder.dict_value({**content, "content": raw,
                                "key_types": {"content": []}}, ("builtins", "dict"),
                               "estimator")
    if "n_features_in_" not in attrs:
        builder.fail("estimator.n_features_in_", "not_fitted")
    n_features, _, _ = check_sizes(where, limits, n_features=attrs["n_features_in_"],
                                   n_outputs=attrs.get("n_outputs_", 1))
    attrs["tree_"] = _tree(builder, tree_state, n_features, limits)
    cls = getattr(sktree, kind[1])
    for name in attrs:
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("__") or \
                callable(getattr(cls, name, None)):
            builder.fail(f"estimator.{str(name)[:40]}", "bad_name")
    est = cls.__new__(cls)
    est.__setstate__(attrs)
    return est


def _open(source, X, y, sample_weight, limits):
    data, where = _read_source(source, limits)
    if not zipfile.is_zipfile(io.BytesIO(data)):
        kind = _kind_of(data)
        if kind:
            raise TreeFileError("pickle", where, kind=kind)
        raise TreeFileError("not_skops", where)
    try:
        archive = _Archive(data, where, limits)
        schema = _read_schema(archive)
        if not isinstance(schema, dict):
            raise TreeFileError("malformed", where, part="schema.json", problem="not_a_node")
        refused = sorted(f"{m}.{c}" for m, c in _types_named(schema)
                         if (m, c) not in _ALLOWED)
        if refused:
            raise TreeFileError("types_refused", where, types=", ".join(refused[:8]))
        estimator = _estimator(_Builder(archive), schema, limits)
    except TreeFileError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError,
            zlib.error) as exc:
        raise TreeFileError("zip_unreadable", where, detail=_said(exc)) from exc
    except Exception as exc:  # noqa: BLE001 (whatever else the file provokes, in words)
        raise TreeFileError("unreadable", where, detail=_said(exc)) from exc
    return open_sklearn_tree(estimator, X, y, sample_weight=sample_weight, where=where,
                             limits=limits)


def _said(exc):
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def load_sklearn(source, X=None, y=None, *, sample_weight=None, limits=None):
    """Open a scikit-learn tree saved with ``skops.io.dump`` (a ``.skops`` file).

    Nothing in the file is executed or unpickled, and no skops loader runs:
    dtree reads the file's schema and arrays itself, builds only
    scikit-learn's four tree estimators, their ``Tree`` and the plain values
    they hold, and checks the tree's arrays before they are used.

    Parameters
    ----------
    source : path, bytes or binary file
        The ``.skops`` file.
    X, y, sample_weight : optional
        The training data, passed to :func:`~dtree.from_sklearn`.
    limits : SkopsLimits, optional
        How much may be read and allocated, and for how long (see
        :class:`~dtree._sklearn_check.SkopsLimits`; the defaults open a tree
        of two million nodes).

    Returns
    -------
    A fitted dtree estimator, as :func:`~dtree.from_sklearn` returns.

    Raises
    ------
    TreeFileError
        A ``ValueError`` whose ``code`` names the rule the file breaks and
        whose message names the file: a pickle or joblib file (refused
        unread), another estimator, a broken or oversized zip, a schema too
        deep or too big, arrays whose headers do not match their bytes, a
        tree whose ids loop or leave the tree, or data that does not fit the
        tree.  Anything unexpected while reading is chained to one.
    """
    limits = limits or SkopsLimits()
    try:
        return _open(source, X, y, sample_weight, limits)
    except ValueError:
        raise  # a TreeFileError, or from_sklearn's words about X and y
    except Exception as exc:  # noqa: BLE001 (never a bare error from deep inside)
        where = getattr(source, "name", None) or (
            repr(str(source)) if isinstance(source, (str, os.PathLike)) else "the data")
        raise TreeFileError("unreadable", str(where), detail=_said(exc)) from exc
