"""The examples in the docstrings of bgpi.remote's modules hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bgpi.remote

MODULES = sorted(info.name for info in pkgutil.iter_modules(bgpi.remote.__path__, "bgpi.remote."))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_hold(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {name} failed"


def test_the_wire_s_modules_have_examples():
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 20
