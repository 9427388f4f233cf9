package org.fabprobe.method;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fabprobe.clock.Clock;
import org.fabprobe.launch.Group;
import org.fabprobe.model.ParameterSet;
import org.fabprobe.pattern.Await;
import org.fabprobe.pattern.Disturbances;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.Transport;

/**
 * All pairs of n ranks (JSC LinkTest's scheme): the round-robin schedule ({@link RoundRobin})
 * in n - 1 rounds of disjoint pairs (n rounds when n is odd), and in each pair the lower rank
 * measures and the higher mirrors: 8 B ping-pong half round trips (median and min) and the
 * ping-pong bandwidth at a large size (size / median half round trip). Every rank runs this
 * same code over its one transport endpoint, opened once, and MPI as the control plane:
 *
 * <pre>
 *   start        allgather of (host name, endpoint address), one slot per rank
 *   serial       rank 0 sends GO to the pair whose turn it is, the pair times, its lower rank
 *                sends its figures to rank 0, which then starts the next pair
 *   parallel     per round: barrier, every pair of the round times at once, each lower rank
 *                sends its figures to rank 0
 *   every pair   after timing, the higher rank sends its missed deadlines to the lower, which
 *                keeps the pair's figures in its row and sends them to the higher for its row
 * </pre>
 *
 * No rank of a pair makes an MPI call while the pair is timing; ranks that wait (for GO, the
 * barrier or the figures) poll MPI_Test with sleeps of up to 1 ms ({@link org.fabprobe.launch.MpiGroup}). A pair
 * whose timing threads were preempted often (or whose emulator missed its deadlines) is
 * disturbed and measured again, alone, after the rounds ({@code retries} passes). The two ranks of
 * a pair agree on sizes and counts from the schedule they both know, so no control message
 * passes between them. The JIT warms up once per process: the first pair each rank meets runs
 * {@code jitRounds} untimed round trips more (in calls of three, so HotSpot compiles the loop by
 * call count), and both ranks of a pair know from the schedule when that is.
 *
 * <p>With {@code loggpSizes} each pair also runs Kielmann's pLogP method ({@link PLogPMethod})
 * over those sizes after its ping-pongs, and reports the LogGP set of its first size range
 * (Table 1). Its batches are announced over MPI between the pair's two ranks, between timed
 * sections only, as in any MPI-level run of the method.
 *
 * <p>Every rank keeps its own row: the figures of its n - 1 pairs. Rank 0 uses the figures it
 * receives for the round times and the retries, then forgets them; it keeps at most n disturbed
 * pairs to measure again. So every rank's memory is linear in the ranks, not in the pairs;
 * {@link MatrixReduction} then reduces the rows to the summaries.
 */
public final class MatrixMethod {
    /** Serial: one pair at a time (the links alone); parallel: every pair of a round at once (the fabric under load). */
    public enum Mode {
        SERIAL, PARALLEL;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param latencyBytes   the ping-pong size of the latency (8 B)
     * @param latencyReps    timed round trips at that size
     * @param bandwidthBytes the ping-pong size of the bandwidth
     * @param bandwidthReps  timed round trips at that size
     * @param warmup         untimed round trips before the latency rounds of every pair
     * @param bandwidthWarmup untimed round trips before the bandwidth rounds
     * @param jitRounds      untimed round trips of each rank's first pair (the JIT warm-up)
     * @param timeoutNs      longest wait for the partner within a pair
     * @param retries        passes that measure the disturbed pairs again, one at a time
     * @param loggpSizes     the pLogP sizes of every pair (0 and powers of two, say); null: ping-pong only
     */
    public record Settings(Mode mode, long latencyBytes, int latencyReps, long bandwidthBytes, int bandwidthReps,
                           int warmup, int bandwidthWarmup, int jitRounds, long timeoutNs, int retries, long[] loggpSizes) {
        public Settings {
            if (retries < 0) throw new IllegalArgumentException("retries must be >= 0");
            if (latencyReps < 1 || bandwidthReps < 1) throw new IllegalArgumentException("repetitions must be >= 1");
            if (warmup < 0 || bandwidthWarmup < 0 || jitRounds < 0) throw new IllegalArgumentException("warm-ups must be >= 0");
        }

        /** Operations a pair keeps outstanding: pLogP's trains need more than the ping-pongs. */
        public int depth() {
            return loggpSizes == null ? 4 : PROBE_DEPTH;
        }

        public long largestBytes() {
            long largest = Math.max(latencyBytes, bandwidthBytes);
            if (loggpSizes != null) for (long m : loggpSizes) largest = Math.max(largest, m);
            return largest;
        }
    }

