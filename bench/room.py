"""A class vote at scale: load test of a lecture room (``classroom.py room``).

    .venv/bin/python bench/classroom.py room --students 100
    .venv/bin/python bench/classroom.py room --students 100 --processes 2 --redis

Starts ``--processes`` app processes on free ports of 127.0.0.1 (with
``--redis``, or more than one process, a redis-server of its own on
127.0.0.1 with ``--save "" --appendonly no``, tests/helpers/redis_server.py,
named to every process by ``DTREE_ROOM_STORE``), then plays a class vote:

1. The presenter, a headless Chromium page at 1280x720 on the first process
   (``/?data=iris&preset=CART&present=true&step=0``), clicks Class vote
   (``class_vote``) and reads the room's code in its vote panel.  From then
   on a MutationObserver in the page logs every change of the panel's tally
   ("N votes" and the "feature · n" lines) with the page's clock
   (``Date.now()``, the same wall clock as this process's ``time.time()``).
2. ``--students`` lightweight clients (bench/classroom.py's ``Student``:
   Streamlit's websocket protocol) open ``/join?room=CODE``, spread over
   ``--join-seconds`` and over the processes in turn, and wait for the
   vote card.  As a browser does, they rerun the room bar's fragment on its
   timer (its ``run_every``: every 10 s as a safety net, as the server
   reruns it when the room changes), whether or not a run is in flight,
   and send the values they chose with every rerun.
3. Each picks a feature (the radio ``vote_feature``, a rerun of the
   fragment as in the browser; some also a threshold range, ``vote_range``)
   at a random moment within ``--spread`` seconds and clicks ``vote_send``;
   ``--change`` of them change their vote a few seconds later.  **Vote
   acknowledged**: from sending the click to receiving the ForwardMsg that
   says "Your vote: <that choice>".
4. **Tally**, two figures from the presenter's log: *per vote*, from the
   k-th student's first vote being acknowledged (k in the order of the
   acknowledgements) until the projector's total first reads k or more
   (0 when it already did: a vote not yet acknowledged was counted first);
   *final*, from the last acknowledgement (a change included) until the
   projector shows exactly the tally of the students' last votes, every
   feature's count and the total.
5. The presenter clicks Next step (``next``).  **Followers' step**: from the
   click (in the page, ``Date.now()``) to each student receiving a tree
   (graphviz element, the presenter's stage) whose DOT differs from the one
   it showed, and is step 1's (it draws node #2).  To tell where that time
   goes, also: when the presenter's own next tree was drawn (in the page),
   and when each follower's next run began (its ``new_session`` message:
   the room bar's fragment, rerun by the server).
6. The students disconnect and the presenter's page closes; each server's
   RSS is sampled every 5 s until it settles (at least 135 s: Streamlit
   keeps a closed session 120 s, the app's janitor drops it within 10 s;
   then three samples within 2 MB), at most ``--after`` seconds.

Reports p50/p95/max and errors for each figure, the CPU time of each server,
of redis-server, of the lightweight clients (this process, with Playwright's
Python side) and of Chromium, the RSS of each server at idle (warmed up, no
one connected), peak and after, and the lag of this process's event loop
(it runs every client: a late loop delays the figures it times).  Every
loop is bounded in count and time.  Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path

import classroom as cr  # bench/classroom.py: the server, the Student, CPU and RSS

sys.path.insert(0, str(cr.ROOT))
from tests.helpers.redis_server import REDIS_SERVER, running_redis  # noqa: E402

from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

PRESENTER_QUERY = "data=iris&preset=CART&present=true&step=0"
#: The targets (measured and reported, not asserted).
ACK_P95_S = 0.5
TALLY_P95_S = 1.0
FOLLOW_P95_S = 1.0
RSS_OVER_IDLE_MB = 50


def _plain(text: str) -> str:
    """Markdown as read: the escapes of dtree.views.links.md removed."""
    return re.sub(r"\\(.)", r"\1", text)


# ---------------------------------------------------------------------------
# A lightweight student in a room
# ---------------------------------------------------------------------------

class RoomStudent(cr.Student):
    """A phone in the class: joins by the link, votes, follows the presenter.

    Besides what :class:`classroom.Student` keeps, it reads the vote card
    (the radios' options, "Your vote: ..." with the time it arrived), the
    refusals, and every tree it receives with the time it arrived."""

    def __init__(self, url, name):
        super().__init__(url, name)
        self.first_page = None  # the URL's page for the first run (/join)
        self.options = {}  # radio key -> its formatted options
        self.card_seen = asyncio.Event()
        self.shown_vote = None  # the last "Your vote: ..." text, unescaped
        self.acks = []  # (epoch s when "Your vote: X" arrived, X)
        self.refusals = []
        self.trees = []  # (epoch s, DOT) of every new tree, in order
        self.held = {}  # widget id -> the value chosen (sent with every rerun)
        self.enabled = {}  # button key -> enabled as last drawn

    async def send(self, msg):
        # the browser's first message names the page of its URL (/join)
        if self.first_page is not None and msg.WhichOneof("type") == "rerun_script":
            msg.rerun_script.page_name, self.first_page = self.first_page, None
        await super().send(msg)

    async def join(self, code: str):
        self.first_page = "join"
        await self.open(query=f"room={code}")

    def _delta(self, delta):
        old_dot = self.dot
        super()._delta(delta)
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        now = time.time()
        if kind == "graphviz_chart" and self.dot != old_dot and len(self.trees) < 50:
            self.trees.append((now, self.dot))
        elif kind == "radio":
            key = el.radio.id.rsplit("-", 1)[-1]
            self.options[key] = list(el.radio.options)
            if key == "vote_feature":
                self.card_seen.set()
        elif kind == "markdown":
            body = _plain(el.markdown.body)
            if body.startswith("Your vote: ") and body != self.shown_vote:
                self.shown_vote = body
                if len(self.acks) < 50:
                    self.acks.append((now, body))
        elif kind == "button":
            self.enabled[el.button.id.rsplit("-", 1)[-1]] = not el.button.disabled
        elif kind == "alert" and "not taken" in el.alert.body:
            self.refusals.append(_plain(el.alert.body))

    async def _timer(self, fid, interval):
        """As the browser's setInterval: the fragment's rerun every
        ``interval`` seconds, whether or not a run is in flight (the server
        queues a fragment once); bounded, with room for a whole lesson."""
        for _ in range(1200):
            await asyncio.sleep(interval)
            await self.rerun(fragment=fid, auto=True)

    async def rerun(self, widgets=(), **kwargs):
        """As classroom.Student's, sending also every value this student
        chose (its radios), as the browser sends all its widgets' values
        with every rerun: a timer's rerun that the server merges with a
        pending click must not drop the click's choice."""
        given = {w.id for w in widgets}
        await super().rerun([*widgets, *(w for i, w in self.held.items() if i not in given)],
                            **kwargs)

    def _radio(self, key, label):
        wid, _, fragment = self.widgets[key]
        state = WidgetState(id=wid)
        state.string_value = label
        return state, fragment

    async def _until(self, ready, timeout):
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def choose(self, key, label):
        """Pick a radio option: a rerun of its fragment, as the browser sends."""
        state, fragment = self._radio(key, label)
        self.held[state.id] = state
        await self.rerun(fragment=fragment)

    async def vote(self, feature, with_range=False, timeout=30.0) -> float:
        """Choose ``feature`` (and, ``with_range``, one of its threshold
        ranges) and click Vote; seconds from the click until "Your vote:
        <choice>" arrives."""
        if "vote_feature" not in self.options:
            raise cr.ProtocolError(f"{self.name}: no vote card")
        label = next(o for o in self.options["vote_feature"]
                     if o == feature or o.startswith(feature + " ("))
        if "vote_range" in self.widgets:  # (another feature's ranges)
            self.held.pop(self.widgets["vote_range"][0], None)
        ranges_before = self.options.get("vote_range")
        await self.choose("vote_feature", label)
        # the button is enabled by the run that drew the choice (a first vote)
        if not await self._until(lambda: self.enabled.get("vote_send"), timeout):
            raise cr.ProtocolError(f"{self.name}: Vote button not enabled in {timeout:.0f} s")
        said = feature
        if with_range and await self._until(
                lambda: self.options.get("vote_range") not in (None, ranges_before), 10):
            await asyncio.sleep(random.uniform(0.2, 0.6))  # reading the ranges
            ranges = [r for r in self.options["vote_range"] if r != "any"]
            if ranges:
                chosen = random.choice(ranges)
                await self.choose("vote_range", chosen)
                said = f"{feature} · {chosen}"
        await asyncio.sleep(random.uniform(0.2, 0.6))  # a thumb to the button
        wid, _, fragment = self.widgets["vote_send"]
        # "Your vote: petal width (cm) · 1.55 – 4.35 (you can change it ...)"
        expected = ((f"Your vote: {said} (",) if said != feature else
                    (f"Your vote: {feature} (", f"Your vote: {feature} · "))
        start = time.time()  # (the acknowledgement's arrival is stamped by _delta)
        await self.rerun([WidgetState(id=wid, trigger_value=True)], fragment=fragment)
        if not await self._until(lambda: (self.shown_vote or "").startswith(expected),
                                 timeout):
            raise cr.ProtocolError(f"{self.name}: vote for {said} not acknowledged in "
                                   f"{timeout:.0f} s (shown: {self.shown_vote!r}, "
                                   f"refusals: {self.refusals[-1:]})")
        took = next(t for t, body in reversed(self.acks) if body.startswith(expected)) - start
        if self.exceptions:
            raise cr.ProtocolError(f"{self.name}: exception in the app: {self.exceptions[-1]}")
        return took


# ---------------------------------------------------------------------------
# The presenter: headless Chromium
# ---------------------------------------------------------------------------

_PRESENTER_READY = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !!document.querySelector('.st-key-class_vote button')
    && !!document.querySelector('[data-testid="stGraphVizChart"] svg g.node');
}"""

#: Log every change of the vote panel's tally: [Date.now(), "total;f=n|f=n"].
_WATCH_TALLY = """() => {
  window.__tally = [];
  let last = '';
  const read = () => {
    const panel = document.querySelector('.st-key-vote_panel');
    if (!panel || window.__tally.length > 5000) return;
    const text = panel.innerText;
    const total = text.match(/(\\d+) votes?\\b/);
    const lines = [...text.matchAll(/^(.+?) · (\\d+)\\s*$/gm)]
      .map((m) => m[1].trim() + '=' + m[2]).sort().join('|');
    const summary = (total ? total[1] : '?') + ';' + lines;
    if (summary !== last) { last = summary; window.__tally.push([Date.now(), summary]); }
  };
  new MutationObserver(read).observe(document.body,
    {childList: true, subtree: true, characterData: true});
  read();
}"""

#: Click Next step; the click's Date.now(), and window.__stepDrawn once the
#: presenter's own tree changed.
_CLICK_NEXT = """() => {
  // the button on screen (a rerun may leave a hidden copy for a moment)
  const b = [...document.querySelectorAll('.st-key-next button')]
    .find((e) => e.offsetParent !== null && !e.disabled);
  if (!b) return null;
  const tree = _TREE_JS;
  const before = tree();
  window.__stepDrawn = null;
  const observer = new MutationObserver(() => {
    const now = tree();
    if (now !== before && now !== '') { window.__stepDrawn = Date.now(); observer.disconnect(); }
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true,
                                   attributes: true});
  const t = Date.now();
  b.click();
  return t;
}""".replace("_TREE_JS", cr._TREE)


class Presenter:
    def __init__(self, browser, url):
        self.browser, self.url = browser, url
        self.code = None

    async def open(self):
        self.context = await self.browser.new_context(viewport={"width": 1280, "height": 720})
        self.page = await self.context.new_page()
        self.page.set_default_timeout(90_000)
        await self.page.goto(f"{self.url}/?{PRESENTER_QUERY}")
        await self.page.wait_for_function(_PRESENTER_READY, polling=100)

    async def open_vote(self) -> str:
        await self.page.locator(".st-key-class_vote button").first.click()
        await self.page.wait_for_function(
            "() => { const p = document.querySelector('.st-key-vote_panel');"
            " return p && /join\\?room=[A-Z2-9]{6}/.test(p.innerText); }", polling=100)
        text = await self.page.locator(".st-key-vote_panel").inner_text()
        self.code = re.search(r"join\?room=([A-Z2-9]{6})", text).group(1)
        await self.page.evaluate(_WATCH_TALLY)
        return self.code

    async def tally_log(self):
        """[(epoch s, total, {feature: n})] of every tally shown."""
        out = []
        for ms, summary in await self.page.evaluate("() => window.__tally || []"):
            total, _, lines = summary.partition(";")
            counts = {}
            for part in filter(None, lines.split("|")):
                feature, _, n = part.rpartition("=")
                counts[feature] = int(n)
            out.append((ms / 1000, int(total) if total.isdigit() else None, counts))
        return out

    async def next_step(self) -> float:
        """Click Next step; the epoch seconds of the click, from the page."""
        ms = await self.page.evaluate(_CLICK_NEXT)
        if ms is None:
            raise cr.ProtocolError("presenter: no enabled Next step button")
        return ms / 1000

    async def step_drawn(self):
        """Epoch seconds when the presenter's own next tree was drawn, or None."""
        ms = await self.page.evaluate("() => window.__stepDrawn")
        return None if ms is None else ms / 1000

    async def close(self):
        await self.context.close()


