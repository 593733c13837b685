"""``bench/room.py`` (``make loadtest``'s class vote): how it turns what it
saw into figures, checked on made-up results; nothing is timed."""

import importlib
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_room():
    sys.path.insert(0, str(BENCH))  # (room.py imports classroom.py beside it)
    try:
        return importlib.import_module("room")
    finally:
        sys.path.remove(str(BENCH))


def test_a_vote_is_counted_when_the_projector_first_shows_as_many_votes():
    room = load_room()
    acks = [10.0, 10.2, 10.4, 13.0]  # the students' first acknowledgements
    log = [(9.0, 0, {}), (10.5, 2, {}), (11.1, 3, {}), (12.0, 4, {})]  # the projector's
    assert room.per_vote_tally(acks, log) == pytest.approx([0.5, 0.3, 0.7, 0.0])  # (4 before)
    assert room.per_vote_tally([1.0, 2.0], [(1.5, 1, {})]) == [0.5, None]  # never counted


def fake_row(**changes):
    row = dict(students=100, processes=1, store="embedded", joined=100, changed=20,
               ack_s=dict(n=120, p50=0.02, p95=0.13, max=0.2),
               tally_per_vote_s=dict(n=100, p50=0.29, p95=0.52, max=0.55), tally_final_s=0.39,
               follow_s=dict(n=100, p50=4.5, p95=4.64, max=4.66),
               follow_run_started_s=dict(n=100, p50=4.5, p95=4.64, max=4.66),
               presenter_step_drawn_s=4.33,
               errors=dict(ack=0, tally=0, follow=0, join=0, other=0),
               rss_idle_mb=[172], rss_peak_mb=[212], rss_after_mb=[196], rss_after_s=135,
               server_cpu_s=[17.3], redis_cpu_s=None, clients_cpu_s=2.2, browsers_cpu_s=8.3,
               wall_s=34.3, loop_lag_s=dict(n=68, p50=0.001, p95=0.004, max=0.03),
               load_before="1 1 1", load_after="1 1 1")
    row.update(changes)
    return row


def verdicts(text):
    return {line.split("|")[1].strip().split(" (")[0]: line.rstrip("| ").rsplit("|", 1)[1].strip()
            for line in text.splitlines() if line.startswith("| ") and "target met" not in line}


def test_each_figure_is_met_or_missed_against_its_target():
    room = load_room()
    assert verdicts(room.table(fake_row())) == {
        "vote acknowledged": "met", "projector's tally, per vote": "met",
        "projector's final tally after the last vote": "met",
        "followers' step after Next": "missed", "joined / other errors": "met",
        "server RSS idle → peak → 135 s after the close": "met"}
    missed = verdicts(room.table(fake_row(
        errors=dict(ack=1, tally=0, follow=0, join=0, other=0), tally_final_s=None,
        rss_after_mb=[223])))
    assert missed["vote acknowledged"] == "missed"  # an error misses it, whatever the times
    assert missed["projector's final tally after the last vote"] == "missed"  # never shown
    assert missed["server RSS idle → peak → 135 s after the close"] == "missed"  # +51 MB
    assert math.isnan(room.stats([])["p95"])
