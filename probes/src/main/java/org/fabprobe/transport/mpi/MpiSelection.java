package org.fabprobe.transport.mpi;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.ExitCode;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.ucx.UcxSettings;

/**
 * {@code mpi:IMPL/SELECTION}: which MPI, and what it runs over, named like the raw transport
 * it is compared with, so that {@code compare} can pair them:
 *
 * <pre>
 * mpi:openmpi/ofi:tcp      pml cm + mtl ofi, FI_PROVIDER=tcp        (vs ofi:tcp)
 * mpi:openmpi/ucx:tcp      pml ucx, UCX_TLS=tcp                      (vs ucx:tcp)
 * mpi:openmpi/ob1:tcp      pml ob1 + btl self,tcp                    (shown against ofi:tcp)
 * mpi:openmpi/ob1:vader    pml ob1 + btl self,vader                  (shown against ofi:shm)
 * mpi:mpich/ucx:posix,cma  MPICH ch4:ucx, UCX_TLS=posix,cma          (vs ucx:posix,cma)
 * mpi:openmpi              whatever the MPI chooses by itself
 * </pre>
 *
 * <p>The environment is applied by each rank to itself before MPI_Init (so it holds however
 * the ranks were launched) and recorded with every result.
 */
public record MpiSelection(Mpi.Implementation implementation, String underneath, Map<String, String> environment) {

    /**
     * The selection as the ranks apply it: over UCX pinned as raw ucx:TLS in local mode is
     * (bound to loopback) when every rank runs on this host, else left to UCX.
     */
    public static MpiSelection parse(String name) {
        return parse(name, allRanksOnThisHost() ? "127.0.0.1" : null);
    }

    /**
     * @param sourceNode the address the ranks bind to (--src-addr), or null: over UCX the same
     *                   {@link UcxSettings} as raw ucx:TLS are pinned from it
     */
    public static MpiSelection parse(String name, String sourceNode) {
        if (!name.startsWith("mpi:")) throw unknown(name, "an MPI transport starts with mpi:");
        String rest = name.substring(4);
        int slash = rest.indexOf('/');
        String impl = slash < 0 ? rest : rest.substring(0, slash);
        String under = slash < 0 ? "" : rest.substring(slash + 1);
        Mpi.Implementation implementation;
        try {
            implementation = Mpi.Implementation.of(impl);
        } catch (IllegalArgumentException e) {
            throw unknown(name, e.getMessage());
        }
        return new MpiSelection(implementation, under, environment(name, implementation, under, sourceNode));
    }

    /**
     * The MPI a launcher bootstrap of raw transports initializes only to exchange endpoints:
     * Open MPI on ob1 with its shared-memory and TCP BTLs, so that it opens nothing on the
     * fabric the raw transport is about to measure; MPICH as it comes.
     */
    public static MpiSelection bootstrap(Mpi.Implementation impl) {
        Map<String, String> env = environment("mpi:" + impl.id, impl, "", null);
        if (impl == Mpi.Implementation.OPENMPI) {
            env.put("OMPI_MCA_pml", "ob1");
            env.put("OMPI_MCA_btl", "self,vader,tcp");
        }
        return new MpiSelection(impl, "", env);
    }

    /**
     * Which one-sided component (Open MPI's osc) a one-sided run uses over this selection, as
     * the environment that chooses it and what is known of who must progress.
     *
     * @param environment applied before MPI_Init beside {@link #environment()}
     * @param component   the component that runs MPI's windows
     * @param progress    "native" (no target CPU), "emulated" (the target's MPI calls serve the
     *                    operations) or "not known", with why
     */
    public record OneSided(Map<String, String> environment, String component, String progress) {}

    /**
     * Open MPI's osc named explicitly, so that the record says which ran (a chosen component
     * that cannot run fails MPI_Win_allocate rather than giving way to another): osc ucx over
     * pml ucx, osc sm over ob1:vader (4.1's default osc rdma over btl vader crashes in
     * MPI_Compare_and_swap, open-mpi/ompi#11349), osc pt2pt (MPI messages the target's MPI
     * calls serve) over ob1:tcp and mtl ofi. MPICH's ch4 has no choice to make here.
     */
    public OneSided oneSided() {
        if (implementation == Mpi.Implementation.MPICH) {
            return new OneSided(Map.of(), "ch4 (MPICH's device chooses per window: shared memory, UCX RMA or"
                    + " active messages)", "not known: MPICH does not say which way a window went");
        }
        int colon = underneath.indexOf(':');
        String kind = colon < 0 ? underneath : underneath.substring(0, colon);
        String detail = colon < 0 ? "" : underneath.substring(colon + 1);
        String osc;
        String progress;
        switch (kind) {
            case "ucx" -> {
                osc = "ucx";
                progress = UcxSettings.emulatesOneSided(detail)
                        ? "emulated: UCX runs them as active messages that the target's MPI calls serve"
                        : "native: UCX's own RMA and atomics, no target CPU";
            }
            case "ob1" -> {
                osc = detail.equals("vader") ? "sm" : "pt2pt";
                progress = osc.equals("sm") ? "native: loads and stores in shared memory, no target CPU"
                        : "emulated: MPI messages that the target's MPI calls serve";
            }
            case "ofi" -> {
                osc = "pt2pt";
                progress = "emulated: MPI messages that the target's MPI calls serve";
            }
            default -> {
                return new OneSided(Map.of(), "Open MPI's own choice", "not known: Open MPI chose the component");
            }
        }
        return new OneSided(Map.of("OMPI_MCA_osc", osc), "osc " + osc, progress);
    }

