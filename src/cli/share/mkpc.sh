#!/bin/sh
# mkpc.sh PREFIX VERSION REQUIRES… — arbiter.pc for a library installed in
# PREFIX/lib, on stdout. When PREFIX/lib is not a directory the dynamic
# linker searches by itself (those ldconfig lists from /etc/ld.so.conf, and
# /lib, /usr/lib, /lib64, /usr/lib64; compared after resolving symbolic
# links, so /usr/lib and /lib are one on a merged-/usr system), Libs also
# carries -Wl,-rpath,${libdir}: a program built with
# `cc prog.c $(pkg-config --cflags --libs arbiter)` against PREFIX=$HOME/.local
# then runs without LD_LIBRARY_PATH. A system directory gets no rpath
# (Debian policy; the cache already finds it — install runs ldconfig as root).
set -eu
prefix=$1 version=$2
shift 2
libdir=$prefix/lib
real() { realpath -m "$1" 2>/dev/null || echo "$1"; }
lib=$(real "$libdir")
# shellcheck disable=SC2016  # ${libdir} is pkg-config's, not the shell's
rpath=' -Wl,-rpath,${libdir}'
for d in /lib /usr/lib /lib64 /usr/lib64 \
         $(PATH=$PATH:/sbin:/usr/sbin ldconfig -v -N -X 2>/dev/null | sed -n 's,^\(/[^:]*\):.*,\1,p'); do
    [ "$(real "$d")" = "$lib" ] && rpath=
done
cat <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: arbiter
Description: record, replay, verify and test trading-card-game matches
Version: $version
Requires.private: $*
Libs: -L\${libdir}$rpath -larbiter
Libs.private: -lpthread -lm
Cflags: -I\${includedir}
EOF
