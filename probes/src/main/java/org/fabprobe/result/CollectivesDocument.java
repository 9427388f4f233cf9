package org.fabprobe.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;
import org.fabprobe.model.Summary;

/**
 * Schema fabprobe.collectives/2: MPI collectives by Santos et al., per operation and number of
 * processes p the per-size times and Hockney's t0(p), r_inf(p); barrier gets t0 alone; the
 * hosts whose ranks share CPUs in any launch (found before timing), empty when none.
 */
public record CollectivesDocument(@JsonUnwrapped RunHeader<Settings> header, List<Operation> operations,
                                  List<Run> runs, List<Result> results, List<SharedCpus> sharedCpus,
                                  List<String> notes) implements RunDocument {
    public static final String SCHEMA = "fabprobe.collectives/2";

    /**
     * collectives' inputs and how it measured.
     *
     * @param procs      the p of each launch
     * @param repetition how one repetition is timed
     * @param statistic  which statistic the fit takes
     */
    public record Settings(List<Long> sizes, List<String> operations, List<Integer> procs, String launch, int warmup,
                           String jitWarmup, String repetition, String statistic, double ciTargetPercent, int batch,
                           int maxReps, String timeCap) {}

    /** What n means for the operation, and R_inf / r_inf (the paper's aggregate factor: 1, p or p^2). */
    public record Operation(String operation, String messageLength, String aggregateFactor) {}

    /** One launch of p ranks. */
    public record Run(int procs, double timerOverheadNs, double jitWarmupMs) {}

    /** One operation at one p; barrier: t0 (its median) and its 95 % CI, no fit. */
    @JsonInclude(Include.NON_NULL) // t0: barrier only
    public record Result(String operation, int procs, List<Point> sizes, List<HockneyRange> hockney,
                         Double t0Ns, Double t0Ci95Ns) {}

    /**
     * One message length: the per-repetition maximum over ranks, ns. The statistics' count and
     * outliers are written beside them, as repetitions and outliers. disturbedBatches: batches
     * kept although some rank waited for a CPU; discardedBatches: disturbed batches measured again.
     */
    @JsonPropertyOrder({"size_bytes", "repetitions", "time_ns", "median_ci95_ns", "outliers"})
    public record Point(long sizeBytes, @JsonIgnoreProperties({"count", "outliers"}) Summary timeNs, double medianCi95Ns,
                        boolean converged, double wallMs, int disturbedBatches, int discardedBatches) {
        @JsonCreator
        static Point read(@JsonProperty("size_bytes") long sizeBytes, @JsonProperty("repetitions") int repetitions,
                          @JsonProperty("time_ns") Summary timeNs, @JsonProperty("median_ci95_ns") double medianCi95Ns,
                          @JsonProperty("outliers") int outliers, @JsonProperty("converged") boolean converged,
                          @JsonProperty("wall_ms") double wallMs, @JsonProperty("disturbed_batches") int disturbedBatches,
                          @JsonProperty("discarded_batches") int discardedBatches) {
            return new Point(sizeBytes, timeNs.counting(repetitions, outliers), medianCi95Ns, converged, wallMs,
                    disturbedBatches, discardedBatches);
        }

        @JsonProperty
        public int repetitions() {
            return timeNs.count();
        }

        @JsonProperty
        public int outliers() {
            return timeNs.outliers();
        }
    }

    /** What rank 0 of one launch hands back to the command that launched it (internal, not published). */
    public record Part(int procs, Map<String, String> transportFacts, double timerOverheadNs, double jitWarmupMs,
                       List<PartPoint> points, List<SharedCpus> sharedCpus) {}

    public record PartPoint(String operation, long sizeBytes, Summary timeNs, double medianNs, double medianCi95Ns,
                            boolean converged, double wallMs, int disturbedBatches, int discardedBatches) {}
}
