# Test: builds the Debian package from this build tree and checks what it holds and needs.
#   cmake -DBINARY_DIR=… -DWORK_DIR=… -P CheckPackage.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND cpack -G DEB -B "${WORK_DIR}" --config "${BINARY_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
file(GLOB packages "${WORK_DIR}/constraintlab_*.deb")
list(LENGTH packages count)
if(NOT code EQUAL 0 OR NOT count EQUAL 1)
  message(FATAL_ERROR "cpack failed (exit ${code}, ${count} packages):\n${output}")
endif()

execute_process(COMMAND dpkg-deb --contents ${packages} OUTPUT_VARIABLE contents
                RESULT_VARIABLE code)
foreach(path IN ITEMS
        ./usr/bin/constraintlab
        ./usr/bin/constraintlab-cli
        ./usr/libexec/constraintlab/constraintlab-plot
        ./usr/share/applications/org.constraintlab.ConstraintLab.desktop
        ./usr/share/metainfo/org.constraintlab.ConstraintLab.metainfo.xml
        ./usr/share/mime/packages/constraintlab.xml
        ./usr/share/icons/hicolor/scalable/apps/constraintlab.svg
        ./usr/share/icons/hicolor/48x48/apps/constraintlab.png
        ./usr/share/icons/hicolor/256x256/apps/constraintlab.png
        ./usr/share/man/man1/constraintlab.1.gz
        ./usr/share/man/man1/constraintlab-cli.1.gz
        ./usr/share/constraintlab/scenes/bead-on-wire.json
        ./usr/share/constraintlab/scenes/systems/double-pendulum.json
        ./usr/share/constraintlab/scenes/lessons/friction-on-an-incline.json
        ${PYTHON_FILES})
  string(FIND "${contents}" " ${path}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the package lacks ${path}; it holds:\n${contents}")
  endif()
endforeach()

# Depends computed from the binaries: Qt, VTK, GiNaC and FFmpeg (the MP4 and GIF video export)
# must be there, besides the plugins.
execute_process(COMMAND dpkg-deb --field ${packages} Depends Version OUTPUT_VARIABLE fields)
foreach(needed IN ITEMS libqt6core6 libqt6widgets6 libvtk9.1 libginac11 libavcodec59 libavformat59
                       libswscale6 libavutil57 qt6-qpa-plugins libc6
                       ${PYTHON_DEPENDS})
  string(FIND "${fields}" "${needed}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "Depends lacks ${needed}:\n${fields}")
  endif()
endforeach()
if(NOT fields MATCHES "Version: ${VERSION}\n")
  message(FATAL_ERROR "the package's version is not ${VERSION}:\n${fields}")
endif()
message(STATUS "${packages}:\n${fields}")
