package org.fabprobe.cli;

import org.fabprobe.api.MethodAnalysis;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Option;

/** --op of plogp and loggp: whether the probes' messages are sends, one-sided writes or one-sided reads. */
final class OpOption {
    @Option(names = "--op", defaultValue = "send", paramLabel = "send|write|read", description = {
            "What a message is: send (default); write, a one-sided write whose last byte the target polls",
            "(o_s: the post call; o_r: the target's look until it is there, a look where the write is native,",
            "the progress calls that apply it where it is emulated); or read, a one-sided read (o_s: the post",
            "call; o_r: completing it once its data has had time to arrive; L = (RTT - o_s - o_r) / 2).",
            "0 B: a 1-byte write or read. settings.op"})
    String op;

    /** The op; refuses (one line) the atomics, and a transport family without one-sided operations. */
    Op op(SessionOptions session) {
        Op o = Op.parse(op);
        if (!Probe.timesOp(o)) throw new IllegalArgumentException("--op " + op + ": the LogP probes send, write or read");
        Transports.checkOneSided(session.transport, o);
        return o;
    }

    /** The calls: one-sided operations are posted and polled (no blocking call exists for them), sends as --calls says. */
    PingPong.Calls calls(SessionOptions session, CallsOption callsOption) {
        Op o = op(session);
        if (o == Op.SEND) return callsOption.calls(session);
        if (callsOption.calls.equals("blocking")) throw new IllegalArgumentException(MethodAnalysis.oneSidedNotBlocking(o));
        return PingPong.Calls.NONBLOCKING;
    }
}