# ---------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------

def _child_pids(name: str) -> list[int]:
    """This process's children whose command is ``name`` (the redis-server)."""
    me, out = str(os.getpid()), []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (d / "stat").read_text()
                comm = stat[stat.index("(") + 1:stat.rindex(")")]
                if comm == name and stat.rsplit(")", 1)[1].split()[1] == me:
                    out.append(int(d.name))
    return out


class Sampler:
    """Each server's RSS every 0.5 s (its peak) and this event loop's lag."""

    def __init__(self, pids):
        self.pids = pids
        self.peak = {pid: cr.rss_mb(pid) for pid in pids}
        self.lags = []
        self.task = None

    async def _loop(self):
        for _ in range(20_000):  # (10,000 s at most)
            t = time.perf_counter()
            await asyncio.sleep(0.5)
            self.lags.append(time.perf_counter() - t - 0.5)
            for pid in self.pids:
                self.peak[pid] = max(self.peak[pid], cr.rss_mb(pid))

    def start(self):
        self.task = asyncio.create_task(self._loop())
        return self

    async def stop(self):
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def stats(values) -> dict:
    return dict(n=len(values), p50=round(cr.percentile(values, 50), 3),
                p95=round(cr.percentile(values, 95), 3),
                max=round(max(values), 3) if values else float("nan"))