    /**
     * One pair as its lower rank measured it.
     *
     * @param latencyNs    median half round trip at the latency size
     * @param latencyMinNs its minimum
     * @param bandwidthMBs bandwidth size / median half round trip at that size, MB/s (10^6 B/s)
     * @param pairMs       the pair's whole time, warm-ups included
     * @param missed       disturbances on both sides while timing: the timing threads' involuntary context
     *                     switches and the emulator's missed deadlines ({@link Disturbances})
     * @param disturbed    more disturbances than {@value #DISTURBED_FRACTION} per timed round trip
     * @param attempts     1, plus the times the pair was measured again because it was disturbed
     * @param loggp        the LogGP set of the pair's first pLogP size range, or null (ping-pong only)
     */
    public record Pair(int a, int b, int round, double latencyNs, double latencyMinNs, double bandwidthMBs, double pairMs,
                       long missed, boolean disturbed, int attempts, LogGP loggp) {
        static final int VALUES = 8 + LogGP.VALUES;

        double[] encode(long ownMissed) {
            double[] v = Arrays.copyOf(new double[] {a, b, round, latencyNs, latencyMinNs, bandwidthMBs, pairMs, ownMissed}, VALUES);
            LogGP.encode(loggp, v, 8);
            return v;
        }

        static Pair decode(double[] v, long mirrorMissed, int timedRoundTrips, int attempts) {
            long missed = (long) v[7] + mirrorMissed;
            return new Pair((int) v[0], (int) v[1], (int) v[2], v[3], v[4], v[5], v[6], missed,
                    missed > DISTURBED_FRACTION * timedRoundTrips, attempts, LogGP.decode(v, 8));
        }

        Pair withAttempts(int count) {
            return new Pair(a, b, round, latencyNs, latencyMinNs, bandwidthMBs, pairMs, missed, disturbed, count, loggp);
        }
    }

    /**
     * One pair's LogGP parameters (Table 1 of pLogP) over its first size range, ns and ns/B;
     * {@code flags} counts what the method flagged (inconsistent, absurd, drift, disturbed, poor fit).
     */
    public record LogGP(long fromBytes, long toBytes, double latencyNs, double sendOverheadNs, double recvOverheadNs,
                        double gapNs, double gapPerByteNs, int flags) {
        static final int VALUES = 8;

        static void encode(LogGP p, double[] v, int at) {
            if (p == null) {
                Arrays.fill(v, at, at + VALUES, Double.NaN);
                return;
            }
            double[] mine = {p.fromBytes, p.toBytes, p.latencyNs, p.sendOverheadNs, p.recvOverheadNs, p.gapNs,
                    p.gapPerByteNs, p.flags};
            System.arraycopy(mine, 0, v, at, VALUES);
        }

        static LogGP decode(double[] v, int at) {
            if (Double.isNaN(v[at])) return null;
            return new LogGP((long) v[at], (long) v[at + 1], v[at + 2], v[at + 3], v[at + 4], v[at + 5], v[at + 6],
                    (int) v[at + 7]);
        }
    }

    /** A pair is disturbed beyond this many disturbances per timed round trip: its processes were preempted, not just once. */
    public static final double DISTURBED_FRACTION = 0.1;

    /**
     * What one rank holds at the end.
     *
     * @param rank      this rank
     * @param hosts     the host name of every rank
     * @param row       this rank's pairs, indexed by the partner (null at its own index)
     * @param roundMs   rank 0: per round, its wall time from the round's start until it held the round's figures
     * @param wallMs    rank 0: the rounds, from the first round's start to the last round's end (retries not included)
     * @param roundPairsMs   rank 0: per round, its pairs' own times summed (as measured in the round, not in a retry)
     * @param roundSlowestMs rank 0: per round, its slowest pair's own time
     * @param addressBytes the longest (host name, endpoint address) slot of the allgather
     * @param notRetried rank 0: disturbed pairs beyond the n that rank 0 keeps to measure again
     */
    public record Result(Settings settings, int rank, List<String> hosts, Pair[] row, double[] roundMs, double[] roundPairsMs,
                         double[] roundSlowestMs, double wallMs, int addressBytes, long notRetried) {
        public int ranks() {
            return hosts.size();
        }
    }

