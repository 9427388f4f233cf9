package org.fabprobe.pattern;

import static org.fabprobe.pattern.Remeasures.Cause.*;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** Which disturbed attempts are measured again: a passing disturbance is, one that persists is not. */
class RemeasuresTest {

    @Test
    void aTransientDisturbanceIsMeasuredAgain() {
        Remeasures r = new Remeasures(2);
        assertTrue(r.again(0, STALLED, false), "first attempt of the size stalled");
        assertFalse(r.again(1, NONE, false), "the second came out clean: kept");
        // the next size, disturbed once again, is measured again too: nothing persisted
        assertFalse(r.again(0, NONE, false));
        assertTrue(r.again(0, PREEMPTED, false));
    }

    @Test
    void differentDisturbancesUseEveryAttempt() {
        Remeasures r = new Remeasures(2);
        assertTrue(r.again(0, STALLED, false));
        assertTrue(r.again(1, PREEMPTED, false));
        assertFalse(r.again(2, STALLED, false), "at most max re-measures");
    }

    @Test
    void theSameDisturbanceTwiceEndsTheSizeAndIsNotMeasuredAgainLater() {
        Remeasures r = new Remeasures(2);
        assertTrue(r.again(0, STALLED, false));
        assertFalse(r.again(1, STALLED, false), "disturbed alike twice: a third attempt would be too");
        assertFalse(r.again(0, STALLED, false), "the next size, disturbed the same way at once");
        Remeasures s = new Remeasures(2);
        s.again(0, PREEMPTED, false);
        s.again(1, PREEMPTED, false);
        assertTrue(s.again(0, STALLED, false), "a different disturbance is measured again");
    }

    @Test
    void aCleanSizeEndsWhatPersisted() {
        Remeasures r = new Remeasures(2);
        r.again(0, PREEMPTED, false);
        r.again(1, PREEMPTED, false);
        assertFalse(r.again(0, NONE, false));
        assertTrue(r.again(0, PREEMPTED, false), "the host changed: measured again");
    }

    @Test
    void everyRoundPreemptedIsNotMeasuredAgain() {
        Remeasures r = new Remeasures(2);
        assertFalse(r.again(0, PREEMPTED, true));
        assertFalse(r.again(0, PREEMPTED, false), "and later sizes disturbed alike neither");
    }

    @Test
    void aStallIsMeasuredAgainThoughItsSpinningThreadWasPreemptedThroughout() {
        Remeasures r = new Remeasures(2);
        assertTrue(r.again(0, STALLED, true), "one long stall spans many preemptions of the thread spinning through it");
        assertTrue(new Remeasures(2).again(0, PREEMPTED_AND_STALLED, true));
    }

    @Test
    void noRemeasuresWhenNoneAreAllowed() {
        assertFalse(new Remeasures(0).again(0, STALLED, false));
    }
}
