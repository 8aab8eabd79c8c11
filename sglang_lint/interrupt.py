"""Abandoning an analysis whose input changed under it.

The language server analyzes in one background thread; a newer edit makes the
run in progress worthless (its result would be published for a text the user
no longer has). The server sets :data:`REQUESTED`; the long loops of the
sources (the Python interpreter's steps) call :func:`check` now and then and
leave by :class:`Cancelled`, which is a BaseException so that the sources'
``except Exception`` (an internal error becomes a note) lets it through. The
command line never sets it.
"""

from __future__ import annotations

import threading


class Cancelled(BaseException):
    """The analysis was abandoned: a newer input replaces it."""


REQUESTED = threading.Event()


def check() -> None:
    """Leave the analysis in progress when a newer input asked for it."""
    if REQUESTED.is_set():
        raise Cancelled()
