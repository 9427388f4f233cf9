package org.fabprobe.method;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.clock.Clock;
import org.fabprobe.launch.Group;
import org.fabprobe.pattern.Disturbances;

/**
 * IMB PingPong in multi mode over MPI_COMM_WORLD: k = size / 2 pairs at once between two groups
 * of ranks, rank i < k pinging rank i + k (with the launcher's block placement one group per
 * node). Every rank runs this same code. Per message size x and sample:
 *
 * <pre>
 *   MPI_Barrier                          all pairs start together
 *   t = now(); n(x) x (MPI_Send, MPI_Recv) on the pinging side, (MPI_Recv, MPI_Send) on the other
 *   t = now() - t - one clock read      each pair its own loop, on the TSC
 *   gather to rank 0                     untimed (the group's): T_b of the sample = the slowest pair,
 *                                        and each rank's wait for a CPU during its loop
 * </pre>
 *
 * A sample is disturbed when some rank waited for a CPU longer than
 * {@link Disturbances#MAX_WAIT_SHARE} of the slowest pair's loop. A size with more than half its
 * samples disturbed is measured again, at most {@link #MAX_REMEASURES} times (rank 0 decides for
 * all), then kept and flagged.
 *
 * The barrier before each loop is MPI's own (the pairs' common start belongs to the timing);
 * what is untimed, the gather and rank 0's warm-up decision, goes through the {@link Group}.
 *
 * n(x) is the run's own count (given per size), recorded with the result: the model's T_b
 * depends on it. One buffer of the largest size per rank, off-heap, allocated once.
 */
public final class MultiPairMethod {
    private static final int TAG = 12;
    /** Ping-pongs per JIT warm-up round (the warm-up runs rounds until rank 0's budget is spent). */
    private static final int JIT_ROUND = 200;
    /** Times a size whose samples were mostly disturbed is measured again before it is kept, flagged. */
    public static final int MAX_REMEASURES = 2;

    /**
     * @param reps        n(x) per size
     * @param samples     timed loops per size (T_b(x) is their median)
     * @param warmup      untimed ping-pongs before each size
     * @param jitBudgetNs untimed warm-up of the loop at the smallest size, once
     * @param remeasures  times a mostly disturbed size is measured again, at most {@link #MAX_REMEASURES}
     *                    (none where ranks share CPUs: every attempt is disturbed alike)
     */
    public record Settings(long[] sizes, long[] reps, int samples, int warmup, double jitBudgetNs, int remeasures) {}

    /**
     * One size on rank 0.
     *
     * @param loopNs           per sample, the maximum over pairs of the pair's loop time
     * @param pairLoopNs       per pair (i = pinging rank), the median over samples of its loop time
     * @param disturbedSamples samples during which some rank waited for a CPU (see the class comment)
     * @param remeasured       times the size was measured again because most of its samples were disturbed
     */
    public record Point(long sizeBytes, long reps, double[] loopNs, double[] pairLoopNs, int disturbedSamples,
                        int remeasured) {
        /** More than half the samples disturbed: what was kept after the last attempt. */
        public boolean disturbed() {
            return 2 * disturbedSamples > loopNs.length;
        }

        /** T_b(x): the median over samples of the slowest pair's loop. */
        public double medianLoopNs() {
            return median(loopNs);
        }

        public double minLoopNs() {
            return Arrays.stream(loopNs).min().orElse(Double.NaN);
        }

        public double maxLoopNs() {
            return Arrays.stream(loopNs).max().orElse(Double.NaN);
        }
    }

    /** Rank 0's result; {@code sharedCpus}: the hosts whose ranks share CPUs ({@link CpuSharing}), found before timing. */
    public record Result(int pairs, Map<String, String> transportFacts, double timerOverheadNs, double jitWarmupMs,
                         List<Point> points, List<org.fabprobe.result.SharedCpus> sharedCpus) {}

    private final Mpi mpi;
    private final Group.Channels group;
    private final int rank, size, pairs, peer;
    private final boolean pinging;
    private final double readCostNs;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment buffer;

    /** For the ranks of {@code group} (an even number, >= 2) timing over {@code mpi}, messages up to {@code largest} bytes. */
    public MultiPairMethod(Mpi mpi, Group.Channels group, int largest) {
        int size = group.size();
        if (size < 2 || size % 2 != 0) throw new IllegalArgumentException("multipair needs an even number of ranks, not " + size);
        this.mpi = mpi;
        this.group = group;
        this.rank = group.rank();
        this.size = size;
        this.pairs = size / 2;
        this.pinging = rank < pairs;
        this.peer = pinging ? rank + pairs : rank - pairs;
        double cost = Clock.facts().readCostNs();
        this.readCostNs = Double.isFinite(cost) && cost > 0 ? cost : 0;
        buffer = arena.allocate(Math.max(64, largest), 4096);
    }

