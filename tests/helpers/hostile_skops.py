"""A corpus of hostile and broken .skops files, built from a real one.

Each case is a function of the valid file's bytes that returns the bytes
of a crafted file, with the ``TreeFileError`` code dtree must answer
(None where the file is valid and must open).  The crafted files are what a
student with a text editor and ``zipfile`` could send to a shared server:
trees whose ids loop or leave the tree, zip bombs, arrays whose headers
claim more than they hold, schemas too deep to parse, types that would run
code if something loaded them, settings scikit-learn refuses.  ``CASES``
edit a classifier's file, ``REGRESSOR_CASES`` a regressor's
(:func:`valid_file`, fitted on :func:`training_data`); :func:`every_case`
lists both.
"""

import io
import json
import struct
import zipfile

import numpy as np

#: A path the code-running files would touch if anything executed them.
CANARY = "/tmp/dtree-skops-canary"


def members_of(data):
    """(schema dict, {name: bytes}, {name: compress_type}) of a .skops file."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
        kinds = {i.filename: i.compress_type for i in zf.infolist()}
    return json.loads(members.pop("schema.json")), members, kinds


def pack(schema, members, compression=zipfile.ZIP_STORED, schema_text=None):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
        zf.writestr("schema.json", schema_text if schema_text is not None
                    else json.dumps(schema))
    return out.getvalue()


def _tree_state(schema):
    return schema["content"]["content"]["tree_"]


def _npy(array):
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def with_nodes(edit):
    """A case that edits the tree's nodes array (a structured array)."""
    def make(data):
        schema, members, _ = members_of(data)
        state = _tree_state(schema)["content"]["content"]
        name = state["nodes"]["file"]
        nodes = np.load(io.BytesIO(members[name])).copy()
        edit(nodes)
        members[name] = _npy(nodes)
        return pack(schema, members)
    return make


def with_values(edit):
    def make(data):
        schema, members, _ = members_of(data)
        state = _tree_state(schema)["content"]["content"]
        name = state["values"]["file"]
        values = np.load(io.BytesIO(members[name]))
        members[name] = _npy(edit(values.copy()))
        return pack(schema, members)
    return make


def with_schema(edit):
    def make(data):
        schema, members, _ = members_of(data)
        edit(schema)
        return pack(schema, members)
    return make


def json_node(value):
    return {"__class__": "str", "__module__": "builtins", "__loader__": "JsonNode",
            "content": json.dumps(value), "is_json": True, "__id__": 1}


def _attrs(schema):
    return schema["content"]["content"]


def _set_attr(name, node):
    def edit(schema):
        _attrs(schema)[name] = node
    return edit


def _first_split(nodes):
    return int(np.flatnonzero(nodes["left_child"] != -1)[0])


def _a_leaf(nodes):
    return int(np.flatnonzero(nodes["left_child"] == -1)[0])


def _edit(field, node_of, value):
    def edit(nodes):
        nodes[field][node_of(nodes)] = value
    return edit


def _second_split(nodes):
    return int(np.flatnonzero(nodes["left_child"] != -1)[1])


def _cycle(nodes):
    # a split deeper down points back at the root's left child: a loop
    node = _second_split(nodes)
    nodes["left_child"][node] = int(nodes["left_child"][0])


def _two_parents(nodes):
    nodes["right_child"][0] = nodes["left_child"][0]


def _orphan(nodes):
    # the root's right child becomes a leaf: its subtree hangs from nothing
    right = int(nodes["right_child"][0])
    nodes["left_child"][right] = -1
    nodes["right_child"][right] = -1
    nodes["feature"][right] = -2


def _half_leaf(nodes):
    nodes["right_child"][_first_split(nodes)] = -1


def _leaf_with_child(nodes):
    nodes["left_child"][_a_leaf(nodes)] = len(nodes) - 1


