# migrations/NNNN_name.sql are embedded into the store at build time, in order.
# Included from src/ because a custom command's output is visible only in its own directory.
file(GLOB JETPERF_MIGRATION_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/migrations/[0-9][0-9][0-9][0-9]_*.sql)
list(SORT JETPERF_MIGRATION_FILES)
set(JETPERF_MIGRATIONS_CPP ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_migrations.cpp)
add_custom_command(
  OUTPUT ${JETPERF_MIGRATIONS_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUT=${JETPERF_MIGRATIONS_CPP} "-DFILES=${JETPERF_MIGRATION_FILES}"
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_migrations.cmake
  DEPENDS ${JETPERF_MIGRATION_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_migrations.cmake
  COMMENT "Embedding SQL migrations"
  # VERBATIM: the file list contains ";", which a shell would otherwise take as a command separator.
  VERBATIM)
