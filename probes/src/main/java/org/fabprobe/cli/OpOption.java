package org.fabprobe.cli;

import org.fabprobe.pattern.PingPong;
import org.fabprobe.transport.Op;
import org.fabprobe.transport.Transports;
import picocli.CommandLine.Option;

/** --op of plogp and loggp: whether the probes' messages are sends or one-sided writes. */
final class OpOption {
    @Option(names = "--op", defaultValue = "send", paramLabel = "send|write", description = {
            "What a message is: send (default) or write, a one-sided write whose last byte the target polls",
            "(o_s: the post call; o_r: the target's look until it is there, a look where the write is native,",
            "the progress calls that apply it where it is emulated; 0 B: a 1-byte write). settings.op"})
    String op;

    /** The op; refuses (one line) any but send and write, and a transport family without one-sided operations. */
    Op op(SessionOptions session) {
        Op o = Op.parse(op);
        if (o != Op.SEND && o != Op.WRITE) throw new IllegalArgumentException("--op " + op + ": the LogP probes send or write");
        Transports.checkOneSided(session.transport, o);
        return o;
    }

    /** The calls: writes are posted and polled (no blocking call exists for them), sends as --calls says. */
    PingPong.Calls calls(SessionOptions session, CallsOption callsOption) {
        if (op(session) == Op.SEND) return callsOption.calls(session);
        if (callsOption.calls.equals("blocking")) throw new IllegalArgumentException("--op write: writes are posted and polled, not --calls blocking");
        return PingPong.Calls.NONBLOCKING;
    }
}
