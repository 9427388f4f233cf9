package org.fabprobe.model;

/**
 * When a sentinel (a short batch of 0 B round trips measured between sizes) says the host ran
 * at another speed than for the rest of the run: other work, CPU frequency, or, on a virtual
 * machine, the hypervisor's placement of the two CPUs (it moved ofi:shm's small-message round
 * trip from 0.62 to 1.63 us within one run here).
 */
public final class Drift {
    /** A sentinel has moved when it differs from the run's reference by more than this fraction of it... */
    static final double RELATIVE = 0.25;
    /** ...and by more than this, ns, and than twice the two medians' combined uncertainty. */
    static final double FLOOR_NS = 30;

    private Drift() {}

    /** Whether a sentinel median {@code value} ± {@code ci95} is clearly not the reference's. */
    public static boolean moved(double value, double ci95, double reference, double referenceCi95) {
        double difference = Math.abs(value - reference);
        double uncertainty = Math.hypot(ci95, referenceCi95);
        return difference > Math.max(RELATIVE * reference, Math.max(FLOOR_NS, 2 * uncertainty));
    }
}