    /**
     * Control-plane channels: GO (round, a, b), the lower rank's figures, the higher rank's
     * missed deadlines, retry counts, and the pLogP batches within a pair.
     */
    private static final int GO = 1, FIGURES = 2, MIRROR = 3, RETRIES = 4, PROBE = 5, ROW = 6;
    /** pLogP per pair: outstanding operations, and the JIT warm-up's wall-time budget (first pair of each rank). */
    private static final int PROBE_DEPTH = 64;
    private static final double PROBE_WARMUP_BUDGET_NS = 1.5e9;
    private static final int JIT_CHUNK = 2;

    private final Transport transport;
    private final Group.Channels control;
    private final Settings settings;
    private final int n, rank;
    private final PingPong.Calls calls;
    private final long[] latencyTicks, bandwidthTicks, jitTicks = new long[1];
    private byte[][] addresses;
    /** This rank's pairs by partner; rank 0 also: the disturbed pairs to measure again (a, b, round), at most n. */
    private Pair[] row;
    private final List<int[]> disturbed = new ArrayList<>();
    private long notRetried;
    private double[] roundPairsMs, roundSlowestMs;

    public MatrixMethod(Transport transport, Group.Channels control, Settings settings) {
        this.transport = transport;
        this.control = control;
        this.settings = settings;
        this.n = control.size();
        this.rank = control.rank();
        this.calls = transport.hasBlockingCalls() ? PingPong.Calls.BLOCKING : PingPong.Calls.NONBLOCKING;
        this.latencyTicks = new long[settings.latencyReps()];
        this.bandwidthTicks = new long[settings.bandwidthReps()];
    }

    /** Runs the whole schedule on this rank: the result on rank 0, null elsewhere. */
    public Result run(String hostname) {
        byte[][] all = control.exchange(encodeAddress(hostname, transport.localAddress()));
        List<String> hosts = new ArrayList<>(n);
        addresses = new byte[n][];
        for (int r = 0; r < n; r++) {
            ByteBuffer b = ByteBuffer.wrap(all[r]);
            byte[] host = new byte[b.getInt()];
            b.get(host);
            addresses[r] = new byte[b.remaining()];
            b.get(addresses[r]);
            hosts.add(new String(host, StandardCharsets.UTF_8));
        }
        int addressBytes = Arrays.stream(all).mapToInt(a -> a.length).max().orElse(0);
        control.barrier();
        int rounds = RoundRobin.rounds(n);
        double[] roundMs = new double[rounds];
        row = new Pair[n];
        roundPairsMs = new double[rounds];
        roundSlowestMs = new double[rounds];
        long start = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            long roundStart = System.nanoTime();
            if (settings.mode() == Mode.SERIAL) serialRound(round);
            else parallelRound(round);
            roundMs[round] = (System.nanoTime() - roundStart) / 1e6;
        }
        double scheduleMs = (System.nanoTime() - start) / 1e6;
        retryDisturbed();
        control.barrier();
        return new Result(settings, rank, List.copyOf(hosts), row, roundMs, roundPairsMs, roundSlowestMs, scheduleMs, addressBytes,
                notRetried);
    }

    /** Rank 0: one pair's figures as they arrive in the rounds; the pair itself stays with its ranks. */
    private void received(Pair p) {
        roundPairsMs[p.round()] += p.pairMs();
        roundSlowestMs[p.round()] = Math.max(roundSlowestMs[p.round()], p.pairMs());
        if (!p.disturbed()) return;
        if (disturbed.size() < Math.max(n, 64)) disturbed.add(new int[] {p.a(), p.b(), p.round()});
        else notRetried++;
    }

    private void serialRound(int round) {
        if (rank == 0) {
            for (int[] p : RoundRobin.pairs(n, round)) received(leadOnePair(round, p[0], p[1], true, false));
            return;
        }
        int partner = RoundRobin.partner(n, round, rank);
        if (partner < 0) return;
        double[] go = control.receive(0, GO, 3);
        if ((int) go[0] != round || (int) go[1] != Math.min(rank, partner) || (int) go[2] != Math.max(rank, partner)) {
            throw new IllegalStateException("matrix: rank " + rank + " expected round " + round + " with " + partner
                    + ", rank 0 sent " + Arrays.toString(go));
        }
        takePart(partner, round, true, false);
    }

    /** Rank 0: one pair at a time, started by GO; its figures come back from its lower rank. */
    private Pair leadOnePair(int round, int a, int b, boolean jit, boolean retry) {
        double[] go = {round, a, b};
        if (a != 0) control.send(a, GO, go);
        control.send(b, GO, go);
        if (a == 0) return keep(b, timePair(b, round, jit), retry);
        return decodeRow(control.receive(a, FIGURES, ROW_VALUES), 0, settings);
    }

