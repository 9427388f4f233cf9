package org.fabprobe.accept;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.mpi.MpiSelection;
import org.fabprobe.transport.ofi.OfiProviders;
import org.fabprobe.transport.ucx.UcxTransport;

/**
 * Whether the spec's transports are offered on this machine, asked before anything is
 * measured (a spec for other hardware is refused at once, not half way): ofi: of libfabric's
 * tagged RDM providers, ucx: as ucx:TLS itself would refuse it (UCX's resources and the
 * aliases they answer to), mpi: whether that MPI is installed and what it runs over is offered.
 */
public final class Availability {
    /** A transport the spec names that this machine does not offer: where it is first named, and why (one line, naming it). */
    public record Absent(String where, String transport, String message) {}

    private Availability() {}

    /** Refuses the spec (exit 2, FILE:LINE:COLUMN) at the first transport this machine does not offer. */
    public static void check(Spec spec) {
        List<Absent> absent = absent(spec);
        if (!absent.isEmpty()) throw new SpecException(absent.getFirst().where(), absent.getFirst().message());
    }

    /** Every transport of the spec this machine does not offer, once each, in the spec's order. */
    public static List<Absent> absent(Spec spec) {
        List<Absent> absent = new ArrayList<>();
        Set<String> asked = new HashSet<>();
        // libfabric's provider list, read once and only if a check names an ofi: transport
        java.util.function.Supplier<List<String>> ofi = new java.util.function.Supplier<>() {
            List<String> names;

            public List<String> get() {
                if (names == null) names = OfiProviders.rdmProviderNames();
                return names;
            }
        };
        for (Check c : spec.checks()) {
            record Named(String transport, String where) {}
            List<Named> named = new ArrayList<>(List.of(new Named(c.transport(), c.whereOf("transport"))));
            String mpi = c.options().get("mpi"); // mpi_overhead's MPI, completed as SpecReader does
            if (mpi != null) named.add(new Named("mpi:" + (mpi.contains("/") ? mpi : mpi + "/" + c.transport()), c.whereOf("mpi")));
            for (Named n : named) {
                if (!asked.add(n.transport())) continue;
                String problem = problem(n.transport(), ofi);
                if (problem != null) absent.add(new Absent(n.where(), n.transport(), problem));
            }
        }
        return List.copyOf(absent);
    }

    /** Why {@code transport} is not offered here, or null ({@code ofi}: libfabric's tagged RDM providers, if asked). */
    private static String problem(String transport, java.util.function.Supplier<List<String>> ofiProviders) {
        String absent = "transport '" + transport + "' is not available here: ";
        return switch (TransportName.parseOrNull(transport)) {
            case TransportName.Ofi o -> {
                String provider = o.detail();
                List<String> ofi = ofiProviders.get();
                boolean offered = ofi.stream().anyMatch(p -> p.equals(provider) || p.startsWith(provider + ";"));
                yield offered ? null : absent + "libfabric has no tagged RDM provider '" + provider + "' (it has: "
                        + String.join(", ", ofi) + ")";
            }
            case TransportName.Ucx u -> UcxTransport.tlsProblem(u.detail());
            case TransportName.Mpi m -> {
                MpiSelection selection = MpiSelection.parse(transport);
                String missing = LocalLauncher.notInstalled(selection.implementation());
                if (missing != null) yield absent + missing;
                // what the MPI runs over must be offered too (ob1's BTLs are Open MPI's own)
                String under = selection.underneath();
                String problem = switch (TransportName.parseOrNull(under)) {
                    case TransportName.Ofi o -> problem(under, ofiProviders);
                    case TransportName.Ucx u -> problem(under, ofiProviders);
                    case null, default -> null;
                };
                yield problem == null ? null : "transport '" + transport + "' runs over " + under + ": " + problem;
            }
            case TransportName.Sim s -> null;
            case null -> null; // SpecReader refused it already
        };
    }
}