def per_vote_tally(first_acks, log):
    """Seconds from the k-th first acknowledgement to the projector's total
    first reading k or more (0 if it already did); None where it never did."""
    out = []
    for k, acked in enumerate(sorted(first_acks), start=1):
        shown = next((t for t, total, _ in log if total is not None and total >= k), None)
        out.append(None if shown is None else max(0.0, shown - acked))
    return out


async def _join(student, url_code, delay, errors, joined, timeout):
    await asyncio.sleep(delay)
    t0 = time.perf_counter()
    try:
        await student.join(url_code)
        await asyncio.wait_for(student.card_seen.wait(), timeout)
        joined.append(time.perf_counter() - t0)
    except Exception as exc:
        errors.append(f"{student.name} join: {type(exc).__name__}: {exc}")


async def _voter(student, t0, args, options, acks, errors, final):
    """Vote at a random moment of the window; some change their vote."""
    weights = [1 + 2 * ("petal" in o) for o in options]  # a class leans one way
    try:
        await asyncio.sleep(max(0.0, t0 + random.uniform(0, args.spread) - time.monotonic()))
        feature = random.choices(options, weights)[0]
        with_range = random.random() < args.ranges
        acks.append(("first", await student.vote(feature, with_range)))
        final[student.name] = feature
        if random.random() < args.change:
            await asyncio.sleep(random.uniform(1.0, 3.0))
            feature = random.choice([o for o in options if o != feature])
            acks.append(("change", await student.vote(feature)))
            final[student.name] = feature
    except Exception as exc:
        errors.append(f"{student.name} vote: {type(exc).__name__}: {exc}")