def _patched_zip(data, *, flag_bits=None, compress_type=None, declared_size=None,
                 member=None):
    """The zip with a member's central-directory (and local header) fields
    overwritten: what a hand-edited archive looks like."""
    raw = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(member) if member else zf.infolist()[0]
    local = info.header_offset
    central = raw.find(b"PK\x01\x02")
    while struct.unpack_from("<I", raw, central + 42)[0] != local:
        central = raw.find(b"PK\x01\x02", central + 4)  # the entry of this member
    assert central >= 0
    for base, flag_at, method_at, size_at in ((local, 6, 8, 22), (central, 8, 10, 24)):
        if flag_bits is not None:
            struct.pack_into("<H", raw, base + flag_at, flag_bits)
        if compress_type is not None:
            struct.pack_into("<H", raw, base + method_at, compress_type)
        if declared_size is not None:
            struct.pack_into("<I", raw, base + size_at, declared_size)
    return bytes(raw)


def _bomb_schema(data):
    """schema.json inflating to 400 MB of spaces (a few hundred KB packed)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("schema.json", "w") as fh:
            fh.write(b"{")
            block = b" " * (1 << 20)
            for _ in range(400):
                fh.write(block)
            fh.write(b"}")
    return out.getvalue()


def _lying_member(data):
    """A deflated member of 300 MB of zeros that declares 1,000 bytes."""
    schema, members, _ = members_of(data)
    state = _tree_state(schema)["content"]["content"]
    name = state["values"]["file"]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for other, body in members.items():
            if other != name:
                zf.writestr(other, body)
        with zf.open(name, "w", force_zip64=False) as fh:
            block = b"\0" * (1 << 20)
            for _ in range(300):
                fh.write(block)
        zf.writestr("schema.json", json.dumps(schema))
    return _patched_zip(out.getvalue(), declared_size=1000, member=name)


def _big_member(data):
    """An honest member of 300 MB of zeros (300 KB packed)."""
    schema, members, _ = members_of(data)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
        with zf.open("padding.npy", "w") as fh:
            block = b"\0" * (1 << 20)
            for _ in range(300):
                fh.write(block)
        zf.writestr("schema.json", json.dumps(schema))
    return out.getvalue()


def _npy_claims_too_much(data):
    """The values' .npy header claims 10^11 values; the file holds a few."""
    schema, members, _ = members_of(data)
    name = _tree_state(schema)["content"]["content"]["values"]["file"]
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000,), }"
    header = header + " " * (118 - len(header)) + "\n"
    members[name] = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + \
        header.encode() + b"\0" * 64
    return pack(schema, members)


def _ndarray_from_list(data):
    """A ListNode that names numpy.ndarray: skops would call ndarray([..])
    and allocate the shape the list gives (745 GiB here)."""
    node = {"__class__": "ndarray", "__module__": "numpy", "__loader__": "ListNode",
            "content": [json_node(10 ** 5), json_node(10 ** 6)], "__id__": 7}
    return with_schema(_set_attr("max_features_", node))(data)


def _deep_json(data):
    schema, members, _ = members_of(data)
    text = json.dumps(schema)
    deep = "[" * 100_000 + "]" * 100_000
    text = text[:-1] + ', "extra": ' + deep + "}"
    return pack(schema, members, schema_text=text)


def _deep_nodes(data):
    """Lists of lists, 40 skops nodes deep (within the JSON depth a real
    file needs, twice over: still refused by depth)."""
    node = json_node(1)
    for _ in range(40):
        node = {"__class__": "list", "__module__": "builtins", "__loader__": "ListNode",
                "content": [node], "__id__": 3}
    return with_schema(_set_attr("extra_", node))(data)


def _memo_cycle(data):
    """An attribute that is skops' cached reference to the estimator itself."""
    def edit(schema):
        _attrs(schema)["loop_"] = {"__class__": "DecisionTreeClassifier",
                                   "__module__": "sklearn.tree._classes",
                                   "__loader__": "CachedNode", "__id__": schema["__id__"]}
    return with_schema(edit)(data)


