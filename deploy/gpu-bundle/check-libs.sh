#!/usr/bin/env bash
# check-libs.sh [BUNDLE_DIR]: ldd on every program and library of the unpacked GPU bundle; fails
# when one needs a library ldd cannot find that is neither the driver's nor CUDA's (those come from
# the GPU machine, see cuda-libs.sh). Prints, per file, what is left to the machine.
set -euo pipefail
dir=$(cd "${1:-$(dirname "$0")}" && pwd)
. "$dir/cuda-libs.sh"
bad=0
checked=0
while IFS= read -r -d '' f; do
  is_elf "$f" || continue
  checked=$((checked + 1))
  missing=$(ldd "$f" 2>&1 | awk '/not found/ { print $1 }' | sort -u)
  from_machine=()
  for lib in $missing; do
    if is_machine_cuda_lib "$lib"; then from_machine+=("$lib")
    else echo "check-libs: ${f#"$dir"/} needs $lib, which the bundle lacks" >&2; bad=1; fi
  done
  [ ${#from_machine[@]} -eq 0 ] || echo "check-libs: ${f#"$dir"/}: from the GPU machine: ${from_machine[*]}"
done < <(find "$dir" -type f -print0 | sort -z)
[ "$checked" -gt 0 ] || { echo "check-libs: no ELF file under $dir" >&2; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "check-libs: $checked ELF files; every library they need is in the bundle or is the driver's or CUDA's"