async def _settle_rss(pids, bound):
    """Sample RSS every 5 s after everyone left until it settles (see the
    module's docstring); returns ({pid: MB}, seconds waited, trace)."""
    t0, trace = time.monotonic(), []
    now = {pid: cr.rss_mb(pid) for pid in pids}
    while time.monotonic() - t0 < bound:
        await asyncio.sleep(5)
        now = {pid: cr.rss_mb(pid) for pid in pids}
        trace.append((round(time.monotonic() - t0), [round(now[p]) for p in pids]))
        last = [row[1] for row in trace[-3:]]
        steady = len(last) == 3 and all(
            max(r[i] for r in last) - min(r[i] for r in last) <= 2 for i in range(len(pids)))
        if time.monotonic() - t0 >= 135 and steady:
            break
    return now, round(time.monotonic() - t0), trace


def _log_errors(names) -> list[str]:
    out = []
    for name in names:
        text = (cr.ARTIFACTS / name).read_text(errors="replace")
        out += [f"{name}: {line.strip()}" for line in text.splitlines()
                if "Traceback" in line or line.startswith(("ERROR", "Error"))][:5]
    return out


async def class_vote(args, urls, pids, logs):
    """The lesson; returns the row of figures."""
    from playwright.async_api import async_playwright

    redis_pids = _child_pids("redis-server")
    errors = {"ack": [], "tally": [], "follow": [], "join": [], "other": []}
    # warm up every process (imports, the Iris fit, the Join page) with a
    # student who opens the presenter's link, then leaves; then idle
    for url in urls:
        warm = cr.Student(url, "warm")
        await warm.open(query=PRESENTER_QUERY.replace("&present=true", ""))
        await warm.settle(120)
        await warm.close()
    await asyncio.sleep(5)
    idle = {pid: cr.rss_mb(pid) for pid in pids}
    sampler = Sampler(pids).start()
    clients = cr.ClientCPU([*pids, *redis_pids]).start()
    cpu0 = {pid: cr.cpu_seconds(pid) for pid in [*pids, *redis_pids]}
    load0, t_start = cr.loadavg(), time.monotonic()
    phases = {}

    def phase(name):
        """The servers' CPU seconds so far, and the wall seconds, at the end of a phase."""
        phases[name] = dict(wall_s=round(time.monotonic() - t_start, 1),
                            cpu_s=[round(cr.cpu_seconds(pid) - cpu0[pid], 1) for pid in pids])

    students = [RoomStudent(urls[i % len(urls)], f"s{i}") for i in range(args.students)]
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=cr.CHROMIUM, headless=True,
                                           args=cr.CHROMIUM_ARGS)
        presenter = Presenter(browser, urls[0])
        try:
            await presenter.open()
            code = await presenter.open_vote()
            phase("presenter")
            # 2. the class joins
            joined = []
            await asyncio.wait_for(asyncio.gather(*(
                _join(s, code, args.join_seconds * i / max(1, len(students)), errors["join"],
                      joined, 90) for i, s in enumerate(students))),
                args.join_seconds + 120)
            phase("join")
            options = next((s.options["vote_feature"] for s in students
                            if "vote_feature" in s.options), [])
            options = [o.removesuffix(" (numeric)") for o in options]
            voters = [s for s in students if s.card_seen.is_set()]
            # 3. the vote
            acks, final = [], {}
            t0 = time.monotonic() + 1.0
            await asyncio.wait_for(asyncio.gather(*(
                _voter(s, t0, args, options, acks, errors["ack"], final) for s in voters)),
                args.spread + 120)
            last_ack = max((s.acks[-1][0] for s in voters if s.acks), default=time.time())
            phase("vote")
            # 4. the tally: wait (bounded) until the projector shows the final one
            expected = {o: 0 for o in options}
            for feature in final.values():
                expected[feature] += 1
            shown_at, log = None, []
            for _ in range(60):  # 30 s at most
                log = await presenter.tally_log()
                shown_at = next((t for t, total, counts in log
                                 if total == len(final) and t >= last_ack - 5
                                 and all(counts.get(o, 0) == n for o, n in expected.items())),
                                None)
                if shown_at is not None:
                    break
                await asyncio.sleep(0.5)
            if shown_at is None:
                errors["tally"].append(f"final tally {expected} not shown in 30 s "
                                       f"(last: {log[-1:] if log else None})")
            first_acks = [s.acks[0][0] for s in voters if s.acks]
            per_vote = per_vote_tally(first_acks, log)
            errors["tally"] += [f"vote {k} never counted on the projector"
                                for k, v in enumerate(per_vote, 1) if v is None][:5]
            tally_final = None if shown_at is None else max(0.0, shown_at - last_ack)
            phase("tally")
            # 5. the presenter moves on; the followers take the step
            await asyncio.sleep(2)
            before = {s.name: len(s.trees) for s in voters}
            clicked = await presenter.next_step()
            follow, started = [], []
            deadline = time.monotonic() + 60
            pending = list(voters)
            while pending and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
                pending = [s for s in pending if len(s.trees) <= before[s.name]]
            for s in voters:
                new = s.trees[before[s.name]:]
                if not new:
                    errors["follow"].append(f"{s.name}: no new tree in 60 s")
                    continue
                follow.append(max(0.0, new[0][0] - clicked))
                runs = [t for t in s.runs if t >= clicked]
                if runs:
                    started.append(runs[0] - clicked)
            drawn = await presenter.step_drawn()
            if drawn is None:
                errors["follow"].append("the presenter's own tree did not change; its URL: "
                                        + await presenter.page.evaluate("() => location.search"))
            # step 1 of iris under CART: the root and its two children, #1 and #2
            wrong = [s.name for s in voters if s.trees[before[s.name]:]
                     and "#2 " not in s.trees[before[s.name]][1]]
            if wrong:
                errors["follow"].append(f"{len(wrong)} students' new tree is not step 1's: "
                                        f"{wrong[:5]}")
            phase("follow")
            for s in students:
                if s.exceptions:
                    errors["other"].append(f"{s.name}: exception: {s.exceptions[-1]}")
                if s.refusals:
                    errors["ack"].append(f"{s.name}: refused: {s.refusals[-1]}")
        finally:
            # 6. everyone leaves
            await asyncio.gather(*(s.close() for s in students), return_exceptions=True)
            with contextlib.suppress(Exception):
                await presenter.close()
            await browser.close()
    at_close = {pid: cr.rss_mb(pid) for pid in pids}
    cpu = {pid: round(cr.cpu_seconds(pid) - cpu0[pid], 1) for pid in pids}
    redis_cpu = round(sum(cr.cpu_seconds(p) - cpu0[p] for p in redis_pids), 1)
    wall = round(time.monotonic() - t_start, 1)
    client_cpu = clients.stop()
    await sampler.stop()
    after, waited, trace = await _settle_rss(pids, args.after)
    errors["other"] += _log_errors(logs)
    ack = [t for _, t in acks]
    row = dict(
        students=args.students, processes=len(urls), store="redis" if redis_pids else "embedded",
        joined=len(voters), join_s=stats(joined), voted=len(final),
        changed=sum(1 for kind, _ in acks if kind == "change"),
        ack_s=stats(ack), ack_first_s=stats([t for k, t in acks if k == "first"]),
        ack_change_s=stats([t for k, t in acks if k == "change"]),
        tally_per_vote_s=stats([v for v in per_vote if v is not None]),
        tally_final_s=None if tally_final is None else round(tally_final, 3),
        tally_updates=len(log),
        follow_s=stats(follow), follow_run_started_s=stats(started),
        presenter_step_drawn_s=None if drawn is None else round(drawn - clicked, 3),
        errors={k: len(v) for k, v in errors.items()},
        server_cpu_s=[cpu[p] for p in pids], phases=phases,
        redis_cpu_s=redis_cpu if redis_pids else None, **client_cpu,
        wall_s=wall, loop_lag_s=stats(sampler.lags),
        rss_idle_mb=[round(idle[p]) for p in pids],
        rss_peak_mb=[round(sampler.peak[p]) for p in pids],
        rss_at_close_mb=[round(at_close[p]) for p in pids],
        rss_after_mb=[round(after[p]) for p in pids], rss_after_s=waited, rss_trace=trace,
        load_before=load0, load_after=cr.loadavg())
    print(json.dumps(row), flush=True)
    for kind, messages in errors.items():
        for message in messages[:5]:
            print(f"   {kind} error: {message}", flush=True)
    return row


