"""Ctrl+C (SIGINT) stops a long run, a long fit and a long sweep: KeyboardInterrupt within a
fraction of a second. Each would take minutes (the chain over thousands of seconds)."""

import os
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import sys, time
import constraintlab
scene = constraintlab.load("chain")
print("running", flush=True)
start = time.monotonic()
try:
    %s
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted after %%.2f s" %% (time.monotonic() - start), flush=True)
"""

LONG = {
    "run": 'scene.run(t_end=10000, dt=0.01)',
    "fit": 'constraintlab.fit(scene, {"t": [0.0, 1.0, 10000.0], "x1": [0.0, 0.0, 0.0]}, '
           'params=["mass"])',
    "sweep": 'constraintlab.sweep(scene, {"mass": [1.0, 1.5, 2.0, 2.5]}, t_end=10000, dt=0.01)',
}


def interrupted(call):
    """Starts a child that makes the long call, sends it SIGINT half a second in; returns what
    it printed and how long it took to stop."""
    child = subprocess.Popen([sys.executable, "-c", CHILD % call], stdout=subprocess.PIPE,
                             text=True, env=os.environ)
    assert child.stdout.readline().strip() == "running"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise
    return out, time.monotonic() - sent


@pytest.mark.parametrize("what", ["run", "fit", "sweep"])
def test_sigint_stops_a_long_call_with_keyboard_interrupt(what):
    out, waited = interrupted(LONG[what])
    assert out.startswith("interrupted after"), f"{what}: {out}"
    assert waited < 5, f"the {what} took {waited:.1f} s to stop"
