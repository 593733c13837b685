"""What a page draws, when drawing it in the page itself would make the page
long: the Grow page's sidebar and panels (inspector, prediction and
importances, growth orders, export), the Compare and Prune pages' panels,
the stepping bars, and the reading of an upload with its progress box.  The
modules read the session (:mod:`pages.state`) and draw what the views in
``dtree/views`` build; none of them is a page.  Import each name from the
module that defines it: this package re-exports nothing.
"""
