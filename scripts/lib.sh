# Shared helpers for fabprobe's scripts (sourced, not run).

# find_jdk: sets JAVA_HOME to a JDK >= 22: $JAVA_HOME, then /usr/lib/jvm/*, else a clear error.
find_jdk() {
  local candidate
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
    local major
    major=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java.specification.version = //p')
    if [ -n "$major" ] && [ "$major" -ge 22 ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      return 0
    fi
  done
  echo "fabprobe: needs a JDK 22 or newer (FFM API); none found in JAVA_HOME or /usr/lib/jvm." >&2
  echo "  install one, e.g.: apt-get install openjdk-25-jdk-headless (or temurin-25-jdk), then set JAVA_HOME" >&2
  return 1
}

# JVM flags for timing runs: FFM access; and no JVM activity that would preempt a spinning
# measure or mirror on a small machine: serial GC (the loops allocate nothing), fabprobe's own
# methods compiled in the requesting thread (not all, as -Xbatch would: that cost each JVM
# ~0.55 s of start-up), no perf-data page updates, no periodic safepoints; the probes' timed
# loops (Probe, Await, OneSidedPingPong, OneSidedStream) reach C2 at a tenth of the usual calls
# (one-sided: their warm-up calls left the loops in C1 code otherwise), and C2 compiles branches their
# profile never saw instead of traps, so no late deoptimization lands in a measurement.
FABPROBE_JVM_FLAGS="--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:-UsePerfData -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput -XX:GuaranteedSafepointInterval=0 -XX:CompileCommand=quiet -XX:CompileCommand=BackgroundCompilation,org/fabprobe/*.*,false -XX:CompileCommand=CompileThresholdScaling,org/fabprobe/pattern/Probe.*,0.1 -XX:CompileCommand=CompileThresholdScaling,org/fabprobe/pattern/Await.*,0.1 -XX:CompileCommand=CompileThresholdScaling,org/fabprobe/pattern/OneSidedPingPong.*,0.1 -XX:CompileCommand=CompileThresholdScaling,org/fabprobe/pattern/OneSidedStream.*,0.1 -XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0"
# With them (after -XX:+UnlockDiagnosticVMOptions): -XX:CompilerDirectivesFile= this file, which
# keeps start-up-only code from C2 (see there; the distribution carries a copy in lib/). HotSpot
# announces the file on standard output ("1 compiler directives added"), where JSON and the
# child mirror's address go: -XX:-DisplayVMOutput silences that stream (VM warnings and errors
# go to standard error, -Xlog elsewhere; -XX:+PrintCompilation and the like need it back on).
FABPROBE_JIT_DIRECTIVES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/jit-directives.json"

# HotSpot owns SIGSEGV: keep libpsm/libpsm2 (linked into Debian's libfabric) from installing
# backtrace handlers in their constructors (see org.fabprobe.bindings.NativeEnvironment).
export IPATH_NO_BACKTRACE=${IPATH_NO_BACKTRACE:-1} HFI_NO_BACKTRACE=${HFI_NO_BACKTRACE:-1}
export UCX_ERROR_SIGNALS=${UCX_ERROR_SIGNALS-}   # empty: UCX installs no error-signal handlers

# The Debian packages fabprobe's transports and tests need at run time.
FABPROBE_DEBIAN_PACKAGES="maven libfabric1 libfabric-bin ucx-utils libucx0 openmpi-bin libopenmpi3 mpich libmpich12 iproute2 fontconfig fonts-dejavu-core"
# ... and those only the tests need: Slurm and munge for scripts/test-slurm's private cluster
# (libpmix-dev: Slurm's mpi/pmix plugin loads the unversioned libpmix.so, which only it installs)
FABPROBE_TEST_DEBIAN_PACKAGES="slurmctld slurmd slurm-client munge libpmix-dev"

# ensure_packages: installs missing Debian packages when root, else prints the apt-get line.
ensure_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "fabprobe: installing Debian packages: ${missing[*]}" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "fabprobe: missing Debian packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}
