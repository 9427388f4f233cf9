package org.fabprobe.method;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fabprobe.launch.Group;
import org.fabprobe.launch.HostFacts;
import org.fabprobe.result.SharedCpus;
import org.fabprobe.runtime.CpuAffinity;

/**
 * Before timing, whether the ranks of a host outnumber the CPUs they may run on: every rank
 * passes its host name and affinity mask through the group's exchange, and every rank judges
 * the same list. A host's ranks share CPUs when no placement gives each a CPU of its own
 * within its mask (a maximum matching of ranks to CPUs smaller than the ranks): more ranks than
 * CPUs, or masks that overlap (two ranks bound to one CPU of many).
 */
public final class CpuSharing {
    private CpuSharing() {}

    /** Every rank calls it (a collective exchange); the hosts whose ranks share CPUs, on every rank. */
    public static List<SharedCpus> detect(Group group) {
        String mine = HostFacts.collect().getOrDefault("hostname", "unknown") + "\n" + String.join(",", Arrays.stream(CpuAffinity.allowedCpus())
                .mapToObj(Integer::toString).toList());
        byte[][] all = group.exchange(mine.getBytes(UTF_8));
        List<String> hosts = new ArrayList<>(all.length);
        List<int[]> masks = new ArrayList<>(all.length);
        for (byte[] bytes : all) {
            String[] parts = new String(bytes, UTF_8).split("\n", 2);
            hosts.add(parts[0]);
            masks.add(parts.length < 2 || parts[1].isEmpty() ? new int[0]
                    : Arrays.stream(parts[1].split(",")).mapToInt(Integer::parseInt).toArray());
        }
        return judge(hosts, masks);
    }

    /** The hosts (in the order of their first rank) whose ranks cannot each run on a CPU of their own. */
    static List<SharedCpus> judge(List<String> hosts, List<int[]> masks) {
        Map<String, List<int[]>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < hosts.size(); r++) byHost.computeIfAbsent(hosts.get(r), h -> new ArrayList<>()).add(masks.get(r));
        List<SharedCpus> shared = new ArrayList<>();
        byHost.forEach((host, ms) -> {
            int cpus = (int) ms.stream().flatMapToInt(Arrays::stream).distinct().count();
            int atOnce = atOnce(ms);
            if (atOnce < ms.size()) shared.add(new SharedCpus(hosts.size(), host, ms.size(), cpus, atOnce));
        });
        return shared;
    }

    /** The most ranks that can run at once, each on a CPU of its mask: a maximum bipartite matching (augmenting paths). */
    static int atOnce(List<int[]> masks) {
        boolean same = masks.stream().allMatch(m -> Arrays.equals(m, masks.getFirst()));
        if (same) return Math.min(masks.size(), masks.getFirst().length); // no binding, or all bound alike: the usual case
        Map<Integer, Integer> holder = new LinkedHashMap<>(); // CPU -> rank placed on it
        int placed = 0;
        for (int r = 0; r < masks.size(); r++) {
            if (place(r, masks, holder, new java.util.HashSet<>())) placed++;
        }
        return placed;
    }

    private static boolean place(int rank, List<int[]> masks, Map<Integer, Integer> holder, java.util.Set<Integer> seen) {
        for (int cpu : masks.get(rank)) {
            if (!seen.add(cpu)) continue;
            Integer other = holder.get(cpu);
            if (other == null || place(other, masks, holder, seen)) {
                holder.put(cpu, rank);
                return true;
            }
        }
        return false;
    }
}
