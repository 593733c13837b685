"""A reader of the DOT that export_graphviz writes, modelled on Graphviz's
scanner and label escapes, and scikit-learn's labels read the same way."""

import re

from sklearn.tree import export_graphviz as sk_export_graphviz


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<string>"(?:\\\\|\\"|[^"\\]|\\(?![\\"]))*")
  | (?P<arrow>->)
  | (?P<number>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
  | (?P<id>[A-Za-z_\u0080-\U0010ffff][A-Za-z_0-9\u0080-\U0010ffff]*)
  | (?P<punct>[{}\[\];,=])
    """,
    re.VERBOSE,
)


def dot_tokens(text):
    """Split DOT source into (kind, value) tokens; strings are returned as
    Graphviz's scanner stores them (only ``\\"`` is turned into ``"``)."""
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None, f"unexpected DOT text at {pos}: {text[pos:pos + 40]!r}"
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        value = m.group()
        if kind == "string":
            body = value[1:-1]
            assert "\n" not in body and "\r" not in body, "raw line break in a DOT string"
            # Graphviz's scanner: \" -> ", and \\ stays as a pair.
            value = re.sub(r'\\(["\\])', lambda g: '"' if g.group(1) == '"' else "\\\\", body)
        tokens.append((kind, value))
    return tokens


def parse_dot(text):
    """Parse the subset of DOT that export_graphviz writes.

    Returns (nodes, edges, defaults): nodes maps node name -> attribute
    dict, edges is a list of (tail, head, attributes); a node or edge that
    is declared twice fails the test.
    """
    toks = dot_tokens(text)
    i = 0

    def take(kind=None, value=None):
        nonlocal i
        assert i < len(toks), "DOT ended early"
        k, v = toks[i]
        if kind is not None:
            assert k == kind, f"expected {kind} at token {i}, got {k} {v!r}"
        if value is not None:
            assert v == value, f"expected {value!r} at token {i}, got {v!r}"
        i += 1
        return v

    def peek():
        return toks[i] if i < len(toks) else (None, None)

    def attr_list():
        attrs = {}
        take("punct", "[")
        while peek() != ("punct", "]"):
            key = take("id")
            take("punct", "=")
            kind, value = peek()
            assert kind in ("string", "id", "number"), f"bad attribute value {value!r}"
            take()
            assert key not in attrs, f"attribute {key} given twice"
            attrs[key] = value
            if peek() == ("punct", ","):
                take()
        take("punct", "]")
        return attrs

    take("id", "digraph")
    take("id")
    take("punct", "{")
    nodes, edges, defaults = {}, [], {}
    while peek() != ("punct", "}"):
        kind, value = peek()
        if kind == "id" and value in ("node", "edge", "graph"):
            take()
            defaults.setdefault(value, {}).update(attr_list())
        elif (kind, value) == ("punct", "{"):
            # {rank=same ; a; b; ...}
            take()
            take("id", "rank")
            take("punct", "=")
            take("id", "same")
            while peek() != ("punct", "}"):
                if peek() == ("punct", ";"):
                    take()
                else:
                    assert take("number") in nodes
            take("punct", "}")
        elif kind == "id":
            take()
            take("punct", "=")
            kind2, _ = peek()
            assert kind2 in ("id", "string", "number")
            defaults[value] = take()
        else:
            name = take("number")
            if peek() == ("arrow", "->"):
                take()
                head = take("number")
                attrs = attr_list() if peek() == ("punct", "[") else {}
                edges.append((name, head, attrs))
            else:
                assert name not in nodes, f"node {name} declared twice"
                nodes[name] = attr_list()
        if peek() == ("punct", ";"):
            take()
    take("punct", "}")
    assert i == len(toks), "text after the closing brace"
    for tail, head, _ in edges:
        assert tail in nodes and head in nodes, f"edge {tail} -> {head} to an undeclared node"
    return nodes, edges, defaults


def label_lines_of(raw):
    """Decode a scanned label the way Graphviz draws it: `\\n` separates
    lines, `\\\\` is a backslash and `&amp;` an ampersand.  Any other
    backslash or ampersand sequence fails the test, since Graphviz would
    interpret it."""
    lines, current, pos = [], [], 0
    while pos < len(raw):
        if raw.startswith("\\n", pos):
            lines.append("".join(current))
            current = []
            pos += 2
        elif raw.startswith("\\\\", pos):
            current.append("\\")
            pos += 2
        elif raw.startswith("&amp;", pos):
            current.append("&")
            pos += 5
        else:
            assert raw[pos] not in "\\&", f"uninterpreted escape in label {raw!r}"
            current.append(raw[pos])
            pos += 1
    lines.append("".join(current))
    return lines


def sklearn_labels(est, **kwargs):
    """Node labels of scikit-learn's export_graphviz, numbers normalised
    (it prints 0.0 / 755.0 where dtree prints 0 / 755)."""
    nodes, _, _ = parse_dot(sk_export_graphviz(est, **kwargs))
    return {
        n: [re.sub(r"(?<![\d.])(-?\d+)\.0(?!\d)", r"\1", line)
            for line in label_lines_of(a["label"])]
        for n, a in nodes.items()
    }
