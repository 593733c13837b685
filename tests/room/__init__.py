"""The lecture rooms without Streamlit: the room and its checks, presenter rights, both stores (Redis against a redis-server the tests start), ballots cast at once, memory, threshold ranges."""
