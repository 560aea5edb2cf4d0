# Type stubs of the package constraintlab (python/constraintlab/__init__.py).
import os
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["scenes", "describe", "load", "run", "fit", "fit_batch", "sweep", "Scene",
           "Result", "FitResult", "SweepResult"]

_SceneArgument = str | os.PathLike[str] | Scene

def scenes() -> list[str]: ...
def describe(name: str) -> dict[str, Any]: ...
def load(path_or_name: str | os.PathLike[str]) -> Scene: ...
def run(scene: _SceneArgument, t_end: float | None = ..., dt: float | None = ...,
        **settings: Any) -> Result: ...

class Result:
    columns: list[str]
    data: npt.NDArray[np.float64]
    events: list[dict[str, Any]]
    stats: dict[str, Any]
    reached_end: bool
    def __init__(self, raw: dict[str, Any]) -> None: ...
    def __getitem__(self, column: str) -> npt.NDArray[np.float64]: ...
    def __contains__(self, column: str) -> bool: ...
    def __len__(self) -> int: ...
    def to_pandas(self) -> Any: ...

class Scene:
    def __init__(self, path_or_name: str | os.PathLike[str]) -> None: ...
    @property
    def source(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def notes(self) -> str: ...
    @property
    def parameters(self) -> dict[str, dict[str, Any]]: ...
    @property
    def settings(self) -> dict[str, Any]: ...
    def derive(self) -> dict[str, Any]: ...
    def run(self, t_end: float | None = ..., dt: float | None = ..., **settings: Any) -> Result: ...

class FitResult:
    parameters: list[str]
    values: dict[str, float]
    standard_errors: dict[str, float]
    start: dict[str, float]
    correlation: npt.NDArray[np.float64]
    covariance: npt.NDArray[np.float64]
    chi_square: float
    degrees_of_freedom: int
    residual_variance: float
    column_rms: dict[str, float]
    iterations: int
    runs: int
    converged: bool
    stop_reason: str
    warnings: list[str]
    failure: str
    determined: list[bool]
    at_bound: list[bool]
    times: npt.NDArray[np.float64]
    measured: dict[str, npt.NDArray[np.float64]]
    run: Result | None
    @property
    def failed(self) -> bool: ...

def fit(scene: _SceneArgument, data: str | os.PathLike[str] | Mapping[str, Any] | Any,
        map: Mapping[str, str] | None = ..., params: Sequence[str] = ...,
        sigma: float | Mapping[str, float] | None = ...,
        bounds: Mapping[str, tuple[float | None, float | None]] | None = ...,
        time_column: str | None = ..., time_scale: float = ..., time_offset: float = ...,
        max_iterations: int = ..., **settings: Any) -> FitResult: ...
def fit_batch(scene: _SceneArgument,
              datasets: Iterable[str | os.PathLike[str] | Mapping[str, Any] | Any], *,
              client: Any = ..., **options: Any) -> list[FitResult]: ...

class SweepResult:
    columns: list[str]
    data: npt.NDArray[np.float64]
    labels: list[str]
    def __getitem__(self, column: str) -> npt.NDArray[np.float64]: ...
    def __len__(self) -> int: ...
    def run(self, point: int) -> npt.NDArray[np.float64]: ...
    def to_pandas(self) -> Any: ...

def sweep(scene: _SceneArgument, grid: Mapping[str, Iterable[float]],
          t_end: float | None = ..., dt: float | None = ..., *, threads: int = ...,
          client: Any = ..., shards: int | None = ..., **settings: Any) -> SweepResult: ...
