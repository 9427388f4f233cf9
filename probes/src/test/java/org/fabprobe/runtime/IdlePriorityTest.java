package org.fabprobe.runtime;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** Whether a thread lowered to SCHED_IDLE may go back, from /proc/self/status and /proc/self/limits as Linux writes them. */
class IdlePriorityTest {
    private static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max nice priority         %s                   %s
            Max realtime priority     0                    0
            """;

    private static String status(String capEff) {
        return "Name:\tjava\nCapInh:\t0000000000000000\nCapEff:\t" + capEff + "\nCapBnd:\t000001ffffffffff\n";
    }

    @Test
    void rootMayRestoreWhateverTheNiceLimit() {
        assertTrue(IdlePriority.restorable(status("000001fffeffffff"), LIMITS.formatted("0", "0")));
        assertTrue(IdlePriority.restorable(status("0000000000800000"), LIMITS.formatted("0", "0")), "CAP_SYS_NICE alone");
    }

    @Test
    void anOrdinaryUserMayOnlyWithANiceLimitOfTwentyOrMore() {
        assertFalse(IdlePriority.restorable(status("0000000000000000"), LIMITS.formatted("0", "0")));
        assertFalse(IdlePriority.restorable(status("0000000000000000"), LIMITS.formatted("19", "40")));
        assertTrue(IdlePriority.restorable(status("0000000000000000"), LIMITS.formatted("20", "20")));
        assertTrue(IdlePriority.restorable(status("0000000000000000"), LIMITS.formatted("unlimited", "unlimited")));
    }

    @Test
    void withoutEitherLineItSaysNo() {
        assertFalse(IdlePriority.restorable("Name:\tjava\n", ""));
    }
}
