"""What every part of :mod:`bideuchre.batch` shares: the error and the schema version."""

from __future__ import annotations

from ..rules import BidEuchreError

SCHEMA = 1            # the schema version of ``bideuchre solve --json`` (cli/common.py)


class BatchError(BidEuchreError):
    """Bad batch input or options: a malformed line under ``strict``, an output that exists
    without ``resume``/``overwrite``, an output that cannot be resumed."""


class ResultFileError(BatchError):
    """A batch output that cannot be read back (:func:`bideuchre.batch.load`, ``--resume``): not
    the format its name says, cut short, corrupted, or not written by ``bideuchre batch``.  The
    message (one line) names the file and what is wrong."""
