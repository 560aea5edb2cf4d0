"""What `import constraintlab` and its first use cost: medians of fresh /usr/bin/python3
interpreters, every case run once per round so that the machine's load falls on all of them,
each set against `python3 -c pass` of the same rounds. Wall and processor (user + system) time
of the child process.

    /usr/bin/python3 tests/python/bench_import.py [ROUNDS] [PACKAGE_DIR ...]

PACKAGE_DIR: a folder holding the package constraintlab (build/dev/python, the default; give
two builds' folders to compare them in one run). Not a test: docs/PYTHON.md quotes its output.
"""

import os
import statistics
import sys
import time

PYTHON = "/usr/bin/python3"
USES = {"import constraintlab": "import constraintlab",
        "+ scenes()": "import constraintlab; constraintlab.scenes()",
        "+ run('ring', t_end=0.1)": "import constraintlab; "
                                     "constraintlab.run('ring', t_end=0.1, dt=0.01)"}


def timed(code, package_dir):
    """(wall, processor) seconds of one fresh interpreter running ``code``."""
    env = dict(os.environ, PYTHONPATH=package_dir)
    start = time.perf_counter()
    pid = os.spawnve(os.P_NOWAIT, PYTHON, [PYTHON, "-c", code], env)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"{code!r} failed with PYTHONPATH={package_dir}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    dirs = sys.argv[2:] or ["build/dev/python"]
    cases = [("python3 -c pass", "pass", dirs[0]), ("import numpy", "import numpy", dirs[0])]
    cases += [(f"{label} [{i}]" if len(dirs) > 1 else label, code, d)
              for i, d in enumerate(dirs) for label, code in USES.items()]
    for _, code, d in cases:  # writes the .pyc files, so that no round pays for that
        timed(code, d)
    times = {label: [] for label, _, _ in cases}
    for _ in range(rounds):
        for label, code, d in cases:
            times[label].append(timed(code, d))
    medians = {label: [statistics.median(t[k] for t in runs) * 1e3 for k in (0, 1)]
               for label, runs in times.items()}
    base = medians["python3 -c pass"]
    print(f"medians of {rounds} rounds, ms: wall, wall - pass, processor, processor - pass")
    for i, d in enumerate(dirs):
        print(f"  [{i}] PYTHONPATH={d}")
    for label, (wall, cpu) in medians.items():
        print(f"{label:32} {wall:7.1f} {wall - base[0]:7.1f} {cpu:7.1f} {cpu - base[1]:7.1f}")


if __name__ == "__main__":
    main()
