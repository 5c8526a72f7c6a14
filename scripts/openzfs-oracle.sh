#!/usr/bin/env bash
# zpoolsim's OpenZFS space oracle: builds OpenZFS's userspace library libzpool (the real
# SPA/DMU code, as ztest and zdb run it) from a release's source, links the project's driver
# crates/space/oracle/oracle.c against it, and runs it on pools of sparse files.
#
#   scripts/openzfs-oracle.sh build VERSION       build (or reuse) it; print the binary's path
#   scripts/openzfs-oracle.sh run VERSION < POOLS one JSON line per pool (see oracle.c)
#   scripts/openzfs-oracle.sh prepare             build every release (scripts/test runs it);
#                                                 a failure only warns unless CI=true
#   scripts/openzfs-oracle.sh versions            the releases it knows
#   scripts/openzfs-oracle.sh record [VERSION...] run crates/space/oracle/pools.txt with each
#                                                 release (default: all) and write the outputs
#                                                 to crates/space/tests/data/openzfs_oracle.json
#   scripts/openzfs-oracle.sh record-expansion [VERSION...]  the same for the raidz expansions
#                                                 of crates/space/oracle/expansions.txt (2.3 on)
#                                                 into tests/data/openzfs_expansion.json
#
# The source tarball is looked for in $ZPOOLSIM_OPENZFS_SRC (a directory of tarballs, or one
# tarball), in two optional local caches of a development machine (../shared/vendor next to the
# repository, /work/shared/vendor: neither is part of the repository, and the script runs
# without them), and in the download cache; the releases Debian serves are downloaded from
# deb.debian.org when missing, the others must be supplied in one of those places. Every
# tarball's sha256 is checked. The build lives outside the work tree, in
# ${XDG_CACHE_HOME:-$HOME/.cache}/zpoolsim/openzfs-VERSION/, so a machine builds each release
# once (2-5 minutes on 2 cores); the driver alone is rebuilt when oracle.c changes. Build
# dependencies are installed from Debian packages when missing and we are root. Pools are made
# on a tmpfs (/dev/shm, or one mounted under the cache), which takes sparse files of 24 TB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/zpoolsim
driver=$root/crates/space/oracle/oracle.c
debian=http://deb.debian.org/debian/pool/contrib/z/zfs-linux

# VERSION -> "FILE SHA256 WHERE": WHERE is "debian" (downloadable) or "vendor" (a release tree
# as tagged, found only in a vendor directory).
tarball_of() {
    case $1 in
    2.1.11) echo "zfs-linux_2.1.11.orig.tar.gz a54fe4e854d0a207584f1799a80e165eae66bc30dc8e8c96a1f99ed9d4d8ceb2 debian" ;;
    2.2.9) echo "zfs-2.2.9.tar.xz 8a99321ec8c52b6132300fdff303d2cfde6fcf198673a6a3e9ced3edad3a9f3d vendor" ;;
    2.3.2) echo "zfs-linux_2.3.2.orig.tar.gz 80da628a9543ec3355bf410617450e167706948ceb287541455a1b8d87b8758a debian" ;;
    2.4.4) echo "zfs-2.4.4.tar.xz fb823f0634b4b6d10f86317f6eee62cd1a1cd3d688834a8fee15372a9189aa2f vendor" ;;
    *) return 1 ;;
    esac
}

say() { echo "openzfs-oracle: $*" >&2; }
fail() {
    say "$*"
    exit 1
}

