"""A lecture room, without Streamlit: the class follows the presenter's view
and votes on the next split.  The room and its vote as plain values
(``model``); the checks on everything sent to them (``checks``); the rules
of who may change what (``store``: ``RoomStore``, ``RoomError``); which
store a process uses (``setting``: ``EmbeddedStore``, ``RedisStore``,
``store_from_setting``); where a store keeps its rooms (``keeper``: the
protocol; ``memory_rooms``: this process; ``redis_rooms``: a Redis server
shared by several processes); what followers are shown (``stage``); a
numeric feature's threshold ranges offered in a vote (``ranges``).  Import each
name from the module that defines it: this package re-exports nothing.
"""
