package org.fabprobe.method;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fabprobe.bindings.mpi.Mpi;
import org.fabprobe.launch.Group;
import org.fabprobe.clock.Clock;
import org.fabprobe.model.Estimate;
import org.fabprobe.model.MedianCi;
import org.fabprobe.model.Statistics;
import org.fabprobe.model.Summary;
import org.fabprobe.pattern.Disturbances;

/**
 * MPI collectives timed by the method of Santos, Castro and Proença (after Xu and Hwang):
 * every rank of MPI_COMM_WORLD runs this same code. Per operation and message size: a few
 * untimed calls (the paper's warm-up), then repetitions, each one
 *
 * <pre>
 *   MPI_Barrier                          so no call starts before the previous one ended everywhere
 *   t = now(); operation; t = now() - t  each rank its own call, on the TSC
 *   t -= one clock read                  the timer overhead (TICK1)
 *   MPI_Allreduce(t, MAX)                untimed: the repetition takes as long as its slowest rank
 * </pre>
 *
 * in batches until the 95 % confidence interval of the median is within the target, or a
 * repetition or time cap is reached. Every rank holds the same maxima, so every rank makes
 * the same decision; the time cap is a flag in the same all-reduce (any rank over the cap
 * stops all). Each rank reads its wait for a CPU (schedstat run delay) around every batch; a
 * batch in which some rank waited longer than {@link Disturbances#MAX_WAIT_SHARE} of the batch's
 * summed times is disturbed and measured again, at most {@link #MAX_DISCARDS} times per size
 * (one more all-reduce per batch, so every rank decides alike), then kept and counted. Buffers are off-heap, allocated once for the largest size, p * size where an
 * operation needs it; the timed loop allocates nothing.
 */
public final class CollectivesMethod {

    /** The operations, with what their message length n is (the paper's "user data field" per rank). */
    public enum Operation {
        BCAST("bcast", "bytes root 0 broadcasts to every rank"),
        GATHER("gather", "bytes each rank sends to root 0 (the root receives p*n)"),
        SCATTER("scatter", "bytes root 0 sends to each rank (the root sends p*n)"),
        ALLGATHER("allgather", "bytes each rank contributes (every rank receives p*n)"),
        ALLTOALL("alltoall", "bytes each rank sends to each rank (p*n out and p*n in per rank)"),
        BARRIER("barrier", "none: size-independent, t0 only"),
        REDUCE("reduce", "bytes of MPI_DOUBLEs per rank, MPI_SUM to root 0 (multiples of 8)"),
        SCAN("scan", "bytes of MPI_DOUBLEs per rank, MPI_SUM prefix (multiples of 8)");

        public final String id;
        public final String messageLength;

        Operation(String id, String messageLength) {
            this.id = id;
            this.messageLength = messageLength;
        }

        public static Operation of(String id) {
            for (Operation o : values()) if (o.id.equals(id.trim().toLowerCase(Locale.ROOT))) return o;
            throw new IllegalArgumentException("unknown collective '" + id + "': use "
                    + String.join(",", Arrays.stream(values()).map(o -> o.id).toList()));
        }

        /**
         * Aggregated asymptotic bandwidth R_inf / r_inf (Santos et al., section 2): p for
         * broadcast, gather, scatter, reduction and scan, p² for the total exchanges.
         */
        public int aggregateFactor(int p) {
            return switch (this) {
                case ALLGATHER, ALLTOALL -> p * p;
                case BARRIER -> 0;
                default -> p;
            };
        }

        /** {@link #aggregateFactor} as a formula, null for barrier. */
        public String aggregateFactorName() {
            return this == BARRIER ? null : aggregateFactor(2) == 4 ? "p^2" : "p";
        }

        /** The sizes this operation runs at: barrier none (0), reduce/scan whole doubles (rounded up). */
        public long[] sizes(long[] requested) {
            if (this == BARRIER) return new long[] {0};
            if (this != REDUCE && this != SCAN) return requested.clone();
            return Arrays.stream(requested).map(n -> (n + 7) / 8 * 8).distinct().sorted().toArray();
        }
    }