# The packages configure --with-config=user needs, installed when missing and we are root.
install_deps() {
    local pkgs=(autoconf automake libtool make gcc pkg-config libssl-dev uuid-dev
        libblkid-dev libudev-dev zlib1g-dev libtirpc-dev curl xz-utils)
    local missing=()
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        say "missing ${missing[*]}, not root or no apt-get: building without them"
        return 0
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

sha_ok() { echo "$2  $1" | sha256sum --check --status; }

# The path of VERSION's source tarball, checked against its sha256.
find_tarball() {
    local version=$1 file sha where dir
    read -r file sha where <<<"$(tarball_of "$version")"
    # ../shared/vendor and /work/shared/vendor: optional local caches, see the header.
    for dir in "${ZPOOLSIM_OPENZFS_SRC:-}" "$root/../shared/vendor" /work/shared/vendor "$cache/downloads"; do
        [ -n "$dir" ] || continue
        if [ -f "$dir" ]; then
            case $dir in *"$version"*) ;; *) continue ;; esac
            sha_ok "$dir" "$sha" || fail "$dir: sha256 is not $sha"
            echo "$dir"
            return
        fi
        if [ -f "$dir/$file" ]; then
            sha_ok "$dir/$file" "$sha" || fail "$dir/$file: sha256 is not $sha"
            echo "$dir/$file"
            return
        fi
    done
    [ "$where" = debian ] || fail "$file not found in \$ZPOOLSIM_OPENZFS_SRC, ../shared/vendor or /work/shared/vendor"
    mkdir -p "$cache/downloads"
    say "downloading $debian/$file"
    curl -sSf -m 900 -o "$cache/downloads/$file.part" "$debian/$file" || fail "download of $debian/$file failed"
    sha_ok "$cache/downloads/$file.part" "$sha" || fail "$debian/$file: sha256 is not $sha"
    mv "$cache/downloads/$file.part" "$cache/downloads/$file"
    echo "$cache/downloads/$file"
}

# Unpacks and configures VERSION in $work/src and builds libzpool and what ztest links.
build_library() {
    local version=$1 work=$2 tarball
    tarball=$(find_tarball "$version")
    rm -rf "$work/src" "$work/lib.ok"
    mkdir -p "$work/src"
    tar -xf "$tarball" -C "$work/src" --strip-components=1
    cd "$work/src"
    # The vendored trees lack tests/zfs-tests/tests, which automake insists on.
    if [ ! -d tests/zfs-tests/tests ]; then
        mkdir -p tests/zfs-tests/tests
        echo "# empty: the release tree has no tests/zfs-tests/tests" >tests/zfs-tests/tests/Makefile.am
    fi
    [ -x configure ] || ./autogen.sh >"$work/autogen.log" 2>&1 || fail "autogen failed: $work/autogen.log"
    say "configuring OpenZFS $version in $work/src"
    ./configure --with-config=user --disable-shared --disable-pyzfs >"$work/configure.log" 2>&1 ||
        fail "configure failed: $work/configure.log"
    say "building libzpool $version (2-5 minutes on 2 cores)"
    {
        make gitrev
        if [ -d cmd/ztest ]; then # up to 2.1: one Makefile per directory
            make -j"$(nproc)" -C include && make -j"$(nproc)" -C lib
        else
            make -j"$(nproc)" libzpool.la libzfs_core.la libnvpair.la
        fi
    } >"$work/make.log" 2>&1 || fail "build failed: $work/make.log"
    touch "$work/lib.ok"
}

# Compiles oracle.c as the tree's ztest (same flags, -DDEBUG -UNDEBUG -DZFS_DEBUG, same
# libraries) and copies the binary to $work/oracle.
build_driver() {
    local version=$1 work=$2 number major minor patch
    IFS=. read -r major minor patch <<<"$version"
    number=$((major * 10000 + minor * 100 + patch))
    cd "$work/src"
    if [ -d cmd/ztest ]; then
        cp "$driver" cmd/ztest/ztest.c
        make -C cmd/ztest ztest CPPFLAGS="-DORACLE_ZFS_VERSION=$number" >"$work/driver.log" 2>&1 ||
            fail "driver build failed: $work/driver.log"
        cp cmd/ztest/ztest "$work/oracle"
    else
        cp "$driver" cmd/ztest.c
        make ztest CPPFLAGS="-DORACLE_ZFS_VERSION=$number" >"$work/driver.log" 2>&1 ||
            fail "driver build failed: $work/driver.log"
        cp ztest "$work/oracle"
    fi
    cp "$driver" "$work/oracle.c"
}

