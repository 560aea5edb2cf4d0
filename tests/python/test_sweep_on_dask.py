"""A sweep on a Dask LocalCluster with two worker processes gives the single-process sweep's
table bit for bit; and the local sweep is the single runs."""

import numpy as np
import pytest

import constraintlab

GRID = {"mu": [0.05, 0.1, 0.2, 0.3, 0.4], "v0": [0.0, 1.5]}


def test_a_local_sweep_is_the_single_runs_stacked():
    table = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05)
    assert len(table) == 10 and table.labels[1] == "mu=0.05 v0=1.5"
    single = constraintlab.run("ring", t_end=0.3, dt=0.05, mu=0.05, v0=1.5)
    rows = table.run(1)
    assert rows[:, 1].tolist() == [0.05] * len(single)
    assert rows[:, 2].tolist() == [1.5] * len(single)
    assert rows[:, 3:].tobytes() == single.data.tobytes()


def test_a_sweep_on_a_dask_local_cluster_equals_the_single_process_sweep():
    distributed = pytest.importorskip(
        "distributed", reason="python3-distributed is not installed (.ci/setup installs it)")
    local = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        spread = constraintlab.sweep("ring", GRID, t_end=0.3, dt=0.05, client=client, shards=4)
        workers = {w for w in client.run(lambda: 1)}
    assert len(workers) == 2
    assert spread.columns == local.columns and spread.labels == local.labels
    assert spread.data.shape == local.data.shape
    assert spread.data.tobytes() == local.data.tobytes()
