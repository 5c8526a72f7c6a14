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
# tarball), in an optional local mirror of a development machine (../shared/vendor next to the
# repository: not part of it, and the script runs without it), and in the download cache; when it is in none, it is downloaded from the
# release's canonical place: Debian's archive for 2.1.11 and 2.3.2 (sha256 pinned here), the
# OpenZFS release page on GitHub for 2.2.9 and 2.4.4 (checked against the sha256 the release
# publishes beside it, zfs-VERSION.sha256.asc; the mirrors' .tar.xz trees are pinned here). A
# failure names what is missing and where it was looked for. The build lives outside the work tree, in
# ${XDG_CACHE_HOME:-$HOME/.cache}/zpoolsim/openzfs-VERSION/, so a machine builds each release
# once (2-5 minutes on 2 cores); the driver alone is rebuilt when oracle.c changes. Build
# dependencies are installed from Debian packages when missing and we are root. Pools are made
# on a tmpfs (/dev/shm, or one mounted under the cache), which takes sparse files of 24 TB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/zpoolsim
driver=$root/crates/space/oracle/oracle.c
debian=http://deb.debian.org/debian/pool/contrib/z/zfs-linux
github=https://github.com/openzfs/zfs/releases/download

# VERSION -> "FILE SHA256 WHERE": FILE as a local mirror holds it, with its pinned sha256, and
# WHERE it is downloaded from when no mirror has it: "debian" (that same file) or "github" (the
# release's zfs-VERSION.tar.gz, checked against its published sha256).
tarball_of() {
    case $1 in
    2.1.11) echo "zfs-linux_2.1.11.orig.tar.gz a54fe4e854d0a207584f1799a80e165eae66bc30dc8e8c96a1f99ed9d4d8ceb2 debian" ;;
    2.2.9) echo "zfs-2.2.9.tar.xz 8a99321ec8c52b6132300fdff303d2cfde6fcf198673a6a3e9ced3edad3a9f3d github" ;;
    2.3.2) echo "zfs-linux_2.3.2.orig.tar.gz 80da628a9543ec3355bf410617450e167706948ceb287541455a1b8d87b8758a debian" ;;
    2.4.4) echo "zfs-2.4.4.tar.xz fb823f0634b4b6d10f86317f6eee62cd1a1cd3d688834a8fee15372a9189aa2f github" ;;
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
    bash "$root/scripts/apt-install.sh" "${missing[@]}" >&2
}

sha_ok() { echo "$2  $1" | sha256sum --check --status; }

# The path of VERSION's source tarball, checked against its sha256: a local mirror's, or one
# downloaded before, or downloaded now.
find_tarball() {
    local version=$1 file sha where dir
    read -r file sha where <<<"$(tarball_of "$version")"
    # ../shared/vendor: an optional local mirror, see the header.
    for dir in "${ZPOOLSIM_OPENZFS_SRC:-}" "$root/../shared/vendor" "$cache/downloads"; do
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
        if [ "$where" = github ] && [ -f "$dir/zfs-$version.tar.gz" ] && [ -f "$dir/zfs-$version.sha256" ]; then
            sha_ok "$dir/zfs-$version.tar.gz" "$(cat "$dir/zfs-$version.sha256")" ||
                fail "$dir/zfs-$version.tar.gz: sha256 is not the release's"
            echo "$dir/zfs-$version.tar.gz"
            return
        fi
    done
    say "OpenZFS $version: $file is in none of \$ZPOOLSIM_OPENZFS_SRC, ../shared/vendor, $cache/downloads: downloading it"
    command -v curl >/dev/null || fail "OpenZFS $version: curl is missing to download it (apt-get install curl, or put $file in one of those places)"
    mkdir -p "$cache/downloads"
    case $where in
    debian) download "$debian/$file" "$sha" "$cache/downloads/$file" ;;
    github) download_release "$version" ;;
    esac
}

# Downloads URL to FILE when its sha256 is SHA.
download() {
    local url=$1 sha=$2 out=$3
    say "downloading $url"
    curl -sSfL -m 900 -o "$out.part" "$url" || fail "download of $url failed (no network? put the file in one of the places above)"
    sha_ok "$out.part" "$sha" || fail "$url: sha256 is not $sha"
    mv "$out.part" "$out"
    echo "$out"
}

# The OpenZFS release tarball from its GitHub release page, checked against the sha256 the
# release publishes beside it (a signed text naming each file).
download_release() {
    local version=$1 sums sha
    sums=$(curl -sSfL -m 60 "$github/zfs-$version/zfs-$version.sha256.asc") ||
        fail "cannot fetch $github/zfs-$version/zfs-$version.sha256.asc, the release's published sha256 (no network?)"
    sha=$(awk -v f="zfs-$version.tar.gz" '$2 == f || $2 == "*" f { print $1 }' <<<"$sums" | head -n 1)
    [[ $sha =~ ^[0-9a-f]{64}$ ]] || fail "$github/zfs-$version/zfs-$version.sha256.asc names no sha256 of zfs-$version.tar.gz"
    download "$github/zfs-$version/zfs-$version.tar.gz" "$sha" "$cache/downloads/zfs-$version.tar.gz" >/dev/null
    echo "$sha" >"$cache/downloads/zfs-$version.sha256"
    echo "$cache/downloads/zfs-$version.tar.gz"
}

# Unpacks and configures VERSION in $work/src and builds libzpool and what ztest links.
build_library() {
    local version=$1 work=$2 tarball
    # Each step stops the build with its own message (set -e does not hold inside `if !`).
    tarball=$(find_tarball "$version") || exit 1
    rm -rf "$work/src" "$work/lib.ok"
    mkdir -p "$work/src"
    tar -xf "$tarball" -C "$work/src" --strip-components=1 || fail "cannot unpack $tarball"
    cd "$work/src" || exit 1
    # The vendored trees lack tests/zfs-tests/tests, which automake insists on.
    if [ ! -d tests/zfs-tests/tests ]; then
        mkdir -p tests/zfs-tests/tests
        echo "# empty: the release tree has no tests/zfs-tests/tests" >tests/zfs-tests/tests/Makefile.am
    fi
    if [ ! -x configure ]; then
        for tool in autoreconf automake libtoolize make gcc; do
            command -v "$tool" >/dev/null ||
                fail "OpenZFS $version: $tool is missing (Debian packages autoconf automake libtool make gcc; scripts/openzfs-oracle.sh installs them as root)"
        done
        ./autogen.sh >"$work/autogen.log" 2>&1 || fail "autogen.sh failed: $work/autogen.log"
    fi
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
    local version skipped=()
    for version in ${ZPOOLSIM_ORACLE_RELEASES:-$(versions)}; do
        # A process of its own, so that set -e holds in it and its failure is this one line.
        if ! bash "$0" build "$version" >/dev/null; then
            [ "${CI:-}" != true ] || fail "OpenZFS $version could not be built (see above): under CI every release is checked"
            skipped+=("$version")
        fi
    done
    if [ ${#skipped[@]} -gt 0 ]; then
        say "*** SKIPPED: the live space test will not check OpenZFS ${skipped[*]} (see above why; CI=true makes this a failure) ***"
    fi
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
