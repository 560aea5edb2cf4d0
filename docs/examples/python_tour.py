#!/usr/bin/env python3
"""ConstraintLab from Python, in three steps (docs/PYTHON.md walks through it):

1. fit the friction coefficient mu of the bead on its wire to the shipped measurements;
2. plot the ring's energy audit (E - E(0) against the friction work, and the audit's error)
   with matplotlib, where it is installed;
3. sweep mu on the ring, on this machine's cores (or, with --dask, on a local Dask cluster),
   and see how far each particle gets before it sticks.

Run it from the source tree:   PYTHONPATH=build/dev/python /usr/bin/python3 docs/examples/python_tour.py
or, with the package installed, from anywhere given --data PATH_TO/bead-mu0.4.csv.
"""

import argparse
import os

import numpy as np

import constraintlab as cl

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "scenes", "measurements", "bead-mu0.4.csv")


def fit_mu(data):
    """Step 1: the measurements are positions in centimetres every 10 ms (noise 0.2 cm)."""
    table = np.loadtxt(data, delimiter=",", comments="#", skiprows=5)
    fit = cl.fit("bead-on-wire", {"time": table[:, 0], "pos_cm": table[:, 1]},
                 map={"pos_cm": "s*0.01"}, params=["mu"], sigma=0.002, s0=25)
    print(f"mu = {fit.values['mu']:.7f} ± {fit.standard_errors['mu']:.7f}"
          f"  (chi^2/dof {fit.residual_variance:.3f}, {fit.iterations} iterations)")
    return fit


def plot_energy_audit(output):
    """Step 2: on the ring with friction, E - E(0) follows -W_nonideal exactly; E_error is
    what is left, at the level of the tolerances."""
    r = cl.run("ring", t_end=5, dt=0.01, mu=0.2)
    print(f"ring: largest |E_error| over 5 s: {np.max(np.abs(r['E_error'])):.2e} J")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (Debian: python3-matplotlib): no plot")
        return None
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
    top.plot(r["t"], r["E"] - r["E"][0], label="E - E(0)")
    top.plot(r["t"], r["W_nonideal"], "--", label="W_nonideal (friction work)")
    top.set_ylabel("J")
    top.legend()
    bottom.plot(r["t"], r["E_error"])
    bottom.set_xlabel("t (s)")
    bottom.set_ylabel("E_error (J)")
    fig.tight_layout()
    fig.savefig(output)
    print(f"wrote {output}")
    return output


def sweep_mu(use_dask):
    """Step 3: one run per mu; the table holds every run, a column per swept parameter."""
    mus = [0.05, 0.1, 0.2, 0.3, 0.5]
    if use_dask:
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            table = cl.sweep("ring", {"mu": mus}, t_end=5, dt=0.01, client=client)
    else:
        table = cl.sweep("ring", {"mu": mus}, t_end=5, dt=0.01)
    for point, label in enumerate(table.labels):
        rows = table.run(point)
        phi = rows[:, table.columns.index("phi")]
        print(f"{label}: phi at 5 s = {phi[-1]:+.4f} rad, energy lost "
              f"{-rows[-1, table.columns.index('W_nonideal')]:.3f} J")
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=DATA, help="the bead's measurements (CSV)")
    parser.add_argument("--plot", default="energy-audit.png", help="where the plot goes")
    parser.add_argument("--dask", action="store_true", help="sweep on a local Dask cluster")
    args = parser.parse_args()
    fit_mu(args.data)
    plot_energy_audit(args.plot)
    sweep_mu(args.dask)


if __name__ == "__main__":
    main()
