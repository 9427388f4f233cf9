package org.fabprobe.launch;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.FabprobeException;
import org.fabprobe.launch.TcpControl.Payload;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Schedule;
import org.fabprobe.transport.TransportName;
import org.fabprobe.transport.TransportOptions;

/**
 * Everything the mirror must know to take part: which transport, how large its buffers and
 * how deep its queues, how long to wait, where to run, and which pattern with which inputs.
 * Each side binds network transports to its own interface, so no address travels in here.
 *
 * @param bufferBytes the largest message of the run
 * @param depth       sends (and receives) a pattern may have outstanding
 * @param mirrorCpu   the CPU the mirror pins itself to, or -1
 */
public record SessionSpec(String transport, long bufferBytes, int depth, Duration timeout, int mirrorCpu,
                          Schedule schedule) {
    static final int MAX_DEPTH = 4096;
    static final int MAX_SIZES = 4096;
    static final long MAX_COUNT = 10_000_000;
    private static final int PINGPONG = 1, STREAM = 2, PROBE = 3, ONE_SIDED = 4, ONE_SIDED_STREAM = 5, TARGET = 6;

    /** How this side opens the transport: bound to {@code sourceNode} ("" = the provider's choice). */
    public TransportOptions options(String sourceNode) {
        return new TransportOptions(bufferBytes, depth, timeout, sourceNode);
    }

    /** The operation the pattern times: what the transport must be opened for. */
    public org.fabprobe.transport.Op op() {
        return switch (schedule) {
            case Schedule.OneSidedSchedule s -> s.op();
            case Schedule.OneSidedStreamSchedule s -> s.op();
            case Schedule.TargetSchedule s -> s.op();
            case Schedule.ProbeSchedule s -> s.op();
            default -> org.fabprobe.transport.Op.SEND;
        };
    }

    byte[] encode() {
        Payload.Writer w = new Payload.Writer().text(transport).int64(bufferBytes).int32(depth)
                .int64(timeout.toMillis()).int32(mirrorCpu);
        switch (schedule) {
            case Schedule.PingPongSchedule s -> sizes(w.int32(PINGPONG), s.sizes()).int32(s.warmup())
                    .int32(s.repetitions()).int32(s.calls().ordinal());
            case Schedule.StreamSchedule s -> sizes(w.int32(STREAM), s.sizes()).int32(s.window())
                    .int32(s.warmup()).int32(s.repetitions());
            case Schedule.OneSidedSchedule s -> sizes(w.int32(ONE_SIDED), s.sizes()).int32(s.warmup())
                    .int32(s.repetitions()).int32(s.op().ordinal());
            case Schedule.OneSidedStreamSchedule s -> sizes(w.int32(ONE_SIDED_STREAM), s.sizes()).int32(s.window())
                    .int32(s.warmup()).int32(s.repetitions()).int32(s.op().ordinal());
            case Schedule.TargetSchedule s -> sizes(w.int32(TARGET), s.sizes()).int32(s.warmup())
                    .int32(s.repetitions()).int32(s.op().ordinal());
            case Schedule.ProbeSchedule s -> w.int32(PROBE).int32(s.depth()).int32(s.calls().ordinal())
                    .int32(s.op().ordinal());
        }
        return w.bytes();
    }

    /**
     * Decodes what a measure process sent, refusing anything outside what fabprobe itself
     * sends: the mirror runs exactly this and nothing else.
     */
    static SessionSpec decode(Payload.Reader r) {
        String transport = r.text();
        long bufferBytes = check(r.int64(), 0, 1L << 40, "buffer size");
        int depth = (int) check(r.int32(), 1, MAX_DEPTH, "depth");
        Duration timeout = Duration.ofMillis(check(r.int64(), 1, 3_600_000, "timeout (ms)"));
        int cpu = (int) check(r.int32(), -1, 1 << 16, "cpu");
        Schedule schedule = switch (r.int32()) {
            case PINGPONG -> new Schedule.PingPongSchedule(sizes(r, bufferBytes), count(r.int32()), reps(r.int32()),
                    calls(r.int32()));
            case STREAM -> new Schedule.StreamSchedule(sizes(r, bufferBytes), (int) check(r.int32(), 1, MAX_DEPTH, "window"),
                    count(r.int32()), reps(r.int32()));
            case PROBE -> new Schedule.ProbeSchedule((int) check(r.int32(), 1, MAX_DEPTH, "probe depth"), calls(r.int32()),
                    probeOp(r.int32()));
            case ONE_SIDED -> new Schedule.OneSidedSchedule(sizes(r, bufferBytes), count(r.int32()), reps(r.int32()),
                    oneSidedOp(r.int32()));
            case ONE_SIDED_STREAM -> new Schedule.OneSidedStreamSchedule(sizes(r, bufferBytes),
                    (int) check(r.int32(), 1, MAX_DEPTH, "window"), count(r.int32()), reps(r.int32()), streamOp(r.int32()));
            case TARGET -> new Schedule.TargetSchedule(sizes(r, bufferBytes), count(r.int32()), reps(r.int32()),
                    oneSidedOp(r.int32()));
            default -> throw refused("unknown pattern");
        };
        r.end();
        TransportName parsed = TransportName.parseOrNull(transport);
        if (parsed == null || parsed.meetsThroughMpi()) {
            throw refused("transport '" + transport + "' cannot run against a mirror (ofi:, ucx: or sim: only)");
        }
        return new SessionSpec(transport, bufferBytes, depth, timeout, cpu, schedule);
    }

    private static Payload.Writer sizes(Payload.Writer w, long[] sizes) {
        w.int32(sizes.length);
        for (long s : sizes) w.int64(s);
        return w;
    }

    private static long[] sizes(Payload.Reader r, long bufferBytes) {
        int n = (int) check(r.int32(), 1, MAX_SIZES, "number of sizes");
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) sizes[i] = check(r.int64(), 0, bufferBytes, "message size");
        return sizes;
    }

    private static org.fabprobe.transport.Op oneSidedOp(int ordinal) {
        var ops = org.fabprobe.transport.Op.values();
        if (ordinal < 1 || ordinal >= ops.length) throw refused("unknown one-sided op " + ordinal);
        return ops[ordinal];
    }

    /** The LogP probes send, write or read. */
    private static org.fabprobe.transport.Op probeOp(int ordinal) {
        check(ordinal, 0, org.fabprobe.transport.Op.values().length - 1, "probe op");
        org.fabprobe.transport.Op op = org.fabprobe.transport.Op.values()[ordinal];
        if (!org.fabprobe.pattern.Probe.timesOp(op)) throw refused("probe op " + op.label());
        return op;
    }

    /** One-sided streams write or read. */
    private static org.fabprobe.transport.Op streamOp(int ordinal) {
        org.fabprobe.transport.Op op = oneSidedOp(ordinal);
        if (op != org.fabprobe.transport.Op.WRITE && op != org.fabprobe.transport.Op.READ) {
            throw refused("one-sided stream of " + op.label());
        }
        return op;
    }

    private static int count(int v) {
        return (int) check(v, 0, MAX_COUNT, "warm-up count");
    }

    private static int reps(int v) {
        return (int) check(v, 1, MAX_COUNT, "repetitions");
    }

    /** Blocking calls exist only over MPI, which never runs against a mirror. */
    private static PingPong.Calls calls(int ordinal) {
        check(ordinal, PingPong.Calls.NONBLOCKING.ordinal(), PingPong.Calls.NONBLOCKING.ordinal(), "call style");
        return PingPong.Calls.NONBLOCKING;
    }

    private static long check(long v, long min, long max, String what) {
        if (v < min || v > max) throw refused(what + " " + v + " outside " + min + ".." + max);
        return v;
    }

    private static FabprobeException refused(String why) {
        return new FabprobeException(ExitCode.USAGE, "the mirror refuses the session: " + why);
    }
}
