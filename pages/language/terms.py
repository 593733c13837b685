"""The engine's messages (errors and notes) in Chinese, at the page
boundary: :func:`message_zh`.

The engine's messages carry a code and their values (``dtree.CodedError``,
``dtree.Note``, ``dtree.TreeFileError``); their Chinese is looked up by code
in ``dtree.views.messages``.  The app's fixed names (criteria, growth
orders, tasks, presets) are in ``dtree.views.vocabulary``, the built-in
datasets' in ``dtree.tables.dataset`` and the stop reasons' in
``dtree.views.narration``.
"""

from dtree.views.messages import message


def message_zh(said) -> str:
    """The Chinese text of one of the engine's messages (the user's names and
    the numbers kept as they are), or its English text if it has no code."""
    return message(said, "zh")
