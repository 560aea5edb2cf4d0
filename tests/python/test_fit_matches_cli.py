"""A fit from NumPy arrays equals `constraintlab-cli fit` of the same measurements."""

import json

import numpy as np

from conftest import cli, source_path

import constraintlab

DATA = source_path("scenes", "measurements", "bead-mu0.4.csv")


def test_fit_of_mu_from_arrays_equals_the_cli_fit_of_the_file(tmp_path):
    report = tmp_path / "fit.json"
    cli("fit", "bead-on-wire", "--data", DATA, "--map", "pos_cm=s*0.01", "--sigma", "0.002",
        "--param", "mu", "--set", "s0=25", "--output", str(report))
    expected = json.loads(report.read_text())

    table = np.loadtxt(DATA, delimiter=",", comments="#", skiprows=5)
    fit = constraintlab.fit("bead-on-wire", {"time": table[:, 0], "pos_cm": table[:, 1]},
                            map={"pos_cm": "s*0.01"}, params=["mu"], sigma=0.002, s0=25)

    mu = expected["parameters"][0]
    assert fit.values["mu"] == mu["value"]
    assert fit.standard_errors["mu"] == mu["standard_error"]
    assert fit.chi_square == expected["chi_square"]
    assert fit.iterations == expected["iterations"] and fit.runs == expected["runs"]
    assert fit.correlation.tolist() == expected["correlation"]
    assert fit.column_rms["pos_cm"] == expected["columns"][0]["rms"]
    # The fitted run follows the data to about their noise (0.2 cm).
    s = np.interp(fit.times, fit.run["t"], fit.run["s"])
    assert np.sqrt(np.mean((s - fit.measured["s"]) ** 2)) < 0.003


def test_fit_from_the_file_equals_the_fit_from_arrays():
    table = np.loadtxt(DATA, delimiter=",", comments="#", skiprows=5)
    from_file = constraintlab.fit("bead-on-wire", DATA, map={"pos_cm": "s*0.01"},
                                  params=["mu"], sigma=0.002, s0=25)
    from_arrays = constraintlab.fit("bead-on-wire", {"time": table[:, 0], "pos_cm": table[:, 1]},
                                    map={"pos_cm": "s*0.01"}, params=["mu"], sigma=0.002, s0=25)
    assert from_file.values == from_arrays.values
    assert from_file.standard_errors == from_arrays.standard_errors
