"""ConstraintLab from Python: scenes of constrained motion under the Udwadia-Kalaba equation.

The same engine and file formats as ``constraintlab-cli`` (one C++ implementation, no
subprocess), with NumPy arrays::

    import constraintlab as cl
    ring = cl.load("ring")                      # a built-in scene or a scene file
    r = ring.run(t_end=5, dt=0.01, mu=0.3)      # keyword: a setting or a parameter
    r["t"], r["phi"], r.columns, r.events, r.stats
    fit = cl.fit("bead-on-wire", "scenes/measurements/bead-mu0.4.csv",
                 map={"pos_cm": "s*0.01"}, params=["mu"], sigma=0.002, s0=25)
    table = cl.sweep("ring", {"mu": [0.1, 0.2, 0.3]}, t_end=2)
    fits = cl.fit_batch("bead-on-wire", [file_a, file_b], map={"pos_cm": "s*0.01"},
                        params=["mu"], sigma=0.002, s0=25)   # client=: on Dask

Errors raise ValueError (bad file, parameter or setting: the CLI's message, naming the key
and the reason), OSError (a file that cannot be read) or RuntimeError (a numerical failure,
with the CLI's hint). Runs, fits and sweeps release the GIL; Ctrl+C stops them
(KeyboardInterrupt). See docs/PYTHON.md.

Importing the package loads neither NumPy nor the compiled engine (with QtCore, ICU and GiNaC);
the first use of one of its names does, once (PEP 562's module ``__getattr__``).
"""

# Every public function and class of _api.py: only these names load it (test_import.py checks).
__all__ = ["scenes", "describe", "load", "run", "fit", "fit_batch", "sweep", "Scene",
           "Result", "FitResult", "SweepResult"]


def __getattr__(name: str):
    # Only the public names load the engine: IPython's, pickle's and copy's probes of other
    # names (_repr_html_, __reduce__) must not.
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _api
    # Bound here once, so later lookups skip this function.
    globals().update({public: getattr(_api, public) for public in __all__})
    return globals()[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
