package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * Schema fabprobe.matrix/3: every pair of n ranks (LinkTest's all-pairs scheme), its 8 B half
 * round trip and its bandwidth at a large size (listed up to 64 ranks, beyond that in --csv);
 * the same per rank and per host; the outliers named; and what 1 000, 10 000 and 100 000 ranks
 * would cost in either mode. Times in ns (wall times in ms), bandwidth in MB/s (10^6 B/s).
 *
 * @param pairsListed whether {@code pairs} lists every pair (up to 64 ranks); else it is empty
 * @param sharedCpus  the hosts whose ranks share CPUs (found before timing), empty when none
 */
public record MatrixDocument(@JsonUnwrapped RunHeader<Settings> header, String mode, int ranks, int rounds,
                             long latencyBytes, long bandwidthBytes, List<String> rankHosts, boolean pairsListed, List<Pair> pairs,
                             List<Group> perRank, List<Group> perHost,
                             Summary summary, OutlierRule outlierRule, List<Outlier> outliers, Timing timing,
                             List<Estimate> estimates, List<SharedCpus> sharedCpus, List<String> notes) implements RunDocument {
    public static final String SCHEMA = "fabprobe.matrix/3";

    /** matrix's inputs: the schedule, its sizes and counts, the outlier rule's parameters and the launch. */
    public record Settings(String mode, long latencyBytes, int repetitions, long bandwidthBytes, int bandwidthRepetitions,
                           int warmup, int bandwidthWarmup, int jitWarmupRoundTrips, long timeoutMs, int retries,
                           double outlierK, double outlierRatio, String schedule, String launch) {}

    /**
     * One pair, as its lower rank {@code a} measured it with {@code b}.
     *
     * @param latencyNs    median half round trip at latency_bytes
     * @param latencyMinNs the least half round trip
     * @param bandwidthMbS bandwidth_bytes / median half round trip at that size
     * @param pairMs       the pair's whole time, warm-ups included
     * @param missedDeadlines deadlines the emulator missed on both sides while timing (sim only, else 0)
     * @param disturbed    missed deadlines in more than 10 % of the timed round trips (its processes were preempted)
     * @param attempts     1, plus the times it was measured again because it was disturbed
     * @param loggp        with --method plogp, the LogGP set of its first pLogP size range; else null
     */
    public record Pair(int a, int b, String hostA, String hostB, boolean sameHost, int round, double latencyNs,
                       double latencyMinNs, double bandwidthMbS, double pairMs, long missedDeadlines, boolean disturbed,
                       int attempts, LogGP loggp) {}

    /**
     * A pair's LogGP parameters (pLogP's Table 1) over its first size range, ns and ns/B.
     *
     * @param flags how many flags the pair's pLogP run raised
     */
    public record LogGP(long fromBytes, long toBytes, double latencyNs, double sendOverheadNs, double recvOverheadNs,
                        double gapNs, double gapPerByteNs, int flags) {}

    /**
     * A rank or a host: the pairs it takes part in (a host: pairs with a rank on it).
     *
     * @param name               the rank number or the host name
     * @param ranks              ranks on it (1 for a rank)
     * @param latencyNs          median over its pairs of their latency
     * @param worstLatencyNs     the highest of them
     * @param bandwidthMbS       median over its pairs of their bandwidth
     * @param worstBandwidthMbS  the lowest of them
     */
    public record Group(String name, int ranks, int pairs, double latencyNs, double worstLatencyNs, double bandwidthMbS,
                        double worstBandwidthMbS) {}

    /**
     * Over every pair. Ratios say how much worse than the median the worst pair is, both >= 1:
     * latency worst / median, bandwidth median / worst. MADs are raw (not scaled).
     */
    public record Summary(double latencyMedianNs, double latencyMadNs, double latencyWorstNs, double latencyWorstRatio,
                          double bandwidthMedianMbS, double bandwidthMadMbS, double bandwidthWorstMbS,
                          double bandwidthWorstRatio, int outlierPairs, int outlierRanks, int outlierHosts,
                          int disturbedPairs) {}

    /**
     * A value is an outlier when it is worse than the median of its kind by more than k scaled
     * MADs (1.4826 MAD, the standard deviation of normal data) and by more than min_ratio.
     */
    public record OutlierRule(double k, double minRatio, String description) {}

    /**
     * One named outlier.
     *
     * @param kind           pair, rank or host
     * @param name           "A-B" for a pair, the rank number, or the host name
     * @param quantity       latency or bandwidth
     * @param ratio          value / median
     * @param deviationMads  |value - median| / (1.4826 MAD); null when the MAD is 0
     */
    public record Outlier(String kind, String name, String quantity, double value, double median, double ratio,
                          double deviationMads) {}

    /**
     * Measured costs, the inputs of the estimates.
     *
     * @param scheduleMs         the rounds (barriers and gathering included, retries not)
     * @param roundMs            per round, rank 0's wall time
     * @param pairMsMedian       the median pair's whole time
     * @param slowestPairMsMedian per round the slowest pair's time, median over rounds
     * @param overheadMs         per step (serial: per pair; parallel: per round) the time that is not a pair timing
     * @param addressBytes       the longest endpoint address (with its host name), per rank
     * @param rank0PeakRssBytes  rank 0's peak resident memory (VmHWM) at the end of the run; null where unknown
     */
    public record Timing(double scheduleMs, List<Double> roundMs, double pairMsMedian, double slowestPairMsMedian,
                         double overheadMs, int addressBytes, Long rank0PeakRssBytes, String model) {}

    /**
     * What a run of {@code ranks} ranks would take in {@code mode}, from the model in timing.
     *
     * @param rankBytes  the figures rank 0 holds (every other rank less): linear in the ranks
     * @param csvBytes   the --csv file of every pair
     */
    public record Estimate(String mode, int ranks, long pairs, int rounds, double seconds, long rankBytes, long csvBytes,
                           long addressTableBytes) {}
}
