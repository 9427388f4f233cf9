package org.fabprobe.pattern;

/**
 * Whether a disturbed size is measured again, over one sweep: a passing burst of other work
 * is worth another attempt, a disturbance that is the host's steady state is not (every attempt
 * would fare alike and only lengthen the run). So a size is measured again at most
 * {@code max} times, and not at all once the disturbance shows it persists:
 * <ul>
 *   <li>every round trip of the attempt was preempted (as many preemptions as round trips: the
 *       median itself waited for a CPU), and none stalled (a thread spinning through one long
 *       stall is preempted many times in one round trip);
 *   <li>a second attempt was disturbed the same way as the one before it (the same {@link Cause});
 *   <li>an earlier size of the sweep ended disturbed that way, and no size came out clean since.
 * </ul>
 * Not thread-safe; one per sweep, on the measure side (the mirror follows measure's answers).
 */
public final class Remeasures {

    /** How an attempt was disturbed; attempts compare by it. */
    public enum Cause {
        NONE, PREEMPTED, STALLED, PREEMPTED_AND_STALLED;

        public static Cause of(boolean preempted, boolean stalled) {
            return preempted ? (stalled ? PREEMPTED_AND_STALLED : PREEMPTED) : (stalled ? STALLED : NONE);
        }
    }

    private final int max;
    private Cause previous = Cause.NONE; // the last attempt's, within the size being measured
    private Cause persisting = Cause.NONE; // the cause an earlier size could not measure away

    public Remeasures(int max) {
        this.max = max;
    }

    /**
     * After attempt {@code attempt} (0 for the first) of a size: true when it is measured again.
     *
     * @param everyRoundHit at least as many preemptions (both sides) as round trips in the attempt
     */
    public boolean again(int attempt, Cause cause, boolean everyRoundHit) {
        if (cause == Cause.NONE) {
            if (attempt == 0) persisting = Cause.NONE; // a clean size: whatever persisted is gone
            return false;
        }
        boolean hopeless = (everyRoundHit && cause == Cause.PREEMPTED)
                || (attempt == 0 ? cause == persisting : cause == previous);
        previous = cause;
        if (hopeless) {
            persisting = cause;
            return false;
        }
        if (attempt >= max) {
            persisting = cause;
            return false;
        }
        return true;
    }

    /** At least as many preemptions of either side as round trips: no round trip, the median included, ran undisturbed. */
    static boolean everyRoundHit(Disturbances.Reading mine, Disturbances.Reading peer, int roundTrips) {
        return mine.preemptions() + peer.preemptions() + mine.missedDeadlines() + peer.missedDeadlines() >= roundTrips;
    }
}
