# The libraries a GPU machine brings itself, never carried by the bundle: the driver's (libcuda,
# libnvidia-*) and the CUDA toolkit's and cuDNN's, which run.sh finds on the machine. Sourced by
# deploy/gpu-bundle.sh (what not to copy) and check-libs.sh (what ldd may fail to find).
# shellcheck shell=bash
is_machine_cuda_lib() {
  case "$1" in
    libcuda.so* | libnvidia-* | libnvidia.so* | libcudart.so* | libcublas.so* | libcublasLt.so* | libcudnn*.so* | \
      libcupti.so* | libnvrtc*.so* | libnvJitLink.so* | libnvToolsExt.so* | libcufft*.so* | libcurand.so* | \
      libcusparse*.so* | libcusolver*.so* | libnvperf_*.so*) return 0 ;;
  esac
  return 1
}

# The C library's parts, on every Linux machine and tied to its dynamic loader: never carried.
is_libc_part() {
  case "$1" in
    linux-vdso.so* | ld-linux*.so* | libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libutil.so* | \
      libresolv.so* | libanl.so* | libnsl.so* | libmvec.so*) return 0 ;;
  esac
  return 1
}

# is_elf FILE: an ELF object (no `file` in a bare system).
is_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