def _runs_code(data):
    """What a skops exploit looks like: a reduce call of os.system."""
    def edit(schema):
        _attrs(schema)["criterion"] = {
            "__class__": "system", "__module__": "posix", "__loader__": "ReduceNode",
            "__reduce__": {"args": {"__class__": "tuple", "__module__": "builtins",
                                    "__loader__": "TupleNode",
                                    "content": [json_node(f"touch {CANARY}")]}},
            "__id__": 5}
    return with_schema(edit)(data)


def _function_node(data):
    def edit(schema):
        _attrs(schema)["splitter"] = {"__class__": "eval", "__module__": "builtins",
                                      "__loader__": "FunctionNode",
                                      "content": {"module_path": "builtins",
                                                  "function": "eval"}, "__id__": 6}
    return with_schema(edit)(data)


def _pickle(data):
    import pickle

    class Touch:
        def __reduce__(self):
            import os
            return (os.system, (f"touch {CANARY}",))
    return pickle.dumps(Touch())


def _broken_crc(data):
    schema, members, _ = members_of(data)
    blob = bytearray(pack(schema, members))
    name = _tree_state(schema)["content"]["content"]["nodes"]["file"]
    at = blob.find(members[name]) + len(members[name]) - 3
    blob[at] ^= 0xFF
    return bytes(blob)


