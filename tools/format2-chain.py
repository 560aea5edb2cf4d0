#!/usr/bin/env python3
"""Writes a format-2 scene file of a pendulum chain of N rods, in Cartesian coordinates.

The same motion as the built-in `chain` scene (N links of length/N, total mass spread over the
bobs, released straight along +x): bob i is (xi, yi), rod i holds it at distance l from bob i-1
(the pivot for i = 1). Used to measure loading and evaluation against the size of a file
(docs/BENCHMARKS.md, "Format-2 systems at any size").

    tools/format2-chain.py 1000 > chain-1000.json
"""
import sys


def chain(n, length=1.0, mass=1.0):
    coords = []
    kinetic, potential, constraints, initial = [], [], [], {}
    for i in range(1, n + 1):
        x, y = f"x{i}", f"y{i}"
        px, py = (f"x{i - 1}", f"y{i - 1}") if i > 1 else ("0", "0")
        coords += [x, y]
        kinetic.append(f"m*({x}_dot^2 + {y}_dot^2)/2")
        potential.append(f"m*g*{y}")
        constraints.append(
            f'{{"name": "rod{i}", "holonomic": "({x} - {px})^2 + ({y} - {py})^2 - l^2"}}')
        initial[x] = f"l*{i}"
        initial[y] = "0"
    init = ", ".join(f'"{k}": "{v}"' for k, v in initial.items())
    return f"""{{
    "format": 2,
    "title": "Chain of {n} rods",
    "system": {{
        "coordinates": [{", ".join(f'"{c}"' for c in coords)}],
        "parameters": {{
            "m": {{"value": {mass / n!r}, "unit": "kg"}},
            "l": {{"value": {length / n!r}, "unit": "m"}},
            "g": {{"value": 9.81, "unit": "m/s²"}}
        }},
        "kinetic_energy": "{" + ".join(kinetic)}",
        "potential_energy": "{" + ".join(potential)}",
        "constraints": [
            {(","+chr(10)+"            ").join(constraints)}
        ],
        "initial": {{{init}}}
    }},
    "simulation": {{"t_end": 1, "dt": 0.01}}
}}
"""


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: format2-chain.py N   (N ≥ 1 rods; the file goes to stdout)")
    sys.stdout.write(chain(int(sys.argv[1])))
