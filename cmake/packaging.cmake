# CPack: a .deb with the daemon, the client, the unit and the default config.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME jetperf)
set(CPACK_PACKAGE_CONTACT "jetperf maintainers <jetperf@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Profiling daemon for NVIDIA Jetson boards (REST API) and its client")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The web page's plotting libraries, served from /usr/share/javascript the Debian way, and the
# Python package's pandas (added to the shared-library dependencies shlibdeps finds).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libjs-dygraphs, libjs-chart.js, python3, python3-pandas")
# The Python package's plots (jetperf.plot) and its progress bar; it imports without them.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-tqdm")
# The package installs where the build was configured to (the unit file names that path), so
# configure packages with -DCMAKE_INSTALL_PREFIX=/usr.
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/deploy/debian/postinst;${PROJECT_SOURCE_DIR}/deploy/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
include(CPack)
