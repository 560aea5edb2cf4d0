"""The package constraintlab's functions and classes (python/constraintlab/__init__.py
re-exports them on first use): imported with NumPy and the compiled engine ``_core``, which
``import constraintlab`` alone does not load."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from . import _core

# NumPy is imported where it is used: scenes(), describe() and load() do without it (a run's
# arrays import it in _core).
if TYPE_CHECKING:
    import numpy as np


def scenes() -> list[str]:
    """The built-in scenes' names, as ``constraintlab-cli list`` names them."""
    return list(_core.scenes())


def describe(name: str) -> dict[str, Any]:
    """A scene's title, description, notes, parameters (value, unit, default, range,
    description) and simulation settings, as ``constraintlab-cli describe`` shows them.

    ``name`` is a built-in scene's name or a scene file's path."""
    scene = load(name)
    return {"name": scene.name, "title": scene.title, "description": scene.description,
            "notes": scene.notes, "parameters": scene.parameters, "settings": scene.settings}


def load(path_or_name: str | os.PathLike) -> Scene:
    """Loads a built-in scene (``"ring"``) or a scene file (format 1 or 2) as the CLI does:
    an argument containing '/' or ending in .json is a path. Raises ValueError with the CLI's
    message for a bad file or an unknown name."""
    return Scene(path_or_name)


class _Table:
    """Named float64 columns over rows: what a run and a sweep return."""

    def __init__(self, columns: list[str], data: np.ndarray):
        self.columns: list[str] = list(columns)
        self.data: np.ndarray = data
        self._index = {name: i for i, name in enumerate(self.columns)}

    def __getitem__(self, column: str) -> np.ndarray:
        """The column named ``column`` (KeyError naming the columns for another name)."""
        if column not in self._index:
            raise KeyError(f"{column!r}: no such column (the columns: {', '.join(self.columns)})")
        return self.data[:, self._index[column]]

    def __contains__(self, column: str) -> bool:
        """Whether there is a column of this name."""
        return column in self._index

    def to_pandas(self):
        """The table as a pandas DataFrame (ImportError when pandas is not installed)."""
        import pandas as pd
        return pd.DataFrame(self.data, columns=self.columns)


class Result(_Table):
    """One run: its columns as NumPy arrays, in the order of the CLI's CSV.

    ``r["t"]``, ``r["phi"]``: one column (float64, one value per sample); ``r.columns``: the
    names; ``r.data``: samples x columns; ``r.events``: stick, slip and reversal events (dicts
    of t, contact, contact_name, event); ``r.stats``: the run's cost (steps, evaluations,
    events, restarts, projections, wall time); ``r.reached_end``: the run stopped at the end of
    the scene's track; ``r.to_pandas()``: a DataFrame."""

    def __init__(self, raw: dict[str, Any]):
        super().__init__(raw["columns"], raw["data"])
        self.events: list[dict[str, Any]] = list(raw["events"])
        self.stats: dict[str, Any] = dict(raw["stats"])
        self.reached_end: bool = bool(raw["reached_end"])

    def __len__(self) -> int:
        """The number of samples."""
        return self.data.shape[0]

    def __repr__(self) -> str:
        return f"<constraintlab.Result: {len(self)} samples, columns {', '.join(self.columns)}>"