build() {
    local version=$1 work=$cache/openzfs-$1
    tarball_of "$version" >/dev/null || fail "unknown release $version (known: $(versions))"
    mkdir -p "$work"
    exec 9>"$work.lock"
    flock 9
    if [ ! -f "$work/lib.ok" ]; then
        install_deps
        build_library "$version" "$work"
    fi
    if [ ! -x "$work/oracle" ] || ! cmp -s "$driver" "$work/oracle.c"; then
        build_driver "$version" "$work"
    fi
    echo "$work/oracle"
}

# A directory on a tmpfs for the sparse files.
scratch() {
    if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
        mktemp -d /dev/shm/zpoolsim-oracle.XXXXXX
        return
    fi
    local mnt=$cache/tmpfs
    mkdir -p "$mnt"
    if [ "$(stat -f -c %T "$mnt")" != tmpfs ]; then
        [ "$(id -u)" -eq 0 ] || fail "no tmpfs for sparse files: /dev/shm is missing and mounting one needs root"
        mount -t tmpfs -o size=8g zpoolsim-oracle "$mnt" || fail "cannot mount a tmpfs on $mnt"
    fi
    mktemp -d "$mnt/zpoolsim-oracle.XXXXXX"
}

run() {
    local oracle dir status=0
    oracle=$(build "$1")
    dir=$(scratch)
    "$oracle" "$dir" || status=$?
    rm -rf "$dir"
    return $status
}

versions() { echo "2.1.11 2.2.9 2.3.2 2.4.4"; }

# Builds every release ($ZPOOLSIM_ORACLE_RELEASES, if set) ahead of the tests; the live test
# (crates/space/tests/openzfs_live.rs) skips loudly what could not be built, or fails under CI.
prepare() {
    local version
    for version in ${ZPOOLSIM_ORACLE_RELEASES:-$(versions)}; do
        if ! (build "$version" >/dev/null); then
            [ "${CI:-}" != true ] || fail "OpenZFS $version could not be built"
            say "OpenZFS $version could not be built: its live test will be skipped"
        fi
    done
}

# The recorded outputs: {"releases": {"VERSION": [one pool per line, ...], ...}}.
record() {
    record_pools pools.txt openzfs_oracle.json record "$@"
}

# The raidz expansions: OpenZFS 2.3 brought them.
record_expansion() {
    [ $# -gt 0 ] || set -- 2.3.2 2.4.4
    record_pools expansions.txt openzfs_expansion.json record-expansion "$@"
}

# POOLS (in crates/space/oracle) run by each release into OUT (in crates/space/tests/data).
record_pools() {
    local pools=$root/crates/space/oracle/$1 out=$root/crates/space/tests/data/$2 how=$3
    local version lines sep=""
    shift 3
    [ $# -gt 0 ] || set -- $(versions)
    {
        echo '{'
        echo "  \"source\": \"scripts/openzfs-oracle.sh $how: crates/space/oracle/oracle.c on libzpool of each release, pools of crates/space/oracle/$(basename "$pools")\","
        echo '  "releases": {'
        for version in "$@"; do
            lines=$(run "$version" <"$pools")
            printf '%s    "%s": [\n' "$sep" "$version"
            sed 's/^/      /; $!s/$/,/' <<<"$lines"
            printf '    ]'
            sep=$',\n'
        done
        printf '\n  }\n}\n'
    } >"$out.part"
    mv "$out.part" "$out"
    say "wrote $out"
}

case ${1:-} in
build) build "${2:?VERSION}" ;;
run) run "${2:?VERSION}" ;;
versions) versions ;;
prepare) prepare ;;
record)
    shift
    record "$@"
    ;;
record-expansion)
    shift
    record_expansion "$@"
    ;;
*) fail "usage: $0 build VERSION | run VERSION < POOLS | prepare | versions | record [VERSION...] | record-expansion [VERSION...]" ;;
esac
