#include <jetperf/backend/gemm_backend.hpp>

#include <gtest/gtest.h>

using namespace jetperf::workloads;

TEST(tensor_kernel_names, markers) {
  EXPECT_TRUE(is_tensor_core_kernel("sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32"));
  EXPECT_TRUE(is_tensor_core_kernel("volta_h884gemm_128x64_ldg8_nn"));
  EXPECT_TRUE(is_tensor_core_kernel("ampere_s16816gemm_fp16_128x128"));
  EXPECT_TRUE(is_tensor_core_kernel("cutlass_80_tensorop_d884gemm_64x64"));
  EXPECT_FALSE(is_tensor_core_kernel("volta_sgemm_128x64_nn"));
  EXPECT_FALSE(is_tensor_core_kernel("maxwell_dgemm_64x64_nn"));
}
