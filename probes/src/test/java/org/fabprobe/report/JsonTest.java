package org.fabprobe.report;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void escapesStringsSoTheyReadBackUnchanged() {
        String tricky = "quote \" backslash \\ newline \n tab \t return \r bell \u0007 nul \u0000 µs ∞ 日本";
        String s = Json.write(Json.object("text", tricky));
        assertTrue(s.contains("\\\" backslash \\\\ newline \\n tab \\t return \\r bell \\u0007 nul \\u0000 µs ∞"), s);
        assertEquals(Map.of("text", tricky), JsonReader.parse(s));
    }

    @Test
    void nonFiniteNumbersAreNull() {
        String s = Json.write(Json.object("nan", Double.NaN, "inf", Double.POSITIVE_INFINITY,
                "minus_inf", Double.NEGATIVE_INFINITY, "float_nan", Float.NaN, "array", new double[] {1.5, Double.NaN}));
        assertTrue(s.contains("\"nan\": null") && s.contains("\"inf\": null") && s.contains("\"minus_inf\": null")
                && s.contains("\"float_nan\": null") && s.contains("\"array\": [1.5, null]"), s);
        JsonReader.parse(s);
    }

    @Test
    void writesScalarsAndArrays() {
        String s = Json.write(Json.object("whole", 3.0, "half", 0.5, "tiny", 1e-9, "big", 1e20, "long", Long.MAX_VALUE,
                "list", List.of(1, 2), "ints", new int[] {4, 5}, "longs", new long[] {6}, "none", null, "yes", true,
                "no", false, "empty", List.of()));
        assertTrue(s.contains("\"whole\": 3,") && s.contains("\"half\": 0.5") && s.contains("\"long\": 9223372036854775807")
                && s.contains("\"list\": [1, 2]") && s.contains("\"ints\": [4, 5]") && s.contains("\"longs\": [6]")
                && s.contains("\"none\": null") && s.contains("\"yes\": true") && s.contains("\"empty\": []"), s);
        Map<?, ?> back = (Map<?, ?>) JsonReader.parse(s);
        assertEquals(1e-9, back.get("tiny"));
        assertEquals(1e20, back.get("big"));
        assertEquals(false, back.get("no"));
    }

    @Test
    void prettyPrintsWithTwoSpaces() {
        String s = Json.write(List.of(Json.object("a", 1, "b", Json.object("c", List.of())), Json.object()));
        assertEquals("[\n  {\n    \"a\": 1,\n    \"b\": {\n      \"c\": []\n    }\n  },\n  {}\n]\n", s);
    }

    @Test
    void unorderedMapsAreWrittenWithSortedKeys() {
        Map<String, Object> m = new HashMap<>();
        for (String k : List.of("zeta", "alpha", "mu", "beta")) m.put(k, k.length());
        assertEquals("{\n  \"alpha\": 5,\n  \"beta\": 4,\n  \"mu\": 2,\n  \"zeta\": 4\n}\n", Json.write(m));
    }

    @Test
    void oddKeyValueListIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Json.object("a", 1, "b"));
    }
}
