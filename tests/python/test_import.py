"""What `import constraintlab` loads: neither NumPy nor the compiled engine (with QtCore, ICU
and GiNaC) until a name of the package is first used, and never VTK or Qt's GUI libraries.
Structural checks (modules and mapped libraries of a fresh interpreter), not a timing."""

import ast
import json
import subprocess
import sys

from conftest import source_path

import constraintlab

# Prints what the interpreter has loaded after `code`: Python modules and shared libraries.
_REPORT = """
import json, os, sys
libraries = sorted({os.path.basename(line.split()[-1]) for line in open('/proc/self/maps')
                    if '.so' in line.split()[-1]})
print(json.dumps({"modules": sorted(sys.modules), "libraries": libraries}))
"""


def loaded_after(code):
    """The modules and shared libraries a fresh interpreter has after running ``code``."""
    done = subprocess.run([sys.executable, "-c", code + "\n" + _REPORT], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.splitlines()[-1])


def libraries_named(loaded, *prefixes):
    return [lib for lib in loaded["libraries"] if lib.lower().startswith(prefixes)]


def test_import_loads_neither_numpy_nor_the_engine_nor_its_libraries():
    loaded = loaded_after("import constraintlab")
    eager = [m for m in loaded["modules"]
             if m.split(".")[0] == "numpy" or m in ("constraintlab._core", "constraintlab._api")]
    assert eager == [], f"import constraintlab imported {eager}"
    assert libraries_named(loaded, "libqt6", "libicu", "libginac", "libcln", "libvtk",
                           "_multiarray_umath") == []


def test_a_run_loads_the_engine_but_neither_vtk_nor_qt_gui_libraries():
    loaded = loaded_after("from constraintlab import run\nrun('ring', t_end=0.1, dt=0.01)")
    # The engine and NumPy are there, so the map is read right ...
    assert libraries_named(loaded, "libqt6core") and libraries_named(loaded, "libginac")
    assert "numpy" in loaded["modules"]
    # ... and VTK and Qt's GUI libraries are not.
    assert libraries_named(loaded, "libvtk", "libqt6gui", "libqt6widgets", "libqt6opengl") == []


def test_scenes_and_parameters_do_without_numpy():
    loaded = loaded_after("import constraintlab as cl\ncl.scenes()\n"
                          "cl.load('ring').parameters\ncl.describe('ring')")
    assert "constraintlab._core" in loaded["modules"]
    assert "numpy" not in loaded["modules"]


def test_every_public_name_imports_and_dir_lists_it_before_first_use():
    names = ", ".join(constraintlab.__all__)
    code = (f"import constraintlab as cl\nlisted = dir(cl)\nfrom constraintlab import {names}\n"
            "assert set(cl.__all__) <= set(listed), listed\n"
            "assert all(callable(getattr(cl, n)) for n in cl.__all__)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_another_name_raises_attribute_error_without_loading_the_engine():
    code = ("import sys, constraintlab as cl\n"
            "for name in ('_repr_html_', '_ipython_canary_method_should_not_exist_', 'nope'):\n"
            "    assert not hasattr(cl, name), name\n"
            "assert 'constraintlab._core' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_package_names_every_public_function_and_class_and_so_do_the_stubs():
    from constraintlab import _api
    public = {name for name, value in vars(_api).items()
              if not name.startswith("_") and getattr(value, "__module__", "") == _api.__name__}
    assert public == set(constraintlab.__all__), \
        f"_api.py defines {sorted(public)}, __all__ of __init__.py names {constraintlab.__all__}"

    stubs = ast.parse(open(source_path("python", "constraintlab", "__init__.pyi")).read())
    defined = {node.name for node in stubs.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    stub_all = next(ast.literal_eval(node.value) for node in stubs.body
                    if isinstance(node, ast.Assign) and node.targets[0].id == "__all__")
    assert stub_all == constraintlab.__all__
    assert public <= defined
