"""The examples in the rules package's docstrings run as printed."""

import doctest
import importlib
import pkgutil

import pytest

import bgpi.rules

MODULES = sorted(info.name for info in pkgutil.iter_modules(bgpi.rules.__path__, "bgpi.rules."))


@pytest.mark.parametrize("name", ["bgpi.rules", *MODULES])
def test_the_examples_run(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples of {name} failed"


def test_the_package_has_examples():
    assert doctest.testmod(bgpi.rules).attempted >= 5