class Scene:
    """A scene loaded by :func:`load`: its parameters, settings and equations, and runs.

    Keyword arguments of :meth:`run` (and of :func:`fit` and :func:`sweep`) are simulation
    settings when named like one (t_end, dt, integrator, rtol, stop_at_end, ...: see
    :attr:`settings`) and parameters otherwise (mu=0.3, J=[1, 2, 3])."""

    def __init__(self, path_or_name: str | os.PathLike):
        self._handle = _core.SceneHandle(os.fspath(path_or_name))

    @property
    def source(self) -> str:
        """The argument it was loaded from: a built-in name or a file's path."""
        return self._handle.source

    @property
    def name(self) -> str:
        """The built-in scene's name, or "system" for one written as equations."""
        return self._handle.name

    @property
    def title(self) -> str:
        """The scene's title (the file's own when it gives one)."""
        return self._handle.title

    @property
    def description(self) -> str:
        """A few sentences on what the scene shows."""
        return self._handle.description

    @property
    def notes(self) -> str:
        """The scene file's notes (what a teacher wants looked at); may be empty."""
        return self._handle.notes

    @property
    def parameters(self) -> dict[str, dict[str, Any]]:
        """Each parameter: {"value", "unit", "default", "min", "max", "min_exclusive",
        "description", "label"}; values are floats, vectors lists."""
        return self._handle.parameters()

    @property
    def settings(self) -> dict[str, Any]:
        """The simulation settings of the scene file: numbers as float, choices by name
        ("dopri5"), flags as bool."""
        return self._handle.settings()

    def derive(self) -> dict[str, Any]:
        """The derivation of a system written as equations (format 2): "M", "Q", "A", "b"
        (entries as SymPy-parsable strings, ``sympy.sympify`` reads them), "text" and "latex"
        (what ``constraintlab-cli derive`` prints) and "json" (its JSON, parsed). ValueError
        for a built-in scene, whose equations are C++."""
        derived = self._handle.derive()
        derived.update(_sympy_matrices(derived["json"]))
        return derived

    def run(self, t_end: float | None = None, dt: float | None = None, **settings: Any) -> Result:
        """Simulates the scene and returns its :class:`Result`: the same numbers, bit for bit,
        as ``constraintlab-cli run`` writes. ``t_end`` and ``dt`` (seconds) and the other
        keywords override the scene's settings and parameters. Releases the GIL; Ctrl+C stops
        the run with KeyboardInterrupt."""
        return Result(self._handle.run(_keywords(t_end, dt, settings)))

    def __repr__(self) -> str:
        return f"<constraintlab.Scene {self._handle.label}>"


def run(scene: str | os.PathLike | Scene, t_end: float | None = None, dt: float | None = None,
        **settings: Any) -> Result:
    """Loads ``scene`` (unless it is a :class:`Scene`) and runs it: ``load(scene).run(...)``."""
    return _scene(scene).run(t_end=t_end, dt=dt, **settings)


class FitResult:
    """What :func:`fit` found: ``values`` and ``standard_errors`` (dicts by parameter),
    ``correlation`` and ``covariance`` (NumPy arrays in the order of ``parameters``),
    ``chi_square``, ``degrees_of_freedom``, ``residual_variance``, ``column_rms``,
    ``converged``, ``warnings``, ``failure`` (not empty: the model cannot reach the data),
    ``times`` and ``measured`` (the measurements in SI units) and ``run``: the scene run with
    the fitted values over the measured times."""

    def __init__(self, raw: dict[str, Any], run_result: Result | None):
        import numpy as np
        self.parameters: list[str] = list(raw["parameters"])
        self.values = dict(zip(self.parameters, raw["values"]))
        self.standard_errors = dict(zip(self.parameters, raw["standard_errors"]))
        self.start = dict(zip(self.parameters, raw["start"]))
        self.correlation: np.ndarray = np.asarray(raw["correlation"])
        self.covariance: np.ndarray = np.asarray(raw["covariance"])
        for key in ("chi_square", "degrees_of_freedom", "residual_variance", "column_rms",
                    "iterations", "runs", "converged", "stop_reason", "warnings", "failure",
                    "determined", "at_bound"):
            setattr(self, key, raw[key])
        self.times: np.ndarray = np.asarray(raw["times"])
        self.measured = {k: np.asarray(v) for k, v in raw["measured"].items()}
        self.run = run_result

    @property
    def failed(self) -> bool:
        """True when the fitted model does not follow the data (see ``failure``)."""
        return bool(self.failure)

    def __repr__(self) -> str:
        parts = ", ".join(f"{p}={self.values[p]:.7g}±{self.standard_errors[p]:.2g}"
                          for p in self.parameters)
        return f"<constraintlab.FitResult {parts}>"


