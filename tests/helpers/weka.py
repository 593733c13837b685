"""Weka as the oracle: ARFF files in and out, J48/Id3 runs, their printed trees.

* ``read_arff(path)`` -> ``(X, y)``: nominal attributes become pandas
  Categoricals with their declared values in declared order, numeric ones
  float64 (``?`` is NaN); the class is the last attribute.
* ``write_arff(path, X, y)`` writes a DataFrame back (Categoricals and
  object columns as nominal, the rest numeric, NaN as ``?``).
* ``run_weka(classifier, path, *options)`` runs Weka on the whole file
  (``-no-cv``) and returns its output; ``parse_tree(text, X)`` turns the
  printed tree into nested dicts; ``dtree_tree(est)`` gives a fitted dtree
  classifier in the same form, and ``compare(ours, theirs)`` walks both.

A printed J48 node is ``{"feature", "kind", "threshold", "branches",
"children"}`` (``kind`` "nominal" or "numeric"; a numeric node has the two
branches ``<=`` and ``>``) and a leaf is ``{"label", "n", "errors"}``, where
``n`` is the weight the parent's split sent down the branch and ``errors``
the part of it not in the leaf's class (Weka prints them to 2 decimals and
leaves out errors <= 1e-6).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
from tests.helpers.installed import running_in_ci

EXAMPLES = Path("/usr/share/doc/weka/examples")
JAR_CANDIDATES = ("/usr/share/java/weka.jar",)


# ---------------------------------------------------------------------------
# finding Weka
# ---------------------------------------------------------------------------

def weka_jar() -> str | None:
    """Path of weka.jar, or None when Weka (or java) is not installed."""
    if shutil.which("java") is None:
        return None
    env = os.environ.get("DTREE_WEKA_JAR")
    for path in ([env] if env else []) + list(JAR_CANDIDATES):
        if path and Path(path).is_file():
            return path
    return None


def require_weka(*, data_only: bool = False) -> None:
    """Skip the calling test when Weka (java and weka.jar, or for
    ``data_only`` its example ARFF files) is absent; with ``CI`` set, fail
    instead, since CI installs it (``make weka``)."""
    import pytest

    if data_only:
        problem = None if EXAMPLES.is_dir() else f"Weka's examples are not in {EXAMPLES}"
    else:
        problem = None if weka_jar() else "java or weka.jar is missing"
    if problem is None:
        return
    message = f"Weka is not installed ({problem}); run `make weka` (apt-get install weka)"
    if running_in_ci():
        pytest.fail(message)
    pytest.skip(message)


def example_files() -> list[Path]:
    """Weka's example ARFF files (empty when the package is absent)."""
    return sorted(EXAMPLES.glob("*.arff")) if EXAMPLES.is_dir() else []


# ---------------------------------------------------------------------------
# ARFF
# ---------------------------------------------------------------------------

