# SPDX-License-Identifier: GPL-2.0
"""Load a script of scripts/ (no .py suffix) as a module, for unit tests."""

import importlib.machinery
import importlib.util
import os

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load(name):
    """Return scripts/NAME, executed as a module called NAME."""
    mod = name.replace("-", "_")
    path = os.path.join(TOP, "scripts", name)
    loader = importlib.machinery.SourceFileLoader(mod, path)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_loader(mod, loader))
    loader.exec_module(module)
    return module
