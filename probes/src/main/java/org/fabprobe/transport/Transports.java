package org.fabprobe.transport;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.fabprobe.ExitCode;
import org.fabprobe.runtime.CompilerThreads;
import org.fabprobe.runtime.ThreadIds;
import org.fabprobe.transport.ofi.OfiRegistration;
import org.fabprobe.transport.ofi.OfiTransport;
import org.fabprobe.transport.sim.SimTransport;
import org.fabprobe.transport.ucx.UcxRegistration;
import org.fabprobe.transport.ucx.UcxTransport;

/** Opens a transport from its name: {@code ofi:PROVIDER}, {@code ucx:TLS} or {@code sim:PARAMETERS}. */
public final class Transports {
    private Transports() {}

    public static Transport open(String name, TransportOptions options) {
        checkBufferFits(options.bufferBytes());
        TransportName parsed = TransportName.parse(name);
        awaitInitialization(parsed.family());
        return switch (parsed) {
            case TransportName.Ofi ofi -> OfiTransport.open(name, ofi.detail(), options);
            case TransportName.Ucx ucx -> UcxTransport.open(name, ucx.detail(), options);
            case TransportName.Sim sim -> SimTransport.open(name, sim.detail(), options);
            case TransportName.Mpi mpi -> org.fabprobe.transport.mpi.MpiTransport.open(name,
                    org.fabprobe.transport.mpi.MpiWorld.open(name), options);
        };
    }

    /** As {@link #open(String, TransportOptions)}, able to do one-sided {@code op} ({@link OneSided}) where it is not send. */
    public static Transport open(String name, TransportOptions options, Op op) {
        if (!op.oneSided()) return open(name, options);
        checkOneSided(name, op);
        checkBufferFits(options.bufferBytes());
        TransportName parsed = TransportName.parse(name);
        awaitInitialization(parsed.family());
        return switch (parsed) {
            case TransportName.Ofi ofi -> OfiTransport.open(name, ofi.detail(), options, op);
            case TransportName.Ucx ucx -> UcxTransport.open(name, ucx.detail(), options, op);
            case TransportName.Sim sim -> SimTransport.open(name, sim.detail(), options, op);
            case TransportName.Mpi mpi -> org.fabprobe.transport.mpi.MpiTransport.open(name,
                    org.fabprobe.transport.mpi.MpiWorld.open(name, true), options, op);
        };
    }

    /** The transports that can do one-sided operations, for a refusal's one line. */
    public static final String ONE_SIDED_TRANSPORTS = "ucx:posix, ucx:cma, ucx:tcp (emulated by UCX), ofi: providers"
            + " with FI_RMA and FI_ATOMIC (ofi:shm, ofi:tcp), mpi:openmpi/..., mpi:mpich/... (MPI windows), and sim:";

    /** Refuses, with exit 3 and one line, a transport family that has no one-sided operations. */
    public static void checkOneSided(String name, Op op) {
        if (!op.oneSided()) return;
        TransportName parsed = TransportName.parseOrNull(name);
        if (parsed != null) return; // every family has them; a provider without them is refused when opened
        throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "--op " + op.label() + ": " + name
                + " has no one-sided operations; transports that do: " + ONE_SIDED_TRANSPORTS);
    }

    /** Background initializations by transport family, and what each threw (see below). */
    private static final Map<String, Thread> INITIALIZING = new ConcurrentHashMap<>();
    private static final Map<String, Throwable> INITIALIZATION_FAILED = new ConcurrentHashMap<>();

    /**
     * Starts loading and initializing the transport's library on a background thread, so that
     * a later {@link #open} finds it done: the one-time cost (libfabric's provider scan, UCX's
     * module loading) then overlaps with the other process's start.
     *
     * <p>This JVM's compiler threads run at idle priority meanwhile ({@link CompilerThreads#lower},
     * guarding the calling thread, which goes on with the start): the initialization is the
     * start's critical path (libfabric's provider scan reads /proc/kallsyms twice), and on 2
     * CPUs both processes' JITs, compiling start-up code, took most of the CPU time it needed.
     */
    public static void initializeInBackground(String name) {
        TransportName parsed = TransportName.parseOrNull(name);
        Runnable init = switch (parsed) {
            case TransportName.Ofi ofi -> () -> OfiTransport.initialize(ofi.detail());
            case TransportName.Ucx ucx -> UcxTransport::initialize;
            case null, default -> null; // sim: nothing to load; mpi: MPI_Init belongs to the ranks' start
        };
        if (init == null || parsed.detail().isEmpty()) return;
        String family = parsed.family();
        int caller = ThreadIds.current();
        INITIALIZING.computeIfAbsent(family, f -> Thread.ofPlatform().daemon().name("fabprobe-library-init").start(() -> {
            try (CompilerThreads.Lowered lowered = CompilerThreads.lower(caller)) {
                init.run();
            } catch (RuntimeException | Error e) {
                INITIALIZATION_FAILED.put(f, e);
            }
        }));
    }

    /**
     * Waits for a background initialization of {@code family} and rethrows what it threw:
     * a binding class that failed there (a missing library) fails here only as
     * "Could not initialize class", which would hide the reason.
     */
    private static void awaitInitialization(String family) {
        Thread init = INITIALIZING.get(family);
        if (init == null) return;
        try {
            init.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Throwable failed = INITIALIZATION_FAILED.get(family);
        if (failed instanceof RuntimeException r) throw r;
        if (failed instanceof Error e) throw e;
    }

    /** Whether the transport this name opens has blocking calls ({@link Transport#hasBlockingCalls()}): mpi only. */
    public static boolean hasBlockingCalls(String name) {
        TransportName parsed = TransportName.parseOrNull(name);
        return parsed != null && parsed.hasBlockingCalls();
    }

    /** Two registered buffers of the largest size must fit in memory with room to spare. */
    static void checkBufferFits(long bufferBytes) {
        long physical = ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        long limit = physical / 8;
        if (bufferBytes > limit) {
            throw new TransportException(ExitCode.UNSUPPORTED, "message size " + bufferBytes + " B needs two registered"
                    + " buffers of that size; this machine allows at most " + limit + " B (1/8 of its memory)");
        }
    }

    /** The registrar of {@code transport} (ofi:PROVIDER or ucx:TLS); others get exit 3 in one line. */
    public static Registrar openRegistrar(String transport) {
        TransportName name = TransportName.parse(transport);
        return switch (name) {
            case TransportName.Ofi ofi -> OfiRegistration.open(transport, ofi.detail());
            case TransportName.Ucx ucx -> UcxRegistration.open(transport, ucx.detail());
            default -> throw new TransportException(ExitCode.UNKNOWN_TRANSPORT, "register times ofi: and ucx: registration; "
                    + transport + " has none of its own (use ofi:PROVIDER or ucx:TLS, see 'fabprobe providers')");
        };
    }
}
