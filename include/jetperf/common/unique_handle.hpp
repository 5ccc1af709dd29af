#pragma once
// Sole ownership of one handle of a C API (a file descriptor, a cuBLAS handle, a CUDA stream):
// released exactly once, by Traits::release, when its owner goes. A constructor that creates
// several such handles and throws halfway releases those it made, because members and locals
// that were fully constructed are destroyed during unwinding; raw handles in a class whose
// destructor releases them are not (that destructor never runs for a half-built object).
//
// Traits: `using handle_type = ...; static handle_type null() noexcept;
//          static void release(handle_type) noexcept;` (release is never called with null()).
#include <utility>

namespace jetperf {

template <class Traits>
class unique_handle {
 public:
  using handle_type = typename Traits::handle_type;

  unique_handle() noexcept = default;
  /// Takes ownership of `h` (null() owns nothing).
  explicit unique_handle(handle_type h) noexcept : h_(h) {}
  ~unique_handle() { reset(); }
  unique_handle(const unique_handle&) = delete;
  unique_handle& operator=(const unique_handle&) = delete;
  unique_handle(unique_handle&& o) noexcept : h_(o.release()) {}
  unique_handle& operator=(unique_handle&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }

  handle_type get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != Traits::null(); }

  /// Releases what is owned and returns the slot for a C API's out-parameter
  /// (`cublasCreate(handle.put())`): whatever the call stores there is owned from then on.
  handle_type* put() noexcept {
    reset();
    return &h_;
  }
  /// Gives up ownership without releasing.
  handle_type release() noexcept { return std::exchange(h_, Traits::null()); }
  /// Releases what is owned and owns `h` instead.
  void reset(handle_type h = Traits::null()) noexcept {
    const handle_type old = std::exchange(h_, h);
    if (old != Traits::null()) Traits::release(old);
  }

 private:
  handle_type h_ = Traits::null();
};

/// Traits for a pointer-like handle (null is nullptr) released by one C function whatever it
/// returns: `unique_handle<released_by<cudaStream_t, cudaError_t, cudaStreamDestroy>>`.
template <class Handle, class Result, Result (*Release)(Handle)>
struct released_by {
  using handle_type = Handle;
  static handle_type null() noexcept { return nullptr; }
  static void release(handle_type h) noexcept { Release(h); }
};

}  // namespace jetperf
