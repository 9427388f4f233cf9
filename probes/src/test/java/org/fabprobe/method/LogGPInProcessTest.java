package org.fabprobe.method;

import static org.junit.jupiter.api.Assertions.*;

import org.fabprobe.model.ParameterSet;
import org.fabprobe.pattern.InProcess;
import org.fabprobe.pattern.PingPong;
import org.fabprobe.pattern.Probe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The LogGP method end to end in two threads over a loopback pair: it runs to a result, not to any value. */
class LogGPInProcessTest {
    private static final int DEPTH = 8, MESSAGES = 4;
    private static final long[] SIZES = {8, 1024, 8192};

    @Test
    @Timeout(30)
    void runsEverySizeAndFitsTheRanges() throws Exception {
        // small batches and a short cap: the test checks the protocol, not the convergence
        Sampler sampler = new Sampler(Sampler.DEFAULT_RELATIVE, Sampler.DEFAULT_FLOOR_NS, 10, 2, 40, 20e6);
        try (InProcess io = new InProcess(8192, DEPTH, InProcess.PATIENT)) {
            LogGPMethod.Result result = io.run((t, await, control) -> {
                Probe probe = new Probe(t, await, control, DEPTH, PingPong.Calls.NONBLOCKING);
                LogGPMethod.Result r = new LogGPMethod(probe, sampler).run(new LogGPMethod.Settings(SIZES, MESSAGES));
                probe.end();
                return r;
            }, (t, await, control) -> Probe.mirror(t, await, control, DEPTH, PingPong.Calls.NONBLOCKING));

            assertEquals(MESSAGES, result.messages());
            assertEquals(SIZES.length, result.sizes().size());
            for (LogGPMethod.SizePrtt p : result.sizes()) {
                for (Sampler.Sampled s : new Sampler.Sampled[] {p.prtt1(), p.prttN(), p.prttDelayed()}) {
                    assertTrue(s.value() > 0 && Double.isFinite(s.value()), "PRTT at " + p.size() + " B: " + s.value());
                }
                assertTrue(Double.isFinite(p.gapAll().value()));
                assertTrue(Double.isFinite(p.overhead().value()));
            }
            assertFalse(result.ranges().isEmpty());
            for (ParameterSet set : result.ranges()) assertTrue(set.fromBytes() <= set.toBytes());
            assertEquals(io.measure.sendsBySize(), io.mirror.recvsBySize(), "the mirror posts a receive per message, at its size");
        }
    }
}
