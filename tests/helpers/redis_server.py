"""A throwaway ``redis-server`` for the tests: on 127.0.0.1 only, on a free
port, in a temporary folder, saving nothing to disk.

``running_redis(folder)`` starts it, waits until it answers ``PING`` (with a
deadline, no fixed sleep), yields its URL and stops it.  It speaks to the
server over a plain socket, so it needs no Redis client.  ``make test``
installs Debian's ``redis-server``; :data:`REDIS_SERVER` is None where it is
missing (see ``tests/helpers/installed.py`` for what a test then does).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

#: The redis-server binary, or None when it is not installed.
REDIS_SERVER = shutil.which("redis-server")
#: How long a server may take to answer its first PING.
START_TIMEOUT_S = 30


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (as of now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers_ping(port: int) -> bool:
    """True if a Redis server on 127.0.0.1:``port`` answers ``PING`` with ``+PONG``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextlib.contextmanager
def running_redis(folder: Path) -> Iterator[str]:
    """Run ``redis-server`` in ``folder`` until the block ends; yield its URL
    (``redis://127.0.0.1:<port>/0``) once it answers ``PING``.

    Raises
    ------
    RuntimeError
        If redis-server is not installed, exits early or does not answer
        within :data:`START_TIMEOUT_S` seconds (with its log's tail).
    """
    if REDIS_SERVER is None:
        raise RuntimeError("redis-server is not installed (make redis-server)")
    port = free_port()
    log_path = folder / "redis.log"
    command = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1",
               "--save", "", "--appendonly", "no", "--dir", str(folder),
               "--logfile", str(log_path)]
    process = subprocess.Popen(command, cwd=folder, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not answers_ping(port):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with code {process.returncode}; "
                                   f"log:\n{_tail(log_path)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer PING on port {port} within "
                                   f"{START_TIMEOUT_S} s; log:\n{_tail(log_path)}")
            time.sleep(0.02)  # a poll interval: the wait itself is on PING
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