def _split_fields(line: str) -> list[str]:
    """Comma-separated ARFF fields; quotes (' or ") group, backslash escapes."""
    out, cur, quote, i, quoted = [], [], None, 0, False
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < len(line):
                cur.append(line[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"" and not "".join(cur).strip():
            quote, quoted, cur = ch, True, []
        elif ch == ",":
            out.append(("".join(cur), quoted))
            cur, quoted = [], False
        elif not (quoted and ch.isspace()):
            cur.append(ch)
        i += 1
    out.append(("".join(cur), quoted))
    return [v if q else v.strip() for v, q in out]


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1]
    return token


def read_arff_meta(path) -> tuple[str, list[tuple[str, object]], list[list[str]]]:
    """(relation, [(name, 'numeric' | 'string' | [values])], rows as strings)."""
    relation, attrs, rows = "", [], []
    in_data = False
    for raw in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if in_data:
            if line.startswith("{"):
                raise ValueError(f"{path}: sparse ARFF rows are not supported")
            rows.append(_split_fields(line))
            continue
        low = line.lower()
        if low.startswith("@relation"):
            relation = _unquote(line[len("@relation"):])
        elif low.startswith("@attribute"):
            rest = line[len("@attribute"):].strip()
            if rest[0] in "'\"":
                end = rest.index(rest[0], 1)
                name, spec = rest[1:end], rest[end + 1:].strip()
            else:
                name, spec = re.split(r"\s+", rest, maxsplit=1)
            if spec.startswith("{"):
                body = spec[1:spec.rindex("}")]
                kind = [v for v in _split_fields(body)]
            else:
                word = spec.split()[0].lower()
                kind = "numeric" if word in ("numeric", "real", "integer") else word
            attrs.append((name, kind))
        elif low.startswith("@data"):
            in_data = True
    return relation, attrs, rows


def read_arff(path) -> tuple[pd.DataFrame, pd.Series]:
    """X (all attributes but the last) and y (the last), as described above."""
    _, attrs, rows = read_arff_meta(path)
    if any(kind not in ("numeric",) and not isinstance(kind, list) for _, kind in attrs):
        raise ValueError(f"{path}: only nominal and numeric attributes are supported")
    cols = {}
    for j, (name, kind) in enumerate(attrs):
        raw = [r[j] for r in rows]
        if kind == "numeric":
            cols[name] = np.array([np.nan if v == "?" else float(v) for v in raw])
        else:
            cols[name] = pd.Categorical([None if v == "?" else v for v in raw],
                                        categories=kind)
    frame = pd.DataFrame(cols)
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def _quote(value) -> str:
    text = str(value)
    if re.fullmatch(r"[A-Za-z0-9_.+-]+", text) and text != "?":
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path, X: pd.DataFrame, y, relation: str = "dtree") -> Path:
    """Write X and y (the class, last) as ARFF.  Categorical/object columns are
    nominal (a Categorical keeps its declared values), the rest numeric."""
    frame = X.copy()
    frame[getattr(y, "name", None) or "class"] = y.values if isinstance(y, pd.Series) else y
    lines = [f"@relation {_quote(relation)}", ""]
    kinds = []
    for name in frame.columns:
        col = frame[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            values = [str(v) for v in col.cat.categories]
        elif not pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col):
            values = sorted({str(v) for v in col.dropna()})
        else:
            values = None
        kinds.append(values)
        spec = "numeric" if values is None else "{" + ",".join(_quote(v) for v in values) + "}"
        lines.append(f"@attribute {_quote(name)} {spec}")
    lines += ["", "@data"]
    for row in frame.itertuples(index=False):
        fields = []
        for v, values in zip(row, kinds):
            if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA:
                fields.append("?")
            elif values is None:
                fields.append(repr(float(v)))
            else:
                fields.append(_quote(v))
        lines.append(",".join(fields))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Path(path)


# ---------------------------------------------------------------------------
# running Weka and reading its tree
# ---------------------------------------------------------------------------

