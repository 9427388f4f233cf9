package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fabprobe.method.InMemoryRanks;
import org.fabprobe.transport.Control;
import org.fabprobe.transport.loopback.LoopbackControl;
import org.junit.jupiter.api.Test;

/**
 * The {@link Group} contract, the same checks over each implementation that runs in one JVM:
 * a pair over a TCP control channel on loopback, a pair over two threads' queues, and n ranks
 * in memory (the MPI world runs the same calls in MatrixEndToEndTest).
 */
class GroupTest {

    @Test
    void aPairOverTcpOnLoopbackKeepsTheContract() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (TcpControl measure = new TcpControl(SocketChannel.open(server.getLocalAddress()), "the mirror", 20_000);
                 TcpControl mirror = new TcpControl(server.accept(), "the measure process", 20_000)) {
                onThreads(List.of(PairGroup.over(0, measure), PairGroup.over(1, mirror)), GroupTest::contract);
            }
        }
    }

    @Test
    void aPairOverTwoThreadsKeepsTheContract() throws Exception {
        LoopbackControl.Pair ends = LoopbackControl.pair(Duration.ofSeconds(20));
        onThreads(List.of(PairGroup.over(0, ends.first()), PairGroup.over(1, ends.second())), GroupTest::contract);
    }

    @Test
    void ranksInMemoryKeepTheContract() throws Exception {
        AtomicInteger arrived = new AtomicInteger();
        var done = InMemoryRanks.run(5, (rank, g) -> {
            contract(g, arrived);
            return g;
        });
        assertEquals(5, done.size());
    }

    @Test
    void aPairNamesItsRolesAndRefusesAThirdRank() {
        LoopbackControl.Pair ends = LoopbackControl.pair(Duration.ofSeconds(1));
        PairGroup measure = PairGroup.over(0, ends.first()), mirror = PairGroup.over(1, ends.second());
        assertEquals(Group.Role.MEASURE, measure.role());
        assertEquals(Group.Role.MIRROR, mirror.role());
        assertThrows(IllegalArgumentException.class, () -> measure.control(2, 0));
        assertThrows(IllegalArgumentException.class, () -> mirror.control(1, 0));
        assertThrows(IllegalArgumentException.class, () -> PairGroup.over(2, ends.first()));
    }

    /** Runs the contract on one thread per rank, sharing one count of ranks that reached the barrier. */
    private static void onThreads(List<Group> groups, Contract body) throws Exception {
        AtomicInteger arrived = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(groups.size());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Group g : groups) futures.add(pool.submit(() -> {
                body.check(g, arrived);
                return null;
            }));
            for (Future<?> f : futures) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    private interface Contract {
        void check(Group g, AtomicInteger arrived);
    }

    /** What every rank of every group sees: its place, everyone's bytes in order, a barrier that waits, a gather to 0, a channel. */
    private static void contract(Group g, AtomicInteger arrived) {
        int n = g.size(), rank = g.rank();
        assertTrue(rank >= 0 && rank < n, "rank " + rank + " of " + n);
        assertEquals(rank == 0 ? Group.Role.MEASURE : rank == 1 ? Group.Role.MIRROR : Group.Role.IDLE, g.role());

        // addresses of different lengths (an empty one too), each rank's own at its index
        byte[] mine = ("rank-" + rank + "-" + "x".repeat(rank * 7)).getBytes(StandardCharsets.UTF_8);
        if (rank == 1) mine = new byte[0];
        byte[][] all = g.exchange(mine);
        assertEquals(n, all.length);
        for (int r = 0; r < n; r++) {
            String expected = r == 1 ? "" : "rank-" + r + "-" + "x".repeat(r * 7);
            assertEquals(expected, new String(all[r], StandardCharsets.UTF_8), "rank " + rank + " sees rank " + r);
        }

        arrived.incrementAndGet();
        g.barrier();
        assertEquals(n, arrived.get(), "rank " + rank + " left the barrier before every rank came");
        g.barrier(); // no rank counts again before all have read the count

        double[] gathered = g.gather(new double[] {rank, -rank - 0.5, Double.NaN});
        if (rank != 0) {
            assertNull(gathered);
        } else {
            assertEquals(3 * n, gathered.length);
            for (int r = 0; r < n; r++) {
                assertEquals(r, gathered[3 * r]);
                assertEquals(-r - 0.5, gathered[3 * r + 1]);
                assertTrue(Double.isNaN(gathered[3 * r + 2]));
            }
        }

        // ranks 0 and 1 talk on their channel: a number and its answer
        if (rank < 2) {
            Control c = g.control(1 - rank, 7);
            if (rank == 0) {
                c.sendAll("question", 41, 1L << 40);
                assertArrayEquals(new long[] {42}, c.receiveAll("answer", 1));
            } else {
                long[] q = c.receiveAll("question", 2);
                assertEquals(1L << 40, q[1]);
                c.send("answer", q[0] + 1);
            }
        }
        g.barrier();
    }
}