def fit(scene: str | os.PathLike | Scene, data: Any, map: Mapping[str, str] | None = None,
        params: Sequence[str] = (), sigma: float | Mapping[str, float] | None = None,
        bounds: Mapping[str, tuple[float | None, float | None]] | None = None,
        time_column: str | None = None, time_scale: float = 1.0, time_offset: float = 0.0,
        max_iterations: int = 100, **settings: Any) -> FitResult:
    """Fits parameters of ``scene`` to measurements by least squares, as
    ``constraintlab-cli fit`` does (Levenberg-Marquardt, the Jacobian's runs on all cores).

    ``data``: a measurement file's path (the CLI's formats), or named columns of numbers: a
    dict of arrays or a pandas DataFrame, with a time column ("t" or "time" unless
    ``time_column`` names it, else the first). ``map``: column -> "QUANTITY[*SCALE]" (e.g.
    {"pos_cm": "s*0.01"}); without it, columns named like a trace quantity measure it.
    ``params``: the parameters to fit; ``sigma``: the values' standard deviation (one number,
    or one per column); ``bounds``: name -> (low, high), None for an open side. Other keywords
    set parameters (the fit's start) and settings, except t_end and dt (the measured times set
    them). Returns a :class:`FitResult`, whose ``run`` is the fitted run (None for a failed
    fit). Releases the GIL; Ctrl+C stops the fit."""
    import numpy as np
    handle = _scene(scene)
    arguments = _core.FitArguments()
    if isinstance(data, (str, os.PathLike)):
        arguments.path = os.fspath(data)
    else:
        names = [str(name) for name in data]
        arguments.names = names
        arguments.values = np.column_stack([np.asarray(data[name], dtype=np.float64).ravel()
                                            for name in names])
    arguments.map = dict(map or {})
    arguments.sigma = dict(sigma) if isinstance(sigma, Mapping) else sigma
    arguments.parameters = list(params)
    arguments.bounds = {name: tuple(b) for name, b in (bounds or {}).items()}
    arguments.time_column = time_column
    arguments.time_scale = float(time_scale)
    arguments.time_offset = float(time_offset)
    arguments.max_iterations = int(max_iterations)
    arguments.settings = dict(settings)
    raw = _core.fit(handle._handle, arguments)
    fitted = None
    if not raw["failure"]:
        times = raw["times"]
        step = min(np.diff(times)) if len(times) > 1 else times[-1]
        values = dict(settings)
        values.update(zip(raw["parameters"], raw["values"]))
        fitted = handle.run(t_end=times[-1], dt=step, **values)
    return FitResult(raw, fitted)


def fit_batch(scene: str | os.PathLike | Scene, datasets: Iterable[Any], *, client: Any = None,
              **options: Any) -> list[FitResult]:
    """Fits ``scene`` to each of ``datasets`` (measurement files' paths, dicts of arrays or
    DataFrames, as :func:`fit` takes them) with the same ``options`` (``map``, ``params``,
    ``sigma``, ``bounds``, ..., parameters and settings: those of :func:`fit`), and returns the
    :class:`FitResult` of each, in the order of ``datasets``: each identical, bit for bit, to
    ``fit(scene, dataset, **options)`` alone.

    Without ``client`` the fits run one after another in this process, each spreading its runs
    over this machine's cores as :func:`fit` does; Ctrl+C stops the batch. With a Dask
    ``distributed.Client`` each dataset is a task of its own on the workers (which import
    constraintlab: it must be on their path, and the scene's and the datasets' files under the
    same paths), and the results come back in input order. The first fit that raises raises
    here, with its message."""
    source = _scene(scene)
    datasets = list(datasets)
    if client is None:
        return [fit(source, data, **options) for data in datasets]
    futures = [client.submit(_fit_one, source.source, data, options, pure=False)
               for data in datasets]
    return client.gather(futures)


def _fit_one(source: str, data: Any, options: dict[str, Any]) -> FitResult:
    """One fit of a distributed batch, on a worker."""
    return fit(source, data, **options)


