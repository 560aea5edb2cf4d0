"""A sweep and a batch of fits on a Dask LocalCluster with two worker processes give the
single-process results bit for bit; and the local sweep is the single runs, the local batch the
single fits. The cluster starts once for the file."""

import numpy as np
import pytest

from conftest import source_path

import constraintlab

GRID = {"mu": [0.05, 0.1, 0.2, 0.3, 0.4], "v0": [0.0, 1.5]}
DATA = source_path("scenes", "measurements", "bead-mu0.4.csv")
FIT = dict(map={"pos_cm": "s*0.01"}, params=["mu"], sigma=0.002, s0=25)


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip(
        "distributed", reason="python3-distributed is not installed (.ci/setup installs it)")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def datasets():
    """Three measurement sets: the shipped file, and its numbers shifted by 1 cm and 3 cm (so
    that the fits differ), as arrays."""
    table = np.loadtxt(DATA, delimiter=",", comments="#", skiprows=5)
    shifted = [{"time": table[:, 0], "pos_cm": table[:, 1] + shift} for shift in (1.0, 3.0)]
    return [DATA, *shifted]


def same_fit(a, b):
    return (a.values == b.values and a.standard_errors == b.standard_errors
            and a.chi_square == b.chi_square and a.iterations == b.iterations
            and a.correlation.tobytes() == b.correlation.tobytes()
            and a.run.data.tobytes() == b.run.data.tobytes())


def test_a_local_sweep_is_the_single_runs_stacked():
    table = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05)
    assert len(table) == 10 and table.labels[1] == "mu=0.05 v0=1.5"
    single = constraintlab.run("ring", t_end=0.3, dt=0.05, mu=0.05, v0=1.5)
    rows = table.run(1)
    assert rows[:, 1].tolist() == [0.05] * len(single)
    assert rows[:, 2].tolist() == [1.5] * len(single)
    assert rows[:, 3:].tobytes() == single.data.tobytes()


def test_a_sweep_on_a_dask_local_cluster_equals_the_single_process_sweep(client):
    local = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05)
    spread = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05, client=client, shards=4)
    assert len(client.run(lambda: 1)) == 2
    assert spread.columns == local.columns and spread.labels == local.labels
    assert spread.data.shape == local.data.shape
    assert spread.data.tobytes() == local.data.tobytes()


def test_a_local_fit_batch_is_the_single_fits_in_input_order():
    alone = [constraintlab.fit("bead-on-wire", data, **FIT) for data in datasets()]
    batch = constraintlab.fit_batch("bead-on-wire", datasets(), **FIT)
    assert len(batch) == 3
    assert all(same_fit(a, b) for a, b in zip(alone, batch))
    assert len({fit.values["mu"] for fit in batch}) == 3


def test_a_fit_batch_on_a_dask_local_cluster_equals_the_single_fits_in_input_order(client):
    alone = [constraintlab.fit("bead-on-wire", data, **FIT) for data in datasets()]
    spread = constraintlab.fit_batch("bead-on-wire", datasets(), client=client, **FIT)
    assert [type(fit).__name__ for fit in spread] == ["FitResult"] * 3
    assert all(same_fit(a, b) for a, b in zip(alone, spread))
    assert len({fit.values["mu"] for fit in spread}) == 3


def test_a_fit_batch_raises_the_message_of_the_fit_that_fails(client):
    bad = [DATA, {"time": [0.0, 0.1], "pos_cm": [1.0, float("nan")]}]
    with pytest.raises(ValueError) as alone:
        constraintlab.fit("bead-on-wire", bad[1], **FIT)
    for where in (None, client):
        with pytest.raises(ValueError) as batch:
            constraintlab.fit_batch("bead-on-wire", bad, client=where, **FIT)
        assert str(batch.value) == str(alone.value)
