"""A class vote in real Chromium: the presenter (1280x720, presenter mode)
opens a vote with V; students on phones (360x740, in English and Chinese)
open the room's link, vote and change a vote; the projector's tally counts
them; A reveals the ranking; the students read the verdict and follow the
presenter's next step on their stage, and back to the first; one explores
on their own from the presenter's step and follows again; the presenter
ends the class.  A student's page offers no presenter control.
Screenshots go to tests/browser/artifacts/room/."""

import re

import pytest

from tests.browser.conftest import ARTIFACTS, open_app, wait_for_app, wait_for_drawn
from tests.helpers.room_stage_js import stage_shows

SHOTS = ARTIFACTS / "room"
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module", autouse=True)
def shots_folder():
    SHOTS.mkdir(parents=True, exist_ok=True)


def shoot(page, name):
    """A screenshot with the room's bar at the top of the phone's screen."""
    page.locator(".st-key-room_bar").evaluate("(el) => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def press(page, key):
    page.mouse.click(3, 3)
    page.keyboard.press(key)


def vote(student, option, threshold=None):
    card = student.locator(".st-key-vote_card")
    card.locator('[data-testid="stRadio"] label').filter(has_text=option).first.click()
    if threshold is not None:  # the ranges of the feature's threshold appear
        ranges = student.locator(".st-key-vote_range label").filter(has_text=threshold)
        ranges.first.click()
        student.wait_for_function(f"""() => [...document.querySelectorAll(
            '.st-key-vote_range input')].some((i) => i.checked
            && i.closest('label').innerText.includes({threshold!r}))""")
    student.locator(".st-key-vote_send button").click()
    student.wait_for_function(f"""() => {{
      const c = document.querySelector('.st-key-vote_card');
      return c && c.innerText.includes({option!r}) && /(Your vote|你的投票)/.test(c.innerText);
    }}""")


def test_a_class_votes_on_the_next_split_sees_the_reveal_and_follows(browser, app_url):
    presenter = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    students = [browser.new_context(viewport=PHONE).new_page() for _ in range(3)]
    try:
        open_app(presenter, f"{app_url}/?data=iris&preset=CART&present=true&step=0")
        wait_for_drawn(presenter)
        press(presenter, "v")
        presenter.wait_for_function("""() => {
          const p = document.querySelector('.st-key-vote_panel');
          return p && p.innerText.includes('/join?room=') && p.querySelector('img');
        }""")
        wait_for_app(presenter)
        text = presenter.locator(".st-key-vote_panel").inner_text()
        code = re.search(r"\b([A-Z2-9]{6})\b", text).group(1)
        link = re.search(r"(http://\S+/join\?room=" + code + ")", text).group(1)
        assert link.startswith(app_url)
        presenter.screenshot(path=str(SHOTS / "presenter-vote-en.png"))

        for student, lang in zip(students, ["en", "en", "zh"]):
            open_app(student, f"{link}&lang={lang}")
            student.locator(".st-key-vote_card").wait_for()
            wait_for_app(student)
            # a student has no presenter control
            assert student.locator(".st-key-class_vote").count() == 0
            assert student.locator(".st-key-vote_reveal").count() == 0
        shoot(students[2], "student-vote-zh")
        vote(students[0], "petal length (cm)", threshold="1.55 – 4.35")
        vote(students[1], "sepal width (cm)")
        vote(students[2], "petal width (cm)")
        vote(students[1], "petal length (cm)")  # changed before the reveal
        shoot(students[0], "student-voted-en")

        presenter.wait_for_function("""() => {
          const p = document.querySelector('.st-key-vote_panel');
          return p && /\\b3 votes\\b/.test(p.innerText) && /petal length \\(cm\\) · 2/.test(p.innerText);
        }""")
        press(presenter, "a")
        presenter.wait_for_function("""() => {
          const p = document.querySelector('.st-key-vote_panel');
          return p && p.querySelector('[data-testid="stDataFrame"]');
        }""")
        presenter.wait_for_function("""() => document.querySelector('.st-key-vote_panel')
            .innerText.includes('in the range 1.55 – 4.35, picked by 1 of the 1 who chose')""")
        presenter.screenshot(path=str(SHOTS / "presenter-reveal-en.png"))
        for student in students:
            student.wait_for_function("""() => {
              const c = document.querySelector('.st-key-vote_card');
              return c && /(The tree chose|Right:|决策树选择了|答对了)/.test(c.innerText);
            }""")
        shoot(students[2], "student-reveal-zh")

        press(presenter, "ArrowRight")
        presenter.wait_for_function("() => /[?&]step=1\\b/.test(location.search)")
        for student in students:  # the followers see the presenter's step on their stage
            student.wait_for_function(stage_shows(3, "Step 1 of|第 1 步"))
            assert student.locator(".st-key-stepbar").count() == 0  # (no page of their own)
        shoot(students[0], "student-follows-en")
        shoot(students[2], "student-follows-zh")

        # a student explores on their own from the presenter's view, and comes back
        students[0].locator(".st-key-room_explore button").click()
        students[0].locator(".st-key-stepbar").wait_for()
        students[0].wait_for_function("() => /[?&]step=1\\b/.test(location.search)")
        wait_for_drawn(students[0])
        students[0].locator(".st-key-next button").click()
        students[0].wait_for_function("() => /[?&]step=2\\b/.test(location.search)")
        students[0].locator(".st-key-room_follow button").click()
        students[0].wait_for_function(stage_shows(3, "Step 1 of"))
        students[0].locator(".st-key-stepbar").wait_for(state="detached")

        press(presenter, "Home")  # back to the first step, which the URL leaves out
        presenter.wait_for_function("() => !/[?&]step=/.test(location.search)")
        for student in students:
            student.wait_for_function(stage_shows(1, "Step 0 of|第 0 步"))

        wait_for_app(presenter)
        # the end of the class (an icon-only button in presenter mode: its tooltip
        # copy is a second button with the same name)
        presenter.locator(".st-key-room_end button").first.click()
        for student in students:
            student.wait_for_function("""() => /(The class room has ended|课堂已结束)/
                .test(document.body.innerText)""")
        assert presenter.locator(".st-key-room_end").count() == 0
    finally:
        for page in [presenter, *students]:
            page.context.close()
