"""Edge widths in a real browser: a link with ``edges=samples`` opens the
tree in presenter mode at 1280x720 with edges as wide as the rows that pass,
the thicker of two sibling edges leading to the child with more samples.
Screenshots (English, Chinese) go to tests/browser/artifacts/edges/."""

import re

import pytest

from tests.browser.conftest import ARTIFACTS, open_app, wait_for_drawn

SHOTS = ARTIFACTS / "edges"
LINK = "/?data=penguins&preset=C4.5&step=4&present=true&edges=samples&details=full"

#: Each edge's (parent, child, stroke width) and each node's sample count,
#: read from the drawn SVG (Graphviz names nodes and edges in <title>).
READ = r"""() => {
  const svg = document.querySelector('[data-testid="stGraphVizChart"] svg');
  const samples = {};
  for (const g of svg.querySelectorAll('g.node')) {
    const text = [...g.querySelectorAll('text')].map(t => t.textContent).join('\n');
    const m = text.match(/(?:samples|样本数) = ([0-9.]+)/);
    if (m) samples[g.querySelector('title').textContent] = parseFloat(m[1]);
  }
  const edges = [...svg.querySelectorAll('g.edge')].map(g => {
    const [a, b] = g.querySelector('title').textContent.split('->');
    const path = g.querySelector('path');
    return {parent: a, child: b, width: parseFloat(path.getAttribute('stroke-width') || '1')};
  });
  const legend = [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .map(c => c.textContent);
  return {samples, edges, legend};
}"""


@pytest.mark.parametrize("lang,legend", [
    ("en", "Edge width ∝ rows reaching the child"), ("zh", "边宽 ∝ 到达子结点的样本数")])
def test_edges_are_as_wide_as_the_rows_that_pass(page, app_url, lang, legend):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_url}{LINK}&lang={lang}")
    wait_for_drawn(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"edges-{lang}.png"))
    drawn = page.evaluate(READ)
    widths = [e["width"] for e in drawn["edges"]]
    assert len(widths) >= 4 and len(set(widths)) > 1, widths
    assert any(legend in text for text in drawn["legend"]), drawn["legend"]
    samples = drawn["samples"]
    siblings = {}
    for e in drawn["edges"]:
        siblings.setdefault(e["parent"], []).append(e)
    compared = 0
    for kids in siblings.values():
        kids = [k for k in kids if k["child"] in samples]
        for a in kids:
            for b in kids:
                if samples[a["child"]] > samples[b["child"]]:
                    assert a["width"] > b["width"], (a, b, samples)
                    compared += 1
    assert compared >= 1
    # across the whole tree too: the width never falls as the child's rows grow
    order = sorted((samples[e["child"]], e["width"]) for e in drawn["edges"]
                   if e["child"] in samples)
    assert all(w1 <= w2 for (_, w1), (_, w2) in zip(order, order[1:])), order
    assert re.search(r"[?&]edges=samples", page.url)
