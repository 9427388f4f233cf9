package org.fabprobe.pattern;

/**
 * What the mirror must know to follow a pattern: the measure process sends one of these at
 * the start of a session (launch.SessionSpec carries it), and the mirror runs the matching
 * half. One named record per pattern, so both halves read the same typed inputs.
 */
public sealed interface Schedule permits Schedule.PingPongSchedule, Schedule.StreamSchedule, Schedule.ProbeSchedule,
        Schedule.OneSidedSchedule, Schedule.OneSidedStreamSchedule, Schedule.TargetSchedule {

    /** The ping-pong sweep: per size, warm-up plus timed round trips, with blocking or polled calls. */
    record PingPongSchedule(long[] sizes, int warmup, int repetitions, PingPong.Calls calls) implements Schedule {}

    /** One-sided ping-pong ({@link OneSidedPingPong}): per size, warm-up plus timed operations of {@code op}. */
    record OneSidedSchedule(long[] sizes, int warmup, int repetitions, org.fabprobe.transport.Op op) implements Schedule {}

    /** Who must progress {@code op} ({@link TargetProgress}): per size, a passive-target and an active-target run. */
    record TargetSchedule(long[] sizes, int warmup, int repetitions, org.fabprobe.transport.Op op) implements Schedule {}

    /** One-sided bandwidth ({@link OneSidedStream}): per size, warm-up plus timed windows of {@code window} writes or reads. */
    record OneSidedStreamSchedule(long[] sizes, int window, int warmup, int repetitions, org.fabprobe.transport.Op op)
            implements Schedule {}

    /** Streaming bandwidth: per size, warm-up plus timed windows of {@code window} messages. */
    record StreamSchedule(long[] sizes, int window, int warmup, int repetitions) implements Schedule {}

    /** The LogP building blocks: the measure side announces each probe over the control channel. */
    /** The LogP probes; {@code op} SEND (messages) or WRITE (write-and-poll, {@link Probe}). */
    record ProbeSchedule(int depth, PingPong.Calls calls, org.fabprobe.transport.Op op) implements Schedule {
        public ProbeSchedule(int depth, PingPong.Calls calls) {
            this(depth, calls, org.fabprobe.transport.Op.SEND);
        }
    }

    /** The mirror half that follows this schedule. */
    default Patterns.MirrorHalf mirrorHalf() {
        return switch (this) {
            case PingPongSchedule s -> PingPong.of(s)::mirror;
            case StreamSchedule s -> Stream.of(s)::mirror;
            case OneSidedSchedule s -> (t, await, control) -> OneSidedPingPong.of(s).mirror(t, await, control);
            case OneSidedStreamSchedule s -> (t, await, control) -> OneSidedStream.of(s).mirror(t, await, control);
            case TargetSchedule s -> (t, await, control) -> TargetProgress.of(s).mirror(t, await, control);
            case ProbeSchedule s -> (t, await, control) -> Probe.mirror(t, await, control, s.depth(), s.calls(), s.op());
        };
    }
}