def run_weka(classifier: str, path, *options: str, timeout: float = 300) -> str:
    """Weka's output for ``classifier`` trained on the whole of ``path``."""
    jar = weka_jar()
    if jar is None:
        raise RuntimeError("Weka is not installed (apt-get install weka)")
    cmd = ["java", "-Xmx1g", "-cp", jar, classifier, "-t", str(path), *options, "-no-cv",
           "-v"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def j48_text(path, *options: str) -> str:
    return run_weka("weka.classifiers.trees.J48", path, *options)


_LEAF = re.compile(r"^(?P<label>.*) \((?P<n>-?[0-9.]+(?:E-?\d+)?)(?:/(?P<e>-?[0-9.]+(?:E-?\d+)?))?\)$")


def _leaf(text: str) -> dict:
    m = _LEAF.match(text.strip())
    if m is None:
        raise ValueError(f"cannot read the leaf {text!r}")
    return {"label": m["label"], "n": float(m["n"]), "errors": float(m["e"] or 0.0)}


def _tree_lines(text: str) -> list[str]:
    """The lines of the printed tree, between the header rule and the counts."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if re.match(r"^-{5,}$", ln.strip())) + 1
    out = []
    for ln in lines[start:]:
        if ln.startswith("Number of Leaves"):
            break
        if ln.strip():
            out.append(ln.rstrip())
    return out


def parse_tree(text: str, feature_names) -> dict:
    """The tree Weka printed (J48 or Id3 format), as nested dicts."""
    lines = _tree_lines(text)
    if len(lines) == 1 and lines[0].startswith(":"):
        return _leaf(lines[0][1:])
    names = sorted((str(n) for n in feature_names), key=len, reverse=True)
    parsed = []
    for ln in lines:
        depth = 0
        while ln.startswith("|   "):
            ln, depth = ln[4:], depth + 1
        name = next((n for n in names if ln.startswith(n + " ")), None)
        if name is None:
            raise ValueError(f"cannot read the line {ln!r}")
        rest = ln[len(name) + 1:]
        m = re.match(r"^(<=|>|=) ", rest)
        op, rest = m[1], rest[len(m[0]):]
        if op == "=":
            # the branch value ends at ": " before a leaf; values may hold ':'
            value, leaf = rest, None
            mm = re.match(r"^(.*?): (.* \([^()]*\))$", rest)
            if mm:
                value, leaf = mm[1], _leaf(mm[2])
        else:
            num, _, tail = rest.partition(":")
            value, leaf = float(num), (_leaf(tail) if tail else None)
        parsed.append((depth, name, op, value, leaf))

    def build(i, depth):
        """The node whose branch lines start at parsed[i]; returns (node, next i)."""
        name, op = parsed[i][1], parsed[i][2]
        node = {"feature": name, "kind": "nominal" if op == "=" else "numeric",
                "threshold": None if op == "=" else parsed[i][3],
                "branches": [], "children": []}
        while i < len(parsed) and parsed[i][0] == depth and parsed[i][1] == name:
            _, _, op_i, value, leaf = parsed[i]
            node["branches"].append(op_i if op_i != "=" else value)
            i += 1
            if leaf is not None:
                node["children"].append(leaf)
            else:
                child, i = build(i, depth + 1)
                node["children"].append(child)
            if op_i == ">":
                break
        return node, i

    root, end = build(0, 0)
    assert end == len(parsed), "unread lines in Weka's tree"
    return root


def weka_class_of(counts) -> int:
    """Weka's Distribution.maxClass: the first class whose weight beats the
    best so far by more than 1e-6."""
    best, idx = 0.0, 0
    for i, c in enumerate(counts):
        if c > best + 1e-6:
            best, idx = c, i
    return idx


def dtree_tree(est, tree=None) -> dict:
    """A fitted dtree classifier's tree in ``parse_tree``'s form."""
    tree = est.tree_ if tree is None else tree
    names = est.feature_names_
    classes = [str(c) for c in est.classes_]

    def walk(node):
        kids = tree.children_of(node)
        w = float(tree.weighted_n_node_samples[node])
        if not kids:
            counts = tree.value[node, 0] * w
            # an empty branch has no counts: it is labelled by its value (the parent's)
            label = weka_class_of(counts if w > 0 else tree.value[node, 0])
            return {"label": classes[label], "n": w, "errors": w - float(counts[label])}
        f = int(tree.feature[node])
        if est.is_categorical_[f]:
            labels = [str(c) for c in est.categories_[f]]
            branch = tree.branch_of_code[node]
            order = [labels[c] for c in np.argsort(branch, kind="stable") if branch[c] >= 0]
            return {"feature": names[f], "kind": "nominal", "threshold": None,
                    "branches": order, "children": [walk(k) for k in kids]}
        return {"feature": names[f], "kind": "numeric", "threshold": float(tree.threshold[node]),
                "branches": ["<=", ">"], "children": [walk(k) for k in kids]}

    return walk(0)


def compare(ours: dict, theirs: dict, path: str = "root", *, weight_tol: float = 0.01,
            threshold_tol: float = 1e-6) -> None:
    """Raise AssertionError at the first node where the trees differ.  Weights
    are compared with Weka's 2-decimal rounding, thresholds with 6 decimals."""
    if "label" in theirs:
        assert "label" in ours, f"{path}: Weka has a leaf, dtree splits on {ours['feature']}"
        assert ours["label"] == theirs["label"], \
            f"{path}: leaf class {ours['label']!r} != Weka's {theirs['label']!r}"
        for key in ("n", "errors"):
            got = ours[key] if ours[key] > 1e-6 or key == "n" else 0.0
            assert abs(round(got, 2) - theirs[key]) <= weight_tol + 1e-9, \
                f"{path}: leaf {key} {got:.4f} != Weka's {theirs[key]}"
        return
    assert "label" not in ours, \
        f"{path}: Weka splits on {theirs['feature']}, dtree has a leaf {ours}"
    assert ours["feature"] == theirs["feature"], \
        f"{path}: split on {ours['feature']!r}, Weka on {theirs['feature']!r}"
    assert ours["kind"] == theirs["kind"], f"{path}: split kinds differ"
    if theirs["kind"] == "numeric":
        assert abs(round(ours["threshold"], 6) - theirs["threshold"]) <= threshold_tol + 1e-12, \
            f"{path}: threshold {ours['threshold']!r} != Weka's {theirs['threshold']!r}"
    assert [str(b) for b in ours["branches"]] == [str(b) for b in theirs["branches"]], \
        f"{path}: branches {ours['branches']} != Weka's {theirs['branches']}"
    for b, mine, weka in zip(theirs["branches"], ours["children"], theirs["children"]):
        compare(mine, weka, f"{path} > {theirs['feature']} {b}",
                weight_tol=weight_tol, threshold_tol=threshold_tol)


def count_leaves(node: dict) -> int:
    return 1 if "label" in node else sum(count_leaves(c) for c in node["children"])
