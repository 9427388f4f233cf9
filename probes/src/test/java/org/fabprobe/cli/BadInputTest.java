package org.fabprobe.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.ExitCode;
import org.fabprobe.transport.TransportException;
import org.fabprobe.transport.TransportOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input ends with one line on stderr and a distinct exit code, never a hang. */
class BadInputTest {

    @Test
    void unknownProviderListsTheAvailableOnes() {
        CliRun run = CliRun.of("pingpong", "-t", "ofi:nosuchprovider", "-s", "8", "-n", "10");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, run.exitCode(), run::toString);
        assertTrue(run.err().contains("nosuchprovider") && run.err().contains("available:") && run.err().contains("shm"),
                run::toString);
        assertSingleLine(run);
    }

    @Test
    void unknownTransportFamilyIsRefused() {
        CliRun run = CliRun.of("pingpong", "-t", "carrier-pigeon:1", "-s", "8");
        assertEquals(ExitCode.UNKNOWN_TRANSPORT, run.exitCode(), run::toString);
        assertSingleLine(run);
    }

    @Test
    void sizeTooLargeToRegisterIsRefused() {
        CliRun run = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "64G", "-n", "10");
        assertEquals(ExitCode.UNSUPPORTED, run.exitCode(), run::toString);
        assertTrue(run.err().contains("message size"), run::toString);
        assertSingleLine(run);
    }

    @Test
    void sizeAboveMaxMsgSizeIsRefused() {
        // every provider here reports max_msg_size >= SIZE_MAX - 4 KiB, so the check is exercised directly;
        // OfiTransport calls it with fi_info's ep_attr->max_msg_size before allocating anything
        TransportException e = assertThrows(TransportException.class,
                () -> new TransportOptions(2L << 30, 1, java.time.Duration.ofSeconds(1), "").checkMessageSize("ofi:verbs", 1L << 30));
        assertEquals(ExitCode.UNSUPPORTED, e.exitCode());
        assertTrue(e.getMessage().contains("max_msg_size 1073741824"), e.getMessage());
        new TransportOptions(Long.MAX_VALUE, 1, java.time.Duration.ofSeconds(1), "").checkMessageSize("ofi:shm", -1L); // SIZE_MAX: no limit
    }

    @Test
    void blockingCallsOnlyWhereTheTransportHasThem() {
        CliRun polled = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "--calls", "blocking");
        assertEquals(ExitCode.USAGE, polled.exitCode(), polled::toString);
        assertTrue(polled.err().contains("--calls blocking needs a transport with blocking calls"), polled::toString);
        assertEquals(1, polled.err().strip().lines().count(), polled::toString);
        CliRun unknown = CliRun.of("pingpong", "-t", "ofi:shm", "-s", "8", "--calls", "sometimes");
        assertEquals(ExitCode.USAGE, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.err().contains("auto, blocking or nonblocking"), unknown::toString);
    }

    @Test
    void compareTimesSendsWritesOrReadsOnly() {
        CliRun atomic = CliRun.of("compare", "-t", "ucx:posix", "--mpi", "openmpi", "--op", "fetch-add");
        assertEquals(ExitCode.USAGE, atomic.exitCode(), atomic::toString);
        assertTrue(atomic.err().contains("pingpong --op fetch-add"), atomic::toString);
        assertSingleLine(atomic);
        CliRun blocking = CliRun.of("compare", "-t", "ucx:posix", "--mpi", "openmpi", "--op", "write", "--calls", "blocking");
        assertEquals(ExitCode.USAGE, blocking.exitCode(), blocking::toString);
        assertSingleLine(blocking);
    }

    @Test
    void malformedSizesAndDurationsAreUsageErrors() {
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "-s", "eight").exitCode());
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "-s", "1M..8").exitCode());
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "--timeout", "soon").exitCode());
        CliRun zero = CliRun.of("pingpong", "--timeout", "0s");
        assertEquals(ExitCode.USAGE, zero.exitCode(), zero::toString);
        assertTrue(zero.err().contains("--timeout: a duration must be > 0"), zero::toString);
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "--cpus", "0").exitCode());
        // a CPU this process may not use is refused before a mirror starts (the mirror used to say so, seconds later)
        int absent = java.util.Arrays.stream(org.fabprobe.runtime.CpuAffinity.allowedCpus()).max().orElseThrow() + 1;
        CliRun cpu = CliRun.of("pingpong", "-s", "8", "--cpus", "0," + absent);
        assertEquals(ExitCode.USAGE, cpu.exitCode(), cpu::toString);
        assertTrue(cpu.err().startsWith("fabprobe: --cpus: cannot pin to CPU " + absent + ": not one this process may run on"),
                cpu::toString);
        assertEquals(1, cpu.err().strip().lines().count(), cpu::toString);
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "-n", "0").exitCode());
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "-n", "2000000000").exitCode());
        assertEquals(ExitCode.USAGE, CliRun.of("pingpong", "--no-such-option").exitCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ofi:shm", "ucx:tcp", "ucx:posix,cma"})
    void mirrorKilledMidRunGivesTimeoutErrorNotHang(String transport) throws Exception {
        // a process of its own: a mirror killed holding ofi:shm's lock leaves measure spinning in
        // the provider, and its watchdog ends measure's process with _exit(5) (in-process, this
        // test JVM: CI's surefire fork once ended so)
        try (Spawned run = Spawned.start("pingpong", "-t", transport, "-s", "8", "-n", "10000000", "--warmup", "0",
                "--timeout", "1s")) {
            // the mirror that serves the session, in its timing loop: a prestarted child killed
            // before measure claimed it is replaced, and the run then ends well
            ProcessHandle mirror = TimingLoops.awaitMirror(run.process.toHandle(), run::err);
            mirror.destroyForcibly();
            CliRun result = run.await(Duration.ofSeconds(40));
            assertEquals(ExitCode.PEER_TIMEOUT, result.exitCode(), result::toString);
            // a SIGKILLed shm endpoint cannot unlink its own region: the survivor did
            assertEquals(java.util.List.of(), shmRegionsOf(mirror.pid()), "left in /dev/shm");
            // whichever notices first (a wait, a send the dead peer no longer drains, the watchdog), the mirror is named
            assertTrue(result.err().contains("mirror process"), result::toString);
            assertSingleLine(result);
        }
    }

    private static java.util.List<String> shmRegionsOf(long pid) throws java.io.IOException {
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        if (!java.nio.file.Files.isDirectory(shm)) return java.util.List.of();
        try (var regions = java.nio.file.Files.list(shm)) {
            return regions.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("fabprobe-" + pid + "-")).toList();
        }
    }

    private static void assertSingleLine(CliRun run) {
        assertEquals(1, run.err().strip().lines().count(), () -> "expected one error line:\n" + run);
        assertFalse(run.err().contains("\tat "), () -> "stack trace printed:\n" + run);
    }
}