class SweepResult(_Table):
    """A sweep's runs as one table: ``columns`` ("point", the swept parameters, then the
    run's columns), ``data`` (rows x columns, the runs one after another in grid order),
    ``labels`` (one "mu=0.1 ..." per grid point); ``r["E_error"]`` one column over all runs,
    ``r.run(i)`` the rows of grid point i, ``r.to_pandas()``."""

    def __init__(self, columns: list[str], data: np.ndarray, labels: list[str]):
        super().__init__(columns, data)
        self.labels = list(labels)

    def __len__(self) -> int:
        """The number of grid points (runs)."""
        return len(self.labels)

    def run(self, point: int) -> np.ndarray:
        """The rows of grid point ``point`` (0-based, in grid order)."""
        return self.data[self.data[:, 0] == point]

    def __repr__(self) -> str:
        return f"<constraintlab.SweepResult: {len(self)} runs, {self.data.shape[0]} rows>"


def sweep(scene: str | os.PathLike | Scene, grid: Mapping[str, Iterable[float]],
          t_end: float | None = None, dt: float | None = None, *, threads: int = 0,
          client: Any = None, shards: int | None = None, **settings: Any) -> SweepResult:
    """Runs ``scene`` at every point of the product grid of ``grid`` ({parameter: values};
    the last parameter varies fastest), as ``constraintlab-cli sweep`` does, and returns one
    :class:`SweepResult`.

    Without ``client`` the runs share this machine's cores (``threads``, 0: one per core).
    With a Dask ``distributed.Client`` the grid is cut into ``shards`` contiguous shards (by
    default one per worker thread), each run by a worker (which imports constraintlab, so the
    workers need it on their path and the scene's file under the same path); the shards come
    back as one table, identical bit for bit to the single-process sweep. Releases the GIL;
    Ctrl+C stops a local sweep."""
    handle = _scene(scene)
    axes = [(str(name), [float(v) for v in values]) for name, values in grid.items()]
    keywords = _keywords(t_end, dt, settings)
    if client is None:
        raw = _core.sweep_shard(handle._handle, axes, 1, 1, threads, keywords)
        return SweepResult(raw["columns"], raw["data"], raw["labels"])
    points = math.prod(len(values) for _, values in axes)
    if shards is None:
        shards = sum(client.nthreads().values())
    shards = max(1, min(int(shards), points))
    futures = [client.submit(_sweep_shard, handle.source, axes, k, shards, keywords,
                             pure=False) for k in range(1, shards + 1)]
    parts = client.gather(futures)
    import numpy as np
    return SweepResult(parts[0]["columns"], np.concatenate([p["data"] for p in parts]),
                       [label for p in parts for label in p["labels"]])


def _sweep_shard(source: str, axes, k: int, n: int, keywords: dict) -> dict[str, Any]:
    """One shard of a distributed sweep, on a worker: one run at a time, so that the shards
    share the worker's cores as its threads do."""
    return _core.sweep_shard(_core.SceneHandle(source), axes, k, n, 1, keywords)


def _scene(scene: str | os.PathLike | Scene) -> Scene:
    return scene if isinstance(scene, Scene) else load(scene)


def _keywords(t_end: float | None, dt: float | None, settings: dict[str, Any]) -> dict:
    keywords = dict(settings)
    if t_end is not None:
        keywords["t_end"] = t_end
    if dt is not None:
        keywords["dt"] = dt
    return keywords


def _sympy_matrices(derivation: Any) -> dict[str, Any]:
    """M, Q, A and b (and C when the system has one) from the derivation's JSON: lists (of
    lists) of SymPy-parsable text, A and b a row per constraint."""
    constraints = derivation.get("constraints", [])
    out = {"M": _sympy_text(derivation["M"]), "Q": _sympy_text(derivation["Q"]),
           "A": [_sympy_text(c["A"]) for c in constraints],
           "b": [_sympy_text(c["b"]) for c in constraints]}
    if "C" in derivation:
        out["C"] = _sympy_text(derivation["C"])
    return out


def _sympy_text(value: Any) -> Any:
    if isinstance(value, list):
        return [_sympy_text(v) for v in value]
    if isinstance(value, str):
        return value.replace("^", "**")
    return value
