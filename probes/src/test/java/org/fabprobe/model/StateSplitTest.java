package org.fabprobe.model;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two-state detector on real runs' batch medians (src/test/resources/state: how each was
 * recorded is in its header) and on synthetic ones: two states are found, one noisy state is not.
 */
class StateSplitTest {

    /** A recorded run: lines "size judged first-pass-batch-medians repeat-batch-medians" (ns, comma-separated). */
    static List<StateSplit.Passes> recorded(String name) throws IOException {
        List<StateSplit.Passes> run = new ArrayList<>();
        try (var in = new BufferedReader(new InputStreamReader(StateSplitTest.class.getResourceAsStream("/state/" + name),
                StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.trim().split("\\s+");
                run.add(new StateSplit.Passes(Long.parseLong(f[0]), values(f[2]), values(f[3]), Boolean.parseBoolean(f[1])));
            }
        }
        return run;
    }

    private static double[] values(String list) {
        return Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    @Test
    void theTcp16KiBStatesAreFound() {
        // UCX over tcp at 16 KiB: batches at 22.4-22.7 µs, and after another history 20.0-20.6 µs
        double[] batches = {22_450, 22_600, 22_700, 20_100, 20_600, 20_000, 22_400};
        StateSplit.States s = StateSplit.bimodal(batches);
        assertNotNull(s);
        assertEquals(3, s.lowCount());
        assertEquals(4, s.highCount());
        assertEquals(20_100, s.low(), 1e-9);
        assertEquals(22_525, s.high(), 1e-9);
    }

    @Test
    void oneNoisyStateIsNotSplit() {
        Random random = new Random(7);
        for (int run = 0; run < 500; run++) {
            double[] batches = new double[4 + random.nextInt(20)];
            // ±2 % scatter of batch medians around 20 µs, more than loopback tcp shows at rest
            for (int i = 0; i < batches.length; i++) batches[i] = 20_000 * (1 + 0.02 * random.nextGaussian());
            assertNull(StateSplit.bimodal(batches), () -> "run with " + batches.length + " batches");
        }
    }

    @Test
    void aSingleOutlierBatchIsNoState() {
        assertNull(StateSplit.bimodal(new double[] {20_000, 20_050, 19_980, 20_020, 26_000}));
        assertNull(StateSplit.bimodal(new double[] {20_000, 26_000, 26_100}));
    }

    @Test
    void aShiftBeyondTheRunsScatterIsAState() {
        // twenty sizes whose passes differ by about 2 %, and one 10 % apart: the tcp 16 KiB case
        Random random = new Random(3);
        java.util.List<StateSplit.Passes> run = new java.util.ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            double rtt = 15_000 + 300 * i;
            run.add(new StateSplit.Passes(i, new double[] {rtt}, new double[] {rtt * (1 + 0.02 * random.nextGaussian())}, true));
        }
        run.add(new StateSplit.Passes(16384, new double[] {22_500}, new double[] {20_300}, true));
        var states = StateSplit.judge(run).states();
        assertEquals(java.util.Set.of(16384L), states.keySet());
        assertTrue(states.get(16384L).betweenPasses());
        assertEquals(20_300, states.get(16384L).states().low(), 1e-9);
        // the same size, not judged (a disturbed pass), or among too few sizes to know the scatter: no state
        run.set(20, new StateSplit.Passes(16384, new double[] {22_500}, new double[] {20_300}, false));
        assertTrue(StateSplit.judge(run).states().isEmpty());
        // a pass without a kept batch is no state, and no failure
        run.set(20, new StateSplit.Passes(16384, new double[] {22_500}, new double[0], true));
        assertTrue(StateSplit.judge(run).states().isEmpty());
        assertTrue(StateSplit.judge(java.util.List.of(new StateSplit.Passes(1, new double[] {15_000}, new double[] {15_100}, true),
                new StateSplit.Passes(16384, new double[] {22_500}, new double[] {20_300}, true))).states().isEmpty());
    }

    @Test
    void aHostThatChangedSpeedBetweenThePassesIsNoState() {
        // every size 3.5 µs slower in the repeat (a loaded VM), one size not: no state, the passes are not compared
        List<StateSplit.Passes> run = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            double rtt = 15_000 + 100 * i;
            run.add(new StateSplit.Passes(i, new double[] {rtt}, new double[] {rtt + 3_500 + 50 * (i % 3)}, true));
        }
        run.add(new StateSplit.Passes(1024, new double[] {18_860}, new double[] {18_700}, true));
        StateSplit.Judgement j = StateSplit.judge(run);
        assertFalse(j.compared());
        assertTrue(j.states().isEmpty());
    }

    @Test
    void fourBatchesInTwoPairsAreNoState() {
        // a real run at load 6 (ucx:tcp, 2 B): two pairs 7 % apart, by chance
        assertNull(StateSplit.bimodal(new double[] {20_407, 20_833, 22_306, 22_401}));
    }

    @Test
    void aCleanRecordedRunHasNoState() throws IOException {
        StateSplit.Judgement j = StateSplit.judge(recorded("ucx-tcp-clean.txt"));
        assertTrue(j.compared());
        assertEquals(Map.of(), j.states());
    }

    @Test
    void theTcp16KiBStatesInACleanRecordedRunAreFound() throws IOException {
        // the clean run with its 16 KiB repeat moved as the two states of issue 32 lie apart (20.3 against 22.5 µs)
        List<StateSplit.Passes> run = new ArrayList<>();
        for (StateSplit.Passes p : recorded("ucx-tcp-clean.txt")) {
            if (p.size() != 16384) {
                run.add(p);
                continue;
            }
            double[] repeat = Arrays.stream(p.first()).map(x -> x * 20_300 / 22_500).toArray();
            run.add(new StateSplit.Passes(p.size(), p.first(), repeat, true));
        }
        var states = StateSplit.judge(run).states();
        assertEquals(java.util.Set.of(16384L), states.keySet());
        assertTrue(states.get(16384L).betweenPasses());
    }

    @Test
    void aLoadedRecordedRunScattersButHasNoState() throws IOException {
        List<StateSplit.Passes> run = recorded("ucx-tcp-loaded.txt");
        // what made the fixed 5 % bound fire: many judged sizes that far apart between the passes
        long apart = run.stream().filter(StateSplit.Passes::judged).filter(p -> relativeGap(p) > 0.05).count();
        assertTrue(apart >= 10, "the fixture shows " + apart + " sizes > 5 % apart");
        StateSplit.Judgement j = StateSplit.judge(run);
        assertTrue(j.compared());
        assertEquals(Map.of(), j.states());
    }

    @Test
    void aRecordedRunWhoseHostSlowedBetweenThePassesIsNotCompared() throws IOException {
        StateSplit.Judgement j = StateSplit.judge(recorded("ucx-tcp-host-shift.txt"));
        assertFalse(j.compared());
        assertTrue(j.commonShift() > Math.log1p(StateSplit.MAX_COMMON_SHIFT), () -> "shift " + j.commonShift());
        assertEquals(Map.of(), j.states());
    }

    private static double relativeGap(StateSplit.Passes p) {
        double a = Arrays.stream(p.first()).sorted().toArray()[p.first().length / 2];
        double b = Arrays.stream(p.repeat()).sorted().toArray()[p.repeat().length / 2];
        return Math.abs(a - b) / Math.min(a, b);
    }
}
