"""The documentation's screenshots (docs/screens/), taken as the audience
sees the app: headless Chromium at 1280x720, presenter mode (unless a
view's link says ``present=false``), in English and Chinese.  Run with ``make screens``; look at every picture before linking it.

Not a test: it serves the app on a free local port (the browser tests'
``serve``) and waits for the app's own signals before each picture."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser.conftest import (APP_PATH, CHROMIUM, CHROMIUM_ARGS, REPO_ROOT,
                                    choose_option, expect_rerun, open_app, serve,
                                    upload_file, wait_for_drawn, wait_for_rerun)
from tests.helpers.weka import EXAMPLES

SCREENS = REPO_ROOT / "docs" / "screens"
#: A choice made by hand at Iris's root (petal width at 0.35, not the
#: algorithm's petal length at 2.45), as a link.
IRIS_BY_HAND = "forced=%7B%22feature%22%3A%22petal+width+%28cm%29%22%2C%22threshold%22%3A0.35%7D"
#: (name, path[, languages]): each taken in both languages unless it says,
#: as NAME-LANG-1280x720.png; in presenter mode unless the path says
#: ``present=``.
VIEWS = [
    ("grow-loan-first", "/?data=loan&preset=ID3&step=0"),
    ("grow-loan-middle", "/?data=loan&preset=ID3&step=1"),
    ("grow-loan-last", "/?data=loan&preset=ID3&step=99"),
    ("grow-wine-first", "/?data=wine&max_depth=4&step=0"),
    ("grow-wine-middle", "/?data=wine&max_depth=4&step=3"),
    ("grow-wine-last", "/?data=wine&max_depth=4&step=99"),
    ("grow-penguins-c45-last", "/?data=penguins&preset=C4.5&step=99"),
    ("grow-penguins-c45-whole", "/?data=penguins&preset=C4.5&step=99&tree_view=whole"),
    ("grow-penguins-cart-last", "/?data=penguins&preset=CART&max_depth=none&step=99"),
    ("compare-default", "/compare?data=wine&cmp_step=99"),
    ("compare-2", "/compare?data=wine&cmp_step=99"),
    ("compare-4", "/compare?data=wine&cmp_n=4&cmp_step=99"),
    # the Compare page's resamples view: presenter mode, and as a student sees it
    ("compare-resamples", "/compare?data=penguins&cmp_mode=resamples&cmp_n=3&cmp_step=3"),
    ("compare-resamples-charts",
     "/compare?data=penguins&cmp_mode=resamples&cmp_n=3&cmp_step=3&cmp_rchart=scores"),
    ("compare-resamples-page",
     "/compare?data=penguins&cmp_mode=resamples&cmp_step=3&present=false"),
    ("prune-default", "/prune?data=wine"),
    ("prune-two", "/prune?data=wine&prune_trees=two"),
    # (the Prune page's view is in the link by its key, in either language)
    ("prune-steps", "/prune?data=wine&prune_view=steps"),
    ("prune-ebp", "/prune?data=penguins&preset=C4.5&prune_view=ebp"),
    # greedy against lookahead on the XOR table, in presenter mode and not
    ("learn-lookahead", "/learn?learn_part=lookahead&look_data=xor"),
    ("learn-lookahead-normal", "/learn?learn_part=lookahead&look_data=xor&present=false"),
    # manual mode: the chooser open at the root, and the tree after the choice
    ("grow-manual-chooser", "/?data=iris&step=0"),
    ("grow-manual-chooser-normal", "/?data=iris&step=0&present=false"),
    ("grow-manual-after", f"/?data=iris&step=1&{IRIS_BY_HAND}"),
    ("grow-manual-after-normal", f"/?data=iris&step=3&present=false&{IRIS_BY_HAND}"),
]
#: (name, file): the Data page once the file is uploaded, in both languages.
UPLOADS = [("data-arff-weather", EXAMPLES / "weather.nominal.arff")]
UPLOAD_OPTION = {"en": "Upload a file", "zh": "上传文件"}

#: Views whose picture is taken scrolled to an element (a selector), below
#: the trees.
SCROLL_TO = {"compare-resamples-charts": ".st-key-cmp_rchart"}


def scroll(page, pixels: int) -> None:
    """Scroll the page's main area down by ``pixels``."""
    page.evaluate("(n) => { document.querySelector('[data-testid=\"stMain\"]').scrollTop += n; }",
                  pixels)


def open_chooser(page, down: int = 0) -> None:
    """The Grow page's Choose-the-split popover, with petal width at 0.35,
    the page then scrolled ``down`` so that all of it is in the window (its
    opening reruns the page, which scrolls back to the top)."""
    expect_rerun(page)
    page.locator(".st-key-manual button").first.click()
    wait_for_rerun(page)
    page.locator(".st-key-manual_box").wait_for(state="visible")
    expect_rerun(page)
    choose_option(page, page.locator(".st-key-manual_feature [role='combobox']"),
                  "petal width (cm)")
    wait_for_rerun(page)  # (the threshold list is the new feature's)
    wait_for_drawn(page)
    choose_option(page, page.locator(".st-key-manual_split [role='combobox']"),
                  "≤ 0.35 | > 0.35")
    if down:
        wait_for_drawn(page)
        scroll(page, down)


#: What is done on a view before its picture, by name.
ACTIONS = {"grow-manual-chooser": open_chooser,
           "grow-manual-chooser-normal": lambda page: open_chooser(page, down=300),
           "grow-manual-after-normal": lambda page: scroll(page, 330)}


def take(views=VIEWS, languages=("en", "zh"), out: Path = SCREENS,
         uploads=UPLOADS) -> list[Path]:
    """Screenshots of ``views`` in ``languages``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with serve(APP_PATH, "screens.log") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            shots = [(name, path, None, *only) for name, path, *only in views] + \
                [(name, "/data", file, *only) for name, file, *only in uploads if file.is_file()]
            for name, path, file, *only in shots:
                for lang in (only[0] if only else languages):
                    page = browser.new_context(viewport={"width": 1280, "height": 720}
                                               ).new_page()
                    sep = "&" if "?" in path else "?"
                    present = "" if "present=" in path else "present=true&"
                    if file is None:
                        open_app(page, f"{url}{path}{sep}{present}lang={lang}")
                    else:  # (Weka's examples: apt-get install weka)
                        upload_file(page, f"{url}{path}{sep}{present}lang={lang}", str(file),
                                    option=UPLOAD_OPTION[lang])
                    wait_for_drawn(page)
                    if name in SCROLL_TO:
                        page.locator(SCROLL_TO[name]).scroll_into_view_if_needed()
                        page.evaluate("() => document.querySelector("
                                      f"{SCROLL_TO[name]!r}).scrollIntoView()")
                        wait_for_drawn(page)
                    if name in ACTIONS:
                        ACTIONS[name](page)
                        wait_for_drawn(page)
                    target = out / f"{name}-{lang}-1280x720.png"
                    page.screenshot(path=str(target))
                    page.context.close()
                    written.append(target)
                    print(target.relative_to(REPO_ROOT), flush=True)
        finally:
            browser.close()
    return written


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    take([v for v in VIEWS if not wanted or v[0] in wanted],
         uploads=[u for u in UPLOADS if not wanted or u[0] in wanted])
