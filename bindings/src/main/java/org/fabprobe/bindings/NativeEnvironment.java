package org.fabprobe.bindings;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.bindings.libc.Libc;

/**
 * Environment the native libraries must see before they are loaded, because HotSpot owns
 * SIGSEGV: it uses the signal for safepoint polls and implicit null checks, so a library
 * that installs its own SIGSEGV handler turns routine JVM events into crashes.
 *
 * <p>Debian's libfabric links libpsm_infinipath and libpsm2, whose constructors install
 * backtrace handlers unless IPATH_NO_BACKTRACE / HFI_NO_BACKTRACE are set; UCX's libucs
 * does the same for UCX_ERROR_SIGNALS (default ILL,SEGV,BUS,FPE) unless it is empty. Values the user
 * set already are left alone. {@link #prepare()} must run before the first binding class
 * is initialized; scripts/fabprobe and the test configuration export the same variables.
 */
public final class NativeEnvironment {
    /** Variable -> value fabprobe needs; the same list the launcher exports. */
    public static final Map<String, String> REQUIRED = requiredVariables();

    private static boolean prepared;

    private NativeEnvironment() {}

    private static Map<String, String> requiredVariables() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("IPATH_NO_BACKTRACE", "1");
        m.put("HFI_NO_BACKTRACE", "1");
        // UCX installs error-signal handlers (SIGSEGV, SIGBUS, ...) when libucs loads
        m.put("UCX_ERROR_SIGNALS", "");
        return m;
    }

    /**
     * Takes SIGINT and SIGTERM back from native libraries that installed their own handlers
     * (libfabric's shm provider does, for its clean-up, and does not pass them on to the
     * JVM): afterwards they end the process through the JVM's shutdown hooks again, so the
     * run unwinds and closes its native resources. Call after opening a transport.
     */
    @SuppressWarnings("removal")
    public static void reclaimTerminationSignals() {
        for (String name : new String[] {"INT", "TERM"}) {
            int exitCode = name.equals("INT") ? 130 : 143;
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> System.exit(exitCode));
        }
    }

    /**
     * Sets every required variable that is not set yet, in this process's C environment. One
     * present in the start-up environment (the launchers export them; a local mirror inherits
     * them) is in the C environment too and needs no call: the first downcall handle costs
     * ~20 ms of FFM set-up, which here ran before the local mirror was spawned and, in the
     * mirror, before its library started loading.
     */
    public static synchronized void prepare() {
        if (prepared) return;
        REQUIRED.forEach((key, value) -> {
            if (System.getenv(key) == null) setenv(key, value, false); // a value the user chose wins
        });
        prepared = true;
    }

    /** setenv(3) in this process's C environment (not Java's start-up snapshot of it). */
    public static void setenv(String key, String value, boolean overwrite) {
        if (Libc.setenv(key, value, overwrite ? 1 : 0) != 0) throw new IllegalStateException("setenv(" + key + ") failed");
    }
}
