package org.fabprobe.launch;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The local-mode MPI relay keeps rank 0's progress line (stderr) off its table (stdout). */
class RelayTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    private final LocalLauncher.Relay relay = new LocalLauncher.Relay(new PrintStream(out, true), new PrintStream(err, true));

    @Test
    void tableTextClearsAnOpenProgressLineAndLateLinesAreDropped() {
        err("\rpingpong: round trips at 8 B  3/9  2 s elapsed  ~4 s left\033[K");
        out("size  min  median\n");
        assertEquals("\rpingpong: round trips at 8 B  3/9  2 s elapsed  ~4 s left\033[K\r\033[K", text(err));
        err("\rpingpong: round trips at 16 B  4/9  2 s elapsed  ~3 s left\033[K"); // overtaken by the table
        err("\r\033[K");
        err("fabprobe: an error line\n");
        assertEquals("\rpingpong: round trips at 8 B  3/9  2 s elapsed  ~4 s left\033[K\r\033[Kfabprobe: an error line\n", text(err));
        assertEquals("size  min  median\n", text(out));
    }

    @Test
    void aClearedLineOrOrdinaryTextNeedsNoClear() {
        err("\rplogp: g(0) by saturation  1/9  1 s elapsed  \033[K");
        err("\r\033[K");
        out("table\n");
        err("a warning\n");
        out("more\n");
        assertEquals("\rplogp: g(0) by saturation  1/9  1 s elapsed  \033[K\r\033[Ka warning\n", text(err));
        assertEquals("table\nmore\n", text(out));
    }

    private void err(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        relay.err(b, b.length);
    }

    private void out(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        relay.out(b, b.length);
    }

    private static String text(ByteArrayOutputStream s) {
        return s.toString(StandardCharsets.UTF_8);
    }
}
