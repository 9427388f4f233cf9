package org.fabprobe.pattern;

import java.util.LinkedHashMap;
import java.util.Map;
import org.fabprobe.clock.Clock;
import org.fabprobe.transport.Transport;

/**
 * Streaming bandwidth (the saturation method of Culler and Kielmann at large sizes, and
 * what ucx_perftest tag_bw and osu_bw measure): per size, windows of {@code window}
 * back-to-back messages from measure to mirror; the mirror answers each full window with a
 * 0-byte acknowledgement. The measure process times each window from its first send to
 * the acknowledgement.
 *
 * <p>The mirror re-posts the next window's receives before it acknowledges, so data never
 * arrives unexpected; both halves read the same schedule from this class.
 */
public final class Stream {
    private final long[] sizes;
    private final int window;
    private final int warmup;
    private final int repetitions;

    public Stream(long[] sizes, int window, int warmup, int repetitions) {
        if (window < 1) throw new IllegalArgumentException("window must be >= 1");
        if (repetitions < 1) throw new IllegalArgumentException("repetitions must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warm-up must be >= 0");
        this.sizes = sizes.clone();
        this.window = window;
        this.warmup = warmup;
        this.repetitions = repetitions;
    }

    /** Outstanding operations each side needs: a full window of sends (or receives) plus the ack. */
    public int depth() {
        return window + 1;
    }

    public int window() {
        return window;
    }

    public Map<String, String> params() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("sizes", Patterns.formatSizes(sizes));
        p.put("window", Integer.toString(window));
        p.put("warmup", Integer.toString(warmup));
        p.put("repetitions", Integer.toString(repetitions));
        return p;
    }

    public static Stream fromParams(Map<String, String> p) {
        long[] sizes = Patterns.parseSizes(p.get("sizes"));
        return new Stream(sizes, Integer.parseInt(p.get("window")), Integer.parseInt(p.get("warmup")),
                Integer.parseInt(p.get("repetitions")));
    }

    /** Measure half: per size, the time of each timed window in ns. */
    public double[][] measure(Transport t, Await await, Control control) {
        double[][] windowNs = new double[sizes.length][repetitions];
        for (int i = 0; i < sizes.length; i++) {
            for (int w = 0; w < warmup + repetitions; w++) {
                long start = Clock.now();
                sendWindow(t, await, sizes[i]);
                if (w >= warmup) windowNs[i][w - warmup] = Clock.toNs(Clock.now() - start);
            }
        }
        return windowNs;
    }

    private void sendWindow(Transport t, Await await, long size) {
        long acks = t.recvsCompleted();
        long sends = t.sendsCompleted();
        t.postRecv(0);
        for (int m = 0; m < window; m++) t.postSend(size);
        await.recvs(t, acks + 1);
        await.sends(t, sends + window);
    }

    /** Mirror half: receives every window and acknowledges it. */
    public void mirror(Transport t, Await await, Control control) {
        for (long size : sizes) {
            int windows = warmup + repetitions;
            long recvs = t.recvsCompleted();
            for (int m = 0; m < window; m++) t.postRecv(size);
            for (int w = 0; w < windows; w++) {
                recvs += window;
                await.recvs(t, recvs);
                if (w + 1 < windows) {
                    for (int m = 0; m < window; m++) t.postRecv(size);
                }
                long sends = t.sendsCompleted();
                t.postSend(0);
                await.sends(t, sends + 1);
            }
        }
    }
}