    /** Disturbed batches measured again per size at most, before further ones are kept. */
    public static final int MAX_DISCARDS = 3;

    /**
     * @param warmup      untimed calls before each size (the paper: 5)
     * @param jitBudgetNs untimed JIT warm-up of every operation at its smallest size, in total
     * @param discards    disturbed batches measured again per size, at most {@link #MAX_DISCARDS} (none where
     *                    ranks share CPUs: every batch is disturbed alike)
     */
    public record Settings(List<Operation> operations, long[] sizes, int warmup, double relative, double floorNs,
                           int batch, int maxReps, double timeCapNs, double jitBudgetNs, int discards) {
        public Settings discards(int discards) {
            return new Settings(operations, sizes, warmup, relative, floorNs, batch, maxReps, timeCapNs, jitBudgetNs, discards);
        }
    }

    /**
     * One operation at one size: the per-repetition maxima over ranks; the disturbed batches kept
     * among them, and those measured again.
     */
    public record Point(Operation operation, long sizeBytes, Summary summary, Estimate median, boolean converged,
                        double wallMs, int disturbedBatches, int discardedBatches) {}

    /** One world size; {@code sharedCpus}: the hosts whose ranks share CPUs ({@link CpuSharing}), found before timing. */
    public record Result(int procs, Map<String, String> transportFacts, double timerOverheadNs, double jitWarmupMs,
                         List<Point> points, List<org.fabprobe.result.SharedCpus> sharedCpus) {}

    /** JIT warm-up calls per operation at most (C2 has compiled the loop long before). */
    private static final int JIT_MAX_CALLS = 20_000;

    private final Mpi mpi;
    private final Group group;
    private final int procs;
    private final double readCostNs;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment send, recv, local, max;

    public CollectivesMethod(Mpi mpi, Group group, long largestSize) {
        int procs = group.size();
        this.mpi = mpi;
        this.group = group;
        this.procs = procs;
        double cost = Clock.facts().readCostNs();
        this.readCostNs = Double.isFinite(cost) && cost > 0 ? cost : 0;
        long bytes = Math.max(64, Math.multiplyExact(procs, (largestSize + 7) / 8 * 8));
        send = arena.allocate(bytes, 4096);
        recv = arena.allocate(bytes, 4096);
        local = arena.allocate(JAVA_DOUBLE, 2);
        max = arena.allocate(JAVA_DOUBLE, 2);
    }

    public Result run(Settings settings, Map<String, String> transportFacts) {
        var sharedCpus = CpuSharing.detect(group); // the same list on every rank
        // ranks sharing CPUs disturb every batch alike: none again
        Settings s = sharedCpus.isEmpty() ? settings : settings.discards(0);
        long start = System.nanoTime();
        double jitNs = s.jitBudgetNs() / s.operations().size();
        for (Operation op : s.operations()) {
            long deadline = System.nanoTime() + (long) jitNs;
            int n = (int) op.sizes(s.sizes())[0];
            for (int i = 0; i < JIT_MAX_CALLS; i++) {
                repetition(op, n, System.nanoTime() >= deadline);
                if (max.getAtIndex(JAVA_DOUBLE, 1) > 0) break; // some rank is out of budget: all stop here
            }
        }
        double jitMs = (System.nanoTime() - start) / 1e6;

        // every rank decides when a size is done from the same numbers (the samples are maxima
        // over the ranks), so the tick that floors the median's interval must be one for all:
        // each rank's own clock resolution differs, and ranks that disagree deadlock
        local.setAtIndex(JAVA_DOUBLE, 0, Clock.facts().resolutionNs());
        local.setAtIndex(JAVA_DOUBLE, 1, 0);
        mpi.allreduceMax(local, max, 2);
        double resolutionNs = max.getAtIndex(JAVA_DOUBLE, 0);

        double[] samples = new double[s.maxReps()];
        List<Point> points = new ArrayList<>();
        for (Operation op : s.operations()) {
            for (long size : op.sizes(s.sizes())) {
                points.add(measure(op, (int) size, s, samples, resolutionNs));
            }
        }
        return new Result(procs, transportFacts, readCostNs, jitMs, points, sharedCpus);
    }

