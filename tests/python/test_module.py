"""The module's surface: scenes, describe, parameters with units and ranges, settings, the
derivation as SymPy-parsable text, results as NumPy columns and pandas frames (what the
import loads: test_import.py)."""

import ast
import subprocess
import sys

import numpy as np
import pytest

from conftest import cli, source_path

import constraintlab


def test_scenes_are_the_cli_list():
    listed = cli("list").stdout
    assert constraintlab.scenes() and all(name in listed for name in constraintlab.scenes())


def test_describe_gives_parameters_with_units_and_ranges():
    ring = constraintlab.describe("ring")
    mu = ring["parameters"]["mu"]
    assert mu["value"] == 0.1 and mu["unit"] == "" and mu["min"] == 0.0
    assert ring["parameters"]["radius"]["unit"] == "m"
    radius = ring["parameters"]["radius"]
    assert 0 < radius["min"] < 1e-6 and radius["min_exclusive"] is False  # at least 1e-12 m
    assert ring["settings"]["integrator"] == "dopri5" and ring["settings"]["t_end"] == 10.0


def test_a_result_has_numpy_columns_events_and_stats():
    r = constraintlab.run("ring", t_end=3, dt=0.01, mu=0.4)
    assert isinstance(r["t"], np.ndarray) and r["t"][-1] == pytest.approx(3)
    assert r.columns[0] == "t" and "phi" in r.columns and "E_error" in r
    assert r.stats["accepted_steps"] > 0
    assert any(e["event"] == "stick" for e in r.events)
    with pytest.raises(KeyError, match="no such column"):
        r["psi"]


def test_to_pandas_gives_a_frame_of_the_columns():
    pytest.importorskip("pandas")
    frame = constraintlab.run("bead-on-wire", t_end=0.2, dt=0.05).to_pandas()
    assert list(frame.columns)[:2] == ["t", "x"] and len(frame) == 5


def test_derive_gives_m_q_a_b_as_sympy_parsable_text():
    derived = constraintlab.load(source_path("scenes", "systems", "ring.json")).derive()
    assert derived["text"] == cli("derive", source_path("scenes", "systems", "ring.json")).stdout
    entries = [derived["M"], derived["Q"], derived["A"], derived["b"]]
    flat = [e for part in entries for row in part
            for e in (row if isinstance(row, list) else [row])]
    assert flat and all(isinstance(e, str) for e in flat)
    for entry in flat:  # SymPy's parser reads Python's expression syntax
        ast.parse(entry, mode="eval")
    sympy = pytest.importorskip("sympy", reason="python3-sympy is not installed")
    assert sympy.Matrix(sympy.sympify(derived["M"])).shape[0] >= 1


def test_the_example_script_fits_plots_and_sweeps(tmp_path):
    done = subprocess.run([sys.executable, source_path("docs", "examples", "python_tour.py"),
                           "--plot", str(tmp_path / "audit.png")],
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("mu = 0.39999")
    assert "mu=0.5: phi at 5 s" in done.stdout