    /** "mpi:openmpi/ucx:tcp", or "mpi:openmpi" when the MPI chooses. */
    public String describe() {
        return "mpi:" + implementation.id + (underneath.isEmpty() ? "" : "/" + underneath);
    }

    /** The raw transport this MPI runs over (for compare), or "" if the MPI chooses. */
    public String rawTransport() {
        if (underneath.startsWith("ob1:")) return underneath.equals("ob1:vader") ? "ofi:shm" : "ofi:tcp";
        return underneath;
    }

    private static Map<String, String> environment(String name, Mpi.Implementation impl, String under, String sourceNode) {
        Map<String, String> env = new LinkedHashMap<>();
        // MPI must not take the signals HotSpot lives on (SIGSEGV for null checks and safepoints)
        env.put("UCX_ERROR_SIGNALS", "");
        if (impl == Mpi.Implementation.OPENMPI) env.put("OMPI_MCA_opal_signal", "");
        if (under.isEmpty()) return env;
        int colon = under.indexOf(':');
        String kind = colon < 0 ? under : under.substring(0, colon);
        String detail = colon < 0 ? "" : under.substring(colon + 1);
        if (detail.isEmpty()) throw unknown(name, "name what MPI runs over, e.g. ucx:tcp, ofi:tcp, ob1:vader");
        switch (impl) {
            case OPENMPI -> {
                switch (kind) {
                    case "ucx" -> {
                        env.put("OMPI_MCA_pml", "ucx");
                        env.put("OMPI_MCA_osc", "^ucx");
                        // pml ucx refuses non-Mellanox devices unless told otherwise
                        env.put("OMPI_MCA_pml_ucx_tls", "any");
                        env.put("OMPI_MCA_pml_ucx_devices", "any");
                        putUcx(env, detail, sourceNode);
                    }
                    case "ofi" -> {
                        if (detail.equals("shm")) {
                            // mtl ofi asks fi_getinfo for FI_REMOTE_COMM, which the shm provider lacks
                            throw new TransportException(ExitCode.UNSUPPORTED, name + ": Open MPI's mtl ofi needs"
                                    + " FI_REMOTE_COMM, which libfabric's shm provider does not offer; compare ofi:shm"
                                    + " with mpi:openmpi/ob1:vader instead");
                        }
                        env.put("OMPI_MCA_pml", "cm");
                        env.put("OMPI_MCA_mtl", "ofi");
                        env.put("OMPI_MCA_mtl_ofi_provider_include", detail);
                        env.put("FI_PROVIDER", detail);
                    }
                    case "ob1" -> {
                        if (!detail.equals("tcp") && !detail.equals("vader")) {
                            throw unknown(name, "ob1 runs over tcp or vader here (btl self,tcp / self,vader)");
                        }
                        env.put("OMPI_MCA_pml", "ob1");
                        env.put("OMPI_MCA_btl", "self," + detail);
                        if (detail.equals("tcp")) env.put("OMPI_MCA_btl_tcp_if_include", "lo");
                    }
                    default -> throw unknown(name, "Open MPI runs over ucx:TLS, ofi:PROVIDER, ob1:tcp or ob1:vader");
                }
            }
            case MPICH -> {
                // Debian's MPICH is built for ch4:ucx; an ofi build reads FI_PROVIDER the same way
                switch (kind) {
                    case "ucx" -> putUcx(env, detail, sourceNode);
                    case "ofi" -> env.put("FI_PROVIDER", detail);
                    default -> throw unknown(name, "MPICH runs over ucx:TLS (ch4:ucx) or ofi:PROVIDER (ch4:ofi)");
                }
            }
        }
        if (kind.equals("ucx")) env.put("UCX_WARN_UNUSED_ENV_VARS", "n");
        return env;
    }

    /** Raw ucx:TLS's own settings, as UCX_* variables ("self" added to the TLS). */
    private static void putUcx(Map<String, String> env, String tls, String sourceNode) {
        UcxSettings.pinned(withSelf(tls), sourceNode).forEach((k, v) -> env.put("UCX_" + k, v));
    }

    /**
     * Whether every rank runs on this host, from what the launcher tells each rank (Open MPI:
     * OMPI_COMM_WORLD_LOCAL_SIZE and _SIZE; MPICH Hydra: MPI_LOCALNRANKS and PMI_SIZE). Not
     * started by a launcher (the measure process before it starts one): one process, true.
     */
    static boolean allRanksOnThisHost() {
        return sameCount("OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_SIZE") && sameCount("MPI_LOCALNRANKS", "PMI_SIZE");
    }

    private static boolean sameCount(String local, String world) {
        String l = System.getenv(local), w = System.getenv(world);
        return l == null || w == null || l.strip().equals(w.strip());
    }

    /** The MPI also talks to itself (a rank's own messages); raw UCX does not need "self". */
    private static String withSelf(String tls) {
        return tls.contains("self") ? tls : tls + ",self";
    }

    private static TransportException unknown(String name, String why) {
        return new TransportException(ExitCode.UNKNOWN_TRANSPORT, "unknown transport '" + name + "': " + why);
    }
}