    /** A rank other than 0 in a pair: times it; its lower rank reports to rank 0. */
    private void takePart(int partner, int round, boolean jit, boolean retry) {
        double[] mine = timePair(partner, round, jit);
        if (rank < partner) control.send(0, FIGURES, encodeRow(keep(partner, mine, retry)));
        else keep(partner, mine, retry);
    }

    /**
     * Both ranks of a pair, after timing: the higher sends its missed deadlines to the lower, which
     * decides the pair's figures, keeps them in its row and sends them to the higher for its row.
     * Returns the pair's figures (on the higher rank too).
     */
    private Pair keep(int partner, double[] mine, boolean retry) {
        if (rank > partner) {
            control.send(partner, MIRROR, mine[0]);
            row[partner] = decodeRow(control.receive(partner, ROW, ROW_VALUES), 0, settings);
            return row[partner];
        }
        long mirrorMissed = (long) control.receive(partner, MIRROR, 1)[0];
        Pair old = row[partner];
        Pair again = Pair.decode(mine, mirrorMissed, timedRoundTrips(), retry ? old.attempts() + 1 : 1);
        // preemption only adds time: of two disturbed attempts the less disturbed one holds
        Pair kept = retry && again.disturbed() && old.missed() < again.missed() ? old.withAttempts(again.attempts()) : again;
        row[partner] = kept;
        control.send(partner, ROW, encodeRow(kept));
        return kept;
    }

    private void parallelRound(int round) {
        control.barrier();
        int partner = RoundRobin.partner(n, round, rank);
        Pair mine = null;
        if (partner >= 0) mine = keep(partner, timePair(partner, round, true), false);
        if (rank == 0) {
            int[][] roundPairs = RoundRobin.pairs(n, round);
            int[] leads = Arrays.stream(roundPairs).mapToInt(p -> p[0]).filter(a -> a != 0).toArray();
            for (double[] figures : control.receiveFrom(leads, FIGURES, ROW_VALUES)) received(decodeRow(figures, 0, settings));
            if (mine != null) received(mine);
        } else if (mine != null && rank < partner) {
            control.send(0, FIGURES, encodeRow(mine));
        }
    }

    /** Doubles of one pair in a row: its figures ({@link Pair#encode}) with the missed deadlines of both sides, and its attempts. */
    public static final int ROW_VALUES = Pair.VALUES + 1;

    static double[] encodeRow(Pair p) {
        double[] v = Arrays.copyOf(p.encode(p.missed()), ROW_VALUES);
        v[Pair.VALUES] = p.attempts();
        return v;
    }

    /** The pair at {@code at}: the disturbed flag follows from the missed deadlines, as when it was measured. */
    static Pair decodeRow(double[] v, int at, Settings s) {
        double[] one = Arrays.copyOfRange(v, at, at + Pair.VALUES);
        return Pair.decode(one, 0, s.latencyReps() + s.bandwidthReps(), (int) v[at + Pair.VALUES]);
    }

    /**
     * Up to {@code retries} passes over the disturbed pairs, one pair at a time (a pair whose
     * processes were preempted is measured again while nothing else runs). Each pass starts with
     * rank 0 telling every rank in how many of its pairs it takes part; -1 ends the passes.
     */
    private void retryDisturbed() {
        if (rank != 0) {
            for (int count; (count = (int) control.receive(0, RETRIES, 1)[0]) >= 0; ) {
                for (int i = 0; i < count; i++) {
                    double[] go = control.receive(0, GO, 3);
                    int a = (int) go[1], b = (int) go[2];
                    takePart(rank == a ? b : a, (int) go[0], false, true);
                }
            }
            return;
        }
        List<int[]> pending = new ArrayList<>(disturbed);
        disturbed.clear();
        for (int pass = 0; pass < settings.retries() && !pending.isEmpty(); pass++) {
            int[] counts = new int[n];
            for (int[] p : pending) {
                counts[p[0]]++;
                counts[p[1]]++;
            }
            for (int r = 1; r < n; r++) control.send(r, RETRIES, counts[r]);
            List<int[]> still = new ArrayList<>();
            for (int[] p : pending) if (leadOnePair(p[2], p[0], p[1], false, true).disturbed()) still.add(p);
            pending = still;
        }
        for (int r = 1; r < n; r++) control.send(r, RETRIES, -1);
    }

    private int timedRoundTrips() {
        return settings.latencyReps() + settings.bandwidthReps();
    }

