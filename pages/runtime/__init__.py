"""What the app's server process keeps for every session: the cache of
prepared data and fitted trees (``caches``) and what a fit derives
(``fits``), the memory budget and the size-bounded caches (``memory``),
giving memory back (``janitor``), the Prune page's first work done ahead
in a background thread (``prefetch``) and a call run in a child process
within a time and memory budget (``budget``).  Import each name from the module
that defines it: this package re-exports nothing.
"""
