"""`cmake --install` puts the package where Debian's python3 looks for it, and it imports and
runs from there."""

import os
import subprocess
import sys

import pytest

BINARY_DIR = os.environ.get("CLAB_BINARY_DIR", "")


@pytest.mark.parametrize("prefix", ["/usr/local", "/usr"])
def test_the_installed_package_is_on_debian_pythons_path_and_runs(tmp_path, prefix):
    script = os.path.join(BINARY_DIR, "python", "cmake_install.cmake")
    assert os.path.exists(script), f"no {script} (CLAB_BINARY_DIR: the build tree)"
    staged = str(tmp_path) + prefix
    subprocess.run(["cmake", f"-DCMAKE_INSTALL_PREFIX={staged}", "-P", script], check=True,
                   capture_output=True)
    found = [root for root, dirs, _ in os.walk(staged) if "constraintlab" in dirs]
    assert len(found) == 1, found
    site = prefix + found[0][len(staged):]
    debian_path = subprocess.run(["/usr/bin/python3", "-c", "import sys; print(sys.path)"],
                                 check=True, capture_output=True, text=True).stdout
    assert repr(site) in debian_path, f"{site} is not on Debian's python3 path: {debian_path}"
    env = dict(os.environ, PYTHONPATH=found[0])
    done = subprocess.run([sys.executable, "-c",
                           "import constraintlab; print(constraintlab.__file__); "
                           "print(len(constraintlab.run('ring', t_end=0.1, dt=0.01)))"],
                          check=True, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.stdout.splitlines() == [os.path.join(found[0], "constraintlab", "__init__.py"),
                                        "11"]
