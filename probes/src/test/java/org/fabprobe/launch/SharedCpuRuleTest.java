package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** When measure and mirror can only run on one CPU, known before the timing starts. */
class SharedCpuRuleTest {

    @Test
    void bothPinnedToOneCpu() {
        assertEquals(3, Session.sharedCpu(3, 3, false, true, new int[] {0, 1, 2, 3}));
        assertEquals(-1, Session.sharedCpu(0, 1, true, true, new int[] {0, 1}));
        assertEquals(-1, Session.sharedCpu(0, 0, false, false, new int[] {0, 1}), "a mirror on another host");
    }

    @Test
    void aLocalMirrorInheritsTheOnlyAllowedCpu() {
        assertEquals(0, Session.sharedCpu(-1, -1, true, true, new int[] {0}));
        assertEquals(-1, Session.sharedCpu(-1, -1, true, true, new int[] {0, 1}));
        assertEquals(-1, Session.sharedCpu(-1, -1, false, true, new int[] {0}), "launcher ranks may be bound apart");
    }
}