def _truncated(data):
    return data[: len(data) // 2]


def _truncated_member(data):
    """A deflated member cut short, with the directory still in place."""
    schema, members, _ = members_of(data)
    packed = pack(schema, members, compression=zipfile.ZIP_DEFLATED)
    name = _tree_state(schema)["content"]["content"]["nodes"]["file"]
    with zipfile.ZipFile(io.BytesIO(packed)) as zf:
        info = zf.getinfo(name)
    start = info.header_offset + 30 + len(name.encode()) + len(info.extra)
    raw = bytearray(packed)
    raw[start + info.compress_size // 2:start + info.compress_size] = \
        b"\0" * (info.compress_size - info.compress_size // 2)
    return bytes(raw)


def _many_members(data):
    schema, members, _ = members_of(data)
    members.update({f"pad{i}.npy": b"" for i in range(2000)})
    return pack(schema, members)


def _missing_member(data):
    def edit(schema):
        _tree_state(schema)["content"]["content"]["nodes"]["file"] = "nothere.npy"
    return with_schema(edit)(data)


def _no_schema(data):
    schema, members, _ = members_of(data)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


def _tree_args(n_features=None, n_classes=None, n_outputs=None):
    def edit(schema):
        args = _tree_state(schema)["__reduce__"]["args"]["content"]
        if n_features is not None:
            args[0] = json_node(n_features)
        if n_outputs is not None:
            args[2] = json_node(n_outputs)
    return edit


def _huge_classes(data):
    schema, members, _ = members_of(data)
    args = _tree_state(schema)["__reduce__"]["args"]["content"]
    members[args[1]["file"]] = _npy(np.array([10 ** 9], dtype=np.intp))
    return pack(schema, members)


def _state(key, value):
    def edit(schema):
        _tree_state(schema)["content"]["content"][key] = json_node(value)
    return edit


def _classes_short(data):
    schema, members, _ = members_of(data)
    node = _attrs(schema)["classes_"]
    if node.get("type") == "numpy":
        classes = np.load(io.BytesIO(members[node["file"]]), allow_pickle=False)
        members[node["file"]] = _npy(classes[:2])
    else:
        node["content"] = node["content"][:2]
        node["shape"]["content"] = [json_node(2)]
    return pack(schema, members)


def _huge_int(data):
    node = json_node(1)
    node["content"] = "9" * 10_000
    return with_schema(_set_attr("max_depth", node))(data)


def _shadow_method(data):
    return with_schema(_set_attr("predict", json_node(1)))(data)


def _not_a_tree(data):
    def edit(schema):
        schema["__class__"] = "LogisticRegression"
        schema["__module__"] = "sklearn.linear_model._logistic"
    return with_schema(edit)(data)


def _schema_list(data):
    schema, members, _ = members_of(data)
    return pack(schema, members, schema_text="[]")


def _schema_garbage(data):
    schema, members, _ = members_of(data)
    return pack(schema, members, schema_text="{not json")


def _object_array_in_npy(data):
    """An .npy member holding Python objects (a pickle inside the array)."""
    schema, members, _ = members_of(data)
    name = _tree_state(schema)["content"]["content"]["values"]["file"]
    buf = io.BytesIO()
    np.save(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    members[name] = buf.getvalue()
    return pack(schema, members)


def _nan_values(values):
    values[1, 0, 0] = np.nan
    return values


def _wide_values(values):
    return np.concatenate([values, values[:, :, :1]], axis=2)


def _missing_threshold_inf(nodes):
    # scikit-learn's split of the known values against the missing ones: valid
    nodes["threshold"][_first_split(nodes)] = np.inf


def _classes_repeated(data):
    """classes_ naming one label twice (the counts still have three columns)."""
    schema, members, _ = members_of(data)
    node = _attrs(schema)["classes_"]
    if node.get("type") == "numpy":
        classes = np.load(io.BytesIO(members[node["file"]]), allow_pickle=False)
        classes[1] = classes[0]
        members[node["file"]] = _npy(classes)
    else:
        node["content"][1] = node["content"][0]
    return pack(schema, members)


def _classes_2d(data):
    """classes_ shaped (1, n): not a list of labels."""
    schema, members, _ = members_of(data)
    node = _attrs(schema)["classes_"]
    if node.get("type") == "numpy":
        classes = np.load(io.BytesIO(members[node["file"]]), allow_pickle=False)
        members[node["file"]] = _npy(classes.reshape(1, -1))
    else:
        n = len(node["content"])
        node["shape"]["content"] = [json_node(1), json_node(n)]
    return pack(schema, members)


def _zero_weight_leaf(nodes):
    """A leaf whose samples all have weight 0, its sibling (a leaf) carrying
    the parent's weight: what scikit-learn makes from zero sample weights."""
    left, right = nodes["left_child"], nodes["right_child"]
    parent = int(np.flatnonzero((left != -1) & (left[left] == -1) & (left[right] == -1))[0])
    nodes["weighted_n_node_samples"][right[parent]] = nodes["weighted_n_node_samples"][parent]
    nodes["weighted_n_node_samples"][left[parent]] = 0.0


def _dict_node(mapping):
    """A skops DictNode of string keys and JSON values, as skops writes one."""
    return {"__class__": "dict", "__module__": "builtins", "__loader__": "DictNode",
            "content": {key: json_node(value) for key, value in mapping.items()},
            "key_types": {"__class__": "list", "__module__": "builtins",
                          "__loader__": "ListNode",
                          "content": [{"__class__": "str", "__module__": "builtins",
                                       "__loader__": "TypeNode", "__id__": 11}
                                      for _ in mapping], "__id__": 12}, "__id__": 13}


def setting(name, value):
    """A case whose estimator has the setting ``name`` = ``value``."""
    return with_schema(_set_attr(name, json_node(value)))


#: Settings scikit-learn refuses, on either kind of tree.
BAD_SETTINGS = {"max_depth": -3, "min_samples_leaf": 0, "min_samples_split": 1,
                "ccp_alpha": float("nan"), "min_impurity_decrease": -1.0,
                "splitter": "evil", "random_state": "abc", "criterion": "evil",
                "max_features": "bogus", "max_leaf_nodes": 1,
                "min_weight_fraction_leaf": 0.9}

#: name -> (make, the TreeFileError code expected; None: must open and predict)
CASES = {
    "cycle": (with_nodes(_cycle), "child_before_parent"),
    "self_loop": (with_nodes(lambda n: n["left_child"].__setitem__(
        _second_split(n), _second_split(n))), "child_before_parent"),
    "root_is_child": (with_nodes(lambda n: n["left_child"].__setitem__(
        _second_split(n), 0)), "root_is_child"),
    "two_parents": (with_nodes(_two_parents), "two_parents"),
    "orphan": (with_nodes(_orphan), "orphan"),
    "negative_child": (with_nodes(_edit("left_child", _first_split, -5)), "bad_child"),
    "child_out_of_range": (with_nodes(_edit("right_child", _first_split, 10 ** 6)),
                           "bad_child"),
    "half_leaf": (with_nodes(_half_leaf), "half_leaf"),
    "leaf_with_one_child": (with_nodes(_leaf_with_child), "half_leaf"),
    "negative_feature": (with_nodes(_edit("feature", _first_split, -1)), "bad_feature"),
    "feature_out_of_range": (with_nodes(_edit("feature", _first_split, 99)), "bad_feature"),
    "nan_threshold": (with_nodes(_edit("threshold", _first_split, np.nan)), "bad_threshold"),
    "minus_inf_threshold": (with_nodes(_edit("threshold", _first_split, -np.inf)),
                            "bad_threshold"),
    "inf_impurity": (with_nodes(_edit("impurity", _first_split, np.inf)), "bad_value"),
    "samples_do_not_add_up": (with_nodes(_edit("n_node_samples", lambda n: 0, 7)),
                              "bad_samples"),
    "no_samples": (with_nodes(_edit("n_node_samples", _a_leaf, 0)), "bad_value"),
    "weights_do_not_add_up": (with_nodes(_edit("weighted_n_node_samples", lambda n: 0, 1e9)),
                              "bad_samples"),
    "nan_values": (with_values(_nan_values), "bad_value"),
    "more_value_columns": (with_values(_wide_values), "value_shape"),
    "fewer_classes_than_values": (_classes_short, "classes_mismatch"),
    "no_nodes": (with_schema(_state("node_count", 0)), "bad_attribute"),
    "node_count_huge": (with_schema(_state("node_count", 10 ** 12)), "over_limit"),
    "node_count_wrong": (with_schema(_state("node_count", 3)), "malformed"),
    "n_features_huge": (with_schema(_set_attr("n_features_in_", json_node(10 ** 9))),
                        "over_limit"),
    "n_features_not_int": (with_schema(_set_attr("n_features_in_", json_node("4"))),
                           "bad_attribute"),
    "tree_features_differ": (with_schema(_tree_args(n_features=3)), "malformed"),
    "n_classes_huge": (_huge_classes, "over_limit"),
    "multi_output": (with_schema(_tree_args(n_outputs=2)), "multi_output"),
    "zip_bomb_schema": (_bomb_schema, "member_too_big"),
    "zip_bomb_lying_size": (_lying_member, "zip_unreadable"),
    "zip_bomb_member": (_big_member, "member_too_big"),
    "npy_header_claims_too_much": (_npy_claims_too_much, "malformed"),
    "ndarray_from_list": (_ndarray_from_list, "malformed"),
    "object_array_npy": (_object_array_in_npy, "malformed"),
    "deep_json": (_deep_json, "schema_too_deep"),
    "deep_nodes": (_deep_nodes, "schema_too_deep"),
    "memo_cycle": (_memo_cycle, "malformed"),
    "runs_code_reduce": (_runs_code, "types_refused"),
    "runs_code_function": (_function_node, "types_refused"),
    "pickle": (_pickle, "pickle"),
    "not_a_tree": (_not_a_tree, "types_refused"),
    "encrypted": (lambda d: _patched_zip(d, flag_bits=1), "zip_broken"),
    "unknown_compression": (lambda d: _patched_zip(d, compress_type=99), "zip_broken"),
    "broken_crc": (_broken_crc, "zip_unreadable"),
    "truncated_file": (_truncated, "not_skops"),
    "truncated_member": (_truncated_member, "zip_unreadable"),
    "too_many_members": (_many_members, "too_many_members"),
    "missing_member": (_missing_member, "member_missing"),
    "no_schema": (_no_schema, "no_schema"),
    "schema_not_an_object": (_schema_list, "malformed"),
    "schema_not_json": (_schema_garbage, "schema_not_json"),
    "schema_of_a_dict": (lambda d: pack({"__class__": "dict", "__module__": "builtins",
                                         "__loader__": "DictNode", "content": {},
                                         "__id__": 1}, {}), "not_a_tree"),
    "huge_int": (_huge_int, "malformed"),
    "shadows_a_method": (_shadow_method, "malformed"),
    "random_bytes": (lambda d: bytes(np.random.default_rng(0).integers(0, 256, 5000,
                                                                      dtype=np.uint8)),
                     "not_skops"),
    "empty": (lambda d: b"", "not_skops"),
    "negative_weight": (with_nodes(_edit("weighted_n_node_samples", _a_leaf, -1.0)),
                        "negative_weight"),
    "nan_weight": (with_nodes(_edit("weighted_n_node_samples", _a_leaf, np.nan)),
                   "bad_value"),
    "repeated_classes": (_classes_repeated, "bad_attribute"),
    "classes_2d": (_classes_2d, "malformed"),
    "max_features_fitted_zero": (with_schema(_set_attr("max_features_", json_node(0))),
                                 "bad_attribute"),
    "class_weight_foo": (setting("class_weight", "foo"), "bad_setting"),
    "class_weight_unknown_label": (with_schema(_set_attr("class_weight", _dict_node(
        {"nope": 2.0}))), "bad_setting"),
    "valid_class_weight": (with_schema(_set_attr("class_weight", _dict_node(
        {"setosa": 1.0}))), None),
    "max_features_zero": (setting("max_features", 0), "bad_setting"),
    "valid_max_features_over_n_features": (setting("max_features", 99), None),
    **{f"setting_{name}": (setting(name, value), "bad_setting")
       for name, value in BAD_SETTINGS.items()},
    "valid_zero_weight_leaf": (with_nodes(_zero_weight_leaf), None),
    "valid_missing_split": (with_nodes(_missing_threshold_inf), None),
    "valid_deflated": (lambda d: pack(*members_of(d)[:2], compression=zipfile.ZIP_DEFLATED),
                       None),
}


def _regressor_wide_values(values):
    return np.concatenate([values, values], axis=2)


def _regressor_nan_values(values):
    values[2, 0, 0] = np.nan
    return values


#: Cases of a regressor's file (a DecisionTreeRegressor), as CASES.
REGRESSOR_CASES = {
    "regressor_cycle": (with_nodes(_cycle), "child_before_parent"),
    "regressor_nan_values": (with_values(_regressor_nan_values), "bad_value"),
    "regressor_wide_values": (with_values(_regressor_wide_values), "value_shape"),
    "regressor_flat_values": (with_values(lambda v: v[:, 0, :]), "value_shape"),
    "regressor_negative_weight": (with_nodes(_edit("weighted_n_node_samples", _a_leaf, -2.0)),
                                  "negative_weight"),
    "regressor_no_samples": (with_nodes(_edit("n_node_samples", _a_leaf, 0)), "bad_value"),
    **{f"regressor_setting_{name}": (setting(name, value), "bad_setting")
       for name, value in BAD_SETTINGS.items()},
    "regressor_criterion_gini": (setting("criterion", "gini"), "bad_setting"),
    "regressor_valid": (lambda d: d, None),
}


def valid_file(kind):
    """A real .skops file of a tree fitted on Iris: a classifier (string
    labels) or a regressor (of ``training_data("regressor")``)."""
    import skops.io as sio
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    X, y = training_data(kind)
    cls = DecisionTreeClassifier if kind == "classifier" else DecisionTreeRegressor
    return sio.dumps(cls(max_depth=3, random_state=0).fit(X, y))


def training_data(kind):
    """(X, y) the valid files were fitted on: Iris's four measurements, and its
    species (classifier) or a number made of them (regressor)."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    if kind == "classifier":
        return X, y.map(dict(enumerate(["setosa", "versicolor", "virginica"])))
    return X, X.iloc[:, 0] * 2.0 - X.iloc[:, 3]


def every_case():
    """(kind, name, make, expected code) of every case, both kinds of file."""
    return ([("classifier", name, *CASES[name]) for name in sorted(CASES)]
            + [("regressor", name, *REGRESSOR_CASES[name]) for name in sorted(REGRESSOR_CASES)])
