"""No memory grows over 1 000 runs in one process (resident set size)."""

import constraintlab


def rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


def test_a_thousand_runs_leave_the_resident_size_flat():
    scene = constraintlab.load("bead-on-wire")
    for _ in range(100):  # warm up: allocator pools, the first imports
        scene.run(t_end=0.05, dt=0.01, mu=0.3)
    before = rss_kib()
    for i in range(1000):
        result = scene.run(t_end=0.05, dt=0.01, mu=0.1 + i * 1e-4)
        assert len(result) == 6
    grown = rss_kib() - before
    # A leak of one trace per run (6 samples of ~25 columns) would be ~1.5 MiB and more.
    assert grown < 1024, f"the resident size grew by {grown} KiB over 1000 runs"
