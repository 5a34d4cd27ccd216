"""Shared pytest fixtures (the helpers the tests import are in helpers.py, the brute-force
auction oracle in oracles.py)."""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)