def _mark(ok: bool) -> str:
    return "met" if ok else "missed"


def table(row) -> str:
    """The figures against the targets, as a Markdown table."""
    e = row["errors"]
    over = [a - i for a, i in zip(row["rss_after_mb"], row["rss_idle_mb"])]
    tally_p95 = row["tally_per_vote_s"]["p95"]
    final = row["tally_final_s"]
    lines = [
        f"| {row['students']} students, {row['processes']} process(es), {row['store']} store "
        "| p50 | p95 | max | errors | target | target met |",
        "|---|---:|---:|---:|---:|---|---|",
        f"| vote acknowledged ({row['ack_s']['n']} votes, {row['changed']} of them changes) | "
        f"{row['ack_s']['p50']:.2f} s | {row['ack_s']['p95']:.2f} s | {row['ack_s']['max']:.2f} s"
        f" | {e['ack']} | p95 ≤ {ACK_P95_S} s | "
        f"{_mark(row['ack_s']['p95'] <= ACK_P95_S and not e['ack'])} |",
        f"| projector's tally, per vote | {row['tally_per_vote_s']['p50']:.2f} s | "
        f"{tally_p95:.2f} s | {row['tally_per_vote_s']['max']:.2f} s | {e['tally']} | "
        f"p95 ≤ {TALLY_P95_S} s | {_mark(tally_p95 <= TALLY_P95_S and not e['tally'])} |",
        f"| projector's final tally after the last vote | | | "
        f"{'—' if final is None else f'{final:.2f} s'} | | ≤ {TALLY_P95_S} s | "
        f"{_mark(final is not None and final <= TALLY_P95_S)} |",
        f"| followers' step after Next ({row['follow_s']['n']} students) | "
        f"{row['follow_s']['p50']:.2f} s | {row['follow_s']['p95']:.2f} s | "
        f"{row['follow_s']['max']:.2f} s | {e['follow']} | p95 ≤ {FOLLOW_P95_S} s | "
        f"{_mark(row['follow_s']['p95'] <= FOLLOW_P95_S and not e['follow'])} |",
        f"| joined / other errors | {row['joined']} of {row['students']} | | | "
        f"{e['join'] + e['other']} | 0 errors | {_mark(not e['join'] and not e['other'])} |",
        f"| server RSS idle → peak → {row['rss_after_s']} s after the close | "
        + " / ".join(f"{i} → {p} → {a} MB" for i, p, a in zip(
            row["rss_idle_mb"], row["rss_peak_mb"], row["rss_after_mb"]))
        + " | | | | "
        f"≤ idle + {RSS_OVER_IDLE_MB} MB | {_mark(all(o <= RSS_OVER_IDLE_MB for o in over))} |",
    ]
    drawn, started = row["presenter_step_drawn_s"], row["follow_run_started_s"]
    lines.append(
        "\nAfter Next: the presenter's own next tree drawn "
        + ("never" if drawn is None else f"{drawn:.2f} s after the click")
        + f"; the followers' runs (their room bars) began p50 {started['p50']:.2f} s, "
        f"p95 {started['p95']:.2f} s after the click.")
    cpu = " + ".join(f"{c} s" for c in row["server_cpu_s"])
    lines.append(
        f"CPU over {row['wall_s']} s: server {cpu}"
        + (f", redis-server {row['redis_cpu_s']} s" if row["redis_cpu_s"] is not None else "")
        + f", lightweight clients {row['clients_cpu_s']} s, Chromium {row['browsers_cpu_s']} s;"
        f" event-loop lag p95 {row['loop_lag_s']['p95']:.2f} s, max "
        f"{row['loop_lag_s']['max']:.2f} s; load {row['load_before']} → {row['load_after']}")
    return "\n".join(lines)


