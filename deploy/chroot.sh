#!/usr/bin/env bash
# Runs a command in a bare Debian chroot with a copy of this checkout, as a new user's machine:
# nothing is installed but what mmdebstrap's `apt` variant brings (plus ca-certificates), so a
# build step that relies on a package installed by hand fails here. The checkout is copied to
# /root/jetperf, a clone in root's private home (mode 0700) as a new user makes one, with no
# ../shared beside it: the suite must be self-contained and must not depend on where it sits
# (the command account cannot traverse a private home).
#
#   deploy/chroot.sh [--suite bookworm] [--out DIR] [--bind SRC:DST[:ro]]... -- COMMAND [ARG...]
#
# The base system is made once per suite with mmdebstrap from the Debian archive and kept as a
# tarball in the cache directory ($JETPERF_CHROOT_CACHE, default /var/cache/jetperf-chroot); every
# run unpacks a fresh copy and deletes it afterwards. The cache also holds a ccache directory and
# apt's downloaded .debs, bind-mounted into each chroot, so a second run neither compiles nor
# downloads what the first did. --out binds a host directory at /out for results (packages, logs).
# Needs root (chroot, mount) and mmdebstrap on the host; the command runs as root inside, in
# /root/jetperf, with a clean environment (JETPERF_* and CI are passed through).
set -euo pipefail

suite=bookworm
out=""
binds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bind) binds+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "chroot.sh: unknown option $1 (usage: see the header of $0)" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "chroot.sh: no command given" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "chroot.sh: needs root (chroot and mount)" >&2; exit 2; }

src=$(cd "$(dirname "$0")/.." && pwd)
cache=${JETPERF_CHROOT_CACHE:-/var/cache/jetperf-chroot}
mkdir -p "$cache/ccache" "$cache/apt-$suite"

base="$cache/$suite-base.tar"
if [ ! -s "$base" ]; then
  command -v mmdebstrap >/dev/null || { echo "chroot.sh: needs mmdebstrap (apt-get install mmdebstrap)" >&2; exit 2; }
  echo "chroot.sh: creating the $suite base system (once; cached in $base)"
  # Valid-Until is not checked: the registry may serve a dated snapshot of the archive.
  mmdebstrap --quiet --format=tar --variant=apt --include=ca-certificates \
    --aptopt='Acquire::Check-Valid-Until "false"' "$suite" "$base.tmp"
  mv "$base.tmp" "$base"
fi

root=$(mktemp -d "${TMPDIR:-/var/tmp}/jetperf-$suite.XXXXXX")
mounted=()
cleanup() {
  local rc=$? m
  # Unmount in reverse order, then delete only what is left on this file system: a mount that
  # would not go away must never lead rm into the host's /dev or the cache.
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[$i]}
    umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true
  done
  if grep -q "^$root/" <<<"$(findmnt -rn -o TARGET)"; then
    echo "chroot.sh: mounts remain under $root; not deleting it" >&2
  else
    rm -rf --one-file-system "$root"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tar -xf "$base" -C "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

bind() {  # bind SRC DST [ro]
  mkdir -p "$root$2"
  mount --rbind "$1" "$root$2"
  mount --make-rslave "$root$2"
  mounted+=("$root$2")
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$root$2"; fi
}
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"
mounted+=("$root/proc")
# qemu's binfmt_misc registrations (for arm64 test binaries) are visible inside only through it.
if [ -e /proc/sys/fs/binfmt_misc/status ]; then
  mount -t binfmt_misc binfmt_misc "$root/proc/sys/fs/binfmt_misc"
  mounted+=("$root/proc/sys/fs/binfmt_misc")
fi
bind /sys /sys
bind /dev /dev
bind "$cache/ccache" /root/.cache/ccache
# apt locks its archive directory: a second chroot of the same suite running at the same time
# downloads into its own instead of sharing the cache.
exec {apt_lock}>"$cache/apt-$suite.lock"
if flock -n "$apt_lock"; then
  bind "$cache/apt-$suite" /var/cache/apt/archives
else
  echo "chroot.sh: apt's cache for $suite is in use by another chroot; downloading afresh"
fi
if [ -n "$out" ]; then
  mkdir -p "$out"
  bind "$(cd "$out" && pwd)" /out
fi
for b in "${binds[@]}"; do
  IFS=: read -r b_src b_dst b_mode <<<"$b"
  bind "$b_src" "${b_dst:-$b_src}" "${b_mode:-}"
done
# The apt variant deletes downloaded packages after installing them; keep them in the bound cache.
echo 'Binary::apt::APT::Keep-Downloaded-Packages "true"; APT::Keep-Downloaded-Packages "true";' \
  >"$root/etc/apt/apt.conf.d/10jetperf-keep-debs"
rm -f "$root/etc/apt/apt.conf.d/docker-clean"

# The checkout as git sees it (tracked and untracked files, nothing ignored): a fresh clone's
# content plus work in progress, without build directories.
mkdir -p "$root/root/jetperf"
chmod 0700 "$root/root"
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
  tar --null -T - -cf -) | tar -xf - -C "$root/root/jetperf"

env_args=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
  DEBIAN_FRONTEND=noninteractive CCACHE_DIR=/root/.cache/ccache
  # A fresh chroot unpacks the compiler anew: key the cache on its content, not its mtime.
  CCACHE_COMPILERCHECK=content)
while IFS='=' read -r name _; do
  case "$name" in JETPERF_*|CI) env_args+=("$name=${!name}") ;; esac
done < <(env)

echo "chroot.sh: $suite in $root: $*"
chroot "$root" /usr/bin/env -i "${env_args[@]}" /bin/bash -c 'cd /root/jetperf && exec "$@"' bash "$@"