    /**
     * Both halves of one pair. The lower rank returns its figures ({@link Pair#encode}), the
     * higher one value: the deadlines its emulator missed while timing.
     */
    private double[] timePair(int partner, int round, boolean jitAllowed) {
        transport.connect(addresses[partner]);
        boolean measure = rank < partner;
        Await await = new Await(settings.timeoutNs(), "rank " + partner);
        long start = Clock.now();
        if (jitAllowed && (round == RoundRobin.firstRound(n, rank) || round == RoundRobin.firstRound(n, partner))) {
            // round trips in calls of JIT_CHUNK timed rounds and the closing one, as PingPong's warm-up
            for (int done = 0; done < settings.jitRounds(); done += JIT_CHUNK + 1) {
                if (measure) PingPong.measureRounds(transport, await, settings.latencyBytes(), JIT_CHUNK, jitTicks, calls);
                else PingPong.mirrorRounds(transport, await, settings.latencyBytes(), JIT_CHUNK, calls);
            }
        }
        long missedBefore = Disturbances.of(transport);
        int latencyRounds = settings.warmup() + settings.latencyReps();
        int bandwidthRounds = settings.bandwidthWarmup() + settings.bandwidthReps();
        if (measure) {
            PingPong.measureRounds(transport, await, settings.latencyBytes(), latencyRounds, latencyTicks, calls);
            PingPong.measureRounds(transport, await, settings.bandwidthBytes(), bandwidthRounds, bandwidthTicks, calls);
        } else {
            PingPong.mirrorRounds(transport, await, settings.latencyBytes(), latencyRounds, calls);
            PingPong.mirrorRounds(transport, await, settings.bandwidthBytes(), bandwidthRounds, calls);
        }
        long missed = Disturbances.of(transport) - missedBefore;
        LogGP loggp = null;
        if (settings.loggpSizes() != null) {
            boolean firstPair = jitAllowed && (round == RoundRobin.firstRound(n, rank) || round == RoundRobin.firstRound(n, partner));
            loggp = pLogP(partner, await, measure, firstPair);
        }
        double pairMs = Clock.toNs(Clock.now() - start) / 1e6;
        if (!measure) return new double[] {missed};
        double[] latency = halfRoundTripsNs(latencyTicks);
        double bandwidthHalfRtt = median(halfRoundTripsNs(bandwidthTicks));
        return new Pair(rank, partner, round, median(latency), latency[0], settings.bandwidthBytes() / bandwidthHalfRtt * 1e3,
                pairMs, missed, false, 1, loggp).encode(missed);
    }

    /** The pair's pLogP run: the lower rank measures (and returns the first range's LogGP set), the higher mirrors. */
    private LogGP pLogP(int partner, Await await, boolean measure, boolean warmUp) {
        Control pair = control.control(partner, PROBE);
        Probe probe = new Probe(transport, await, pair, PROBE_DEPTH, calls);
        if (!measure) {
            Probe.mirror(transport, await, pair, PROBE_DEPTH, calls);
            return null;
        }
        if (warmUp) probe.warmUp(PROBE_WARMUP_BUDGET_NS, settings.largestBytes());
        Sampler sampler = new Sampler(Sampler.DEFAULT_RELATIVE, Sampler.DEFAULT_FLOOR_NS, 20, 4, 1000, 100e6);
        PLogPMethod.Result r = new PLogPMethod(probe, sampler).run(new PLogPMethod.Settings(settings.loggpSizes(), 0, false));
        probe.end();
        ParameterSet first = r.loggp().getFirst();
        double rttNs = r.sizes().getFirst().rtt().value();
        int flags = MethodFlags.of(r.loggp(), r.notes(), rttNs).size();
        return new LogGP(first.fromBytes(), first.toBytes(), first.latency().value(), first.sendOverhead().value(),
                first.recvOverhead().value(), first.gap().value(), first.gapPerByte().value(), flags);
    }

    /** Half of each round trip, in ns, sorted. */
    private static double[] halfRoundTripsNs(long[] ticks) {
        double[] ns = new double[ticks.length];
        for (int i = 0; i < ticks.length; i++) ns[i] = Clock.toNs(ticks[i]) / 2;
        Arrays.sort(ns);
        return ns;
    }

    private static double median(double[] sorted) {
        int m = sorted.length;
        return m % 2 == 1 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    }

    private static byte[] encodeAddress(String hostname, byte[] address) {
        byte[] host = hostname.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + host.length + address.length).putInt(host.length).put(host).put(address).array();
    }
}