    /** Runs every size; the result on rank 0, null on the others. */
    public Result run(Settings s, Map<String, String> transportFacts) {
        return run(s, transportFacts, org.fabprobe.Steps.NONE);
    }

    /** Runs every size, telling {@code steps} before each (between the timed loops of {@link #pingPongs}). */
    public Result run(Settings s, Map<String, String> transportFacts, org.fabprobe.Steps steps) {
        var sharedCpus = CpuSharing.detect(group);
        // ranks sharing CPUs disturb every attempt alike: none again
        int remeasures = sharedCpus.isEmpty() ? Math.min(s.remeasures(), MAX_REMEASURES) : 0;
        long start = System.nanoTime();
        int smallest = (int) s.sizes()[0];
        boolean jitMore;
        do {
            mpi.barrier();
            pingPongs(smallest, JIT_ROUND);
            double more = System.nanoTime() - start < s.jitBudgetNs() ? 1 : 0;
            jitMore = group.broadcast(new double[] {more})[0] > 0; // rank 0's clock decides for all
        } while (jitMore);
        double jitMs = (System.nanoTime() - start) / 1e6;

        List<Point> points = new ArrayList<>();
        for (int i = 0; i < s.sizes().length; i++) {
            int x = (int) s.sizes()[i];
            steps.next("ping-pongs at", x);
            for (int attempt = 0; ; attempt++) {
                Point p = measure(x, s.reps()[i], s, attempt);
                boolean again = p != null && p.disturbed() && attempt < remeasures;
                if (group.broadcast(new double[] {again ? 1 : 0})[0] > 0) continue; // rank 0 decides for all
                if (p != null) points.add(p);
                break;
            }
        }
        return rank == 0 ? new Result(pairs, transportFacts, readCostNs, jitMs, points, sharedCpus) : null;
    }

    /** One attempt at size x: the samples on rank 0 (null elsewhere). */
    private Point measure(int x, long n, Settings s, int attempt) {
        mpi.barrier();
        pingPongs(x, s.warmup());
        double[] loops = new double[s.samples()];
        double[][] perPair = new double[pairs][s.samples()];
        int disturbed = 0;
        for (int j = 0; j < s.samples(); j++) {
            long waitBefore = Disturbances.cpuWaitNs();
            mpi.barrier();
            long t0 = Clock.now();
            pingPongs(x, n);
            long t1 = Clock.now();
            long waitAfter = Disturbances.cpuWaitNs();
            double mine = pinging ? Math.max(0, Clock.toNs(t1 - t0) - readCostNs) : Double.NaN;
            double waited = waitBefore < 0 || waitAfter < 0 ? -1 : waitAfter - waitBefore;
            double[] all = group.gather(new double[] {mine, waited});
            if (rank != 0) continue;
            double max = 0, maxWait = 0;
            for (int p = 0; p < pairs; p++) {
                perPair[p][j] = all[2 * p];
                max = Math.max(max, perPair[p][j]);
            }
            for (int r = 0; r < size; r++) maxWait = Math.max(maxWait, all[2 * r + 1]);
            loops[j] = max;
            if (maxWait > Disturbances.MAX_WAIT_SHARE * max) disturbed++;
        }
        return rank == 0 ? new Point(x, n, loops, Arrays.stream(perPair).mapToDouble(MultiPairMethod::median).toArray(),
                disturbed, attempt) : null;
    }

    /** n blocking ping-pongs of x bytes with this rank's partner (the pinging side sends first). */
    private void pingPongs(int x, long n) {
        long at = buffer.address();
        if (pinging) {
            for (long i = 0; i < n; i++) {
                mpi.sendNow(at, x, peer, TAG);
                mpi.recvNow(at, x, peer, TAG);
            }
        } else {
            for (long i = 0; i < n; i++) {
                mpi.recvNow(at, x, peer, TAG);
                mpi.sendNow(at, x, peer, TAG);
            }
        }
    }

    public int pairs() {
        return pairs;
    }

    public int size() {
        return size;
    }

    /** Frees the buffers. */
    public void close() {
        arena.close();
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length;
        return m == 0 ? Double.NaN : m % 2 == 1 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }
}
