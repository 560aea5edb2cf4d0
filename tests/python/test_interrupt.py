"""Ctrl+C (SIGINT) stops a long run: KeyboardInterrupt within a fraction of a second."""

import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import sys, time
import constraintlab
scene = constraintlab.load("chain")
print("running", flush=True)
start = time.monotonic()
try:
    scene.run(t_end=10000, dt=0.01)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted after %.2f s" % (time.monotonic() - start), flush=True)
"""


def test_sigint_stops_a_long_run_with_keyboard_interrupt():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                             env=os.environ)
    assert child.stdout.readline().strip() == "running"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    waited = time.monotonic() - sent
    assert out.startswith("interrupted after"), out
    assert waited < 5, f"the run took {waited:.1f} s to stop"
