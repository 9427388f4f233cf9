package org.fabprobe.api;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.fabprobe.api.Durations;
import org.fabprobe.api.SizeList;
import org.junit.jupiter.api.Test;

class SizeListTest {
    @Test
    void rangesArePowersOfTwoWithZeroWhenIncluded() {
        assertArrayEquals(new long[] {0, 1, 2, 4, 8}, SizeList.parse("0..8"));
        assertArrayEquals(new long[] {1024, 2048, 4096}, SizeList.parse("1K..4KiB"));
        assertEquals(24, SizeList.parse("0..4M").length);
    }

    @Test
    void listsAreSortedAndDeduplicated() {
        assertArrayEquals(new long[] {8, 100, 1 << 20}, SizeList.parse("1M, 8,100,8"));
    }

    @Test
    void garbageIsRefusedWithExamples() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizeList.parse("8,x"));
        assertTrue(e.getMessage().contains("examples"));
        assertThrows(IllegalArgumentException.class, () -> SizeList.parse("-8"));
        assertThrows(IllegalArgumentException.class, () -> SizeList.parse(","));
    }

    @Test
    void durations() {
        assertEquals(Duration.ofMillis(250), Durations.parse("250ms"));
        assertEquals(Duration.ofSeconds(5), Durations.parse("5s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("0s"));
    }
}
