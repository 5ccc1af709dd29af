#pragma once
// Typed errors used inside src/. Exactly one place (src/api/error_mapping) turns them into
// HTTP statuses and the JSON error body {"error":{"code","message","field"}}.
#include <stdexcept>
#include <string>

namespace jetperf {

/// Base of every jetperf error: a machine-readable code, a message and, where it applies, the field.
class error : public std::runtime_error {
 public:
  error(std::string code, const std::string& message, std::string field = {})
      : std::runtime_error(message), code_(std::move(code)), field_(std::move(field)) {}
  const std::string& code() const noexcept { return code_; }
  const std::string& field() const noexcept { return field_; }

 private:
  std::string code_;
  std::string field_;
};

/// Bad input: a field is missing, of the wrong type, out of range or not offered by the board (400).
class validation_error : public error {
 public:
  validation_error(std::string field, const std::string& message, std::string code = "invalid_field")
      : error(std::move(code), message, std::move(field)) {}
};

/// An id or a named thing that does not exist (404).
class not_found : public error {
 public:
  explicit not_found(const std::string& message, std::string field = {})
      : error("not_found", message, std::move(field)) {}
};

/// The request is valid but conflicts with the current state, e.g. cancelling a finished job (409).
class conflict : public error {
 public:
  explicit conflict(const std::string& message, std::string field = {})
      : error("conflict", message, std::move(field)) {}
};

/// The board refused or failed an operation (sysfs write, nvpmodel error) (502 at the API).
class platform_error : public error {
 public:
  explicit platform_error(const std::string& message) : error("platform_error", message) {}
};

/// Storage failed (SQLite) (500 at the API).
class store_error : public error {
 public:
  explicit store_error(const std::string& message) : error("store_error", message) {}

 protected:
  store_error(std::string code, const std::string& message) : error(std::move(code), message) {}
};

/// The database's file system is full (SQLITE_FULL): nothing is wrong with the request or the
/// data, and the same write succeeds once there is room (507 at the API, naming the database).
class disk_full : public store_error {
 public:
  explicit disk_full(const std::string& message) : store_error("disk_full", message) {}
};

/// A stored record that cannot be read (a damaged row, or one written by something else) (500 at
/// the API). Unlike store_error its message and field reach the client: they name the record and
/// what is wrong with it, not the storage.
class corrupt_record : public error {
 public:
  corrupt_record(std::string code, const std::string& message, std::string field = {})
      : error(std::move(code), message, std::move(field)) {}
};

/// The queue is full or the daemon is shutting down (503).
class unavailable : public error {
 public:
  explicit unavailable(const std::string& message) : error("unavailable", message) {}
};

}  // namespace jetperf