    private Point measure(Operation op, int n, Settings s, double[] samples, double resolutionNs) {
        for (int i = 0; i < s.warmup(); i++) {
            mpi.barrier();
            call(op, n);
        }
        long start = System.nanoTime();
        int count = 0, disturbed = 0, discarded = 0;
        while (true) {
            boolean capped = false;
            int from = count;
            long waitBefore = Disturbances.cpuWaitNs();
            for (int i = 0; i < s.batch() && count < s.maxReps(); i++) {
                samples[count++] = repetition(op, n, System.nanoTime() - start >= s.timeCapNs());
                capped |= max.getAtIndex(JAVA_DOUBLE, 1) > 0;
            }
            if (batchDisturbed(waitBefore, Disturbances.cpuWaitNs(), samples, from, count)) {
                if (discarded < s.discards() && !capped) {
                    discarded++;
                    count = from; // this batch again
                    continue;
                }
                disturbed++;
            }
            Estimate median = MedianCi.of(samples, count, resolutionNs);
            boolean converged = median.ci95() <= Math.max(s.relative() * Math.abs(median.value()), s.floorNs());
            if (converged || capped || count >= s.maxReps()) {
                return new Point(op, n, Statistics.summarize(samples, count), median, converged,
                        (System.nanoTime() - start) / 1e6, disturbed, discarded);
            }
        }
    }

    /**
     * Whether some rank waited for a CPU longer than {@link Disturbances#MAX_WAIT_SHARE} of the
     * batch's summed times (samples from..to, the same on every rank): the same answer on every rank.
     */
    private boolean batchDisturbed(long waitBefore, long waitAfter, double[] samples, int from, int to) {
        double sampled = 0;
        for (int i = from; i < to; i++) sampled += samples[i];
        boolean known = waitBefore >= 0 && waitAfter >= 0;
        local.setAtIndex(JAVA_DOUBLE, 0, known ? (waitAfter - waitBefore) / Math.max(sampled, 1) : 0);
        local.setAtIndex(JAVA_DOUBLE, 1, 0);
        mpi.allreduceMax(local, max, 2);
        return max.getAtIndex(JAVA_DOUBLE, 0) > Disturbances.MAX_WAIT_SHARE;
    }

    /** One barrier-separated, timed call; returns the maximum over ranks and leaves the stop flag in max[1]. */
    private double repetition(Operation op, int n, boolean stop) {
        mpi.barrier();
        long t0 = Clock.now();
        call(op, n);
        long t1 = Clock.now();
        local.setAtIndex(JAVA_DOUBLE, 0, Math.max(0, Clock.toNs(t1 - t0) - readCostNs));
        local.setAtIndex(JAVA_DOUBLE, 1, stop ? 1 : 0);
        mpi.allreduceMax(local, max, 2);
        return max.getAtIndex(JAVA_DOUBLE, 0);
    }

    private void call(Operation op, int n) {
        switch (op) {
            case BCAST -> mpi.bcast(send, n, 0);
            case GATHER -> mpi.gather(send, recv, n, 0);
            case SCATTER -> mpi.scatter(send, recv, n, 0);
            case ALLGATHER -> mpi.allgather(send, recv, n);
            case ALLTOALL -> mpi.alltoall(send, recv, n);
            case BARRIER -> mpi.barrier();
            case REDUCE -> mpi.reduce(send, recv, n / 8, 0);
            case SCAN -> mpi.scan(send, recv, n / 8);
        }
    }

    /** Frees the buffers. */
    public void close() {
        arena.close();
    }
}
