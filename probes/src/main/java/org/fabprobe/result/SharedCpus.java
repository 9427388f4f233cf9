package org.fabprobe.result;

import java.util.List;
import java.util.Locale;

/**
 * A host whose ranks cannot each have a CPU of their own, found before timing: more ranks than
 * the CPUs they may run on (oversubscribed), or affinity masks that overlap so that fewer of
 * them than there are run at once. Their times include waits for the scheduler.
 *
 * @param world  the ranks of the run (of a collectives launch: its p)
 * @param host   the host's name
 * @param ranks  the run's ranks on that host
 * @param cpus   the CPUs those ranks may run on, together (the union of their affinity masks)
 * @param atOnce the most of them that can run at once, each on a CPU of its own
 */
public record SharedCpus(int world, String host, int ranks, int cpus, int atOnce) {

    /** "4 ranks on 2 CPUs of node1", or "3 ranks on 4 CPUs of node1 (affinity masks overlap: 2 at once)". */
    public String describe() {
        String s = String.format(Locale.ROOT, "%d ranks on %d CPU%s of %s", ranks, cpus, cpus == 1 ? "" : "s", host);
        return ranks > cpus ? s : s + " (affinity masks overlap: " + atOnce + " at once)";
    }

    /** What the first line says: the first hosts named, the others counted; empty when no host shares CPUs. */
    public static String statement(List<SharedCpus> hosts) {
        if (hosts == null || hosts.isEmpty()) return "";
        int named = Math.min(2, hosts.size());
        StringBuilder b = new StringBuilder("ranks share CPUs: ");
        for (int i = 0; i < named; i++) b.append(i == 0 ? "" : ", ").append(hosts.get(i).describe());
        if (hosts.size() > named) b.append(" and ").append(hosts.size() - named).append(" more hosts");
        return b.toString();
    }

    /** The flag of a run on shared CPUs, or null. */
    public static String flag(List<SharedCpus> hosts) {
        if (hosts == null || hosts.isEmpty()) return null;
        return "SHARED CPUS: " + statement(hosts) + ", so times include waits for the scheduler, not only the transport's";
    }
}
