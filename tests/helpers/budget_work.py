"""Work for a budgeted child process (pages/runtime/budget.py): module-level
functions, which the child imports by name."""

import time

_MB = 1 << 20


def echo(value):
    """Return ``value`` (JSON comes back)."""
    return value


def sleep_for(seconds):
    """Take ``seconds``, then answer."""
    time.sleep(seconds)
    return "woke"


def allocate(megabytes):
    """Hold ``megabytes`` of touched memory, then answer their size."""
    block = bytearray(megabytes * _MB)
    block[::4096] = b"x" * len(block[::4096])
    return len(block) // _MB


def fail(text):
    """Raise a ValueError saying ``text``."""
    raise ValueError(text)


def vet_that_allocates(*_args):
    """Stands for ``pages.state.tree_upload.vet`` on a file whose opening
    would take 400 MB: the app's handling of a child out of memory, without
    depending on how much address space the allocator reserved before the
    child started (which a cap on the child's address space cannot count)."""
    allocate(400)
    return {"data_error": None}
