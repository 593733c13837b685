"""A bigger hall: two app processes share their rooms through a real
redis-server (started here, on 127.0.0.1).  A presenter served by one
process opens a vote; a student served by the other joins by the code and
votes; the presenter's tally counts the vote, and the student follows the
presenter's next step."""

import re

from tests.helpers.room_stage_js import stage_shows
from tests.browser.conftest import APP_PATH, open_app, serve, wait_for_app, wait_for_drawn
from tests.helpers.installed import require
from tests.helpers.redis_server import REDIS_SERVER, running_redis


def press(page, key):
    page.mouse.click(3, 3)
    page.keyboard.press(key)


def test_a_vote_through_one_process_reaches_the_presenter_on_another(browser, tmp_path):
    require(REDIS_SERVER is not None, "redis-server")
    with running_redis(tmp_path) as redis_url:
        env = {"DTREE_ROOM_STORE": redis_url}
        with serve(APP_PATH, "redis-a.log", env) as one, \
                serve(APP_PATH, "redis-b.log", env) as other:
            presenter = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
            student = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
            try:
                open_app(presenter, f"{one}/?data=iris&preset=CART&present=true&step=0")
                wait_for_drawn(presenter)
                press(presenter, "v")
                presenter.wait_for_function("""() => {
                  const p = document.querySelector('.st-key-vote_panel');
                  return p && p.innerText.includes('/join?room=');
                }""")
                code = re.search(r"join\?room=([A-Z2-9]{6})",
                                 presenter.locator(".st-key-vote_panel").inner_text()).group(1)

                open_app(student, f"{other}/join?room={code}")  # the other process
                student.locator(".st-key-vote_card").wait_for()
                wait_for_app(student)
                student.locator('.st-key-vote_card [data-testid="stRadio"] label').filter(
                    has_text="petal width (cm)").first.click()
                student.locator(".st-key-vote_send button").click()
                presenter.wait_for_function("""() => {
                  const p = document.querySelector('.st-key-vote_panel');
                  return p && /\\b1 vote\\b/.test(p.innerText)
                    && /petal width \\(cm\\) · 1/.test(p.innerText);
                }""")
                press(presenter, "ArrowRight")
                student.wait_for_function(stage_shows(3, "Step 1 of"))  # the stage, via Redis
            finally:
                presenter.context.close()
                student.context.close()
