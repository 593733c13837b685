"""Run one function in a child process with a time and memory budget.

The app opens what a user uploads only after a child process has done the
same work within a :class:`Budget`: the child's address space is capped
(``RLIMIT_AS``, set to the size it has when it starts plus the budget) and
an alarm ends it when its time is up, so a file that would make the work
loop or allocate without bound costs one child, not the shared server.

The children come from a small fork server of this module (:func:`_serve`):
a fresh interpreter started once per process with ``subprocess`` (so none
of the Streamlit server's threads are copied, and nothing of its main
script runs again, as it would in a ``multiprocessing`` child), which
imports the modules named in ``preload`` and forks one child per call.
Each call gets its own socket, passed to the server with ``send_fds``: the
call (the function, by name, and its arguments) is pickled from here to
the child, which answers in JSON only, so nothing a child makes is ever
unpickled here.
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

__all__ = ["Budget", "OverBudget", "ChildFailed", "run_within", "start_server"]

_MB = 1 << 20
#: The longest answer read from a child (its JSON text).
MAX_ANSWER_BYTES = 16 * _MB
_SERVER = {"process": None, "socket": None}
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Budget:
    """What one call may spend.

    Attributes
    ----------
    seconds : float
        Wall-clock time, from asking for the child to its answer.
    megabytes : int
        Address space the child may add to what it has when it starts.
    """

    seconds: float
    megabytes: int


class OverBudget(Exception):
    """The child ran out of time (``resource`` "time") or of memory
    (``resource`` "memory": a MemoryError, or the child died early without
    answering).  ``limit`` says the budget in words: "30 s", "600 MB"."""

    def __init__(self, resource_name: str, budget: Budget):
        self.resource = resource_name
        self.budget = budget
        self.limit = (f"{budget.seconds:g} s" if resource_name == "time"
                      else f"{budget.megabytes:,} MB")
        super().__init__(f"over the {resource_name} budget ({self.limit})")


class ChildFailed(RuntimeError):
    """The function raised in the child (its type and message, as text)."""


# -- framing: a length, then the bytes ---------------------------------------------

def _send(sock, payload: bytes) -> None:
    sock.sendall(struct.pack("!Q", len(payload)) + payload)


def _receive(sock, limit: int) -> bytes | None:
    """One framed message, or None at the end of the stream (or past ``limit``)."""
    head = _exactly(sock, 8)
    if head is None or struct.unpack("!Q", head)[0] > limit:
        return None
    return _exactly(sock, struct.unpack("!Q", head)[0])


def _exactly(sock, n: int) -> bytes | None:
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(min(n - len(out), _MB))
        if not chunk:
            return None
        out += chunk
    return bytes(out)


# -- the fork server and its children ----------------------------------------------

def _address_space() -> int:
    """This process's virtual memory size (VmSize), in bytes."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(sock) -> None:
    """A forked child: cap itself, read the call, call, answer in JSON."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    budget = _receive(sock, 1024)
    if budget is None:
        return
    budget = json.loads(budget)
    signal.setitimer(signal.ITIMER_REAL, max(budget["seconds"], 0.001))  # SIGALRM ends it
    # (the call's arguments, read next, count against the budget too)
    limit = _address_space() + budget["megabytes"] * _MB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        request = _receive(sock, 1 << 40)
        if request is None:
            return
        func, args = pickle.loads(request)  # (from the app itself)
        del request
        answer = {"result": func(*args)}
    except MemoryError:
        answer = {"over": "memory"}
    except Exception as exc:  # noqa: BLE001 (said to the app as text)
        answer = {"failed": f"{type(exc).__name__}: {str(exc)[:300]}"}
    try:
        _send(sock, json.dumps(answer, default=str).encode())
    except MemoryError:
        pass  # (the app reads the silence as "memory")


def _serve(control_fd: int, preload: list) -> None:
    """The fork server: one child per socket received on ``control_fd``,
    until the app's end of it closes."""
    for name in preload:
        try:
            __import__(name)
        except ImportError:  # (a child imports what it needs anyway)
            pass
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (children reap themselves)
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            _, fds, _, _ = socket.recv_fds(control, 1, 1)
        except OSError:
            return
        if not fds:  # the app is gone
            return
        if os.fork() == 0:
            control.close()
            code = 0
            try:
                _child(socket.socket(fileno=fds[0]))
            except BaseException:  # noqa: BLE001 (a child never returns to the loop)
                code = 1
            os._exit(code)
        os.close(fds[0])


def _start(preload) -> socket.socket:
    """The server's socket, starting the server if it is not running."""
    with _LOCK:
        process = _SERVER["process"]
        if process is not None and process.poll() is None:
            return _SERVER["socket"]
        ours, theirs = socket.socketpair()
        code = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
                "from pages.runtime.budget import _serve; "
                "_serve(int(sys.argv[3]), json.loads(sys.argv[2]))")
        _SERVER["process"] = subprocess.Popen(
            [sys.executable, "-c", code, json.dumps(sys.path), json.dumps(list(preload)),
             str(theirs.fileno())], pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        _SERVER["socket"] = ours
        return ours


def start_server(preload=()) -> None:
    """Start the fork server (importing ``preload``) in a background thread,
    so that the first call need not wait for it (about two seconds)."""
    process = _SERVER["process"]
    if process is not None and process.poll() is None:
        return  # (running)
    threading.Thread(target=_start, args=(tuple(preload),), name="budget-server",
                     daemon=True).start()


def run_within(budget: Budget, func, *args, preload=()):
    """``func(*args)`` in a child process, within ``budget``.

    Parameters
    ----------
    budget : Budget
    func : a module-level function (the child imports it by name)
        Its result must be JSON: dicts, lists, strings, numbers, None.
    *args : its arguments, pickled to the child.
    preload : sequence of str
        Modules the fork server imports once, so that a child starts with
        them loaded (taken when the server starts).

    Returns
    -------
    The result, as JSON gives it back (a tuple comes back as a list).

    Raises
    ------
    OverBudget
        The child took longer than ``budget.seconds`` or ran out of memory.
    ChildFailed
        ``func`` raised another exception, or the child could not start.
    """
    request = pickle.dumps((func, args))
    mine, childs = socket.socketpair()
    with mine:
        try:
            control = _start(preload)
            with _LOCK:
                socket.send_fds(control, [b"c"], [childs.fileno()])
        except OSError as exc:
            raise ChildFailed(f"the fork server is not running: {exc}") from None
        finally:
            childs.close()
        started = time.monotonic()  # (the server's own start is not the call's time)
        mine.settimeout(max(budget.seconds, 0.0) + 1.0)
        try:
            _send(mine, json.dumps({"seconds": budget.seconds,
                                    "megabytes": int(budget.megabytes)}).encode())
            _send(mine, request)
            del request
            raw = _receive(mine, MAX_ANSWER_BYTES)
        except (socket.timeout, TimeoutError):
            raise OverBudget("time", budget) from None
        except OSError:
            raw = None
    if raw is None:  # the child died without answering: its alarm, or its memory cap
        late = time.monotonic() - started >= budget.seconds
        raise OverBudget("time" if late else "memory", budget)
    answer = json.loads(raw)
    if "over" in answer:
        raise OverBudget(answer["over"], budget)
    if "failed" in answer:
        raise ChildFailed(answer["failed"])
    return answer["result"]
