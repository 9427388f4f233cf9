package org.fabprobe.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.fabprobe.launch.LocalLauncher;
import org.fabprobe.result.BandwidthDocument;
import org.fabprobe.result.CollectivesDocument;
import org.fabprobe.result.CompareDocument;
import org.fabprobe.result.LogGPDocument;
import org.fabprobe.result.MatrixDocument;
import org.fabprobe.result.MultiPairDocument;
import org.fabprobe.result.PLogPDocument;
import org.fabprobe.result.PingPongDocument;
import org.fabprobe.result.ResultJson;
import org.fabprobe.result.SignatureDocument;

/**
 * Where a measuring command's typed document goes. By default the command renders it (table,
 * --json, --csv, --plot). Inside a rank that {@link LocalLauncher} started for a reply, rank 0
 * sends it to the launching process instead; inside {@link #measure}, it goes to the caller in
 * this process (compare and accept measure this way): no stdout capture, no JSON round trip.
 */
final class Delivery {
    /** The document type of each measuring command, for a reply that arrives as JSON. */
    private static final Map<String, Class<?>> DOCUMENTS = Map.of("pingpong", PingPongDocument.class,
            "bandwidth", BandwidthDocument.class, "loggp", LogGPDocument.class, "plogp", PLogPDocument.class,
            "signature", SignatureDocument.class, "compare", CompareDocument.class, "collectives", CollectivesDocument.class,
            "multipair", MultiPairDocument.class, "matrix", MatrixDocument.class);

    /** Open {@link #measure} calls, innermost first (compare inside accept measures inside a measurement). */
    private static final ThreadLocal<Deque<Slot>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);

    private Delivery() {}

    /** What a command line measured in this process: its exit code, its document (null on failure) and its error line. */
    record Measured(int exitCode, Object document, String error) {}

    /** Where one open {@link #measure} call receives the document and the error line. */
    private static final class Slot {
        Object document;
        String error;
    }

    /** Runs a measuring command line in this process, as it runs on its own, and returns its document. */
    static Measured measure(List<String> args) {
        Slot slot = new Slot();
        OPEN.get().push(slot);
        int code;
        try {
            code = Main.run(args.toArray(String[]::new));
        } finally {
            OPEN.get().pop();
        }
        return new Measured(code, code == 0 ? slot.document : null, slot.error);
    }

    /** True when a caller in this process waits for a document (then a local MPI launch must reply, not print). */
    static boolean measuring() {
        return !OPEN.get().isEmpty();
    }

    /**
     * Hands {@code document} to whoever waits for it: the caller of {@link #measure}, or the
     * launching process. False when nobody does: the command renders it itself.
     */
    static boolean handOver(Object document) {
        Slot slot = OPEN.get().peek();
        if (slot != null) {
            slot.document = document;
            return true;
        }
        if (LocalLauncher.replyWanted()) {
            LocalLauncher.reply(ResultJson.write(document));
            return true;
        }
        return false;
    }

    /** The error line a failing run printed, for the caller of {@link #measure}. */
    static void noteError(String message) {
        Slot slot = OPEN.get().peek();
        if (slot != null) slot.error = message;
    }

    /** A reply of the ranks that ran {@code command}, typed. */
    static Object read(String command, String json) {
        Class<?> type = DOCUMENTS.get(command);
        if (type == null) throw new IllegalArgumentException("no document for " + command);
        return ResultJson.read(json, type);
    }
}