async def run(args):
    n = args.processes
    if args.redis or n > 1:
        if REDIS_SERVER is None:
            raise SystemExit("redis-server is not installed (make redis-server)")
    with contextlib.ExitStack() as stack:
        env = {}
        if args.redis or n > 1:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="dtree-redis-"))
            env["DTREE_ROOM_STORE"] = stack.enter_context(running_redis(Path(folder)))
        logs = [f"room-server-{i}.log" for i in range(n)]
        served = [stack.enter_context(cr.serve(args.server_arg, logs[i], env)) for i in range(n)]
        urls, pids = [u for u, _ in served], [p for _, p in served]
        row = await class_vote(args, urls, pids, logs)
    print()
    print(table(row), flush=True)
    return row


def main(argv=None):
    p = argparse.ArgumentParser(prog="classroom.py room", description=__doc__.split("\n")[0])
    p.add_argument("--students", type=int, default=100)
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--redis", action="store_true",
                   help="rooms in a redis-server started here (always with 2+ processes)")
    p.add_argument("--join-seconds", type=float, default=10.0,
                   help="the students open the link spread over this many seconds")
    p.add_argument("--spread", type=float, default=5.0,
                   help="every student votes within this many seconds")
    p.add_argument("--change", type=float, default=0.2, help="share who change their vote")
    p.add_argument("--ranges", type=float, default=0.3, help="share who pick a range too")
    p.add_argument("--after", type=float, default=240,
                   help="at most this many seconds of RSS sampling after the close")
    p.add_argument("--server-arg", action="append", default=[])
    args = p.parse_args(argv)
    random.seed(17)
    return asyncio.run(run(args))


if __name__ == "__main__":
    main()
