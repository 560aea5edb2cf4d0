"""Every built-in scene and every file of scenes/systems, run from Python, gives the numbers
of `constraintlab-cli run` to the last bit."""

import glob
import os

import numpy as np
import pytest

from conftest import cli_csv, source_path

import constraintlab

# Short runs with several events' worth of steps; the same settings for both front ends.
SETTINGS = ["--t-end", "0.4", "--dt", "0.02"]
SYSTEM_FILES = sorted(glob.glob(source_path("scenes", "systems", "*.json")))


def assert_same_bits(scene_argument, result):
    columns, expected = cli_csv(scene_argument, *SETTINGS)
    assert result.columns == columns
    assert result.data.shape == expected.shape
    differing = np.flatnonzero(result.data.view(np.int64) != expected.view(np.int64))
    assert differing.size == 0, (
        f"{scene_argument}: {differing.size} values differ, first in column "
        f"{columns[differing[0] % len(columns)]}: {result.data.flat[differing[0]]!r} vs "
        f"{expected.flat[differing[0]]!r}")


@pytest.mark.parametrize("name", constraintlab.scenes())
def test_built_in_scene_runs_as_the_cli_runs_it(name):
    assert_same_bits(name, constraintlab.run(name, t_end=0.4, dt=0.02))


@pytest.mark.parametrize("path", SYSTEM_FILES, ids=os.path.basename)
def test_system_file_runs_as_the_cli_runs_it(path):
    assert_same_bits(path, constraintlab.load(path).run(t_end=0.4, dt=0.02))


def test_parameters_set_from_python_run_as_set_with_dash_dash_set():
    columns, expected = cli_csv("ring", "--set", "mu=0.35", "--set", "v0=2.5", *SETTINGS)
    result = constraintlab.run("ring", t_end=0.4, dt=0.02, mu=0.35, v0=2.5)
    assert result.columns == columns
    assert result.data.tobytes() == expected.tobytes()
