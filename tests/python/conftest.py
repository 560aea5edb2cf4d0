"""Shared helpers of the Python module's tests: the CLI to compare with and the source tree.

ctest sets CLAB_CLI (constraintlab-cli) and CLAB_SOURCE_DIR, and PYTHONPATH to the build
tree's python/ folder; tests/python/CMakeLists.txt registers one ctest per test file."""

import io
import os
import subprocess

import numpy as np
import pytest

SOURCE_DIR = os.environ.get("CLAB_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
CLI = os.environ.get("CLAB_CLI", os.path.join(SOURCE_DIR, "build", "dev", "app",
                                              "constraintlab-cli"))


def source_path(*parts):
    """A path in the source tree."""
    return os.path.join(SOURCE_DIR, *parts)


def cli(*args, check=True):
    """Runs constraintlab-cli; returns the completed process (text)."""
    done = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=SOURCE_DIR)
    if check and done.returncode != 0:
        raise AssertionError(f"constraintlab-cli {' '.join(args)} failed: {done.stderr}")
    return done


def cli_csv(*args):
    """The CSV `constraintlab-cli run ...` writes to standard output: (columns, rows x columns).
    Its numbers have 17 significant digits, so they read back to the very doubles."""
    done = subprocess.run([CLI, "run", *args], capture_output=True, cwd=SOURCE_DIR, check=True)
    text = done.stdout.decode()
    header, _, body = text.partition("\r\n")
    data = np.loadtxt(io.StringIO(body), delimiter=",", ndmin=2)
    return header.split(","), data


def cli_message(*args):
    """What constraintlab-cli prints on standard error, without its "constraintlab-cli: "."""
    done = cli(*args, check=False)
    assert done.returncode != 0, f"constraintlab-cli {' '.join(args)} succeeded"
    return done.stderr.splitlines()[0].removeprefix("constraintlab-cli: ")


@pytest.fixture
def cl():
    import constraintlab
    return constraintlab
