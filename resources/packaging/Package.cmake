# The Debian package: `cmake --build --preset release --target package` writes
# build/release/constraintlab_VERSION_ARCH.deb. Its Depends are computed from the programs'
# shared libraries (dpkg-shlibdeps), plus the Qt plugins that are loaded at run time and so
# cannot be seen in the binaries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME constraintlab)
set(CPACK_PACKAGE_VENDOR "ConstraintLab")
set(CPACK_PACKAGE_CONTACT "ConstraintLab developers <developers@constraintlab.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see and play with the equation of constrained motion")
set(CPACK_PACKAGE_DESCRIPTION
    "ConstraintLab shows constrained mechanical systems moving under the Udwadia-Kalaba
fundamental equation M q'' = Q + Qci + Qcni, with the given force, the ideal constraint
force and the non-ideal (friction) constraint force drawn as three arrows. Built-in
scenes, systems typed as equations, live friction tuning, plots and CSV traces; a
command-line tool runs the same scenes without a display.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The platform plugin (xcb) and the SVG icon engine are plugins: no library links them.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
# The Python module (python/, `import constraintlab`) is part of this package: built for
# Debian's python3 of this minor version, and its results are NumPy arrays.
if(TARGET clab_python)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", python3 (>= ${CLAB_PYTHON_VERSION}),"
         " python3 (<< ${CLAB_PYTHON_VERSION}.99), python3-numpy")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-pandas, python3-distributed, python3-matplotlib")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, fonts-dejavu-core")
include(CPack)
