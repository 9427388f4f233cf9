package org.fabprobe.accept;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fabprobe.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verdict rules, units and the measurement plan, without measuring anything. */
class AcceptPiecesTest {
    @TempDir
    Path dir;

    @Test
    void verdictsRespectTheUncertainty() {
        double inf = Double.POSITIVE_INFINITY;
        assertEquals(Verdict.PASS, Verdict.judge(5, 1, 3, 7));
        assertEquals(Verdict.PASS, Verdict.judge(5, 2, 3, 7)); // touching a bound is within
        assertEquals(Verdict.INCONCLUSIVE, Verdict.judge(5, 2.5, 3, 7));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.judge(7.5, 1, 3, 7)); // value beyond, interval across
        assertEquals(Verdict.FAIL, Verdict.judge(9, 1, 3, 7));
        assertEquals(Verdict.FAIL, Verdict.judge(1, 1, 3, 7));
        assertEquals(Verdict.PASS, Verdict.judge(1e9, 1, 3, inf)); // open upper side
        assertEquals(Verdict.INCONCLUSIVE, Verdict.judge(5, Double.NaN, 3, 7)); // no uncertainty: no verdict
        assertEquals(Verdict.INCONCLUSIVE, Verdict.judge(5, inf, 3, 7));
        assertEquals(Verdict.ERROR, Verdict.judge(Double.NaN, 1, 3, 7));
    }

    @Test
    void aBandwidthIntervalIsLopsided() {
        // 1 MiB in 100 +- 20 us: 10 486 MB/s, between 1 MiB / 120 us and 1 MiB / 80 us
        Figures.Reading r = Figures.bandwidth(10_485.76, 100_000, 20_000, "1 MiB");
        assertEquals(10_485.76 / 1.2, r.low(), 1e-9);
        assertEquals(10_485.76 / 0.8, r.high(), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, Figures.bandwidth(1000, 100, 100, "x").high()); // any time down to 0
        assertEquals(Verdict.PASS, Verdict.judge(r.value(), r.low(), r.high(), 8000, Double.POSITIVE_INFINITY));
        assertEquals(Verdict.INCONCLUSIVE, Verdict.judge(r.value(), r.low(), r.high(), 9000, Double.POSITIVE_INFINITY));
    }

    @Test
    void unitsConvertToFabprobesOwn() {
        assertEquals(1500, Units.find("us").toBase(1.5), 1e-9);
        assertEquals(1500, Units.find("µs").toBase(1.5), 1e-9);
        assertEquals(2e6, Units.find("ms").toBase(2), 1e-6);
        assertEquals(25_000, Units.find("Gb/s").toBase(200), 1e-9); // 200 Gb/s = 25 GB/s = 25 000 MB/s
        assertEquals(1048.576, Units.find("MiB/s").toBase(1000), 1e-9);
        assertEquals(0.25, Units.find("ps/B").toBase(250), 1e-12);
        assertEquals(Units.Dimension.PER_BYTE, Units.find("ns/B").dimension());
        assertNull(Units.find("furlongs"));
    }

    @Test
    void boundsAreRelativeToTheReference() throws Exception {
        Spec spec = read("""
                system: s
                checks:
                  - {name: a, figure: half_rtt, transport: ofi:shm, size: 8, reference: 2, lower: -25%, upper: 0.5, unit: us}
                  - {name: b, figure: mpi_overhead, transport: ofi:tcp, mpi: openmpi, parameter: o_s, sizes: 0..64, reference: -4, lower: ~, upper: 50%, unit: ns}
                """);
        Check a = spec.checks().get(0), b = spec.checks().get(1);
        assertEquals(1.5, a.lowerBound(), 1e-12);
        assertEquals(3.0, a.upperBound(), 1e-12);
        assertEquals(Double.NEGATIVE_INFINITY, b.lowerBound());
        assertEquals(-2.0, b.upperBound(), 1e-12); // |reference| scales the tolerance
    }

    /** Bounds no measurement could meet are refused where the offending value is written. */
    @Test
    void boundsThatCanNeverPassAreRefusedWhereTheyAreWritten() throws Exception {
        String check = "  - {name: a, figure: %s, transport: ofi:shm, size: 8, reference: %s, lower: %s, upper: %s, unit: %s}\n";
        // 0 %/0 % around a figure measured with an uncertainty: at upper
        assertRefused(check.formatted("half_rtt", "1", "0%", "0%", "us"), ":3:94: upper: 0% with lower: 0% leaves an interval of width 0");
        // a reference of 0 scales both tolerances to 0, and an upper bound of 0 on a time is never met: at reference
        assertRefused(check.formatted("half_rtt", "0", "-50%", "50%", "us"), ":3:73: reference: 0 scales every tolerance to 0");
        assertRefused(check.formatted("half_rtt", "0", "~", "50%", "us"), ":3:73: reference: 0 scales every tolerance to 0");
        // a negative lower bound on a time or a bandwidth, a negative reference: at the value
        assertRefused(check.formatted("half_rtt", "1", "-150%", "50%", "us"),
                ":3:83: lower: -150% puts the lower bound at -0.5 us, but half_rtt is never negative");
        assertRefused(check.formatted("pingpong_bandwidth", "10", "-1.01", "~", "GB/s"),
                ":3:94: lower: -101% puts the lower bound at -0.1 GB/s, but pingpong_bandwidth is never negative");
        assertRefused(check.formatted("half_rtt", "-4", "~", "50%", "us"), ":3:73: reference: half_rtt is never negative");
        // an empty interval (lower bound above upper bound) cannot be written: each tolerance has its side
        assertRefused(check.formatted("half_rtt", "1", "10%", "~", "us"), ":3:83: lower: a tolerance below the reference is <= 0");
        assertRefused(check.formatted("half_rtt", "1", "~", "-10%", "us"), ":3:93: upper: a tolerance above the reference is >= 0");

        // what can pass is taken: a lower bound of 0, a count met exactly, a difference below 0
        Spec spec = read("""
                system: s
                checks:
                  - {name: a, figure: half_rtt, transport: ofi:shm, size: 8, reference: 1, lower: -100%, upper: 0, unit: us}
                  - {name: b, figure: matrix_outliers, transport: ofi:shm, procs: 4, reference: 0, lower: 0, upper: 0, unit: count}
                  - {name: c, figure: mpi_overhead, transport: ofi:tcp, mpi: openmpi, parameter: L, sizes: 0..64, reference: 1, lower: -300%, upper: 0, unit: us}
                  - {name: d, figure: half_rtt, transport: ofi:shm, size: 8, reference: 0, lower: 0, unit: us}
                """);
        assertEquals(0.0, spec.checks().get(0).lowerBound());
        assertEquals(-2.0, spec.checks().get(2).lowerBound(), 1e-12);
    }

    private void assertRefused(String check, String expected) {
        SpecException e = assertThrows(SpecException.class, () -> read("system: s\nchecks:\n" + check), check);
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains(expected), e.getMessage() + "\nexpected: " + expected);
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    /** Absent transports, named as a run would name them: raw, under an MPI, and mpi_overhead's mpi:. */
    @Test
    void absentTransportsAreFoundWithoutMeasuring() throws Exception {
        Spec spec = read("""
                system: s
                checks:
                  - {name: a, figure: half_rtt, transport: ucx:rc, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: b, figure: half_rtt, transport: ofi:verbs, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: c, figure: collective_t0, transport: mpi:openmpi/ucx:rc, operation: barrier, procs: 2, reference: 1, upper: 1, unit: us}
                  - {name: d, figure: mpi_overhead, transport: ucx:tcp, mpi: openmpi/ucx:ud, parameter: o_s, sizes: 0..64, reference: 1, upper: 1, unit: us}
                  - {name: e, figure: bandwidth, transport: ucx:rc, size: 1M, reference: 1, upper: 1, unit: GB/s}
                """);
        List<Availability.Absent> absent = Availability.absent(spec);
        assertEquals(List.of("ucx:rc", "ofi:verbs", "mpi:openmpi/ucx:rc", "mpi:openmpi/ucx:ud"),
                absent.stream().map(Availability.Absent::transport).toList(), absent::toString); // each once
        String file = dir.resolve("spec.yaml").toString();
        assertEquals(List.of(file + ":3:44", file + ":4:44", file + ":5:49", file + ":6:62"),
                absent.stream().map(Availability.Absent::where).toList());
        assertTrue(absent.get(0).message().startsWith("UCX transport 'rc' (ucx:rc) is not available here; available: "),
                absent.get(0).message());
        assertTrue(absent.get(1).message().startsWith("transport 'ofi:verbs' is not available here: libfabric has no tagged"
                + " RDM provider 'verbs'"), absent.get(1).message());
        assertTrue(absent.get(2).message().startsWith("transport 'mpi:openmpi/ucx:rc' runs over ucx:rc: UCX transport 'rc'"),
                absent.get(2).message());
        SpecException e = assertThrows(SpecException.class, () -> Availability.check(spec));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith(file + ":3:44: UCX transport 'rc'"), e.getMessage());

        // what this machine has (both MPIs are installed here; ucx:sm is an alias of its shared-memory transports)
        Spec present = read("""
                system: s
                checks:
                  - {name: a, figure: half_rtt, transport: ofi:shm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: b, figure: half_rtt, transport: 'ucx:posix,cma', size: 8, reference: 1, upper: 1, unit: us}
                  - {name: c, figure: half_rtt, transport: ucx:sm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: d, figure: collective_t0, transport: mpi:openmpi/ob1:vader, operation: barrier, procs: 2, reference: 1, upper: 1, unit: us}
                  - {name: e, figure: collective_t0, transport: mpi:mpich/ucx:tcp, operation: barrier, procs: 2, reference: 1, upper: 1, unit: us}
                  - {name: f, figure: mpi_overhead, transport: ofi:tcp, mpi: openmpi, parameter: o_s, sizes: 0..64, reference: 1, upper: 1, unit: us}
                """);
        assertEquals(List.of(), Availability.absent(present));
    }

    @Test
    void eachMeasurementRunsOnceForEveryCheckThatReadsIt() throws Exception {
        Spec spec = read("""
                system: s
                timeout: 3s
                checks:
                  - {name: a, figure: half_rtt, transport: ofi:shm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: b, figure: pingpong_bandwidth, transport: ofi:shm, size: 1M, reference: 1, lower: -0.5, unit: GB/s}
                  - {name: c, figure: half_rtt, transport: ofi:shm, size: 8, reps: 50, reference: 1, upper: 1, unit: us}
                  - {name: d, figure: parameter, transport: ofi:shm, parameter: o_s, sizes: 0..64, reference: 1, upper: 1, unit: us}
                  - {name: e, figure: parameter, transport: ofi:shm, parameter: g, sizes: 0..64, reference: 1, upper: 1, unit: us}
                  - {name: f, figure: parameter, transport: ofi:shm, parameter: G, sizes: 0..64, reference: 1, upper: 1, unit: ps/B}
                  - {name: g, figure: collective_t0, transport: mpi:openmpi/ob1:vader, operation: bcast, procs: 2, reference: 1, upper: 1, unit: us}
                  - {name: h, figure: collective_t0, transport: mpi:openmpi/ob1:vader, operation: barrier, procs: 4, reference: 1, upper: 1, unit: us}
                """);
        List<Plan.Measurement> plan = Plan.of(spec);
        assertEquals(4, plan.size(), plan::toString);
        assertEquals(List.of("pingpong", "-t", "ofi:shm", "-s", "8,1048576", "-n", "1000", "--timeout", "3s", "--json", "-", "--quiet"),
                plan.get(0).args());
        assertEquals(List.of("a", "b"), plan.get(0).checks().stream().map(Check::name).toList());
        assertEquals(List.of("c"), plan.get(1).checks().stream().map(Check::name).toList()); // other reps: another run
        assertEquals(List.of("d", "e", "f"), plan.get(2).checks().stream().map(Check::name).toList());
        assertEquals(List.of("collectives", "-t", "mpi:openmpi/ob1:vader", "--procs", "2,4", "--ops", "barrier,bcast",
                "--json", "-", "--quiet"), plan.get(3).args());
    }

    @Test
    void oneSidedFiguresRunTheirOpAndShareRunsOnlyWithTheSameOp() throws Exception {
        Spec spec = read("""
                system: s
                checks:
                  - {name: a, figure: half_rtt, transport: ofi:shm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: b, figure: write_latency, transport: ofi:shm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: c, figure: write_latency, transport: ofi:shm, size: 4K, reference: 1, upper: 1, unit: us}
                  - {name: d, figure: read_latency, transport: ofi:shm, size: 8, reference: 1, upper: 1, unit: us}
                  - {name: e, figure: atomic_latency, transport: ofi:shm, reference: 1, upper: 1, unit: us}
                  - {name: f, figure: atomic_latency, transport: ofi:shm, op: cswap, reference: 1, upper: 1, unit: us}
                  - {name: g, figure: write_bandwidth, transport: ofi:shm, size: 1M, reference: 1, lower: -0.5, unit: GB/s}
                  - {name: h, figure: registration, transport: ofi:shm, size: 1M, reference: 1, upper: 1, unit: us}
                  - {name: i, figure: registration, transport: ofi:shm, size: 4K, pages: reused, reference: 1, upper: 1, unit: us}
                """);
        List<Plan.Measurement> plan = Plan.of(spec);
        assertEquals(7, plan.size(), plan::toString);
        assertEquals(List.of("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "1000", "--json", "-", "--quiet"), plan.get(0).args());
        assertEquals(List.of("pingpong", "-t", "ofi:shm", "-s", "8,4096", "-n", "1000", "--op", "write", "--json", "-", "--quiet"),
                plan.get(1).args());
        assertEquals(List.of("b", "c"), plan.get(1).checks().stream().map(Check::name).toList());
        assertTrue(plan.get(2).commandLine().contains("--op read"), plan.get(2)::commandLine);
        assertEquals(List.of("pingpong", "-t", "ofi:shm", "-s", "8", "-n", "1000", "--op", "fetch-add", "--json", "-", "--quiet"),
                plan.get(3).args());
        assertTrue(plan.get(4).commandLine().contains("--op cswap"), plan.get(4)::commandLine);
        assertTrue(plan.get(5).commandLine().startsWith("bandwidth -t ofi:shm -s 1048576 -w 64 -n 100 --op write"), plan.get(5)::commandLine);
        assertEquals(List.of("register", "-t", "ofi:shm", "-s", "4096,1048576", "-n", "10", "--json", "-"), plan.get(6).args());
        assertEquals(List.of("h", "i"), plan.get(6).checks().stream().map(Check::name).toList());

        SpecException e = assertThrows(SpecException.class, () -> read("""
                system: s
                checks:
                  - {name: a, figure: registration, transport: 'sim:L=1us', size: 8, reference: 1, upper: 1, unit: us}
                """));
        assertTrue(e.getMessage().contains("registration is measured on ofi: or ucx:"), e.getMessage());
        e = assertThrows(SpecException.class, () -> read("""
                system: s
                checks:
                  - {name: a, figure: atomic_latency, transport: ofi:shm, op: swap, reference: 1, upper: 1, unit: us}
                """));
        assertTrue(e.getMessage().contains("op: fetch-add or cswap, not 'swap'"), e.getMessage());
    }

    @Test
    void matrixChecksOnOneSettingShareOneMatrixRun() throws Exception {
        Spec spec = read("""
                system: s
                timeout: 20s
                checks:
                  - {name: a, figure: matrix_outliers, transport: ofi:shm, procs: 4, reference: 0, lower: ~, upper: 0, unit: count}
                  - {name: b, figure: matrix_worst_ratio, transport: ofi:shm, procs: 4, of: half_rtt, reference: 1, lower: ~, upper: 1, unit: ratio}
                  - {name: c, figure: matrix_worst_ratio, transport: ofi:shm, procs: 4, of: bandwidth, size: 64K, mode: parallel, reference: 1, lower: ~, upper: 1, unit: ratio}
                """);
        List<Plan.Measurement> plan = Plan.of(spec);
        assertEquals(2, plan.size(), plan::toString);
        assertEquals(List.of("a", "b"), plan.get(0).checks().stream().map(Check::name).toList());
        assertEquals(List.of("matrix", "-t", "ofi:shm", "--ranks", "4", "--mode", "serial", "--timeout", "20s", "--json", "-"),
                plan.get(0).args());
        assertEquals(List.of("matrix", "-t", "ofi:shm", "--ranks", "4", "--mode", "parallel", "--bandwidth-size", "64K",
                "--timeout", "20s", "--json", "-"), plan.get(1).args());
    }

    @Test
    void peerIsForRawTransports() throws Exception {
        Spec spec = read("""
                system: s
                peer: hostb:7470
                secret_file: /etc/fabprobe-secret
                checks:
                  - {name: a, figure: half_rtt, transport: ucx:rc, size: 8, reference: 1, upper: 1, unit: us}
                """);
        assertTrue(String.join(" ", Plan.of(spec).getFirst().args()).contains("--peer hostb:7470 --secret-file /etc/fabprobe-secret"));
        SpecException e = assertThrows(SpecException.class, () -> read("""
                system: s
                peer: hostb
                checks:
                  - {name: a, figure: half_rtt, transport: 'sim:L=1us', size: 8, reference: 1, upper: 1, unit: us}
                """));
        assertTrue(e.getMessage().contains(":4:44: peer: "), e.getMessage());
    }

    @Test
    void aDirectoryOrAMissingFileIsRefusedInOneLine() {
        SpecException directory = assertThrows(SpecException.class, () -> SpecReader.read(dir));
        assertEquals(dir + ": is a directory", directory.getMessage());
        assertEquals(ExitCode.USAGE, directory.exitCode());
        SpecException missing = assertThrows(SpecException.class, () -> SpecReader.read(dir.resolve("absent.yaml")));
        assertTrue(missing.getMessage().endsWith(": no such spec file"), missing.getMessage());
    }

    private Spec read(String text) throws Exception {
        Path f = dir.resolve("spec.yaml");
        Files.writeString(f, text);
        return SpecReader.read(f);
    }
}
