package org.fabprobe.clock;

/**
 * What fabprobe knows about the clock it timed with; recorded in every result.
 *
 * @param source         "tsc" (rdtsc) or "nanotime" (System.nanoTime / CLOCK_MONOTONIC fallback)
 * @param fallbackReason why the TSC was not used, or "" when it was
 * @param ticksPerNs     calibrated tick rate (1.0 for nanotime)
 * @param constantTsc    /proc/cpuinfo flag constant_tsc
 * @param nonstopTsc     /proc/cpuinfo flag nonstop_tsc
 * @param readCostNs     TICK1: mean cost of one clock read, in ns
 * @param resolutionNs   TICK1: the quantum the clock advances by, seen in successive reads, in ns
 * @param tick2ErrorPpm  TICK2: deviation of a timed interval from CLOCK_MONOTONIC, ppm
 * @param calibrationMs  how long the calibration against CLOCK_MONOTONIC took
 */
public record ClockFacts(String source, String fallbackReason, double ticksPerNs,
                         boolean constantTsc, boolean nonstopTsc, double readCostNs,
                         double resolutionNs, double tick2ErrorPpm, double calibrationMs) {
}
