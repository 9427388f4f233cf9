package org.fabprobe.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.bindings.ucx.Ucp;
import org.fabprobe.bindings.ucx.UcpResources;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.result.Host;
import org.fabprobe.result.ProvidersDocument;
import org.fabprobe.result.ProvidersDocument.Offer;
import org.fabprobe.result.ProvidersDocument.Transport;
import org.fabprobe.result.ResultJson;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.ofi.OfiProviders;
import org.fabprobe.transport.ofi.OfiTransport;
import org.fabprobe.transport.ucx.UcxSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe providers`: what can be measured here, one row per usable transport and interface
 * in the -t name to type; --all adds every fi_info entry and UCX resource, --json all of it.
 */
@Command(name = "providers", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"What can I measure here? One row per usable transport and interface, named as -t takes it:",
                "ofi: (libfabric's tagged RDM providers), ucx: (UCX transports), mpi: (the installed MPIs' selections)."})
final class ProvidersCommand implements Callable<Integer> {
    static final String SIZE_MAX = "18446744073709551615";

    @Option(names = "--all", description = "Also list every fi_info entry (repeats counted) and every UCX transport and device.")
    boolean all;

    @Option(names = "--json", paramLabel = "FILE", description = "Write everything as JSON (schema fabprobe.providers/2; - for stdout).")
    Path json;

    @Override
    public Integer call() throws Exception {
        Output.check("--json", json);
        List<OfiProviders.Offer> ofi = OfiProviders.offers();
        List<UcpResources.Resource> ucx = UcpResources.list();
        List<ProvidersDocument.Mpi> mpis = installedMpis();
        List<Transport> rows = new ArrayList<>();
        rows.addAll(ofiRows(ofi));
        rows.addAll(ucxRows(ucx));
        rows.addAll(mpiRows(mpis, ofi, ucx));
        ProvidersDocument doc = new ProvidersDocument(ProvidersDocument.SCHEMA, "fabprobe " + Main.version(), Host.of(org.fabprobe.launch.HostFacts.collect()),
                new ProvidersDocument.Libfabric(OfiProviders.libraryVersion(), ofi.stream().map(ProvidersCommand::offer).toList()),
                new ProvidersDocument.Ucx(Ucp.version(),
                        ucx.stream().map(r -> new ProvidersDocument.Resource(r.transport(), r.device())).toList()),
                mpis, rows);
        if (json != null) {
            Output.write(json, ResultJson.write(doc));
            if (json.toString().equals("-")) return 0;
        }
        System.out.print(table(doc, all));
        return 0;
    }

    /** ofi: one row per tagged RDM provider and domain (interface), as fi_getinfo orders them. */
    static List<Transport> ofiRows(List<OfiProviders.Offer> offers) {
        Map<String, List<OfiProviders.Offer>> groups = new LinkedHashMap<>();
        for (OfiProviders.Offer o : offers) {
            if (!o.tagged() || !o.endpointType().equals("rdm")) continue;
            groups.computeIfAbsent(o.provider() + "\u0000" + o.domain(), k -> new ArrayList<>()).add(o);
        }
        List<Transport> rows = new ArrayList<>();
        List<List<OfiProviders.Offer>> ordered = new ArrayList<>(groups.values());
        // each provider's loopback first: local mode binds to 127.0.0.1 (--src-addr)
        List<String> providers = ordered.stream().map(g -> g.getFirst().provider()).distinct().toList();
        ordered.sort(java.util.Comparator.comparingInt((List<OfiProviders.Offer> g) -> providers.indexOf(g.getFirst().provider()))
                .thenComparing(g -> !g.getFirst().domain().equals("lo")));
        for (List<OfiProviders.Offer> group : ordered) {
            OfiProviders.Offer first = group.getFirst(); // the entry fi_getinfo prefers: what ofi:NAME opens
            List<String> addresses = new ArrayList<>(new java.util.LinkedHashSet<>(
                    group.stream().map(OfiProviders.Offer::fabric).filter(f -> !f.equals(first.domain())).toList()));
            List<String> ops = ofiOps(first.provider());
            String oneSided = ops.size() == 1 ? "" : switch (first.dataProgress()) {
                case "auto" -> "data progress auto: no target CPU";
                case "manual" -> "data progress manual: the target must call libfabric";
                default -> "data progress not declared";
            };
            rows.add(new Transport(ofiName(first.provider(), offers), first.domain(), addresses,
                    maxMessage(Long.toUnsignedString(first.maxMessageSize())), first.injectSize(),
                    first.provider().contains(";") ? first.provider() : "", ops, oneSided));
        }
        return rows;
    }

    private static final Map<String, List<String>> OFI_OPS = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What a provider's tagged RDM endpoints can run, asked as opening them asks (fi_getinfo with
     * the op's caps): the caps fi_getinfo lists without hints leave out what a utility provider
     * adds on request (tcp;ofi_rxm lists no FI_ATOMIC, yet runs atomics).
     */
    static List<String> ofiOps(String provider) {
        return OFI_OPS.computeIfAbsent(provider, p -> {
            List<String> ops = new ArrayList<>(List.of("send"));
            if (OfiTransport.offers(p, Op.WRITE)) ops.add("write");
            if (OfiTransport.offers(p, Op.READ)) ops.add("read");
            if (OfiTransport.offers(p, Op.FETCH_ADD)) ops.add("atomics");
            return List.copyOf(ops);
        });
    }

    /**
     * The -t name of a provider: a utility-layered one ("tcp;ofi_rxm") is what asking for its core
     * provider alone ("tcp") gives, unless the core provider has tagged RDM endpoints of its own.
     */
    static String ofiName(String provider, List<OfiProviders.Offer> offers) {
        int semicolon = provider.indexOf(';');
        if (semicolon < 0) return "ofi:" + provider;
        String core = provider.substring(0, semicolon);
        boolean coreIsRdm = offers.stream().anyMatch(o -> o.provider().equals(core) && o.tagged() && o.endpointType().equals("rdm"));
        return "ofi:" + (coreIsRdm ? provider : core);
    }

    /** ucx: one row per transport and device; "self" only reaches the same process, so it is left out. */
    static List<Transport> ucxRows(List<UcpResources.Resource> resources) {
        List<Transport> rows = new ArrayList<>();
        for (UcpResources.Resource r : resources) {
            if (r.transport().equals("self")) continue;
            rows.add(new Transport("ucx:" + r.transport(), r.device(), List.of(), "", null, "", UCP_OPS,
                    ucxOneSided(r.transport())));
        }
        return rows;
    }

    /** UCP offers every op on every transport: where the transport cannot, UCX emulates it with active messages. */
    static final List<String> UCP_OPS = List.of("send", "write", "read", "atomics");

    /**
     * Who progresses UCP's one-sided operations over one UCX transport (UCX 1.13's transports:
     * shared memory (posix, sysv, xpmem) puts, gets and atomics by loads and stores, cma puts and
     * gets by process_vm_writev/readv, rc/dc by the HCA; everything else is active messages that
     * the target's ucp_worker_progress serves).
     */
    static String ucxOneSided(String tl) {
        if (UcxSettings.emulatesOneSided(tl)) return "emulated by UCX: needs the target's progress";
        if (tl.equals("cma") || tl.equals("knem")) return "write, read native; atomics emulated (target's progress)";
        return "native: no target CPU";
    }

    /** Open MPI's one-sided component for one selection, and whether it is installed beside libmpi. */
    static String mpiOneSided(String selection, String library) {
        MpiSelection.OneSided os = MpiSelection.parse(selection).oneSided();
        if (!os.component().startsWith("osc ")) return os.component() + "; " + os.progress();
        String component = os.component().substring(4);
        boolean installed = library != null && oscInstalled(realParent(library), component);
        return os.component() + (installed ? "" : " (not installed)") + "; " + os.progress();
    }

    /** The folder of the library's file, symbolic links followed (Debian links libmpi.so.40 into the multiarch folder). */
    private static Path realParent(String library) {
        try {
            return Path.of(library).toRealPath().getParent();
        } catch (java.io.IOException e) {
            return Path.of(library).getParent();
        }
    }

    /**
     * Whether mca_osc_NAME.so lies in one of Open MPI's component folders beside {@code libdir}:
     * libdir/openmpi (a source build, RHEL's openmpi/lib), libdir/openmpi/lib/openmpi3 (Debian).
     */
    private static boolean oscInstalled(Path libdir, String component) {
        if (libdir == null) return false;
        for (String folder : List.of("openmpi", "openmpi/lib/openmpi3", "openmpi/lib/openmpi", "openmpi3")) {
            if (java.nio.file.Files.exists(libdir.resolve(folder).resolve("mca_osc_" + component + ".so"))) return true;
        }
        return false;
    }

    /** mpi: what each installed MPI can run over here, in the raw transports' names (see MpiSelection). */
    static List<Transport> mpiRows(List<ProvidersDocument.Mpi> mpis, List<OfiProviders.Offer> ofi,
                                   List<UcpResources.Resource> ucx) {
        TreeSet<String> ucxTls = new TreeSet<>();
        for (UcpResources.Resource r : ucx) if (!r.transport().equals("self")) ucxTls.add(r.transport());
        List<String> ofiNames = new ArrayList<>();
        for (Transport t : ofiRows(ofi)) if (!ofiNames.contains(t.transport())) ofiNames.add(t.transport());
        List<Transport> rows = new ArrayList<>();
        for (ProvidersDocument.Mpi m : mpis) {
            String prefix = "mpi:" + m.implementation() + "/";
            if (m.implementation().equals("openmpi")) {
                rows.add(mpiRow(m, "ob1:vader", "shared memory", "pml ob1, btl self,vader"));
                rows.add(mpiRow(m, "ob1:tcp", "lo", "pml ob1, btl self,tcp"));
                for (String tl : ucxTls) rows.add(mpiRow(m, "ucx:" + tl, "as ucx:" + tl, "pml ucx"));
                for (String name : ofiNames) {
                    if (name.equals("ofi:shm")) continue; // mtl ofi needs FI_REMOTE_COMM, which shm lacks
                    rows.add(mpiRow(m, name, "as " + name, "pml cm, mtl ofi"));
                }
            } else {
                for (String tl : ucxTls) rows.add(mpiRow(m, "ucx:" + tl, "as ucx:" + tl, "ch4:ucx"));
            }
        }
        return rows;
    }

    /** One MPI selection: MPI windows offer every op; who progresses them is its osc's (Open MPI) or not known (MPICH). */
    private static Transport mpiRow(ProvidersDocument.Mpi m, String underneath, String interfaceName, String note) {
        String name = "mpi:" + m.implementation() + "/" + underneath;
        return new Transport(name, interfaceName, List.of(), "", null, note, UCP_OPS, mpiOneSided(name, m.library()));
    }

    /** The MPIs whose library and launcher are both installed. */
    static List<ProvidersDocument.Mpi> installedMpis() {
        List<ProvidersDocument.Mpi> found = new ArrayList<>();
        for (Mpi.Implementation impl : Mpi.Implementation.values()) {
            String library = LocalLauncher.libraryPath(impl);
            String launcher = LocalLauncher.launcherPath(impl);
            if (library != null && launcher != null) found.add(new ProvidersDocument.Mpi(impl.id, library, launcher));
        }
        return found;
    }

    /** SIZE_MAX means no limit; values just below it (SIZE_MAX - 4 KiB for sockets) say how far below. */
    static String maxMessage(String unsigned) {
        if (unsigned.isEmpty()) return "";
        if (unsigned.equals(SIZE_MAX)) return "unlimited";
        java.math.BigInteger value = new java.math.BigInteger(unsigned);
        java.math.BigInteger below = new java.math.BigInteger(SIZE_MAX).subtract(value);
        if (below.bitLength() < 40) return "SIZE_MAX - " + human(below.longValue());
        return human(value.longValue());
    }

    private static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + " GiB";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " B";
    }

    private static Offer offer(OfiProviders.Offer o) {
        return new Offer(o.provider(), o.fabric(), o.domain(), o.endpointType(), o.tagged(), o.mrMode(), o.injectSize(),
                Long.toUnsignedString(o.maxMessageSize()), o.rma(), o.atomics(), o.dataProgress());
    }

    static String table(ProvidersDocument doc, boolean all) {
        StringBuilder b = new StringBuilder();
        List<String> libraries = new ArrayList<>(List.of("libfabric " + doc.libfabric().version(), "UCX " + doc.ucx().version()));
        for (ProvidersDocument.Mpi m : doc.mpi()) {
            libraries.add((m.implementation().equals("openmpi") ? "Open MPI" : "MPICH") + " (" + Path.of(m.launcher()).getFileName() + ")");
        }
        b.append("usable here: ").append(String.join(", ", libraries)).append('\n');
        String format = "%-28s %-14s %-17s %6s  %-24s %s%n";
        b.append(String.format(Locale.ROOT, format, "-t", "interface", "max message", "inject", "ops", "notes"));
        for (Transport t : doc.transports()) {
            String notes = t.note();
            if (!t.addresses().isEmpty()) notes = (notes.isEmpty() ? "" : notes + " on ") + String.join(", ", t.addresses());
            if (!t.oneSided().isEmpty()) notes = (notes.isEmpty() ? "" : notes + "; ") + "one-sided " + t.oneSided();
            b.append(String.format(Locale.ROOT, format, t.transport(), t.interfaceName(), t.maxMessage(),
                    t.injectSize() == null ? "" : t.injectSize(), String.join(",", t.ops()), notes));
        }
        b.append("also: any UCX_TLS list (ucx:posix,cma, ucx:sm), mpi:openmpi or mpi:mpich (the MPI chooses),\n"
                + "sim:L=..,os=..,or=..,g=..,G=.. (emulated). Details: --all, --json.\n");
        if (!all) return b.toString();

        b.append("\nlibfabric ").append(doc.libfabric().version()).append(": every fi_info entry (repeats counted)\n");
        String ofiFormat = "%-16s %-14s %-8s %-5s %-6s %-18s %6s %-18s %-12s %-8s %s%n";
        b.append(String.format(Locale.ROOT, ofiFormat, "provider", "fabric", "domain", "ep", "tagged", "mr_mode", "inject",
                "max_msg_size", "rma,atomic", "progress", "count"));
        Map<Offer, Integer> counts = new LinkedHashMap<>();
        for (Offer o : doc.libfabric().offers()) counts.merge(o, 1, Integer::sum);
        counts.forEach((o, n) -> b.append(String.format(Locale.ROOT, ofiFormat, o.provider(), o.fabric(), o.domain(),
                o.endpointType(), o.tagged() ? "yes" : "no", o.mrMode(), o.injectSize(), maxMessage(o.maxMsgSize()),
                (o.rma() ? "rma" : "-") + "," + (o.atomics() ? "atomic" : "-"), o.dataProgress(), n > 1 ? "x" + n : "")));
        b.append("\nUCX ").append(doc.ucx().version()).append(": transports and devices\n");
        for (ProvidersDocument.Resource r : doc.ucx().resources()) {
            b.append(String.format(Locale.ROOT, "  %-10s %s%n", r.transport(), r.device()));
        }
        for (ProvidersDocument.Mpi m : doc.mpi()) {
            b.append(String.format(Locale.ROOT, "%n%s: %s, launcher %s%n", m.implementation(), m.library(), m.launcher()));
        }
        return b.toString();
    }
}
