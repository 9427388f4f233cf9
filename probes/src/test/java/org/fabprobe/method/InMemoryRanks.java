package org.fabprobe.method;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.fabprobe.launch.Group;
import org.fabprobe.transport.Control;

/**
 * n ranks as n threads of this process, a {@link Group.Channels} between them:
 * collectives meet at a barrier, messages pass through one queue per (source, destination,
 * channel). Sums add in rank order, as a deterministic MPI_Reduce of counts would.
 */
public final class InMemoryRanks {
    private final int n;
    private final CyclicBarrier barrier;
    private final double[][] slots;
    private final byte[][] bytes;
    private final Map<String, BlockingQueue<double[]>> queues = new ConcurrentHashMap<>();

    private InMemoryRanks(int n) {
        this.n = n;
        this.barrier = new CyclicBarrier(n);
        this.slots = new double[n][];
        this.bytes = new byte[n][];
    }

    /** Runs {@code body}(rank, collectives) on n threads; returns each rank's result, in rank order. */
    public static <T> List<T> run(int n, BiFunction<Integer, Group.Channels, T> body) throws Exception {
        InMemoryRanks world = new InMemoryRanks(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                futures.add(pool.submit(() -> body.apply(rank, world.of(rank))));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) out.add(f.get(120, TimeUnit.SECONDS));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private void await() {
        try {
            barrier.await(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private BlockingQueue<double[]> queue(int source, int dest, int channel) {
        return queues.computeIfAbsent(source + ">" + dest + "#" + channel, k -> new LinkedBlockingQueue<>());
    }

    private double[] take(int source, int dest, int channel, int count) {
        try {
            double[] v = queue(source, dest, channel).poll(120, TimeUnit.SECONDS);
            if (v == null || v.length < count) throw new IllegalStateException("no message from " + source);
            return java.util.Arrays.copyOf(v, count);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private Group.Channels of(int rank) {
        return new Group.Channels() {
            public int rank() {
                return rank;
            }

            public int size() {
                return n;
            }

            public void barrier() {
                await();
            }

            public byte[][] exchange(byte[] mine) {
                bytes[rank] = mine.clone();
                await();
                byte[][] all = new byte[n][];
                for (int r = 0; r < n; r++) all[r] = bytes[r].clone();
                await();
                return all;
            }

            public Control control(int partner, int channel) {
                return new Control() {
                    public void sendAll(String name, long... values) {
                        double[] v = new double[values.length];
                        for (int i = 0; i < v.length; i++) v[i] = values[i];
                        queue(rank, partner, channel).add(v);
                    }

                    public long[] receiveAll(String name, int count) {
                        double[] v = take(partner, rank, channel, count);
                        long[] out = new long[count];
                        for (int i = 0; i < count; i++) out[i] = (long) v[i];
                        return out;
                    }
                };
            }

            public double[][] receiveFrom(int[] sources, int channel, int count) {
                double[][] out = new double[sources.length][];
                for (int i = 0; i < sources.length; i++) out[i] = receive(sources[i], channel, count);
                return out;
            }

            public double[] allreduceSum(double[] mine) {
                slots[rank] = mine.clone();
                await();
                double[] sum = new double[mine.length];
                for (double[] s : slots) for (int i = 0; i < sum.length; i++) sum[i] += s[i];
                await();
                return sum;
            }

            public double[] broadcast(double[] values) {
                if (rank == 0) slots[0] = values.clone();
                await();
                double[] out = slots[0].clone();
                await();
                return out;
            }

            public double[] gather(double[] mine) {
                slots[rank] = mine.clone();
                await();
                double[] all = null;
                if (rank == 0) {
                    all = new double[n * mine.length];
                    for (int r = 0; r < n; r++) System.arraycopy(slots[r], 0, all, r * mine.length, mine.length);
                }
                await();
                return all;
            }

            public void send(int dest, int channel, double... values) {
                queue(rank, dest, channel).add(values.clone());
            }

            public double[] receive(int source, int channel, int count) {
                return take(source, rank, channel, count);
            }

            public void sendArray(int dest, int channel, double[] values) {
                send(dest, channel, values);
            }

            public double[] receiveArray(int source, int channel, int count) {
                return receive(source, channel, count);
            }
        };
    }

    /** Every rank's result from the whole list of pairs: each pair in the rows of both its ranks; rank 0 has the round times. */
    public static List<MatrixMethod.Result> results(MatrixMethod.Settings settings, List<String> hosts, List<MatrixMethod.Pair> pairs,
                                                    double[] roundMs, double[] roundPairsMs, double[] roundSlowestMs, int addressBytes) {
        int n = hosts.size();
        MatrixMethod.Pair[][] rows = new MatrixMethod.Pair[n][n];
        for (MatrixMethod.Pair p : pairs) rows[p.a()][p.b()] = rows[p.b()][p.a()] = p;
        List<MatrixMethod.Result> out = new ArrayList<>();
        double wall = java.util.Arrays.stream(roundMs).sum();
        for (int r = 0; r < n; r++) {
            out.add(new MatrixMethod.Result(settings, r, hosts, rows[r], roundMs, roundPairsMs, roundSlowestMs, wall, addressBytes, 0));
        }
        return out;
    }

    /** The reduction of {@code results} over as many in-memory ranks: rank 0's figures. */
    public static MatrixReduction.Reduced reduce(List<MatrixMethod.Result> results, double k, double minRatio) throws Exception {
        return run(results.size(), (rank, c) -> MatrixReduction.reduce(c, results.get(rank), k, minRatio, false, null)).getFirst();
    }
}
