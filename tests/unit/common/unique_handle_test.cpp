#include <jetperf/common/unique_handle.hpp>

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace {

// A fake C API: handles are positive ints, 0 is "none"; every release is recorded.
std::vector<int> released;
int next_handle = 0;

struct fake_traits {
  using handle_type = int;
  static int null() noexcept { return 0; }
  static void release(int h) noexcept { released.push_back(h); }
};
using fake_handle = jetperf::unique_handle<fake_traits>;

// The C API's create call: writes a new handle into its out-parameter, or fails.
int fake_create(int* out, bool fail) {
  if (fail) return -1;
  *out = ++next_handle;
  return 0;
}

void create_or_throw(int* out, bool fail) {
  if (fake_create(out, fail) != 0) throw std::runtime_error("create failed");
}

// A backend shaped like the cuBLAS one: a handle, then a stream, then a setting that may fail.
class backend {
 public:
  explicit backend(int fail_at) {
    create_or_throw(handle_.put(), fail_at == 1);
    create_or_throw(stream_.put(), fail_at == 2);
    if (fail_at == 3) throw std::runtime_error("binding the stream failed");
  }
  int handle() const { return handle_.get(); }
  int stream() const { return stream_.get(); }

 private:
  fake_handle handle_;
  fake_handle stream_;
};

class unique_handle_test : public ::testing::Test {
 protected:
  void SetUp() override {
    released.clear();
    next_handle = 0;
  }
};

}  // namespace

TEST_F(unique_handle_test, releases_once_when_it_goes_and_never_the_null_handle) {
  {
    fake_handle none;
    EXPECT_FALSE(none);
    fake_handle owned(7);
    EXPECT_TRUE(owned);
    EXPECT_EQ(owned.get(), 7);
  }
  EXPECT_EQ(released, std::vector<int>{7});
}

TEST_F(unique_handle_test, moves_transfer_ownership_and_assignment_releases_the_old_handle) {
  fake_handle a(1);
  fake_handle b(std::move(a));
  EXPECT_EQ(a.get(), 0);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
  EXPECT_EQ(b.get(), 1);
  EXPECT_TRUE(released.empty());
  fake_handle c(2);
  c = std::move(b);
  EXPECT_EQ(released, std::vector<int>{2});
  EXPECT_EQ(c.get(), 1);
  c.reset(3);
  EXPECT_EQ(released, (std::vector<int>{2, 1}));
  EXPECT_EQ(c.release(), 3);
  EXPECT_FALSE(c);
  EXPECT_EQ(released, (std::vector<int>{2, 1}));  // released without release(): the caller owns 3
}

TEST_F(unique_handle_test, put_releases_the_old_handle_and_owns_what_the_call_writes) {
  fake_handle h(5);
  create_or_throw(h.put(), false);
  EXPECT_EQ(released, std::vector<int>{5});
  EXPECT_EQ(h.get(), 1);
}

TEST_F(unique_handle_test, a_constructor_that_fails_halfway_releases_what_it_created) {
  EXPECT_THROW(backend(1), std::runtime_error);
  EXPECT_TRUE(released.empty()) << "nothing was created";
  EXPECT_THROW(backend(2), std::runtime_error);
  EXPECT_EQ(released, std::vector<int>{1}) << "the handle made before the stream failed";
  released.clear();
  EXPECT_THROW(backend(3), std::runtime_error);
  EXPECT_EQ(released, (std::vector<int>{3, 2})) << "stream and handle, in reverse order of creation";
  released.clear();
  {
    backend ok(0);
    EXPECT_EQ(ok.handle(), 4);
    EXPECT_EQ(ok.stream(), 5);
    EXPECT_TRUE(released.empty());
  }
  EXPECT_EQ(released, (std::vector<int>{5, 4}));
}
