"""A spy on a function: each call noted in a list before it runs, to check
the order in which a page does things."""


def log_calls(monkeypatch, log, owner, name, label):
    """Replace ``owner.name`` with a wrapper that appends ``label`` to
    ``log`` before each call (the order in which a page does things)."""
    real = getattr(owner, name)

    def logged(*args, **kwargs):
        log.append(label)
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, logged)
