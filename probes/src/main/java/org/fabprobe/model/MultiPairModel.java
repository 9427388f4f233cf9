package org.fabprobe.model;

/**
 * Hager and Wellein's model of IMB PingPong in multi mode ("A performance model for the IMB
 * multi-mode PingPong benchmark", 2007): two pairs of processes, both senders on one node and
 * both receivers on the other, whose messages are interleaved in chunks of C bytes, so that a
 * receive overlaps another process's send for one chunk per ping-pong. Units: bytes, ns,
 * bytes per ns (1 B/ns = 1000 MB/s).
 *
 * @param chunkBytes    C, the interleaving chunk size
 * @param rawBytesPerNs B_r, the raw unidirectional bandwidth
 * @param t1Ns          T_1, the per-message latency
 */
public record MultiPairModel(double chunkBytes, double rawBytesPerNs, double t1Ns) {

    /** IMB's defaults for eq. (3) (IMB_settings.h): at most 1000 repetitions, at most 40 MB per size. */
    public static final long IMB_MSGS_PER_SAMPLE = 1000, IMB_OVERALL_VOL = 40L << 20;

    /** Eq. (1): T_p(x) = x / B_r, the transfer time of one message without latency. */
    public static double transferTimeNs(double x, double rawBytesPerNs) {
        return x / rawBytesPerNs;
    }

    /** Eq. (2): beta(x), the number of chunks a message of x bytes is cut into (1 below C). */
    public static double chunks(double x, double chunkBytes) {
        return x < chunkBytes ? 1 : x / chunkBytes;
    }

    /**
     * Eq. (3), IMB's repetition count n(x) = min(MSGSPERSAMPLE, max(1, OVERALL_VOL / x)), for
     * reference and for synthetic data; a fit takes the count the run actually made.
     */
    public static long imbRepetitions(long x, long msgsPerSample, long overallVolume) {
        return Math.min(msgsPerSample, Math.max(1, x == 0 ? msgsPerSample : overallVolume / x));
    }

    /**
     * Eqs. (4)/(5): T_b(x), the time of n(x) successive ping-pongs,
     * T_p [4n - (2n - 1)/beta] + T_1 (4n - 1).
     */
    public double loopTimeNs(double x, long n) {
        double tp = transferTimeNs(x, rawBytesPerNs);
        return tp * (4.0 * n - (2.0 * n - 1) / chunks(x, chunkBytes)) + t1Ns * (4.0 * n - 1);
    }

    /** Eq. (6): b(x) = 4 x n(x) / T_b(x), the aggregated bandwidth of the two pairs, in B/ns. */
    public static double aggregatedBandwidth(double x, long n, double loopNs) {
        return 4.0 * x * n / loopNs;
    }

    /** Eq. (6) with the model's own T_b(x). */
    public double aggregatedBandwidth(double x, long n) {
        return aggregatedBandwidth(x, n, loopTimeNs(x, n));
    }
}
