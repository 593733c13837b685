"""A LaTeX formula as plain text on one line, for reading its numbers."""


def plain(latex):
    """A formula on one line: without $, the aligned environment and its & and \\\\."""
    text = latex.strip("$\n")
    for mark in (r"\begin{aligned}", r"\end{aligned}", "&", "\\\\"):
        text = text.replace(mark, " ")
    return " ".join(text.split())
