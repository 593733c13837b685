"""The app's words in Chinese: the names of its fixed vocabulary and the
engine's messages, looked up at the page boundary (``terms``).  The
interface language itself is the session's (:mod:`pages.state.session`).
Import each name from the module that defines it: this package re-exports
nothing.
"""
